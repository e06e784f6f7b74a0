package backgammon

import (
	"math"
	"math/rand/v2"
	"testing"

	"starlab/nn"
)

// randomPositions returns the positions of random games from the start,
// the side to move before its roll, every k-th one kept.
func randomPositions(seed uint64, games, k int) []*Board {
	rng := rand.New(rand.NewPCG(seed, 5))
	var out []*Board
	var codes [MaxPlays]int16
	for g := 0; g < games; g++ {
		b := StartBoard(OnePoint)
		for i := 0; !b.Over(); i++ {
			if i%k == 0 {
				c := *b
				out = append(out, &c)
			}
			hi, lo := RollDice(rng.IntN(Rolls))
			b.Roll(hi, lo)
			n := b.Moves(&codes)
			var u Undo
			b.MakeSaving(int(codes[rng.IntN(n)]), &u)
		}
	}
	return out
}

// TestFeatureNetIsFull: the evaluator of a net of the input set
// "features" (accumulators of the raw inputs, the features added at each
// evaluation) gives the net's value of Features' full vector, and the
// bear-off database's where that values the position: for a random net,
// the same with a race net of its own (its value in every race), a money
// net of outcomes, and the built-in nets of both variants; Value, computed
// from scratch, agrees.
func TestFeatureNetIsFull(t *testing.T) {
	random, err := nn.New(FeatureInputSize, 13, rand.New(rand.NewPCG(1, 2)), 0.3)
	if err != nil {
		t.Fatal(err)
	}
	random.Game, random.Variant, random.VariantKey = NetGame, OnePoint.String(), []int{int(OnePoint)}
	if err := CheckNet(random, OnePoint); err != nil {
		t.Fatal(err)
	}
	// a net with a race net of other hidden units, which values the races
	phased := random.Clone()
	race, err := nn.New(FeatureInputSize, 9, rand.New(rand.NewPCG(3, 4)), 0.3)
	if err != nil {
		t.Fatal(err)
	}
	race.Game, race.Variant, race.VariantKey, race.Phase = NetGame, OnePoint.String(), []int{int(OnePoint)}, RacePhase
	phased.Phases = []*nn.Net{race}
	if err := CheckNet(phased, OnePoint); err != nil {
		t.Fatal(err)
	}
	// a money net of outcomes, gnubg's five outputs (nn.Head)
	outcomes, err := nn.New(FeatureInputSize, 11, rand.New(rand.NewPCG(5, 6)), 0.3)
	if err != nil {
		t.Fatal(err)
	}
	outcomes.Game, outcomes.Variant, outcomes.VariantKey = NetGame, Money.String(), []int{int(Money)}
	if err := outcomes.NewHead(OutcomeValue(Money), rand.New(rand.NewPCG(7, 8)), 0.3); err != nil {
		t.Fatal(err)
	}
	if err := CheckNet(outcomes, Money); err != nil {
		t.Fatal(err)
	}
	races := 0
	nets := []*nn.Net{random, phased, outcomes}
	for _, v := range []Variant{OnePoint, Money} {
		net, err := EmbeddedNet(v)
		if err != nil {
			t.Fatal(err)
		}
		if net.In != FeatureInputSize {
			t.Fatalf("built-in %s net: %d inputs, not the features' %d", v, net.In, FeatureInputSize)
		}
		nets = append(nets, net)
	}
	for _, net := range nets {
		v := net2variant(t, net)
		e := NewNetEvaluator(net)
		x, h := make([]float64, FeatureInputSize), make([]float64, 2*net.H)
		check := func(b *Board) {
			t.Helper()
			got := e.Evaluate(b)
			if bv, ok := BearoffValue(b); ok {
				if got != bv {
					t.Fatalf("%s: evaluator %v, bear-off database %v", b, got, bv)
				}
				return
			}
			Features(b, x)
			valuer := net
			if r := net.PhaseNet(RacePhase); r != nil && !b.Contact() {
				valuer = r
				races++
			}
			want := valuer.Forward(x, h)
			if math.Abs(got-want) > featuresTolerance || math.Abs(e.Value(b)-want) > 1e-12 {
				t.Fatalf("%s net %s, %s, %d plays since Reset: evaluator %v, Value %v, net %v", net.Variant, net.ID(), b, e.top, got, e.Value(b), want)
			}
		}
		for _, b := range randomPositions(7, 20, 3) {
			b.variant = v
			e.Reset(b)
			check(b)
		}
		// along games, the accumulators following each play from one Reset
		rng := rand.New(rand.NewPCG(8, 9))
		var codes [MaxPlays]int16
		for g := 0; g < 10; g++ {
			b := StartBoard(v)
			e.Reset(b)
			for !b.Over() && e.top < maxNetDepth-1 {
				hi, lo := RollDice(rng.IntN(Rolls))
				b.Roll(hi, lo)
				n := b.Moves(&codes)
				m := int(codes[rng.IntN(n)])
				var u Undo
				b.MakeSaving(m, &u)
				e.Make(b, m)
				check(b)
			}
		}
	}
	t.Logf("%d races valued by a race net", races)
	if races < 100 {
		t.Fatalf("%d races valued by a race net, too few to test it", races)
	}
}

