package breakthrough

import (
	"bytes"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"starlab/nn"
)

func randomNet(t testing.TB, w, h int, seed uint64) *nn.Net {
	t.Helper()
	net, err := NewNet(w, h, rand.New(rand.NewPCG(seed, 1)), 0.5)
	if err != nil {
		t.Fatal(err)
	}
	return net
}

func newNetEvaluator(t testing.TB, net *nn.Net) *NetEvaluator {
	t.Helper()
	ev, err := NewNetEvaluator(net)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

func TestNetTopology(t *testing.T) {
	for _, c := range []struct{ w, h, in, hidden int }{{8, 8, 129, 32}, {5, 6, 61, 15}, {4, 5, 41, 10}, {3, 4, 25, 8}} {
		if InputSize(c.w, c.h) != c.in || HiddenSize(c.w, c.h) != c.hidden {
			t.Errorf("%dx%d: %d inputs, %d hidden; want %d and %d", c.w, c.h, InputSize(c.w, c.h), HiddenSize(c.w, c.h), c.in, c.hidden)
		}
	}
}

// TestNewNet: a new net is the generic net of the board's topology, with
// nn.New's draws from the same generator, named for its game and variant;
// an illegal board is refused.
func TestNewNet(t *testing.T) {
	for _, size := range [][2]int{{8, 8}, {5, 6}, {3, 4}} {
		w, h := size[0], size[1]
		net, err := NewNet(w, h, rand.New(rand.NewPCG(1, 2)), 0.3)
		if err != nil {
			t.Fatal(err)
		}
		plain, err := nn.New(InputSize(w, h), HiddenSize(w, h), rand.New(rand.NewPCG(1, 2)), 0.3)
		if err != nil {
			t.Fatal(err)
		}
		if net.Game != "breakthrough" || net.Variant != Variant(w, h) || !slices.Equal(net.VariantKey, []int{w, h}) ||
			!slices.Equal(net.W1, plain.W1) || !slices.Equal(net.B1, plain.B1) || !slices.Equal(net.W2, plain.W2) {
			t.Errorf("%dx%d: game %q variant %q key %v; want breakthrough %s [%d %d] and nn.New's weights",
				w, h, net.Game, net.Variant, net.VariantKey, Variant(w, h), w, h)
		}
	}
	for _, size := range [][2]int{{2, 4}, {9, 8}, {5, 3}, {5, 9}} {
		if _, err := NewNet(size[0], size[1], rand.New(rand.NewPCG(1, 2)), 0.3); err == nil {
			t.Errorf("NewNet(%d, %d): no error", size[0], size[1])
		}
	}
}

// netStep is a move or an event of a random line, with what its take-back
// needs.
type netStep struct {
	x     int
	event bool
	u     Undo
}

// TestIncrementalEqualsScratch: along random lines of play on several
// board sizes (moves, rolls, the events of the rolls, and take-backs of
// either), the incremental evaluation equals Value, computed from the
// pieces alone, to 1e-12, and Value equals a full forward pass of
// Features to 1e-12, at decisions and chance nodes alike; every value is
// in [-1, 1], a clone evaluates as the original, and Value leaves the
// accumulators it does not use alone (the line goes on from them).
func TestIncrementalEqualsScratch(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, size := range [][2]int{{3, 4}, {4, 5}, {5, 6}, {8, 8}, {7, 4}} {
		w, h := size[0], size[1]
		net := randomNet(t, w, h, uint64(w*10+h))
		ev := newNetEvaluator(t, net)
		x := make([]float64, net.In)
		hid := make([]float64, net.H)
		checked := 0
		for g := range 10 {
			b, _ := New(w, h)
			ev.Reset(b)
			var line []netStep
			for ply := 0; ply < 6*w*h && !b.Over(); ply++ {
				switch {
				case len(line) > 0 && rng.IntN(3) == 0:
					s := &line[len(line)-1]
					if s.event {
						ev.Unhappen(b, s.x)
						b.UnhappenRestoring(s.x, &s.u)
					} else {
						ev.Unmake(b, s.x)
						b.UnmakeRestoring(s.x, &s.u)
					}
					line = line[:len(line)-1]
				case b.Pending():
					var evs [MaxEvents]int8
					var wt [MaxEvents]float64
					n, _ := b.Events(&evs, &wt)
					s := netStep{x: int(evs[rng.IntN(n)]), event: true}
					b.HappenSaving(s.x, &s.u)
					ev.Happen(b, s.x)
					line = append(line, s)
				default:
					var moves [MaxMoves]int16
					n := b.Moves(&moves)
					s := netStep{x: int(moves[rng.IntN(n)])}
					b.MakeSaving(s.x, &s.u)
					ev.Make(b, s.x)
					line = append(line, s)
				}
				if b.Over() {
					break
				}
				where := fmt.Sprintf("%dx%d game %d ply %d %s", w, h, g, ply, b)
				Features(b, x)
				full := net.Forward(x, hid)
				scratch := ev.Value(b)
				got := ev.Evaluate(b)
				if math.Abs(scratch-full) > 1e-12 || math.Abs(got-scratch) > 1e-12 || got < -1 || got > 1 {
					t.Fatalf("%s: incremental %.15g, Value %.15g, forward pass %.15g", where, got, scratch, full)
				}
				if c := ev.Clone(); c.Evaluate(b) != got {
					t.Fatalf("%s: a clone evaluates %.15g, the original %.15g", where, c.Evaluate(b), got)
				}
				checked++
			}
		}
		if checked < 100 {
			t.Fatalf("%dx%d: %d positions checked", w, h, checked)
		}
	}
}

// TestFeaturesDefinition: the inputs are the definition written out
// again: for White to move, a piece on row r (0 at the bottom), column c
// sets input r*w+c when White's and w*h + r*w+c when Black's; for Black to
// move the rows count from the top and Black's pieces are the first half;
// input 2*w*h is 1 at a chance node. And the position turned upside down
// with the colours and the side to move swapped has the same inputs.
func TestFeaturesDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, size := range [][2]int{{8, 8}, {5, 6}, {3, 4}} {
		w, h := size[0], size[1]
		x := make([]float64, InputSize(w, h))
		y := make([]float64, InputSize(w, h))
		for i := 0; i < 300; i++ {
			b := randomPosition(rng, w, h)
			for k := range x {
				x[k] = -1 // Features sets every input
			}
			Features(b, x)
			want := make([]float64, InputSize(w, h))
			me := b.SideToMove()
			for r := range h {
				for c := range w {
					p := b.At(r*8 + c)
					if p < 0 {
						continue
					}
					row := r
					if me == Black {
						row = h - 1 - r
					}
					ix := row*w + c
					if p != me {
						ix += w * h
					}
					want[ix] = 1
				}
			}
			if b.Pending() {
				want[2*w*h] = 1
			}
			if !slices.Equal(x, want) {
				t.Fatalf("%s: inputs %v, want %v", b, x, want)
			}
			Features(mirror(b), y)
			if !slices.Equal(x, y) {
				t.Fatalf("%s and its mirror %s: inputs differ", b, mirror(b))
			}
		}
	}
}

