package dice

import (
	"embed"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"starlab/nn"
	"starlab/search"
	"starlab/search/game"
)

// NetGame is the game a Dice net's weight file names.
const NetGame = "dice"

// StreakInputs is the number of streak features that open every input
// vector of a Dice net: runs of length 2 to 7 of the side to move, then of
// its opponent (Veness 2006, section 4.2.3). Lengths at or above the win
// length are unused and stay zero.
const StreakInputs = 12

// maxStreak is the longest run length with a feature.
const maxStreak = 7

// InputSize returns the number of inputs of the net of an n x n board: the
// streak features and two per cell (mine, theirs), 62 at 5x5 as in the
// thesis's figure 4.4.
func InputSize(n int) int { return StreakInputs + 2*n*n }

// ThreatInputs is the number of threat features a net of the input set
// "threats" reads after the inputs of InputSize: for the side to move,
// then its opponent, the share of its rolls that offer it a winning cell
// (its lines holding one, over its lines with an empty cell), the share
// holding two or more (one checker cannot block them), and the number of
// its winning cells times 1/n (Board.Threats). A winning cell is a
// conjunction of m-1 checkers and an empty cell, which one hidden layer of
// the cells' inputs judges poorly: they are the immediate wins and losses
// a search of two moves sees.
const ThreatInputs = 6

// InputSets are the input sets a Dice net can have: "" (InputSize, the
// thesis's), and "threats" (InputSize and the ThreatInputs after them).
var InputSets = []string{"", "threats"}

// SetInputs returns the number of inputs of the nets of n x n boards with
// the input set named set, or an error naming the sets there are.
func SetInputs(n int, set string) (int, error) {
	switch set {
	case "":
		return InputSize(n), nil
	case "threats":
		return InputSize(n) + ThreatInputs, nil
	}
	return 0, fmt.Errorf("no input set %q in dice: want threats, or none for the thesis's inputs", set)
}

// threatFeatures writes b's threat features, seen from its side to move,
// into t.
func threatFeatures(b *Board, t *[ThreatInputs]float64) {
	threatInputs(b, b.BothThreats(), t)
}

// threatInputs writes the threat features of b from its threats, both
// colours' {lines, doubles, cells} (Board.BothThreats).
func threatInputs(b *Board, both [2][3]int, t *[ThreatInputs]float64) {
	stm := b.SideToMove()
	inv := 1 / float64(b.N())
	for i, c := range [2]Color{stm, stm.Other()} {
		th := &both[c]
		t[3*i], t[3*i+1] = 0, 0
		if r := b.Lines(c); r > 0 {
			t[3*i] = float64(th[0]) / float64(r)
			t[3*i+1] = float64(th[1]) / float64(r)
		}
		t[3*i+2] = float64(th[2]) * inv
	}
}

// HiddenSize returns the number of hidden units of the net of an n x n
// board: the thesis's figure 4.4 (10 at 5x5, 15 at 9x9, 20 at 13x13, 30 at
// 17x17) and, between and below its sizes, the rule that reproduces it: 10
// up to 5x5, then 1.25 more per unit of side up to 13x13 and 2.5 more per
// unit from there, rounded half up.
func HiddenSize(n int) int {
	switch {
	case n <= 5:
		return 10
	case n <= 13:
		return int(math.Floor(10 + 1.25*float64(n-5) + 0.5))
	default:
		return 20 + int(math.Floor(2.5*float64(n-13)+0.5))
	}
}

// NetVariant returns the variant a net of n x n boards with win length m
// names in its weight file: "5x5-4".
func NetVariant(n, m int) string { return fmt.Sprintf("%dx%d-%d", n, n, m) }

// NewNet returns a net of n x n boards with win length m, InputSize(n)
// inputs and HiddenSize(n) hidden units, its weights drawn by nn.New from
// rng and scale.
func NewNet(n, m int, rng *rand.Rand, scale float64) (*nn.Net, error) {
	if _, err := New(n, m); err != nil {
		return nil, err
	}
	net, err := nn.New(InputSize(n), HiddenSize(n), rng, scale)
	if err != nil {
		return nil, err
	}
	net.Game, net.Variant, net.VariantKey = NetGame, NetVariant(n, m), []int{n, m}
	return net, nil
}

// NetSize returns the board side and win length of the positions a net
// evaluates, after checking that it is a Dice net laid out for them: game
// "dice", a variant "<n>x<n>-<m>" of a legal board, the variant key (n, m)
// and InputSize(n) inputs, or as many and the ThreatInputs.
func NetSize(net *nn.Net) (n, m int, err error) {
	if net.Game != NetGame {
		return 0, 0, fmt.Errorf("a net for the game %q, not %q", net.Game, NetGame)
	}
	n, m, ok := parseVariant(net.Variant)
	if !ok {
		return 0, 0, fmt.Errorf("variant %q: want <n>x<n>-<m>, as 5x5-4", net.Variant)
	}
	if _, err := New(n, m); err != nil {
		return 0, 0, fmt.Errorf("variant %q: %v", net.Variant, err)
	}
	if len(net.VariantKey) != 2 || net.VariantKey[0] != n || net.VariantKey[1] != m {
		return 0, 0, fmt.Errorf("variant key %v, want [%d %d] for variant %q", net.VariantKey, n, m, net.Variant)
	}
	if net.In != InputSize(n) && net.In != InputSize(n)+ThreatInputs {
		return 0, 0, fmt.Errorf("%d inputs, want %d for %dx%d (or %d with the threat inputs)", net.In, InputSize(n), n, n, InputSize(n)+ThreatInputs)
	}
	return n, m, nil
}

