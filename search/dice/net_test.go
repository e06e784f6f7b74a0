package dice

import (
	"bytes"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"starlab/nn"
)

func randomNet(t testing.TB, n, m int, seed uint64) *nn.Net {
	t.Helper()
	net, err := NewNet(n, m, rand.New(rand.NewPCG(seed, 1)), 0.5)
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

// randomBoard plays k random plies from the empty board, stopping before a
// game ends; the result is before the roll.
func randomBoard(rng *rand.Rand, n, m, k int) *Board {
	for {
		b, _ := New(n, m)
		ok := true
		for i := 0; i < k; i++ {
			var lines [MaxN]int8
			nl := b.Rolls(&lines)
			b.SetRoll(int(lines[rng.IntN(nl)]))
			var moves [MaxN]int16
			nm := b.Moves(&moves)
			b.Make(int(moves[rng.IntN(nm)]))
			if b.Over() {
				ok = false
				break
			}
		}
		if ok {
			return b
		}
	}
}

func TestTopology(t *testing.T) {
	for _, c := range []struct{ n, in, h int }{{5, 62, 10}, {9, 174, 15}, {13, 350, 20}, {17, 590, 30}} {
		if InputSize(c.n) != c.in || HiddenSize(c.n) != c.h {
			t.Errorf("%dx%d: %d inputs, %d hidden; the thesis has %d and %d", c.n, c.n, InputSize(c.n), HiddenSize(c.n), c.in, c.h)
		}
	}
}

// TestNewNet: a new net is the generic net of the board's topology, with
// nn.New's draws from the same generator, named for its game and variant;
// its checksums are those new nets had before the network code was split
// from the game (training from a seed starts from the same weights); an
// illegal board is refused.
func TestNewNet(t *testing.T) {
	for _, c := range []struct {
		n, m int
		sum  string
	}{
		{5, 4, "7176085c3d40a0e647692e21d40552bd270bbc067fd18196716e77c7dbe70071"},
		{7, 5, "45ccbef9ed1a5f6122facb5dc8d4c0d1bbd3c3bb84aadc97f401b4d5526115e7"},
		{3, 3, "04948891259e03fbdeba31fe7931ad72211fadb14ffbd93b4976d56773d4f6ec"},
	} {
		net, err := NewNet(c.n, c.m, rand.New(rand.NewPCG(1, 2)), 0.3)
		if err != nil {
			t.Fatal(err)
		}
		plain, err := nn.New(InputSize(c.n), HiddenSize(c.n), rand.New(rand.NewPCG(1, 2)), 0.3)
		if err != nil {
			t.Fatal(err)
		}
		if net.Game != "dice" || net.Variant != NetVariant(c.n, c.m) || !slices.Equal(net.VariantKey, []int{c.n, c.m}) ||
			!slices.Equal(net.W1, plain.W1) || !slices.Equal(net.B1, plain.B1) || !slices.Equal(net.W2, plain.W2) || net.Checksum() != c.sum {
			t.Errorf("%dx%d/%d: game %q variant %q key %v checksum %s; want dice %s [%d %d] %s and nn.New's weights",
				c.n, c.n, c.m, net.Game, net.Variant, net.VariantKey, net.Checksum(), NetVariant(c.n, c.m), c.n, c.m, c.sum)
		}
	}
	for _, size := range [][2]int{{2, 2}, {18, 4}, {5, 6}, {5, 1}} {
		if _, err := NewNet(size[0], size[1], rand.New(rand.NewPCG(1, 2)), 0.3); err == nil {
			t.Errorf("NewNet(%d, %d): no error", size[0], size[1])
		}
	}
}

// TestIncrementalEqualsFull: after random make/unmake sequences on every
// board size, the incremental evaluator equals a full forward pass of the
// features, and stays in [-1, 1].
func TestIncrementalEqualsFull(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for n := MinN; n <= MaxN; n++ {
		m := 2 + rng.IntN(n-1)
		for _, net := range []*nn.Net{randomNet(t, n, m, uint64(n)), threatNet(t, n, m, uint64(n))} {
			incrementalEqualsFull(t, rng, net, n, m)
		}
	}
}

// wander takes one random step of a game with take-backs on b, followed
// by the evaluators: while there are moves to take back, one time in
// three the last of played, else a random roll and a random move of it.
func wander(rng *rand.Rand, b *Board, played *[]int, evs ...*NetEvaluator) {
	if k := len(*played); k > 0 && rng.IntN(3) == 0 {
		cell := (*played)[k-1]
		*played = (*played)[:k-1]
		for _, ev := range evs {
			ev.Unmake(b, cell)
		}
		b.Unmake(cell)
		b.ClearRoll()
		return
	}
	var lines [MaxN]int8
	b.SetRoll(int(lines[rng.IntN(b.Rolls(&lines))]))
	var moves [MaxN]int16
	cell := int(moves[rng.IntN(b.Moves(&moves))])
	b.Make(cell)
	for _, ev := range evs {
		ev.Make(b, cell)
	}
	*played = append(*played, cell)
}

// incrementalEqualsFull is TestIncrementalEqualsFull for one net, of
// either input set; Value, the evaluator's from-scratch value, agrees
// too.
func incrementalEqualsFull(t *testing.T, rng *rand.Rand, net *nn.Net, n, m int) {
	ev := newNetEvaluator(t, net)
	x := make([]float64, net.In)
	h := make([]float64, net.H)
	for game := 0; game < 6; game++ {
		b, _ := New(n, m)
		ev.Reset(b)
		var played []int
		for step := 0; step < 4*n*n && !b.Over(); step++ {
			wander(rng, b, &played, ev)
			if b.Over() {
				break
			}
			Features(b, x)
			want := net.Forward(x, h)
			got := ev.Evaluate(b)
			if math.Abs(got-want) > 1e-12 || got < -1 || got > 1 {
				t.Fatalf("%dx%d/%d %s: incremental %.15g, full %.15g", n, n, m, b.DPN(), got, want)
			}
			if c := ev.Clone(); c.Evaluate(b) != got {
				t.Fatalf("%dx%d/%d %s: a clone evaluates %.15g, the original %.15g", n, n, m, b.DPN(), c.Evaluate(b), got)
			}
			if v := ev.Value(b); math.Abs(v-want) > nn.KernelTolerance {
				t.Fatalf("%dx%d/%d %s (%d inputs): Value %.15g, full %.15g", n, n, m, b.DPN(), net.In, v, want)
			}
		}
	}
}

// TestNetEvaluatorLazyAndForgetful: evaluating only now and then (the
// frames computed many moves at once) agrees with a full forward pass,
// and an evaluator whose cache of values was filled from other positions
// gives bit for bit the values of a new one once both are Reset on the
// same position: a search's values depend on nothing evaluated before
// it.
func TestNetEvaluatorLazyAndForgetful(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, size := range [][3]int{{5, 4, 0}, {7, 5, 0}, {9, 9, 0}, {5, 4, 1}, {7, 5, 1}, {13, 5, 1}} {
		n, m := size[0], size[1]
		net := randomNet(t, n, m, uint64(n))
		if size[2] == 1 {
			net = threatNet(t, n, m, uint64(n))
		}
		x, h := make([]float64, net.In), make([]float64, net.H)
		used := newNetEvaluator(t, net)
		for i := 0; i < 50; i++ { // fill its cache with other positions
			b := randomBoard(rng, n, m, rng.IntN(n*n/2))
			used.Reset(b)
			used.Evaluate(b)
		}
		for game := 0; game < 20; game++ {
			b := randomBoard(rng, n, m, rng.IntN(n))
			fresh := newNetEvaluator(t, net)
			fresh.Reset(b)
			used.Reset(b)
			var played []int
			for step := 0; step < 3*n*n && !b.Over(); step++ {
				wander(rng, b, &played, fresh, used)
				if b.Over() {
					break
				}
				if rng.IntN(4) != 0 {
					continue
				}
				got, want := used.Evaluate(b), fresh.Evaluate(b)
				if got != want {
					t.Fatalf("%dx%d/%d %s: %.17g, a new evaluator's %.17g", n, n, m, b.DPN(), got, want)
				}
				Features(b, x)
				if full := net.Forward(x, h); math.Abs(got-full) > nn.KernelTolerance {
					t.Fatalf("%dx%d/%d %s: %.17g, a full pass %.17g", n, n, m, b.DPN(), got, full)
				}
			}
		}
	}
}

// TestFeaturesDefinition: the inputs are the definition written out
// again: for blue to move, cell (r, c) sets input 12+2(rn+c) when blue and
// the one after when red; for red to move the board is transposed, cell
// (r, c) sets input 12+2(cn+r) when red and the one after when blue; the
// streak features are the mover's run counts, then the opponent's, over n.
func TestFeaturesDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, size := range [][2]int{{5, 4}, {7, 5}, {9, 9}} {
		n, m := size[0], size[1]
		x := make([]float64, InputSize(n))
		for i := 0; i < 200; i++ {
			b := randomBoard(rng, n, m, rng.IntN(n*n/2))
			for k := range x {
				x[k] = -1 // Features sets every input
			}
			Features(b, x)
			want := make([]float64, InputSize(n))
			me := b.SideToMove()
			for k := 2; k < m && k <= 7; k++ {
				want[k-2] = float64(b.Streaks(me, k)) * (1 / float64(n))
				want[6+k-2] = float64(b.Streaks(me.Other(), k)) * (1 / float64(n))
			}
			for r := 0; r < n; r++ {
				for c := 0; c < n; c++ {
					p := b.At(r*n + c)
					if p == Empty {
						continue
					}
					ix := 12 + 2*(r*n+c)
					if me == Red {
						ix = 12 + 2*(c*n+r)
					}
					if Color(p-1) != me {
						ix++
					}
					want[ix] = 1
				}
			}
			for k := range x {
				if x[k] != want[k] {
					t.Fatalf("%s: input %d is %v, want %v", b.DPN(), k, x[k], want[k])
				}
			}
		}
	}
}