// randomPosition plays random moves, rolls and events from the start of a
// w x h board and returns a position that is not over, a chance node
// about one time in four.
func randomPosition(rng *rand.Rand, w, h int) *Board {
	for {
		b, _ := New(w, h)
		var u Undo
		for range rng.IntN(4 * w * h) {
			if b.Over() {
				break
			}
			if b.Pending() {
				var evs [MaxEvents]int8
				var wt [MaxEvents]float64
				n, _ := b.Events(&evs, &wt)
				b.HappenSaving(int(evs[rng.IntN(n)]), &u)
				continue
			}
			var moves [MaxMoves]int16
			n := b.Moves(&moves)
			b.MakeSaving(int(moves[rng.IntN(n)]), &u)
		}
		if !b.Over() {
			return b
		}
	}
}

// mirror returns b turned upside down with the colours swapped and the
// other side to move: the same position for the other side.
func mirror(b *Board) *Board {
	m, _ := empty(b.W(), b.H())
	for c := range 2 {
		for p := b.pieces[c]; p != 0; p &= p - 1 {
			sq := bits.TrailingZeros64(p)
			row, col := sq>>3, sq&7
			m.pieces[1-c] |= 1 << ((b.H()-1-row)*8 + col)
		}
	}
	m.stm, m.pending = 1-b.stm, b.pending
	m.key = m.computeKey()
	return m
}