// exactHits returns, over the side to move's 36 rolls, those with a legal
// play that hits at least one and at least two of the other's checkers,
// by the move generator.
func exactHits(b *Board) (one, two int) {
	s := int(b.stm)
	var codes [MaxPlays]int16
	for r := 0; r < Rolls; r++ {
		hi, lo := RollDice(r)
		c := *b
		c.Roll(hi, lo)
		n := c.Moves(&codes)
		most := 0
		for _, m := range codes[:n] {
			d := c
			before := d.pts[1-s][Bar]
			var u Undo
			d.MakeSaving(int(m), &u)
			most = max(most, int(d.pts[1-s][Bar]-before))
		}
		if most >= 1 {
			one += RollWeight(r)
		}
		if most >= 2 {
			two += RollWeight(r)
		}
	}
	return one, two
}

// TestHitsAgreeWithMoves: the rolls the features count as hitting one and
// two blots are those with a legal play that does, on random positions
// (many with checkers on the bar), within 0.2% and 1.5% of the rolls of
// the positions with none, one, two and more on the bar, each class
// apart: the features count threats from where the checkers stand and do
// not play the roll out (2,550 positions: 24 and 312 of 91,800 rolls
// differ; 20 and 130 of 59,292 with none on the bar, 0 and 8 of 792 with
// three or more).
func TestHitsAgreeWithMoves(t *testing.T) {
	var off1, off2, rolls [4]int
	for _, b := range randomPositions(11, 60, 2) {
		s := int(b.stm)
		var h hits
		blots, blocked, shooters := hitMasks(&b.pts[s], &b.pts[1-s])
		h.count(&b.pts[s], blots, blocked, shooters)
		one, two := exactHits(b)
		k := min(int(b.pts[s][Bar]), 3)
		rolls[k] += 36
		off1[k] += abs(one - h.one)
		off2[k] += abs(two - h.two)
	}
	for k := range rolls {
		t.Logf("%d on the bar: rolls miscounted %d (one hit) and %d (two) of %d", k, off1[k], off2[k], rolls[k])
		if rolls[k] == 0 || float64(off1[k]) > 0.002*float64(rolls[k]) || float64(off2[k]) > 0.015*float64(rolls[k]) {
			t.Errorf("%d on the bar: hit counts differ from the move generator's on %d and %d of %d rolls", k, off1[k], off2[k], rolls[k])
		}
	}
}

// hitMasks returns count's masks of side me against op, as halfFeatures
// gives them: op's blots, the points op holds, and me's points with
// checkers, all at me's points.
func hitMasks(me, op *Points) (blots, blocked, shooters uint32) {
	om := masksOf(op)
	return seen(om.single), seen(om.made), masksOf(me).occupied
}

// TestHitsByRoll: countFree and countBar1, which take a side with none
// and with one checker on the bar a roll at a time, equal countByBlot on
// every such side of random positions (from 16,646 positions, 25,850
// sides with none on the bar and 18,592 of them with a blot in reach).
func TestHitsByRoll(t *testing.T) {
	for nb := int8(0); nb <= 1; nb++ {
		n, shots := 0, 0
		for seed := uint64(0); seed < 4; seed++ {
			for _, b := range randomPositions(seed, 50, 1) {
				for s := 0; s < 2; s++ {
					me, op := &b.pts[s], &b.pts[1-s]
					if me[Bar] != nb {
						continue
					}
					blots, blocked, shooters := hitMasks(me, op)
					var h, want hits
					if blots != 0 {
						if nb == 0 {
							h.countFree(me, blots, blocked, shooters)
						} else {
							h.countBar1(me, blots, blocked, shooters)
						}
						want.countByBlot(me, blots, blocked, shooters)
					}
					if h != want {
						t.Fatalf("%s, side %d: %+v, want %+v", b, s, h, want)
					}
					n++
					if want.one > 0 {
						shots++
					}
				}
			}
		}
		t.Logf("%d on the bar: %d sides, %d with shots", nb, n, shots)
		if shots < n/2 {
			t.Fatalf("%d on the bar: %d of %d sides with shots, too few to test count", nb, shots, n)
		}
	}
}