// TestNetChecks: a net is a Dice net for a board only when it names the
// game, a well-formed variant of a legal board, the variant's key and the
// board's input count; each refusal is one line that says what is wrong,
// and the net kit's check of a net file
// (search.NetKit.OfGame) refuses it as well.
func TestNetChecks(t *testing.T) {
	good := randomNet(t, 5, 4, 1)
	if n, m, err := NetSize(good); n != 5 || m != 4 || err != nil {
		t.Fatalf("NetSize of a 5x5/4 net: %d, %d, %v", n, m, err)
	}
	if err := CheckNet(good, 5, 4); err != nil {
		t.Fatal(err)
	}
	narrow, err := nn.New(61, 10, rand.New(rand.NewPCG(1, 2)), 0.3)
	if err != nil {
		t.Fatal(err)
	}
	narrow.Game, narrow.Variant, narrow.VariantKey = "dice", "5x5-4", []int{5, 4}
	for name, c := range map[string]struct {
		mod  func(*nn.Net)
		want string
	}{
		"other game":       {func(n *nn.Net) { n.Game = "breakthrough" }, `"breakthrough"`},
		"not a size":       {func(n *nn.Net) { n.Variant = "large" }, `"large": want <n>x<n>-<m>`},
		"not square":       {func(n *nn.Net) { n.Variant = "5x6-4" }, `"5x6-4"`},
		"padded":           {func(n *nn.Net) { n.Variant = "05x05-4" }, `"05x05-4"`},
		"no win length":    {func(n *nn.Net) { n.Variant = "5x5" }, `"5x5"`},
		"illegal board":    {func(n *nn.Net) { n.Variant, n.VariantKey = "2x2-2", []int{2, 2} }, `"2x2-2"`},
		"key of another":   {func(n *nn.Net) { n.VariantKey = []int{5, 3} }, "variant key [5 3]"},
		"key too long":     {func(n *nn.Net) { n.VariantKey = []int{5, 4, 1} }, "variant key [5 4 1]"},
		"other board":      {func(n *nn.Net) { n.Variant, n.VariantKey = "7x7-5", []int{7, 5} }, "62 inputs, want 110 for 7x7"},
		"inputs of no net": {nil, "61 inputs, want 62 for 5x5"},
	} {
		net := narrow
		if c.mod != nil {
			net = good.Clone()
			c.mod(net)
		}
		_, _, err := NetSize(net)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: NetSize error %v, want one line with %q", name, err, c.want)
		}
		if err2 := CheckNet(net, 5, 4); err2 == nil || err2.Error() != err.Error() {
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
	// A Dice net has one value: the kit refuses outputs of probabilities.
	outcomes := good.Clone()
	if err := outcomes.NewHead([]float64{-1, 2, 0}, rand.New(rand.NewPCG(3, 4)), 0.1); err != nil {
		t.Fatal(err)
	}
	if err := netKit.Check(outcomes, "5x5-4"); err == nil || !strings.Contains(err.Error(), "outputs of probabilities") {
		t.Errorf("a Dice net with outputs of probabilities: %v", err)
	}
	if err := CheckNet(good, 7, 5); err == nil || !strings.Contains(err.Error(), "5x5 boards with win length 4, not 7x7/5") {
		t.Errorf("a 5x5/4 net for 7x7/5: %v", err)
	}
	if err := CheckNet(good, 5, 3); err == nil || !strings.Contains(err.Error(), "not 5x5/3") {
		t.Errorf("a 5x5/4 net for 5x5/3: %v", err)
	}
}

// TestNetEvaluatorNoAllocs: following a move and evaluating allocates
// nothing, as the search's hot loop requires.
func TestNetEvaluatorNoAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	net := randomNet(t, 9, 6, 1)
	ev := newNetEvaluator(t, net)
	b := randomBoard(rand.New(rand.NewPCG(1, 2)), 9, 6, 20)
	ev.Reset(b)
	var lines [MaxN]int8
	b.SetRoll(int(lines[b.Rolls(&lines)-1]))
	var moves [MaxN]int16
	nm := b.Moves(&moves)
	s := 0.0
	allocs := testing.AllocsPerRun(200, func() {
		for _, c := range moves[:nm] {
			b.Make(int(c))
			ev.Make(b, int(c))
			s += ev.Evaluate(b)
			ev.Unmake(b, int(c))
			b.Unmake(int(c))
		}
	})
	if allocs != 0 {
		t.Errorf("Make/Evaluate/Unmake allocate %v times per run, want 0", allocs)
	}
	sink = s
}

