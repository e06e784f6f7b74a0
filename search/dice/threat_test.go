package dice

import (
	"math/rand/v2"
	"slices"
	"testing"

	"starlab/nn"
)

// threatNet returns a random net of the input set "threats".
func threatNet(t testing.TB, n, m int, seed uint64) *nn.Net {
	t.Helper()
	in, err := SetInputs(n, "threats")
	if err != nil {
		t.Fatal(err)
	}
	net, err := nn.New(in, HiddenSize(n), rand.New(rand.NewPCG(seed, 1)), 0.5)
	if err != nil {
		t.Fatal(err)
	}
	net.Game, net.Variant, net.VariantKey = NetGame, NetVariant(n, m), []int{n, m}
	return net
}

// openBoard plays up to k random plies from the empty board and stops
// before one that would end the game; the result is before the roll.
func openBoard(rng *rand.Rand, n, m, k int) *Board {
	b, _ := New(n, m)
	for i := 0; i < k; i++ {
		var lines [MaxN]int8
		b.SetRoll(int(lines[rng.IntN(b.Rolls(&lines))]))
		var moves [MaxN]int16
		cell := int(moves[rng.IntN(b.Moves(&moves))])
		b.Make(cell)
		if b.Over() {
			b.Unmake(cell)
			b.ClearRoll()
			break
		}
	}
	return b
}

// TestThreats: Threats counts the cells where a checker of the colour
// would win, found by playing it there on a copy and asking Winner, per
// line of the colour's rolls; Lines counts the colour's rolls.
func TestThreats(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 3000; i++ {
		n := MinN + rng.IntN(7)
		m := 2 + rng.IntN(n-1)
		b := openBoard(rng, n, m, rng.IntN(n*n))
		for c := Blue; c <= Red; c++ {
			var per [MaxN]int
			want := [3]int{}
			rolls := 0
			for line := 0; line < n; line++ {
				open := false
				for j := 0; j < n; j++ {
					cell := line*n + j
					if c == Red {
						cell = j*n + line
					}
					if b.At(cell) != Empty {
						continue
					}
					open = true
					x := *b
					x.stm = c
					x.roll = int8(line)
					x.Make(cell)
					if w, ok := x.Winner(); ok && w == c {
						per[line]++
						want[2]++
					}
				}
				if open {
					rolls++
				}
				if per[line] > 0 {
					want[0]++
				}
				if per[line] > 1 {
					want[1]++
				}
			}
			lines, doubles, cells := b.Threats(c)
			if [3]int{lines, doubles, cells} != want || b.Lines(c) != rolls {
				t.Fatalf("%s, %v: Threats %d %d %d, Lines %d; want %v and %d", b.DPN(), c, lines, doubles, cells, b.Lines(c), want, rolls)
			}
		}
	}
}

// TestThreatInputs: a net of the input set "threats" is a Dice net, and
// Features writes its threat inputs after the thesis's, which are as for
// a net without them; TestIncrementalEqualsFull runs its evaluator.
func TestThreatInputs(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	seen := 0
	for _, size := range [][2]int{{3, 3}, {5, 4}, {7, 5}, {9, 6}, {17, 9}} {
		n, m := size[0], size[1]
		net := threatNet(t, n, m, uint64(n))
		if nn, mm, err := NetSize(net); err != nil || nn != n || mm != m {
			t.Fatalf("NetSize of a threat net: %d %d %v", nn, mm, err)
		}
		x, plain := make([]float64, net.In), make([]float64, InputSize(n))
		for i := 0; i < 200; i++ {
			b := openBoard(rng, n, m, rng.IntN(n*n))
			Features(b, x)
			Features(b, plain)
			var tf [ThreatInputs]float64
			threatFeatures(b, &tf)
			if !slices.Equal(x[:InputSize(n)], plain) || !slices.Equal(x[InputSize(n):], tf[:]) {
				t.Fatalf("%s: inputs %v, want %v then %v", b.DPN(), x, plain, tf)
			}
			for _, v := range tf {
				if v != 0 {
					seen++
				}
			}
		}
	}
	if seen == 0 {
		t.Fatal("no threat input was ever set")
	}
	if _, err := SetInputs(5, "pins"); err == nil {
		t.Fatal("SetInputs(5, pins): no error")
	}
}
