package backgammon

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"starlab/nn"
)

// outcomeValue is a net of variant v's outcomes's value of probabilities p.
func outcomeValue(v Variant, p []float64) float64 {
	c := OutcomeValue(v)
	val := c[0]
	for k, q := range p {
		val += c[k+1] * q
	}
	return val
}

// TestOutcomes: the outcomes of a finished game, from either side's view,
// are valued as the rules value it (Result), in both variants, and each
// is the other flipped; flipping twice is nothing; where the bear-off
// databases value a position its outcomes are valued as they value it
// (to 1e-12: their sums may pass 1 by a rounding, which the outcomes clamp),
// all five known where no gammon is left (every such money position) and
// the chance of winning alone otherwise, and none for a net of the raw
// inputs, which does not give way to the databases; CheckNet takes a net of its
// variant's outcomes and refuses others.
func TestOutcomes(t *testing.T) {
	out := outcomesOf(Money)
	// Finished games of each number of points, from both sides.
	finished := map[int]bool{}
	rng := rand.New(rand.NewPCG(1, 2))
	var codes [MaxPlays]int16
	for g := range 200 {
		v := []Variant{Money, OnePoint}[g%2]
		b := StartBoard(v)
		for !b.Over() {
			hi, lo := RollDice(rng.IntN(Rolls))
			b.Roll(hi, lo)
			var u Undo
			b.MakeSaving(int(codes[rng.IntN(b.Moves(&codes))]), &u)
		}
		_, pts := b.Winning()
		finished[pts] = true
		p, q := make([]float64, OutcomeCount), make([]float64, OutcomeCount)
		out.Over(b, p)
		if got := outcomeValue(v, p); math.Abs(got-b.Result()) > 1e-15 {
			t.Fatalf("%s (%s, %d points): outcomes %v valued %v, the result %v", b, v, pts, p, got, b.Result())
		}
		c := *b
		c.stm = 1 - c.stm
		out.Over(&c, q)
		out.Flip(q)
		for k := range p {
			if p[k] != q[k] {
				t.Fatalf("%s: outcomes %v, the other side's flipped %v", b, p, q)
			}
		}
	}
	if len(finished) < 3 {
		t.Fatalf("finished games of %v points only", finished)
	}
	p := []float64{rng.Float64(), rng.Float64(), rng.Float64(), rng.Float64(), rng.Float64()}
	q := append([]float64(nil), p...)
	out.Flip(q)
	if math.Abs(outcomeValue(Money, q)+outcomeValue(Money, p)) > 1e-15 || math.Abs(outcomeValue(OnePoint, q)+outcomeValue(OnePoint, p)) > 1e-15 {
		t.Fatalf("flipped outcomes %v, the outcomes %v: values not opposite", q, p)
	}
	out.Flip(q)
	for k := range p {
		if p[k] != q[k] {
			t.Fatalf("flipped twice: %v, was %v", q, p)
		}
	}
	known := map[Variant]map[int]int{Money: {}, OnePoint: {}}
	features := &nn.Net{In: FeatureInputSize}
	raw := &nn.Net{In: InputSize} // gives no way to the databases
	for _, b := range randomPositions(12, 3000, 1) {
		for _, v := range []Variant{Money, OnePoint} {
			b.variant = v
			val, ok := BearoffValue(b)
			for k := range p {
				p[k] = 0.5
			}
			if n := out.Exact(raw, b, p); n != 0 {
				t.Fatalf("%s (%s): Exact knows %d outcomes for a net of the raw inputs", b, v, n)
			}
			n := out.Exact(features, b, p)
			known[v][n]++
			switch {
			case ok != (n > 0):
				t.Fatalf("%s (%s): Exact knows %d outcomes, the databases value it: %v", b, v, n, ok)
			case n == OutcomeCount && (math.Abs(outcomeValue(v, p)-val) > 1e-12 || p[OutWinGammon]+p[OutLoseGammon]+p[OutWinBackgammon]+p[OutLoseBackgammon] != 0):
				t.Fatalf("%s (%s): exact outcomes %v valued %v, the databases %v", b, v, p, outcomeValue(v, p), val)
			case n == 1 && (v == Money || math.Abs(2*p[OutWin]-1-val) > 1e-12 || p[OutWinGammon] != 0.5):
				t.Fatalf("%s (%s): the exact chance of winning %v, the databases' value %v", b, v, p, val)
			case n != 0 && n != 1 && n != OutcomeCount:
				t.Fatalf("%s: Exact knows %d outcomes", b, n)
			}
		}
	}
	if known[Money][OutcomeCount] < 10 || known[OnePoint][1] < 10 || known[OnePoint][OutcomeCount] < 10 {
		t.Fatalf("outcomes known in %v, too few of each kind to test", known)
	}
	for _, v := range []Variant{Money, OnePoint} {
		net, err := nn.New(InputSize, 4, rng, 0.1)
		if err != nil {
			t.Fatal(err)
		}
		net.Game, net.Variant, net.VariantKey = NetGame, v.String(), []int{int(v)}
		if err := net.NewHead(OutcomeValue(v), rng, 0.1); err != nil {
			t.Fatal(err)
		}
		if err := CheckNet(net, v); err != nil {
			t.Fatal(err)
		}
		if err := netKit.Check(net, v.String()); err != nil { // the kit takes a net of outcomes
			t.Fatal(err)
		}
		other := net.Clone()
		other.Head.Value[1] = 1
		if err := CheckNet(other, v); err == nil || !strings.Contains(err.Error(), "outputs of probabilities") {
			t.Errorf("%s, other values: %v, want an error naming the outputs", v, err)
		}
	}
}