func BenchmarkEvaluate(b *testing.B) {
	net := randomNet(b, 5, 4, 1)
	ev := newNetEvaluator(b, net)
	rng := rand.New(rand.NewPCG(1, 2))
	boards := make([]*Board, 64)
	for i := range boards {
		boards[i] = randomBoard(rng, 5, 4, 4+rng.IntN(10))
	}
	b.ReportAllocs()
	s := 0.0
	for i := 0; b.Loop(); i++ {
		bd := boards[i%len(boards)]
		ev.Reset(bd)
		s += ev.Evaluate(bd)
	}
	sink = s
}

var sink float64

// BenchmarkLeafIncremental and BenchmarkLeafFull price a search leaf: one
// move made and taken back around an evaluation, with the accumulators
// kept in step, against recomputing the first layer at the leaf.
func BenchmarkLeafIncremental(b *testing.B) { benchLeaf(b, true) }

func BenchmarkLeafFull(b *testing.B) { benchLeaf(b, false) }

func benchLeaf(b *testing.B, incremental bool) {
	net := randomNet(b, 5, 4, 1)
	rng := rand.New(rand.NewPCG(1, 2))
	boards := make([]*Board, 64)
	evs := make([]*NetEvaluator, len(boards)) // one per board, in step with it
	for i := range boards {
		boards[i] = randomBoard(rng, 5, 4, 4+rng.IntN(10))
		var lines [MaxN]int8
		boards[i].SetRoll(int(lines[rng.IntN(boards[i].Rolls(&lines))]))
		evs[i] = newNetEvaluator(b, net)
		evs[i].Reset(boards[i])
	}
	b.ReportAllocs()
	s := 0.0
	for i := 0; b.Loop(); i++ {
		bd, ev := boards[i%len(boards)], evs[i%len(boards)]
		var moves [MaxN]int16
		cell := int(moves[i%bd.Moves(&moves)])
		bd.Make(cell)
		if incremental {
			ev.Make(bd, cell)
			s += ev.Evaluate(bd)
			ev.Unmake(bd, cell)
		} else {
			s += ev.Value(bd)
		}
		bd.Unmake(cell)
	}
	sink = s
}

