package nn

import (
	"bytes"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"starlab/search/dice"
)

func randomNet(t testing.TB, n, m int, seed uint64) *Net {
	t.Helper()
	net, err := New(n, m, rand.New(rand.NewPCG(seed, 1)), 0.5)
	if err != nil {
		t.Fatal(err)
	}
	return net
}

// randomBoard plays k random plies from the empty board, stopping before a
// game ends; the result is before the roll.
func randomBoard(rng *rand.Rand, n, m, k int) *dice.Board {
	for {
		b, _ := dice.New(n, m)
		ok := true
		for i := 0; i < k; i++ {
			var lines [dice.MaxN]int8
			nl := b.Rolls(&lines)
			b.SetRoll(int(lines[rng.IntN(nl)]))
			var moves [dice.MaxN]int16
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

// TestAct: the activation is odd, bounded by 1, close to tanh, and its
// slope is the derivative of its value.
func TestAct(t *testing.T) {
	for x := -5.0; x <= 5; x += 0.01 {
		if d := Act(x) - math.Tanh(x); math.Abs(d) > 0.025 || Act(-x) != -Act(x) || math.Abs(Act(x)) > 1 {
			t.Fatalf("Act(%v) = %v, tanh %v", x, Act(x), math.Tanh(x))
		}
		const eps = 1e-6
		if fd := (Act(x+eps) - Act(x-eps)) / (2 * eps); math.Abs(fd-actSlope(x)) > 1e-6 {
			t.Fatalf("slope at %v: %v, finite difference %v", x, actSlope(x), fd)
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

// TestGradient: backpropagation agrees with central finite differences on
// random nets and inputs.
func TestGradient(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 20; trial++ {
		n := []int{3, 5, 7}[trial%3]
		net := randomNet(t, n, min(n, 4), uint64(trial))
		x := make([]float64, net.In)
		for i := range x {
			if rng.IntN(3) == 0 {
				x[i] = rng.Float64()
			}
		}
		h := make([]float64, 2*net.H)
		g := net.NewGrad()
		net.Backward(x, h, g)
		const eps = 1e-6
		check := func(name string, w *float64, got float64) {
			old := *w
			*w = old + eps
			up := net.Forward(x, h)
			*w = old - eps
			down := net.Forward(x, h)
			*w = old
			want := (up - down) / (2 * eps)
			if math.Abs(got-want) > 1e-7*math.Max(1, math.Abs(want)) {
				t.Fatalf("trial %d %s: backprop %.10g, finite difference %.10g", trial, name, got, want)
			}
		}
		for k := 0; k < 30; k++ {
			i := rng.IntN(len(net.W1))
			check("W1", &net.W1[i], g.W1[i])
		}
		for j := range net.B1 {
			check("B1", &net.B1[j], g.B1[j])
			check("W2", &net.W2[j], g.W2[j])
		}
		check("B2", &net.B2, g.B2)
	}
}

// TestUpdateIsBackwardAndStep: the sparse update equals backpropagation
// followed by a gradient step.
func TestUpdateIsBackwardAndStep(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 13))
	for trial := 0; trial < 20; trial++ {
		a := randomNet(t, 5, 4, uint64(trial))
		b := a.Clone()
		x := make([]float64, a.In)
		for i := range x {
			if rng.IntN(3) == 0 {
				x[i] = rng.Float64()
			}
		}
		h := make([]float64, 2*a.H)
		g := a.NewGrad()
		va := a.Backward(x, h, g)
		a.Step(g, 0.3)
		vb := b.Forward(x, h)
		b.Update(x, h, vb, 0.3)
		if va != vb || b.B2 != a.B2 {
			t.Fatalf("values %v %v, B2 %v %v", va, vb, a.B2, b.B2)
		}
		for k, w := range [][2][]float64{{a.W1, b.W1}, {a.B1, b.B1}, {a.W2, b.W2}} {
			for i := range w[0] {
				if math.Abs(w[0][i]-w[1][i]) > 1e-15 {
					t.Fatalf("trial %d array %d [%d]: %v vs %v", trial, k, i, w[0][i], w[1][i])
				}
			}
		}
	}
}

// TestIncrementalEqualsFull: after random make/unmake sequences on every
// board size, the incremental evaluator equals a full forward pass of the
// features, and stays in [-1, 1].
func TestIncrementalEqualsFull(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for n := dice.MinN; n <= dice.MaxN; n++ {
		m := 2 + rng.IntN(n-1)
		net := randomNet(t, n, m, uint64(n))
		ev := net.NewEvaluator()
		x := make([]float64, net.In)
		h := make([]float64, net.H)
		for game := 0; game < 6; game++ {
			b, _ := dice.New(n, m)
			ev.Reset(b)
			var played []int
			for step := 0; step < 4*n*n && !b.Over(); step++ {
				if len(played) > 0 && rng.IntN(3) == 0 {
					cell := played[len(played)-1]
					played = played[:len(played)-1]
					ev.Unmake(b, cell)
					b.Unmake(cell)
					b.ClearRoll()
				} else {
					var lines [dice.MaxN]int8
					b.SetRoll(int(lines[rng.IntN(b.Rolls(&lines))]))
					var moves [dice.MaxN]int16
					cell := int(moves[rng.IntN(b.Moves(&moves))])
					b.Make(cell)
					ev.Make(b, cell)
					played = append(played, cell)
				}
				if b.Over() {
					break
				}
				net.Features(b, x)
				want := net.Forward(x, h)
				got := ev.Evaluate(b)
				if math.Abs(got-want) > 1e-12 || got < -1 || got > 1 {
					t.Fatalf("%dx%d/%d %s: incremental %.15g, full %.15g", n, n, m, b.DPN(), got, want)
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
		net := randomNet(t, n, m, 9)
		x := make([]float64, net.In)
		for i := 0; i < 200; i++ {
			b := randomBoard(rng, n, m, rng.IntN(n*n/2))
			net.Features(b, x)
			want := make([]float64, net.In)
			me := b.SideToMove()
			for k := 2; k < m && k <= 7; k++ {
				want[k-2] = float64(b.Streaks(me, k)) * (1 / float64(n))
				want[6+k-2] = float64(b.Streaks(me.Other(), k)) * (1 / float64(n))
			}
			for r := 0; r < n; r++ {
				for c := 0; c < n; c++ {
					p := b.At(r*n + c)
					if p == dice.Empty {
						continue
					}
					ix := 12 + 2*(r*n+c)
					if me == dice.Red {
						ix = 12 + 2*(c*n+r)
					}
					if dice.Color(p-1) != me {
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

// TestWeightFile: a saved net loads back bit for bit; a truncated,
// corrupted, wrong-size or wrong-version file is refused in one line that
// names the file.
func TestWeightFile(t *testing.T) {
	dir := t.TempDir()
	net := randomNet(t, 5, 4, 11)
	net.Meta.Games = 123
	path := dir + "/net.json"
	var buf bytes.Buffer
	if err := net.Write(&buf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	back, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if back.Checksum() != net.Checksum() || back.Meta.Games != 123 {
		t.Fatal("the net read back differs")
	}
	data, _ := os.ReadFile(path)
	bad := map[string][]byte{
		"truncated":      data[:len(data)/2],
		"corrupted":      []byte(strings.Replace(string(data), `"b2": 0`, `"b2": 0.5`, 1)),
		"wrong size":     []byte(strings.Replace(string(data), `"n": 5`, `"n": 6`, 1)),
		"wrong version":  []byte(strings.Replace(string(data), `"version": 1`, `"version": 9`, 1)),
		"not a net":      []byte(`{"format": "starlab-probcut", "version": 1}`),
		"unknown field":  []byte(strings.Replace(string(data), `"n": 5`, `"nn": 1, "n": 5`, 1)),
		"trailing data":  append(slices.Clone(data), "{}"...),
		"negative games": []byte(strings.Replace(string(data), `"games": 123`, `"games": -123`, 1)),
		"empty":          nil,
		"garbage":        []byte("\x00\xff\xfe"),
	}
	want := map[string]string{"truncated": "truncated JSON", "corrupted": "damaged", "wrong size": "inputs", "wrong version": "version 9", "not a net": "format",
		"unknown field": "unknown field", "trailing data": "data after", "negative games": "games -123", "empty": "JSON", "garbage": "JSON"}
	for name, b := range bad {
		p := dir + "/" + strings.ReplaceAll(name, " ", "-") + ".json"
		os.WriteFile(p, b, 0o644)
		_, err := Load(p)
		if err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), want[name]) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line naming %s and %q", name, err, p, want[name])
		}
	}
}

func BenchmarkEvaluate(b *testing.B) {
	net := randomNet(b, 5, 4, 1)
	ev := net.NewEvaluator()
	rng := rand.New(rand.NewPCG(1, 2))
	boards := make([]*dice.Board, 64)
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
	boards := make([]*dice.Board, 64)
	evs := make([]*Evaluator, len(boards)) // one per board, in step with it
	for i := range boards {
		boards[i] = randomBoard(rng, 5, 4, 4+rng.IntN(10))
		var lines [dice.MaxN]int8
		boards[i].SetRoll(int(lines[rng.IntN(boards[i].Rolls(&lines))]))
		evs[i] = net.NewEvaluator()
		evs[i].Reset(boards[i])
	}
	b.ReportAllocs()
	s := 0.0
	for i := 0; b.Loop(); i++ {
		bd, ev := boards[i%len(boards)], evs[i%len(boards)]
		var moves [dice.MaxN]int16
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
	net, err := Embedded(5, 4)
	if err != nil {
		t.Fatal(err)
	}
	if net.N != 5 || net.M != 4 || net.Meta.Games < 300000 {
		t.Fatalf("built-in 5x5/4 net: %dx%d/%d, %d games", net.N, net.N, net.M, net.Meta.Games)
	}
	if _, err := Embedded(6, 4); err == nil || !strings.Contains(err.Error(), "6x6") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("6x6/4: %v", err)
	}
	for _, size := range [][2]int{{5, 4}, {7, 5}, {9, 6}, {11, 8}} {
		net, err := Embedded(size[0], size[1])
		if err != nil {
			t.Fatal(err)
		}
		if net.In != InputSize(size[0]) || net.H != HiddenSize(size[0]) || net.Meta.Games < 50000 {
			t.Fatalf("built-in %dx%d/%d net: %d inputs, %d hidden, %d games", size[0], size[0], size[1], net.In, net.H, net.Meta.Games)
		}
		b, _ := dice.New(size[0], size[1])
		ev := net.NewEvaluator()
		ev.Reset(b)
		if v := ev.Evaluate(b); v < -1 || v > 1 {
			t.Fatalf("value of the empty %dx%d board %v", size[0], size[0], v)
		}
	}
}

// TestEmbeddedIDs pins the ids and checksums of the built-in nets: the
// built-in ChanceProbCut fits (search/fits) and collected rows name a net
// by its id, so a change of the hash or of a net's bytes must show here.
func TestEmbeddedIDs(t *testing.T) {
	for _, c := range []struct {
		n, m int
		sum  string
	}{
		{5, 4, "7b3b0f732fb67dc9dd3c45aacf9c42e40200cd2d12b388d3f95d0ad50b90ab8d"},
		{7, 5, "40075d4baab4d7ecaa315b507f0886a69145275be1dba3465de7a661a32dced2"},
		{9, 6, "a3db9bd7bf71f275078997e248c029102992b0149af5b1e489c3ebb7e344bddd"},
		{11, 8, "dae0bf6344919f4e07b801f370be019b62330bd43678ee8ee90ab8f30242b0f9"},
	} {
		net, err := Embedded(c.n, c.m)
		if err != nil {
			t.Fatal(err)
		}
		if net.Checksum() != c.sum || net.ID() != c.sum[:12] {
			t.Errorf("built-in %dx%d/%d net: checksum %s, id %s; want %s", c.n, c.n, c.m, net.Checksum(), net.ID(), c.sum)
		}
	}
}