// TestNetChecks: a net is a ChanceBreakthrough net for a board only when
// it names the game, a variant of a legal board as Variant writes it, the
// variant's key and the board's input count; each refusal is one line
// that says what is wrong, and the net kit's check of a net file
// (search.NetKit.OfGame) refuses it as well.
func TestNetChecks(t *testing.T) {
	good := randomNet(t, 5, 6, 1)
	if w, h, err := NetSize(good); w != 5 || h != 6 || err != nil {
		t.Fatalf("NetSize of a 5x6 net: %d, %d, %v", w, h, err)
	}
	if err := CheckNet(good, 5, 6); err != nil {
		t.Fatal(err)
	}
	narrow, err := nn.New(60, 15, rand.New(rand.NewPCG(1, 2)), 0.3)
	if err != nil {
		t.Fatal(err)
	}
	narrow.Game, narrow.Variant, narrow.VariantKey = "breakthrough", "5x6", []int{5, 6}
	for name, c := range map[string]struct {
		mod  func(*nn.Net)
		want string
	}{
		"other game":       {func(n *nn.Net) { n.Game = "dice" }, `a net for the game "dice", not "breakthrough"`},
		"not a size":       {func(n *nn.Net) { n.Variant = "large" }, `"large" is not <columns>x<rows>`},
		"dice variant":     {func(n *nn.Net) { n.Variant = "5x6-4" }, `"5x6-4" is not <columns>x<rows>`},
		"padded":           {func(n *nn.Net) { n.Variant = "05x06" }, `"05x06" is not <columns>x<rows>`},
		"illegal board":    {func(n *nn.Net) { n.Variant, n.VariantKey = "9x6", []int{9, 6} }, `"9x6": 9 columns, out of range`},
		"key of another":   {func(n *nn.Net) { n.VariantKey = []int{6, 5} }, "variant key [6 5], want [5 6]"},
		"key too long":     {func(n *nn.Net) { n.VariantKey = []int{5, 6, 1} }, "variant key [5 6 1]"},
		"other board":      {func(n *nn.Net) { n.Variant, n.VariantKey = "8x8", []int{8, 8} }, "61 inputs, want 129 for 8x8"},
		"inputs of no net": {nil, "60 inputs, want 61 for 5x6"},
	} {
		net := narrow
		if c.mod != nil {
			net = good.Clone()
			c.mod(net)
		}
		_, _, err := NetSize(net)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: NetSize error %v, want one line with %q", name, err, c.want)
			continue
		}
		if err2 := CheckNet(net, 5, 6); err2 == nil || err2.Error() != err.Error() {
			t.Errorf("%s: CheckNet error %v, want NetSize's %v", name, err2, err)
		}
		if _, err2 := NewNetEvaluator(net); err2 == nil || err2.Error() != err.Error() {
			t.Errorf("%s: NewNetEvaluator error %v, want NetSize's %v", name, err2, err)
		}
		var buf bytes.Buffer
		if err := net.Write(&buf); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "net.json")
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		loaded, err := nn.Load(path)
		if err != nil {
			t.Fatalf("%s: the generic reader refuses the file: %v", name, err)
		}
		if err := netKit.OfGame(loaded); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: the net kit's check of the file: %v, want %q", name, err, c.want)
		}
	}
	if err := CheckNet(good, 8, 8); err == nil || !strings.Contains(err.Error(), "made for 5x6 boards, not 8x8") {
		t.Errorf("a 5x6 net for 8x8: %v", err)
	}
	if err := CheckNet(good, 6, 5); err == nil || !strings.Contains(err.Error(), "not 6x5") {
		t.Errorf("a 5x6 net for 6x5: %v", err)
	}
}

