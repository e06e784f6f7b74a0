package backgammon

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"starlab/nn"
)

// eagerEvaluator is NetEvaluator's specification: both views'
// accumulators computed at every Reset and Make, each changed point's
// units taken out and put in with nn.Net.AddInput. NetEvaluator builds a
// view only when it is read, in one pass over the units, and must give
// the same values to the last bit.
type eagerEvaluator struct {
	net   *nn.Net
	top   int
	stack []eagerFrame
}

type eagerFrame struct {
	pts [2]Points
	acc [2][]float64
}

func newEagerEvaluator(net *nn.Net) *eagerEvaluator {
	e := &eagerEvaluator{net: net, stack: make([]eagerFrame, maxNetDepth+1)}
	for i := range e.stack {
		for v := range e.stack[i].acc {
			e.stack[i].acc[v] = make([]float64, net.H)
		}
	}
	return e
}

func (e *eagerEvaluator) Reset(b *Board) {
	e.top = 0
	f := &e.stack[0]
	f.pts = b.pts
	for v := range f.acc {
		copy(f.acc[v], e.net.B1)
		for s := 0; s < 2; s++ {
			for p := 0; p <= Bar; p++ {
				e.addPoint(f.acc[v], v, s, p, b.pts[s][p], 1)
			}
		}
	}
}

// addPoint adds sign times the units of side s's point p holding n
// checkers, in view v, to acc.
func (e *eagerEvaluator) addPoint(acc []float64, v, s, p int, n int8, sign float64) {
	if n == 0 {
		return
	}
	i := input(v, s, p)
	if p == Off {
		e.net.AddInput(acc, i, sign*float64(n)/Checkers)
		return
	}
	u := &pointUnits[n]
	for k := 0; k < 4; k++ {
		if u[k] != 0 {
			e.net.AddInput(acc, i+k, sign*u[k])
		}
	}
}

func (e *eagerEvaluator) Make(b *Board) {
	old := &e.stack[e.top]
	e.top++
	f := &e.stack[e.top]
	f.pts = b.pts
	for v := range f.acc {
		copy(f.acc[v], old.acc[v])
	}
	for s := 0; s < 2; s++ {
		for p := 0; p <= Bar; p++ {
			if n, was := b.pts[s][p], old.pts[s][p]; n != was {
				for v := range f.acc {
					e.addPoint(f.acc[v], v, s, p, was, -1)
					e.addPoint(f.acc[v], v, s, p, n, 1)
				}
			}
		}
	}
}

func (e *eagerEvaluator) Unmake() { e.top-- }

func (e *eagerEvaluator) Evaluate(b *Board) float64 {
	return e.net.Output(e.stack[e.top].acc[b.stm])
}