// TestEmbedded: the built-in nets load, pass their checks, have the
// topology of their board and say how they were made; sizes without a net
// are refused in one line.
func TestEmbedded(t *testing.T) {
	net, err := EmbeddedNet(5, 4)
	if err != nil {
		t.Fatal(err)
	}
	if n, m, err := NetSize(net); n != 5 || m != 4 || err != nil || net.Meta.Games < 300000 {
		t.Fatalf("built-in 5x5/4 net: %dx%d/%d (%v), %d games", n, n, m, err, net.Meta.Games)
	}
	if _, err := EmbeddedNet(6, 4); err == nil || !strings.Contains(err.Error(), "no network is built in for 6x6 boards with win length 4") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("6x6/4: %v", err)
	}
	for _, size := range [][2]int{{5, 4}, {7, 5}, {9, 6}, {11, 8}} {
		net, err := EmbeddedNet(size[0], size[1])
		if err != nil {
			t.Fatal(err)
		}
		in := InputSize(size[0])
		if size[0] == 5 {
			in += ThreatInputs // 5x5/4's is a net of the input set "threats"
		}
		if net.In != in || net.H != HiddenSize(size[0]) || net.Meta.Games < 50000 {
			t.Fatalf("built-in %dx%d/%d net: %d inputs, %d hidden, %d games", size[0], size[0], size[1], net.In, net.H, net.Meta.Games)
		}
		b, _ := New(size[0], size[1])
		ev := newNetEvaluator(t, net)
		ev.Reset(b)
		if v := ev.Evaluate(b); v < -1 || v > 1 {
			t.Fatalf("value of the empty %dx%d board %v", size[0], size[0], v)
		}
	}
}