// TestNetEvaluatorNoAllocs: following moves and events, evaluating and
// taking them back allocates nothing, as the search's hot loop requires.
func TestNetEvaluatorNoAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	ev := newNetEvaluator(t, randomNet(t, 8, 8, 1))
	b := mustParse(t, midgame)
	start := *b
	ev.Reset(b)
	s := 0.0
	allocs := testing.AllocsPerRun(100, func() { s += followAll(ev, b) })
	if allocs != 0 {
		t.Errorf("Make/Happen/Evaluate and their take-backs allocate %v times per run, want 0", allocs)
	}
	if *b != start {
		t.Errorf("the board changed to %s", b)
	}
	sink = s
}

// followAll makes every move of b with the evaluator following, evaluates,
// and after the roll every event, and takes each back; it returns the sum
// of the evaluations.
func followAll(ev *NetEvaluator, b *Board) float64 {
	var moves [MaxMoves]int16
	var evs [MaxEvents]int8
	var wt [MaxEvents]float64
	var u, eu Undo
	s := 0.0
	n := b.Moves(&moves)
	for _, m := range moves[:n] {
		b.MakeSaving(int(m), &u)
		ev.Make(b, int(m))
		s += ev.Evaluate(b)
		if b.Pending() {
			ne, _ := b.Events(&evs, &wt)
			for _, e := range evs[:ne] {
				b.HappenSaving(int(e), &eu)
				ev.Happen(b, int(e))
				s += ev.Evaluate(b)
				ev.Unhappen(b, int(e))
				b.UnhappenRestoring(int(e), &eu)
			}
		}
		ev.Unmake(b, int(m))
		b.UnmakeRestoring(int(m), &u)
	}
	return s
}

// BenchmarkNetFollow is followAll on an 8x8 middlegame: each move and
// event followed, evaluated and taken back.
func BenchmarkNetFollow(b *testing.B) {
	ev := newNetEvaluator(b, randomNet(b, 8, 8, 1))
	bd := mustParse(b, midgame)
	ev.Reset(bd)
	b.ReportAllocs()
	s := 0.0
	for b.Loop() {
		s += followAll(ev, bd)
	}
	sink = s
}

// BenchmarkNetValue is Value, from scratch, on an 8x8 middlegame.
func BenchmarkNetValue(b *testing.B) {
	ev := newNetEvaluator(b, randomNet(b, 8, 8, 1))
	bd := mustParse(b, midgame)
	b.ReportAllocs()
	s := 0.0
	for b.Loop() {
		s += ev.Value(bd)
	}
	sink = s
}

// TestEmbeddedNet pins the id and checksum of the built-in 8x8 net (a fit
// or collected rows name a net by its id, so a change of its bytes must
// show here), and says there is none for another board in one line.
func TestEmbeddedNet(t *testing.T) {
	const sum = "3f6da7e2755c38492d055d6a4745f7485c1730a5b2e75d55e0cd46c0b07e157c"
	net, err := EmbeddedNet(8, 8)
	if err != nil {
		t.Fatal(err)
	}
	if net.Checksum() != sum || net.ID() != sum[:12] || net.Game != NetGame || net.Variant != "8x8" {
		t.Errorf("built-in 8x8 net: checksum %s, id %s, game %q, variant %q; want %s", net.Checksum(), net.ID(), net.Game, net.Variant, sum)
	}
	if _, err := EmbeddedNet(5, 6); err == nil || !strings.Contains(err.Error(), "no network is built in for breakthrough 5x6") || strings.Contains(err.Error(), "\n") {
		t.Errorf("5x6: %v", err)
	}
}