// TestNetEvaluatorIsEager follows random games to their end (a Reset now
// and then, as at a new search's root), with plays made and taken back as
// a search makes them, and holds NetEvaluator's value to the eager
// evaluator's bit for bit, in the view a search reads (the side to move's)
// and, now and then, in the other, so that a view is sometimes built over
// several frames at once and sometimes never: for the raw-input nets
// that were built in before the features nets (testdata/nets) and random
// nets whose hidden units are not a multiple of four. The eager evaluator
// knows only the raw inputs; TestFeatureNetIsFull holds a features
// net's values to its full evaluation.
func TestNetEvaluatorIsEager(t *testing.T) {
	var nets []*nn.Net
	for _, file := range []string{"1pt-e21b53313a23.json", "money-d082bd40d0eb.json"} {
		net, err := nn.Load("testdata/nets/" + file)
		if err != nil {
			t.Fatal(err)
		}
		nets = append(nets, net)
	}
	for _, v := range []Variant{OnePoint, Money} {
		for _, h := range []int{40, 7, 1} {
			net, err := NewNet(v, h, rand.New(rand.NewPCG(uint64(h), 1)), 0.5)
			if err != nil {
				t.Fatal(err)
			}
			nets = append(nets, net)
		}
	}
	games := 40
	if testing.Short() {
		games = 8
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, net := range nets {
		lazy, eager := NewNetEvaluator(net), newEagerEvaluator(net)
		followLines(rng, net2variant(t, net), games, lazyAndEager{lazy, eager}, func() int { return lazy.top }, func(b *Board) {
			t.Helper()
			views := []int8{b.stm}
			if rng.IntN(4) == 0 {
				views = append(views, 1-b.stm)
			}
			for _, v := range views {
				q := *b
				q.stm = v
				if got, want := lazy.Evaluate(&q), eager.Evaluate(&q); math.Float64bits(got) != math.Float64bits(want) {
					t.Fatalf("%s, view %d, %d plays since Reset: %v, eager %v", b, v, lazy.top, got, want)
				}
			}
		})
	}
}

// lazyAndEager follows the plays with both evaluators.
type lazyAndEager struct {
	lazy  *NetEvaluator
	eager *eagerEvaluator
}

func (p lazyAndEager) Reset(b *Board)         { p.lazy.Reset(b); p.eager.Reset(b) }
func (p lazyAndEager) Make(b *Board, m int)   { p.lazy.Make(b, m); p.eager.Make(b) }
func (p lazyAndEager) Unmake(b *Board, m int) { p.lazy.Unmake(b, m); p.eager.Unmake() }

// follower is an evaluator as a search drives it: Reset at a root, Make
// after a play is made on the board, Unmake before it is taken back.
type follower interface {
	Reset(b *Board)
	Make(b *Board, m int)
	Unmake(b *Board, m int)
}

// followLines plays games of variant v with random dice and plays, f
// following every play as a search's evaluator does: at each decision up
// to two plays are made, checked and taken back before one is made and
// checked. f is Reset at each game's start, and when its stack (top gives
// its height) is one short of full, as at a new search's root; check sees
// each position reached.
func followLines(rng *rand.Rand, v Variant, games int, f follower, top func() int, check func(*Board)) {
	var codes [MaxPlays]int16
	for g := 0; g < games; g++ {
		b := StartBoard(v)
		f.Reset(b)
		check(b)
		for !b.Over() {
			if top() == maxNetDepth-1 {
				f.Reset(b)
			}
			hi, lo := RollDice(rng.IntN(Rolls))
			b.Roll(hi, lo)
			n := b.Moves(&codes)
			for k := rng.IntN(3); k > 0; k-- {
				m := int(codes[rng.IntN(n)])
				var u Undo
				b.MakeSaving(m, &u)
				f.Make(b, m)
				check(b)
				f.Unmake(b, m)
				b.UnmakeRestoring(m, &u)
			}
			m := int(codes[rng.IntN(n)])
			var u Undo
			b.MakeSaving(m, &u)
			f.Make(b, m)
			check(b)
		}
	}
}

func net2variant(t *testing.T, net *nn.Net) Variant {
	v, err := ParseVariant(net.Variant)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestNetEvaluatorAllocs: following a play and evaluating allocates
// nothing.
func TestNetEvaluatorAllocs(t *testing.T) {
	net, err := EmbeddedNet(OnePoint)
	if err != nil {
		t.Skip(err)
	}
	e := NewNetEvaluator(net)
	b := StartBoard(OnePoint)
	b.Roll(3, 1)
	var codes [MaxPlays]int16
	b.Moves(&codes)
	m := int(codes[0])
	e.Reset(b)
	allocs := testing.AllocsPerRun(100, func() {
		var u Undo
		b.MakeSaving(m, &u)
		e.Make(b, m)
		_ = e.Evaluate(b)
		e.Unmake(b, m)
		b.UnmakeRestoring(m, &u)
	})
	if allocs != 0 {
		t.Fatalf("%v allocations a play", allocs)
	}
}

// TestValueReadsTheNetAsItIs: Value, training's view of a net, is the
// net's Forward, and follows the weights as training changes them (the
// engine's Evaluate reads the copy made with the evaluator); for a raw
// net and a net of the input set "features".
func TestValueReadsTheNetAsItIs(t *testing.T) {
	for _, in := range []int{InputSize, FeatureInputSize} {
		net, err := nn.New(in, 12, rand.New(rand.NewPCG(4, 5)), 0.3)
		if err != nil {
			t.Fatal(err)
		}
		net.Game, net.Variant, net.VariantKey = NetGame, OnePoint.String(), []int{int(OnePoint)}
		e := NewNetEvaluator(net)
		x, h := make([]float64, in), make([]float64, 2*net.H)
		for i, b := range randomPositions(9, 6, 2) {
			if _, ok := BearoffValue(b); ok && in != InputSize {
				continue
			}
			Features(b, x)
			want := net.Forward(x, h)
			if got := e.Value(b); math.Abs(got-want) > 1e-12 {
				t.Fatalf("%d inputs, %s: Value %v, Forward %v", in, b, got, want)
			}
			net.Update(x, h, want, 0.05) // a training step: Value must see it
			if i > 40 {
				break
			}
		}
	}
}

// TestEvaluationCache: a net with features keeps its values by the
// board's key: following random plays, Evaluate gives the value computed
// afresh (Value, to 1e-12), a position met again along another line gets
// the value it was given first, and after Forget no slot answers for a
// position valued before.
func TestEvaluationCache(t *testing.T) {
	net, err := nn.New(FeatureInputSize, 12, rand.New(rand.NewPCG(7, 8)), 0.3)
	if err != nil {
		t.Fatal(err)
	}
	net.Game, net.Variant, net.VariantKey = NetGame, OnePoint.String(), []int{int(OnePoint)}
	e := NewNetEvaluator(net)
	rng := rand.New(rand.NewPCG(5, 6))
	first := map[uint64]float64{}
	var codes [MaxPlays]int16
	again := 0
	for g := 0; g < 20; g++ {
		b := StartBoard(OnePoint)
		e.Reset(b)
		for !b.Over() && e.top < maxNetDepth-1 {
			hi, lo := RollDice(rng.IntN(Rolls))
			b.Roll(hi, lo)
			n := b.Moves(&codes)
			// Every play tried and taken back, as a search's leaves: the
			// positions a play of the other die order or a later game
			// reaches again come back to the cache.
			for i := 0; i < n; i++ {
				m := int(codes[i])
				var u Undo
				b.MakeSaving(m, &u)
				e.Make(b, m)
				got := e.Evaluate(b)
				if v, ok := first[b.key]; ok {
					again++
					if math.Float64bits(v) != math.Float64bits(got) {
						t.Fatalf("%s met again: %v, first %v", b, got, v)
					}
				} else {
					first[b.key] = got
				}
				if _, bo := BearoffValue(b); !bo && math.Abs(got-e.Value(b)) > featuresTolerance {
					t.Fatalf("%s: Evaluate %v, Value %v", b, got, e.Value(b))
				}
				e.Unmake(b, m)
				b.UnmakeRestoring(m, &u)
			}
			m := int(codes[rng.IntN(n)])
			var u Undo
			b.MakeSaving(m, &u)
			e.Make(b, m)
		}
	}
	if again == 0 {
		t.Fatal("no position was met again")
	}
	e.Forget()
	for key := range first {
		if c := e.cache[key&(1<<cacheBits-1)]; c.tag == key^e.gen*cacheSalt {
			t.Fatalf("key %x answered after Forget", key)
		}
	}
	t.Logf("%d positions valued, %d met again", len(first), again)
}

// changedByPoint is changedPoints a point at a time.
func changedByPoint(now, was *Points) uint32 {
	var m uint32
	for p := range now {
		if now[p] != was[p] {
			m |= 1 << p
		}
	}
	return m
}

// TestChangedPoints: changedPoints finds the points where two sides
// differ, for random sides and for sides that differ in one point by one
// checker, or by a count's top bit alone.
func TestChangedPoints(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for trial := 0; trial < 100000; trial++ {
		var now, was Points
		for p := range now {
			now[p] = int8(rng.IntN(Checkers + 1))
		}
		was = now
		switch trial % 3 {
		case 0:
			for p := range was {
				if rng.IntN(4) == 0 {
					was[p] = int8(rng.IntN(Checkers + 1))
				}
			}
		case 1:
			p := rng.IntN(len(was))
			was[p] ^= int8(1 << rng.IntN(4))
		case 2:
			p := rng.IntN(len(was))
			was[p] ^= -128
		}
		if got, want := changedPoints(&now, &was), changedByPoint(&now, &was); got != want {
			t.Fatalf("%v against %v: %#x, point by point %#x", now, was, got, want)
		}
	}
}

// TestFixedPointIsExact: a features net's fixed-point accumulators, built
// play by play along random lines (plays tried and taken back, views built
// over several frames at once), are the integers of the same position's
// accumulators built afresh; so two lines to one position give it one
// value.
func TestFixedPointIsExact(t *testing.T) {
	net, err := EmbeddedNet(OnePoint)
	if err != nil {
		t.Fatal(err)
	}
	lazy, fresh := NewNetEvaluator(net), NewNetEvaluator(net)
	if lazy.q == nil {
		t.Fatal("the built-in net's evaluator has no fixed-point columns")
	}
	rng := rand.New(rand.NewPCG(13, 14))
	checked := 0
	followLines(rng, OnePoint, 30, lazy, func() int { return lazy.top }, func(b *Board) {
		t.Helper()
		if rng.IntN(3) > 0 {
			return // left unbuilt, built later with a frame above it
		}
		v := int(b.stm)
		lazy.build(lazy.top, v)
		fresh.Reset(b)
		fresh.build(0, v)
		if !slices.Equal(lazy.stack[lazy.top].iacc[v], fresh.stack[0].iacc[v]) {
			t.Fatalf("%s, %d plays since Reset: the accumulator differs from the one built afresh", b, lazy.top)
		}
		checked++
	})
	if checked < 1000 {
		t.Fatalf("only %d positions checked", checked)
	}
}
