package backgammon

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"starlab/nn"
)

// outcomeValue is a net of outcomes's value of probabilities p.
func outcomeValue(p []float64) float64 {
	v := OutcomeValue[0]
	for k, q := range p {
		v += OutcomeValue[k+1] * q
	}
	return v
}

// TestOutcomes: money's outcomes of a finished game, from either side's
// view, are valued as the rules value it (Result), and each is the other
// flipped; flipping twice is nothing; where the bear-off databases value
// a position its outcomes are valued as they value it, with no gammon;
// CheckNet takes a money net of these outcomes and refuses others.
func TestOutcomes(t *testing.T) {
	out, err := outcomesOf(Money)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := outcomesOf(OnePoint); err == nil {
		t.Fatal("a one-point game has outcomes")
	}
	// A finished game of each number of points, from both sides.
	finished := map[int]bool{}
	rng := rand.New(rand.NewPCG(1, 2))
	var codes [MaxPlays]int16
	for range 200 {
		b := StartBoard(Money)
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
		if got := outcomeValue(p); math.Abs(got-b.Result()) > 1e-15 {
			t.Fatalf("%s (%d points): outcomes %v valued %v, the result %v", b, pts, p, got, b.Result())
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
	if math.Abs(outcomeValue(q)+outcomeValue(p)) > 1e-15 {
		t.Fatalf("flipped outcomes valued %v, the outcomes %v", outcomeValue(q), outcomeValue(p))
	}
	out.Flip(q)
	for k := range p {
		if p[k] != q[k] {
			t.Fatalf("flipped twice: %v, was %v", q, p)
		}
	}
	exact := 0
	for _, b := range randomPositions(12, 3000, 1) {
		b.variant = Money
		v, ok := BearoffValue(b)
		got := out.Exact(b, p)
		if got != ok {
			t.Fatalf("%s: Exact %v, the databases %v", b, got, ok)
		}
		if ok {
			exact++
			if math.Abs(outcomeValue(p)-v) > 1e-15 || p[OutWinGammon]+p[OutLoseGammon] != 0 {
				t.Fatalf("%s: exact outcomes %v valued %v, the databases %v", b, p, outcomeValue(p), v)
			}
		}
	}
	if exact < 10 {
		t.Fatalf("%d positions valued by the databases, too few to test", exact)
	}
	net, err := nn.New(InputSize, 4, rng, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	net.Game, net.Variant, net.VariantKey = NetGame, Money.String(), []int{int(Money)}
	if err := net.NewHead(OutcomeValue, rng, 0.1); err != nil {
		t.Fatal(err)
	}
	if err := CheckNet(net, Money); err != nil {
		t.Fatal(err)
	}
	one := net.Clone()
	one.Variant, one.VariantKey = OnePoint.String(), []int{int(OnePoint)}
	other := net.Clone()
	other.Head.Value[1] = 1
	for name, bad := range map[string]*nn.Net{"1pt": one, "other value": other} {
		v := Money
		if bad == one {
			v = OnePoint
		}
		if err := CheckNet(bad, v); err == nil || !strings.Contains(err.Error(), "outputs of probabilities") {
			t.Errorf("%s: %v, want an error naming the outputs", name, err)
		}
	}
}