// TestEmbeddedIDs pins the ids and checksums of the built-in nets: the
// built-in ChanceProbCut fits (fits/) and collected rows name a net
// by its id, so a change of the hash or of a net's bytes must show here.
// The files are version 1 (5x5/4's version 2) and read as Dice nets of
// their variant.
func TestEmbeddedIDs(t *testing.T) {
	for _, c := range []struct {
		n, m int
		sum  string
	}{
		{5, 4, "e672372799c8c9b98b8046eb286bf70d2635e6b4bd670200a8a0b0250c9b2f0c"},
		{7, 5, "40075d4baab4d7ecaa315b507f0886a69145275be1dba3465de7a661a32dced2"},
		{9, 6, "a3db9bd7bf71f275078997e248c029102992b0149af5b1e489c3ebb7e344bddd"},
		{11, 8, "dae0bf6344919f4e07b801f370be019b62330bd43678ee8ee90ab8f30242b0f9"},
	} {
		net, err := EmbeddedNet(c.n, c.m)
		if err != nil {
			t.Fatal(err)
		}
		if net.Checksum() != c.sum || net.ID() != c.sum[:12] {
			t.Errorf("built-in %dx%d/%d net: checksum %s, id %s; want %s", c.n, c.n, c.m, net.Checksum(), net.ID(), c.sum)
		}
		if net.Game != "dice" || net.Variant != NetVariant(c.n, c.m) {
			t.Errorf("built-in %dx%d/%d net: game %q variant %q", c.n, c.n, c.m, net.Game, net.Variant)
		}
	}
}
