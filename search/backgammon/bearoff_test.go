package backgammon

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestBearoffAgreesWithGnubg: the bear-off database's value of gnubg's 80
// two-sided bear-offs (testdata/gnubg-bearoff.jsonl) is gnubg's to 3e-5 in
// P(win) (gnubg keeps each as a whole number over 65535), and equals the
// exact solution of RaceValue to 1e-12; after every roll too.
func TestBearoffAgreesWithGnubg(t *testing.T) {
	cases := readAll[struct {
		Position string  `json:"position"`
		PWin     float64 `json:"pwin"`
	}](t, "testdata/gnubg-bearoff.jsonl")
	memo := map[uint64]float64{}
	worst := 0.0
	for _, c := range cases {
		b, err := Parse(c.Position + " O -")
		if err != nil {
			t.Fatal(err)
		}
		got, ok := BearoffValue(b)
		if !ok {
			t.Fatalf("%s: not valued by the database", c.Position)
		}
		worst = max(worst, math.Abs(got-(2*c.PWin-1))/2)
		if math.Abs(got-(2*c.PWin-1))/2 > 3e-5 {
			t.Errorf("%s: database %.7f, gnubg's %.7f", c.Position, got, 2*c.PWin-1)
		}
		if want := RaceValue(b, memo); math.Abs(got-want) > 1e-12 {
			t.Errorf("%s: database %.15f, exact %.15f", c.Position, got, want)
		}
		for r := 0; r < Rolls; r++ {
			hi, lo := RollDice(r)
			b.Roll(hi, lo)
			got, _ := BearoffValue(b)
			if want := RaceValue(b, memo); math.Abs(got-want) > 1e-12 {
				t.Errorf("%s after %d%d: database %.15f, exact %.15f", c.Position, hi, lo, got, want)
			}
			b.ClearRoll()
		}
	}
	t.Logf("%d bear-offs: largest difference from gnubg's P(win) %.2g", len(cases), worst)
}

// expectedRolls solves the one-sided bear-off of side 0's home board h by
// the board's own move generator (side 1 waits in its home board, out of
// the way): the fewest rolls expected, each roll's play chosen for it.
func expectedRolls(t *testing.T, h boHome, memo map[boHome]float64) float64 {
	if h.checkers() == 0 {
		return 0
	}
	if v, ok := memo[h]; ok {
		return v
	}
	var me Points
	copy(me[1:], h[1:])
	me[Off] = int8(Checkers - h.checkers())
	op := Points{6: 15}
	sum := 0.0
	var codes [MaxPlays]int16
	for r := 0; r < Rolls; r++ {
		hi, lo := RollDice(r)
		b, err := NewBoard(OnePoint, 0, me, op, hi, lo)
		if err != nil {
			t.Fatal(err)
		}
		n := b.Moves(&codes)
		best := math.Inf(1)
		for _, m := range codes[:n] {
			c := *b
			var u Undo
			c.MakeSaving(int(m), &u)
			next, ok := homeOf(&c.pts[0])
			if !ok {
				t.Fatalf("a bear-off play left the home board")
			}
			best = min(best, expectedRolls(t, next, memo))
		}
		sum += float64(RollWeight(r)) / 36 * best
	}
	v := 1 + sum
	memo[h] = v
	return v
}

// TestBearoffExpectedRolls: the one-sided database's expected rolls equal
// an independent solution by the move generator on 100 random positions,
// and its distributions sum to 1.
func TestBearoffExpectedRolls(t *testing.T) {
	db := bearoff()
	rng := rand.New(rand.NewPCG(1, 38))
	memo := map[boHome]float64{}
	for i := 0; i < 100; i++ {
		var h boHome
		n := 1 + rng.IntN(Checkers)
		for k := 0; k < n; k++ {
			h[1+rng.IntN(boPoints)]++
		}
		r := boRank(&h, boCheckers)
		if got, want := db.mean[r], expectedRolls(t, h, memo); math.Abs(got-want) > 1e-9 {
			t.Errorf("%v: database %.12f rolls, move generator %.12f", h[1:], got, want)
		}
		sum := 0.0
		for _, p := range db.dist[r] {
			sum += p
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Errorf("%v: distribution sums to %v", h[1:], sum)
		}
	}
	t.Logf("100 positions, %d solved by the move generator", len(memo))
}

func TestBearoffRank(t *testing.T) {
	for _, c := range []int{boCheckers, boTSMax} {
		all := boAll(c)
		seen := make([]bool, len(all))
		for i := range all {
			r := boRank(&all[i], c)
			if r != i || seen[r] {
				t.Fatalf("capacity %d: rank %d at %d", c, r, i)
			}
			seen[r] = true
		}
	}
	if len(boAll(boCheckers)) != boPositions || len(boAll(boTSMax)) != boTSPos {
		t.Fatal("position counts")
	}
}

func BenchmarkBuildBearoff(b *testing.B) {
	for i := 0; i < b.N; i++ {
		buildBearoff()
	}
}

// TestOneSidedApproximation measures the one-sided database's value of
// bear-offs with more than six checkers on a side, where it stands in for
// the two-sided solution, against the exact one (RaceValue): 10 random
// positions of 7 checkers against 2 or 3, within 0.01 of P(win).
func TestOneSidedApproximation(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 38))
	memo := map[uint64]float64{}
	worst := 0.0
	for i := 0; i < 10; i++ {
		var sides [2]Points
		for s, n := range [2]int{7, 2 + rng.IntN(2)} {
			for k := 0; k < n; k++ {
				sides[s][1+rng.IntN(boPoints)]++
			}
			sides[s][Off] = int8(Checkers - n)
		}
		me, op := sides[i%2], sides[1-i%2]
		b, err := NewBoard(OnePoint, 0, me, op, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := BearoffValue(b)
		if !ok {
			t.Fatalf("%s: not valued", b)
		}
		d := math.Abs(got-RaceValue(b, memo)) / 2
		worst = max(worst, d)
		if d > 0.01 {
			t.Errorf("%s: one-sided P(win) %.5f off the exact", b, d)
		}
	}
	t.Logf("10 bear-offs of 7 checkers against 2 or 3: largest difference in P(win) %.4f", worst)
}