// masksByPoint is masksOf a point at a time: its specification.
func masksByPoint(s *Points) sideMasks {
	var m sideMasks
	for q := 1; q <= 24; q++ {
		switch n := s[q]; {
		case n >= 2:
			m.made |= 1 << q
		case n == 1:
			m.single |= 1 << q
		}
	}
	m.occupied = m.made | m.single
	return m
}

// TestMasks: masksOf equals masksByPoint on both sides of random positions
// and on every count from 0 to Checkers at every point.
func TestMasks(t *testing.T) {
	n := 0
	for _, b := range randomPositions(5, 50, 1) {
		for s := range 2 {
			if got, want := masksOf(&b.pts[s]), masksByPoint(&b.pts[s]); got != want {
				t.Fatalf("%s, side %d: masks %+v, want %+v", b, s, got, want)
			}
			n++
		}
	}
	for q := 0; q <= Bar; q++ {
		for c := int8(0); c <= Checkers; c++ {
			var p Points
			p[q] = c
			p[(q+7)%(Bar+1)] = Checkers - c
			if got, want := masksOf(&p), masksByPoint(&p); got != want {
				t.Fatalf("%d on point %d: masks %+v, want %+v", c, q, got, want)
			}
		}
	}
	t.Logf("%d sides", n)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func BenchmarkFeatures(b *testing.B) {
	pos := randomPositions(3, 20, 1)
	f := make([]float64, FeatureInputs)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		features(pos[i%len(pos)], f, nil)
	}
}

func BenchmarkFeatureNetValue(b *testing.B) {
	net, err := nn.New(FeatureInputSize, 80, rand.New(rand.NewPCG(1, 2)), 0.1)
	if err != nil {
		b.Fatal(err)
	}
	e := NewNetEvaluator(net)
	pos := randomPositions(3, 20, 1)
	bearoff()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e.Value(pos[i%len(pos)])
	}
}

// TestEscapes: the escapes read from the table equal their definition
// counted roll by roll on the board.
func TestEscapes(t *testing.T) {
	for _, b := range randomPositions(5, 10, 1) {
		for s := 0; s < 2; s++ {
			op := &b.pts[1-s]
			blocked := seen(masksOf(op).made) // op's points of two or more, at s's points
			for p := 1; p <= Bar; p++ {
				open := func(d int) bool { return p-d < 1 || op[25-(p-d)] < 2 }
				want := 0
				for d1 := 1; d1 <= 6; d1++ {
					for d2 := 1; d2 <= 6; d2++ {
						if open(d1+d2) && (open(d1) || open(d2)) {
							want++
						}
					}
				}
				if got := escapes(blocked, p); got != want {
					t.Fatalf("%s, side %d, point %d: %d escapes, want %d", b, s, p, got, want)
				}
			}
		}
	}
}

// TestHitCache: the hits a cache gives are those counted afresh, for
// every side of random positions met twice (so that some come from the
// cache, and some slots were taken since by another pattern), and the
// features with a cache are those without, bit for bit.
func TestHitCache(t *testing.T) {
	c := new(hitCache)
	pos := randomPositions(20, 60, 1)
	answered, met := 0, 0
	var f, g [FeatureInputs]float64
	for pass := 0; pass < 2; pass++ {
		for _, b := range pos {
			for s := 0; s < 2; s++ {
				me, op := &b.pts[s], &b.pts[1-s]
				mm, om := masksOf(me), masksOf(op)
				blots, blocked := seen(om.single), seen(om.made)
				if blots == 0 {
					continue
				}
				k := keyOf(me, blots, blocked, mm)
				if c.slot(k).key == k {
					answered++
				}
				met++
				var want hits
				want.count(me, blots, blocked, mm.occupied)
				if got := c.count(me, blots, blocked, mm); got != want {
					t.Fatalf("%s, side %d: %+v from the cache, %+v counted", b, s, got, want)
				}
			}
			features(b, f[:], nil)
			features(b, g[:], c)
			if f != g {
				t.Fatalf("%s: features %v with the cache, %v without", b, g, f)
			}
		}
	}
	t.Logf("%d positions, %d counts with a blot, %d answered by the cache", len(pos), met, answered)
	if answered < met/4 || answered > met*3/4 {
		t.Fatalf("%d of %d answered by the cache: too few or too many to test it", answered, met)
	}
}
