package breakthrough

import (
	"embed"
	"fmt"
	"math/bits"
	"math/rand/v2"

	"starlab/nn"
	"starlab/search"
	"starlab/search/game"
)

// NetGame is the game a ChanceBreakthrough net's weight file names.
const NetGame = "breakthrough"

// InputSize returns the number of inputs of the net of a w x h board: one
// per square for the mover's pieces, one per square for the opponent's,
// and the pending roll.
func InputSize(w, h int) int { return 2*w*h + 1 }

// HiddenSize returns the number of hidden units of the net of a w x h
// board: one per two squares, at least 8; 32 at 8x8, 15 at 5x6, 8 at 3x4.
// A move costs the evaluator a few weight columns of HiddenSize each and a
// leaf HiddenSize activations, so with the units in proportion to the
// squares the net's cost grows with the board as the inputs do; the floor
// keeps a small board's net from having fewer units than there are
// things to weigh for each side (material, the most advanced pieces, the
// roll).
func HiddenSize(w, h int) int { return max(8, w*h/2) }

// NetVariant returns the variant a net of w x h boards names in its weight
// file: the game's variant, "8x8" (Variant).
func NetVariant(w, h int) string { return Variant(w, h) }

// NewNet returns a net of w x h boards, with InputSize(w, h) inputs and
// HiddenSize(w, h) hidden units, its weights drawn by nn.New from rng and
// scale.
func NewNet(w, h int, rng *rand.Rand, scale float64) (*nn.Net, error) {
	if _, err := empty(w, h); err != nil {
		return nil, err
	}
	net, err := nn.New(InputSize(w, h), HiddenSize(w, h), rng, scale)
	if err != nil {
		return nil, err
	}
	net.Game, net.Variant, net.VariantKey = NetGame, NetVariant(w, h), []int{w, h}
	return net, nil
}

// NetSize returns the board size of the positions a net evaluates, after
// checking that it is a ChanceBreakthrough net laid out for them: game
// "breakthrough", a variant "<w>x<h>" of a legal board (ParseVariant), the
// variant key (w, h) and InputSize(w, h) inputs.
func NetSize(net *nn.Net) (w, h int, err error) {
	if net.Game != NetGame {
		return 0, 0, fmt.Errorf("a net for the game %q, not %q", net.Game, NetGame)
	}
	w, h, err = ParseVariant(net.Variant)
	if err != nil {
		return 0, 0, err
	}
	if len(net.VariantKey) != 2 || net.VariantKey[0] != w || net.VariantKey[1] != h {
		return 0, 0, fmt.Errorf("variant key %v, want [%d %d] for variant %q", net.VariantKey, w, h, net.Variant)
	}
	if net.In != InputSize(w, h) {
		return 0, 0, fmt.Errorf("%d inputs, want %d for %dx%d", net.In, InputSize(w, h), w, h)
	}
	return w, h, nil
}

// CheckNet reports whether net evaluates positions of w x h boards: a
// ChanceBreakthrough net (NetSize) made for that size.
func CheckNet(net *nn.Net, w, h int) error {
	netW, netH, err := NetSize(net)
	if err != nil {
		return err
	}
	if netW != w || netH != h {
		return fmt.Errorf("made for %dx%d boards, not %dx%d", netW, netH, w, h)
	}
	return nil
}

// pieceInput returns the input that a piece of owner on square sq of a
// w x h board sets, seen by side: the squares are numbered row by row
// from the side's home row (Black sees the board upside down, so that
// forward is up for both), the side's own pieces first, the opponent's
// after.
func pieceInput(w, h, side, owner, sq int) int {
	row, col := sq>>3, sq&7
	if side == Black {
		row = h - 1 - row
	}
	i := row*w + col
	if owner != side {
		i += w * h
	}
	return i
}

// pendingInput is the index of the pending roll's input.
func pendingInput(w, h int) int { return 2 * w * h }