// parseVariant reads "<n>x<n>-<m>", the form NetVariant writes.
func parseVariant(v string) (n, m int, ok bool) {
	board, wins, ok := strings.Cut(v, "-")
	if !ok {
		return 0, 0, false
	}
	side, side2, ok := strings.Cut(board, "x")
	if !ok || side != side2 {
		return 0, 0, false
	}
	n, err1 := strconv.Atoi(side)
	m, err2 := strconv.Atoi(wins)
	if err1 != nil || err2 != nil || NetVariant(n, m) != v {
		return 0, 0, false
	}
	return n, m, true
}

// CheckNet reports whether net evaluates positions of n x n boards with
// win length m: a Dice net (NetSize) made for that board.
func CheckNet(net *nn.Net, n, m int) error {
	netN, netM, err := NetSize(net)
	if err != nil {
		return err
	}
	if netN != n || netM != m {
		return fmt.Errorf("made for %dx%d boards with win length %d, not %dx%d/%d", netN, netN, netM, n, n, m)
	}
	return nil
}

// cellInput returns the input that a checker of colour owner on cell of
// an n x n board sets, seen by side: side's own checkers are "mine" (the
// first of the cell's two inputs), the opponent's "theirs"; red sees the
// board transposed.
func cellInput(n int, side, owner Color, cell int) int {
	i := StreakInputs + 2*cell
	if side == Red {
		i = StreakInputs + 2*(cell%n*n+cell/n)
	}
	if owner != side {
		i++
	}
	return i
}

// Features writes the input vector of b, seen from its side to move, into
// x (len InputSize(b.N()), or that and ThreatInputs for a net of the
// input set "threats", whose threat features it then writes after the
// others). It is the one definition of the inputs of a Dice net, used by
// play and training alike.
//
// The position is mapped to one where the side to move is blue, the row
// player: for red to move the board is transposed and the colours swapped.
// Dice's rules are symmetric under that map (rows and columns trade
// places, both diagonals map to themselves, the column player becomes the
// row player), so one net serves both sides and every input means the same
// thing for either.
func Features(b *Board, x []float64) {
	n := b.N()
	clear(x[:InputSize(n)])
	stm := b.SideToMove()
	// The streak features: the count of runs of each length 2..7 shorter
	// than m, times 1/n (a 5x5 board has at most a handful of runs of a
	// length).
	inv := 1 / float64(n)
	for k := 2; k <= maxStreak && k < b.M(); k++ {
		x[k-2] = float64(b.Streaks(stm, k)) * inv
		x[6+k-2] = float64(b.Streaks(stm.Other(), k)) * inv
	}
	for cell := 0; cell < n*n; cell++ {
		switch b.At(cell) {
		case BlueCell:
			x[cellInput(n, stm, Blue, cell)] = 1
		case RedCell:
			x[cellInput(n, stm, Red, cell)] = 1
		}
	}
	if len(x) >= InputSize(n)+ThreatInputs {
		var t [ThreatInputs]float64
		threatFeatures(b, &t)
		copy(x[InputSize(n):], t[:])
	}
}

// netKit is the Dice network as the stages and training use it, by
// variant name (search.NetKit; the engine adds its evaluator).
var netKit = search.VariantNets[size]{
	Parse:    parseSize,
	Builtin:  func(s size) (*nn.Net, error) { return EmbeddedNet(s.n, s.m) },
	OfGame:   func(net *nn.Net) error { _, _, err := NetSize(net); return err },
	New:      func(s size, rng *rand.Rand, scale float64) (*nn.Net, error) { return NewNet(s.n, s.m, rng, scale) },
	Check:    func(net *nn.Net, s size) error { return CheckNet(net, s.n, s.m) },
	Features: func(pos game.State, x []float64) { Features(board(pos), x) },
	Rate:     func(s size) float64 { return DefaultRate(s.n) },
	Inputs:   func(s size, set string) (int, error) { return SetInputs(s.n, set) },
}.Kit()

// size is a variant as its parts: the board size n and the win length m.
type size struct{ n, m int }

// parseSize reads a variant name (ParseVariant).
func parseSize(variant string) (size, error) {
	n, m, err := ParseVariant(variant)
	return size{n, m}, err
}

// DefaultRate is the TD learning rate of an n x n board: 2.5/n^2, 0.1 at
// 5x5. Every checker on the board is an active input, so the step a TD
// update makes on the output grows with the number of cells; at 11x11
// rate 0.1 oscillates (mean |TD error| 0.063 against 0.018 with rate 0.03
// after 40,000 games, and 54.1% against 59.7% over pairs).
func DefaultRate(n int) float64 { return 2.5 / float64(n*n) }

// chanceNode returns the chance node before a decision: the roll taken
// back (search.Description.ChanceNode).
func chanceNode(pos game.State) (game.State, bool) {
	b := *board(pos)
	if b.Kind() != game.Decision {
		return nil, false
	}
	b.ClearRoll()
	return &b, true
}

// nets holds the built-in nets, one file per board: nets/<n>x<n>-<m>.json.
// Each is a weight file from starlab train, kept as written (version 1,
// 5x5/4's version 2); docs/training.md says how each was trained.
//
//go:embed nets/*.json
var nets embed.FS

// builtin parses and checks each built-in net once.
var builtin = nn.NewBuiltin(nets)

// EmbeddedNet returns the built-in net of an n x n board with win length
// m, or an error saying there is none. The net is shared: callers must not
// change it.
func EmbeddedNet(n, m int) (*nn.Net, error) {
	return builtin.Load(fmt.Sprintf("nets/%dx%d-%d.json", n, n, m), func(net *nn.Net) error { return CheckNet(net, n, m) },
		func() error {
			return fmt.Errorf("no network is built in for %dx%d boards with win length %d; give net=FILE (train one with starlab train -n %d -m %d) or eval=pairs", n, n, m, n, m)
		})
}