// Features writes the input vector of b, seen from its side to move, into
// x (len InputSize(b.W(), b.H())). It is the one definition of the inputs
// of a ChanceBreakthrough net, used by play and training alike.
//
// The inputs are the side to move's pieces, one per square, then the
// opponent's, with the board turned upside down for Black, so that the
// mover always plays up the board and one net serves both sides (the
// rules are symmetric under that map with the colours swapped); and 1
// when a roll is pending (a chance node: the mover is the side that moves
// after the event). No other feature is added: a piece count is a sum of
// the square inputs, which the first layer forms with any weights it
// learns, and every row has its own inputs, so how far a side has come is
// there too. The pending input is what a network cannot form from the
// squares: without it a chance node, which training values as the
// position a roll leads to, would look like the same board after a roll
// onto an empty square, and a roll would be worth a pass.
func Features(b *Board, x []float64) {
	w, h := b.W(), b.H()
	clear(x[:InputSize(w, h)])
	stm := b.SideToMove()
	for c := range 2 {
		for p := b.pieces[c]; p != 0; p &= p - 1 {
			x[pieceInput(w, h, stm, c, bits.TrailingZeros64(p))] = 1
		}
	}
	if b.pending {
		x[pendingInput(w, h)] = 1
	}
}

// netKit is the ChanceBreakthrough network as the stages and training
// use it, by variant name (search.NetKit; the engine adds its evaluator).
var netKit = search.VariantNets[size]{
	Parse:    parseSize,
	Builtin:  func(s size) (*nn.Net, error) { return EmbeddedNet(s.w, s.h) },
	OfGame:   func(net *nn.Net) error { _, _, err := NetSize(net); return err },
	New:      func(s size, rng *rand.Rand, scale float64) (*nn.Net, error) { return NewNet(s.w, s.h, rng, scale) },
	Check:    func(net *nn.Net, s size) error { return CheckNet(net, s.w, s.h) },
	Features: func(pos game.State, x []float64) { Features(board(pos), x) },
	Rate:     func(s size) float64 { return DefaultRate(s.w, s.h) },
}.Kit()

// size is a variant as its board's width and height.
type size struct{ w, h int }

// parseSize reads a variant name (ParseVariant).
func parseSize(variant string) (size, error) {
	w, h, err := ParseVariant(variant)
	return size{w, h}, err
}

// DefaultRate is the TD learning rate of a w x h board: 10/(4w *
// HiddenSize), 0.0098 at 8x8 and 0.033 at 5x6. As for Dice's 2.5/n², the
// step a TD update makes on the output grows with the number of active
// inputs, here the pieces, most at the start (4w); each of them moves a
// weight into every hidden unit, and the hidden units grow with the board
// faster than Dice's do, so the rate is over both. The constant is
// measured: after 10,000 games of TD(0) from seed 1, staretc:depth=1
// against material at depth 1 over 400 games from 50 sampled 5x6
// positions scored 32%, 61%, 40% and 5% with rates 0.01, 0.03, 0.06 and
// 0.125 (Dice's rule), and over 200 games on 8x8 47.5%, 32.5%, 29% and
// 9.5% with rates 0.01, 0.019, 0.04 and 0.078. Other seeds kept the best
// rate: on 5x6 52% to 66% at 0.03 against 35% to 55% at 0.015 and 0.045,
// on 8x8 20% at 0.01 against 13% at 0.005 and 7.5% at 0.019.
func DefaultRate(w, h int) float64 { return 10 / float64(4*w*HiddenSize(w, h)) }

// nets holds the built-in nets, one file per board: nets/<w>x<h>.json. Each
// is a weight file from starlab train, kept as written; docs/training.md
// says how each was trained.
//
//go:embed nets/*.json
var nets embed.FS

// builtin parses and checks each built-in net once.
var builtin = nn.NewBuiltin(nets)

// EmbeddedNet returns the built-in net of a w x h board, or an error
// saying there is none. The net is shared: callers must not change it.
func EmbeddedNet(w, h int) (*nn.Net, error) {
	v := Variant(w, h)
	return builtin.Load("nets/"+v+".json", func(net *nn.Net) error { return CheckNet(net, w, h) },
		func() error {
			return fmt.Errorf("no network is built in for breakthrough %s; give net=FILE (train one with starlab train -game breakthrough -variant %s) or eval=material", v, v)
		})
}
