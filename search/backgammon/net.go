package backgammon

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"unsafe"

	"starlab/nn"
	"starlab/search"
	"starlab/search/game"
)

// NetGame is the game a backgammon net's weight file names.
const NetGame = "backgammon"

// The inputs of a backgammon net, from the side to move's view (the side
// on roll, before or after its roll: the dice are not inputs): for the side
// to move, then the other, four units for each of its 24 points and its
// bar, as gnubg encodes a count n (1: 1000, 2: 0100, 3: 0010, n >= 4:
// 0 0 1 (n-3)/2, Tesauro's units made one-hot), then its borne-off
// checkers over 15. 202 inputs: TD-Gammon's 198 with the bar as a point
// and no side-to-move units, which the mover's view makes constant.
const (
	unitsPerSide = 4*Bar + 1
	InputSize    = 2 * unitsPerSide
)

// DefaultHidden is the hidden units of a net made without a size.
const DefaultHidden = 40

// pointUnits are the four units of a point holding n checkers.
var pointUnits [Checkers + 1][4]float64

func init() {
	for n := 1; n <= Checkers; n++ {
		switch n {
		case 1, 2, 3:
			pointUnits[n][n-1] = 1
		default:
			pointUnits[n] = [4]float64{0, 0, 1, float64(n-3) / 2}
		}
	}
}

// input returns the first input of side s's point p (1 to 25) or its
// borne-off checkers (p = 0) in the view of side view.
func input(view, s, p int) int {
	base := 0
	if s != view {
		base = unitsPerSide
	}
	if p == Off {
		return base + 4*Bar
	}
	return base + 4*(p-1)
}

// Features writes b's inputs, seen from its side to move, into x (len
// InputSize, or FeatureInputSize for a net of the input set "features",
// whose features it then writes after the others): the one definition of
// the inputs, for training and the engine alike.
func Features(b *Board, x []float64) {
	if len(x) >= FeatureInputSize {
		features(b, x[InputSize:FeatureInputSize], nil)
	}
	clear(x[:InputSize])
	view := int(b.stm)
	for s := 0; s < 2; s++ {
		for p := 1; p <= Bar; p++ {
			if n := b.pts[s][p]; n > 0 {
				copy(x[input(view, s, p):][:4], pointUnits[n][:])
			}
		}
		x[input(view, s, Off)] = float64(b.pts[s][Off]) / Checkers
	}
}

// NewNet returns a net of variant v with hidden units (DefaultHidden for
// 0), its weights drawn by nn.New from rng and scale.
func NewNet(v Variant, hidden int, rng *rand.Rand, scale float64) (*nn.Net, error) {
	if hidden == 0 {
		hidden = DefaultHidden
	}
	net, err := nn.New(InputSize, hidden, rng, scale)
	if err != nil {
		return nil, err
	}
	net.Game, net.Variant, net.VariantKey = NetGame, v.String(), []int{int(v)}
	return net, nil
}

// CheckNet reports whether net is a backgammon net of variant v.
func CheckNet(net *nn.Net, v Variant) error {
	if net.Game != NetGame {
		return fmt.Errorf("a net for the game %q, not %q", net.Game, NetGame)
	}
	if net.Variant != v.String() || len(net.VariantKey) != 1 || net.VariantKey[0] != int(v) {
		return fmt.Errorf("a net for backgammon %s, not %s", net.Variant, v)
	}
	if net.In != InputSize && net.In != FeatureInputSize {
		return fmt.Errorf("%d inputs, not the %d of a backgammon net (or %d with the features)", net.In, InputSize, FeatureInputSize)
	}
	if err := checkHead(net, v); err != nil {
		return err
	}
	for _, p := range net.Phases {
		if err := checkHead(p, v); err != nil {
			return fmt.Errorf("race net: %v", err)
		}
		if p.Phase != RacePhase {
			return fmt.Errorf("a net of the phase %q; backgammon's is %q", p.Phase, RacePhase)
		}
		if len(p.Deep) > 0 || len(net.Deep) > 0 {
			return fmt.Errorf("a net of more than one hidden layer with a race net; a race net and its main net have one each")
		}
	}
	return nil
}

// RacePhase is the phase of a race net (nn.Net.Phases): the positions
// where the sides' checkers have passed each other (no contact, Contact).
// A net with a race net has the race net evaluate those, in search and in
// training (where a race net of the input set "features" gives way to the
// bear-off databases in turn), and itself the rest.
const RacePhase = "race"

// inRace reports whether b is a position of RacePhase.
func inRace(b *Board) bool { return !b.Contact() }

// NetEvaluator is a backgammon net as the engine's evaluator. It keeps a
// stack of frames, one per play made since Reset, each with the position
// and the first layer's pre-activations (the accumulator) of both sides'
// views. A play changes a few points (its from and to points, the
// borne-off count, and a hit's point and bar), and a frame's accumulator
// is its parent's plus the change of those points' units, found by
// comparing the two frames' positions.
//
// The accumulators are built when first read, a view at a time: a leaf
// reads only its side to move's view, and a search from a rolled root
// to an odd depth reads only one view along every line, so most frames
// never build the other. Building is one pass of nn.Kernel.Update over
// the hidden units (four at a time, a multiply and an add per term, no
// fused multiply-add), each unit's sum taken in the order the eager
// version (addPoint per changed point, then per view, with
// nn.Net.AddInput) added the same terms, so the values are bit for bit
// those of that version, which the tests keep as the specification
// (eagerEvaluator in net_test.go).
//
// A net of the input set "features" (the newer kind) keeps its
// accumulators in fixed point instead: a point of a side holding c
// checkers adds one column, its units' weights summed and rounded to a
// multiple of a power of two (the table q), and an accumulator is the sum
// in int32 of its occupied points' columns (nn.AddInt32: a changed point
// takes its old column out and its new one in). The sum is exact, so an
// accumulator is the same integers however the plays reached its
// position, and a value depends on the position alone; B1 and the
// features join it in float64 at each value (nn.Kernel.ValueInt32).
type NetEvaluator struct {
	net   *nn.Net
	k     *nn.Kernel
	w     []float64 // the raw inputs' first-layer columns, input i's at i·k.H, padded
	top   int
	stack []netFrame
	// at and a are the terms of an accumulator being built: the offsets
	// of its inputs' columns in w and what each adds per weight, in the
	// order the sum takes them.
	at [maxTerms]int32
	a  [maxTerms]float64
	// feat, fat and fa are a net of the input set "features"'s features
	// of the position evaluated and their terms, in w32, the features'
	// columns in float32 (nn.Kernel.ValueInt32); tmp is the accumulator
	// with them added.
	feat [FeatureInputs]float64
	fat  [FeatureInputs]int32
	fa   [FeatureInputs]float32
	w32  []float32
	tmp  []float64
	// cache is a net with features's evaluation cache (nil for a net of
	// the raw inputs, and until the first Evaluate): its values by the
	// board's key, in the slot of the key's low bits, as gnubg keeps an
	// evaluation cache, since a search values the same position at every
	// iteration of its deepening and through transpositions (at depth 5
	// on the bench positions, 33% of its evaluations are of a position it
	// has valued before in the same search, and the cache's 2^18 slots
	// answer 29.5%). A slot holds the key xored with the generation's salt
	// (gen·cacheSalt), so that Forget empties the cache by starting a new
	// generation.
	cache []cachedValue
	gen   uint64
	// q is a net with features's table of fixed-point columns, one per
	// point state (qOf), in units of qscale; plus and minus are the
	// columns an accumulator's building adds and takes out.
	q           []int32
	qscale      float64
	plus, minus [2 * (Bar + 1)]int32
	// hits is a net with features's cache of hits (hitCache).
	hits *hitCache
	// keys are the keys after the plays Moves generated.
	keys [MaxPlays]uint64
	// race is the evaluator of the net's race net (nn.Net.Phases), nil
	// without one: Evaluate and Value hand it the positions of the race,
	// and it follows every play, building its accumulators only when read.
	race *NetEvaluator
}

// cachedValue is a slot of NetEvaluator.cache: the value v of the board
// whose key xored with its generation's salt is tag.
type cachedValue struct {
	tag uint64
	v   float64
}

// cacheSalt makes each generation's tags of the same key unlike (an odd
// multiplier: the golden ratio's).
const cacheSalt = 0x9e3779b97f4a7c15

// featuresTolerance bounds |Evaluate - Value| for a net of the input set
// "features", whose evaluator rounds its accumulators to fixed point and
// adds the features and computes the activations in float32
// (withFeatures): the largest difference on the built-in nets over 2,000
// random games' positions is 2.8e-7.
const featuresTolerance = 1e-5

// cacheBits is the log2 of the slots of a NetEvaluator's cache (4 MiB).
const cacheBits = 18

type netFrame struct {
	pts   [2]Points
	acc   [2][]float64 // a net of the raw inputs'
	iacc  [2][]int32   // a net with features's, in units of qscale
	ready [2]bool      // acc[v] or iacc[v] holds view v's accumulator of pts
}

// maxNetDepth bounds the plays the evaluator follows from a Reset.
const maxNetDepth = 160

// maxTerms bounds the terms of an accumulator's building: a changed point
// takes at most four (two units out, two in) and there are 2·26 points.
const maxTerms = 4 * 2 * (Bar + 1)

// NewNetEvaluator returns an evaluator of net; call Reset before Evaluate.
func NewNetEvaluator(net *nn.Net) *NetEvaluator {
	k := nn.NewKernel(net)
	e := &NetEvaluator{net: net, k: k, w: make([]float64, InputSize*k.H), stack: make([]netFrame, maxNetDepth+1), tmp: make([]float64, k.H)}
	for i := 0; i < InputSize; i++ {
		k.Column(e.w[i*k.H:], i)
	}
	if net.In != InputSize {
		e.w32 = make([]float32, (net.In-InputSize)*k.H)
		for i := InputSize; i < net.In; i++ {
			k.Column32(e.w32[(i-InputSize)*k.H:], i)
		}
		bearoff() // built now, not inside a timed search's first bear-off
		e.gen = 1 // generation 0's tags are the empty slots
		e.fixedColumns()
		e.hits = new(hitCache)
	}
	for i := range e.stack {
		for v := range 2 {
			if e.q != nil {
				e.stack[i].iacc[v] = make([]int32, k.H)
			} else {
				e.stack[i].acc[v] = make([]float64, k.H)
			}
		}
	}
	if r := net.PhaseNet(RacePhase); r != nil {
		e.race = NewNetEvaluator(r)
	}
	return e
}

// qOf returns the offset in NetEvaluator.q of the column of a point p
// (Off to Bar) holding c checkers (1 to Checkers) of the side to move in
// the accumulator's view (rel 0) or of the other side (rel 1).
func qOf(rel, p int, c int8, h int) int32 {
	return int32(((rel*(Bar+1)+p)*(Checkers+1) + int(c)) * h)
}

// fixedColumns makes the table q: each point state's column, what its
// terms add when the point takes its checkers (pointTerms, the raw
// inputs' columns in w), rounded to a multiple of qscale, the finest
// power of two at which a bound on every accumulator stays within int32:
// a unit's bound is the sum over the points of its largest column in
// magnitude, and each column's rounding adds at most half a unit.
func (e *NetEvaluator) fixedColumns() {
	h := e.k.H
	cols := make([]float64, 2*(Bar+1)*(Checkers+1)*h)
	for rel := 0; rel < 2; rel++ {
		for p := 0; p <= Bar; p++ {
			i, off := input(0, rel, p), 0
			if p == Off {
				off = 1
			}
			for c := int8(1); c <= Checkers; c++ {
				col, t := cols[qOf(rel, p, c, h):][:h], &pointTerms[0][off][c]
				for x := 0; x < t.n; x++ {
					for j, w := range e.w[(i+t.k[x])*h:][:h] {
						col[j] += t.a[x] * w
					}
				}
			}
		}
	}
	bound := 0.0
	for j := 0; j < h; j++ {
		m := 0.0
		for x := 0; x < 2*(Bar+1); x++ {
			most := 0.0
			for c := 1; c <= Checkers; c++ {
				most = max(most, math.Abs(cols[(x*(Checkers+1)+c)*h+j]))
			}
			m += most
		}
		bound = max(bound, m)
	}
	bits := 60
	if bound > 0 {
		bits = min(bits, int(math.Floor(math.Log2((math.MaxInt32-2*(Bar+1))/bound))))
	}
	e.qscale = math.Ldexp(1, -bits)
	e.q = make([]int32, len(cols))
	for x, c := range cols {
		e.q[x] = int32(math.Round(math.Ldexp(c, bits)))
	}
}

// Clone returns an evaluator of the same net with stacks of its own.
func (e *NetEvaluator) Clone() *NetEvaluator { return NewNetEvaluator(e.net) }

// Reset starts the stack at b: its accumulators are B1 plus every
// occupied point's units, side 0 then 1, point Off to Bar.
func (e *NetEvaluator) Reset(b *Board) {
	if e.race != nil {
		e.race.Reset(b)
	}
	e.top = 0
	f := &e.stack[0]
	f.pts = b.pts
	f.ready = [2]bool{}
}

// pointTerms[out][off][c] are the terms of a point of c checkers put in
// (out 0) or taken out (out 1), the borne-off count's (off 1) or another
// point's (off 0): its non-zero units, each as its index from the point's
// first input and its value, in the eager version's arithmetic (sign·u,
// sign·c/Checkers: eagerEvaluator.addPoint in net_test.go).
var pointTerms [2][2][Checkers + 1]unitTerms

type unitTerms struct {
	n int
	k [2]int
	a [2]float64
}

func init() {
	for out, sign := range [2]float64{1, -1} {
		for c := 1; c <= Checkers; c++ {
			pointTerms[out][1][c] = unitTerms{n: 1, a: [2]float64{sign * float64(c) / Checkers}}
			t := &pointTerms[out][0][c]
			for k, u := range pointUnits[c] {
				if u != 0 {
					t.k[t.n], t.a[t.n] = k, sign*u
					t.n++
				}
			}
		}
	}
}

// addTerms appends to the terms from n on the change of side s's point p
// from was checkers to now, in view v: was's units out, then now's in.
func (e *NetEvaluator) addTerms(n, v, s, p int, was, now int8) int {
	i, off := input(v, s, p), 0
	if p == Off {
		off = 1
	}
	n = e.push(n, i, &pointTerms[1][off][was])
	return e.push(n, i, &pointTerms[0][off][now])
}

// push appends to the terms from n on those of t, of the point whose first
// input is i.
func (e *NetEvaluator) push(n, i int, t *unitTerms) int {
	for j := 0; j < t.n; j++ {
		e.at[n], e.a[n] = int32((i+t.k[j])*e.k.H), t.a[j]
		n++
	}
	return n
}

// build makes view v's accumulator of frame t ready, building those of
// the frames below it first where they are not.
func (e *NetEvaluator) build(t, v int) {
	lo := t
	for lo >= 0 && !e.stack[lo].ready[v] {
		lo--
	}
	for u := lo + 1; u <= t; u++ {
		e.buildFrame(u, v)
		e.stack[u].ready[v] = true
	}
}

// buildFrame builds view v's accumulator of frame u from its parent's,
// which is ready, or at the root from an empty board's (B1, or 0 in fixed
// point), by the points where the positions differ, side 0 then 1, point
// Off to Bar: in fixed point the columns of their old states out and of
// their new states in, in float64 their terms in the eager version's
// order (addTerms).
func (e *NetEvaluator) buildFrame(u, v int) {
	f, h := &e.stack[u], e.k.H
	var old *netFrame
	if u > 0 {
		old = &e.stack[u-1]
	}
	n, np, nm := 0, 0, 0
	for s := 0; s < 2; s++ {
		now, was := &f.pts[s], &noPoints
		if old != nil {
			was = &old.pts[s]
		}
		for x := changedPoints(now, was); x != 0; x &= x - 1 {
			p := bits.TrailingZeros32(x)
			if e.q == nil {
				n = e.addTerms(n, v, s, p, was[p], now[p])
				continue
			}
			if c := was[p]; c > 0 {
				e.minus[nm] = qOf(s^v, p, c, h)
				nm++
			}
			if c := now[p]; c > 0 {
				e.plus[np] = qOf(s^v, p, c, h)
				np++
			}
		}
	}
	if e.q != nil {
		src := f.iacc[v]
		if old != nil {
			src = old.iacc[v]
		} else {
			clear(src)
		}
		nn.AddInt32(f.iacc[v], src, e.q, e.plus[:np], e.minus[:nm])
		return
	}
	src := e.k.B1
	if old != nil {
		src = old.acc[v]
	}
	e.k.Update(f.acc[v], src, e.w, e.at[:n], e.a[:n])
}

// noPoints is a side with no checkers: what the root's accumulators are
// built from.
var noPoints Points

// changedPoints returns the points where now and was differ (bit p for
// point p, Off to Bar), eight at a time: the bytes of their difference
// that are not 0 (byteTops of each byte's low seven bits plus 0x7f, which
// carries into its top bit alone, or its top bit). The last word, points
// 18 to 25, overlaps the one before. changedByPoint is its
// specification.
func changedPoints(now, was *Points) uint32 {
	a := (*[len(Points{})]byte)(unsafe.Pointer(now))
	b := (*[len(Points{})]byte)(unsafe.Pointer(was))
	var m uint32
	for _, q := range [...]int{0, 8, 16, len(Points{}) - 8} {
		d := binary.LittleEndian.Uint64(a[q:]) ^ binary.LittleEndian.Uint64(b[q:])
		m |= byteTops((d&0x7f7f7f7f7f7f7f7f+0x7f7f7f7f7f7f7f7f)|d) << q
	}
	return m
}

// Make follows b.MakeSaving(m, ...): b shows the play made.
func (e *NetEvaluator) Make(b *Board, _ int) {
	if e.top == maxNetDepth {
		panic("backgammon net evaluator: too many plays since Reset")
	}
	if e.race != nil {
		e.race.Make(b, 0)
	}
	e.top++
	f := &e.stack[e.top]
	f.pts = b.pts
	f.ready = [2]bool{}
}

// Unmake precedes the take-back of the play Make followed.
func (e *NetEvaluator) Unmake(b *Board, m int) {
	if e.race != nil {
		e.race.Unmake(b, m)
	}
	e.top--
}

// Evaluate returns the net's value of b for its side to move, from the
// accumulators, which must follow b: its race net's where it has one and
// b is a race (RacePhase). A net of the input set "features"
// gives way to the bear-off databases where they value b (BearoffValue):
// such a net is the newer kind, and its evaluator the engine's whole
// evaluation; its values are kept in the evaluation cache, where a board
// of the same key finds them (Forget empties it).
func (e *NetEvaluator) Evaluate(b *Board) float64 {
	f := &e.stack[e.top]
	if e.race != nil && inRace(b) {
		return e.race.Evaluate(b)
	}
	if e.net.In != InputSize {
		if v, ok := BearoffValue(b); ok {
			return v
		}
		if e.cache == nil { // training's evaluators, which only Value, make none
			e.cache = make([]cachedValue, 1<<cacheBits)
			search.AdviseHugePages(e.cache)
		}
		c, tag := &e.cache[b.key&(1<<cacheBits-1)], b.key^e.gen*cacheSalt
		if c.tag == tag {
			return c.v
		}
		if !f.ready[b.stm] {
			e.build(e.top, int(b.stm))
		}
		v := e.withFeatures(b, f.iacc[b.stm])
		*c = cachedValue{tag: tag, v: v}
		return v
	}
	if !f.ready[b.stm] {
		e.build(e.top, int(b.stm))
	}
	return e.net.Output(f.acc[b.stm][:e.net.H])
}

// Moves is b.Moves(out) for a search that values the positions the plays
// lead to next (a decision one ply above its leaves), and starts bringing
// the evaluation cache's slots of the first prefetchPlays of them into
// the processor's caches: a slot read cold waits for memory (4 MiB of
// slots, read at random), and by the time the search values the plays'
// positions most of their slots have come.
func (e *NetEvaluator) Moves(b *Board, out *[MaxPlays]int16) int {
	if e.cache == nil {
		return b.Moves(out)
	}
	n := b.MovesKeys(out, &e.keys)
	for _, k := range e.keys[:min(n, prefetchPlays)] {
		search.Prefetch(unsafe.Pointer(&e.cache[k&(1<<cacheBits-1)]))
	}
	return n
}

// prefetchPlays bounds the slots NetEvaluator.Moves prefetches: a
// double's hundreds of plays would crowd out what the search reads first.
const prefetchPlays = 64

// Forget empties the evaluation cache, in one step, so that a search
// that must depend on nothing searched before (the engine's ClearTT)
// finds nothing of it: the values are the position's alone (the
// accumulators are exact), but which positions a search finds already
// valued changes its time.
func (e *NetEvaluator) Forget() {
	if e.race != nil {
		e.race.Forget()
	}
	e.gen++
}

// withFeatures returns the value of a net of the input set "features"
// from acc, the fixed-point accumulator of b's raw inputs: the features'
// terms, computed afresh at every evaluation (they change with the whole
// position, not point by point), are summed in float32 and added to B1
// plus acc (nn.Kernel.ValueInt32). The value depends on the position
// alone, and is within featuresTolerance of Value's.
func (e *NetEvaluator) withFeatures(b *Board, acc []int32) float64 {
	features(b, e.feat[:], e.hits)
	n := 0
	for i, v := range e.feat {
		if v != 0 {
			e.fat[n], e.fa[n] = int32(i*e.k.H), float32(v)
			n++
		}
	}
	return e.k.ValueInt32(e.tmp, acc, e.qscale, e.w32, e.fat[:n], e.fa[:n])
}

// Value returns the net's value of b computed from scratch from the net's
// weights as they are now (training's view of the net: a net trained
// further is read as it is, where Evaluate reads the copy of the weights
// made by NewNetEvaluator), its race net's in a race: B1 plus each input's column, side 0 then 1,
// point Off to Bar, then the features, and the output; the bear-off
// databases where Evaluate takes them. It is the net's Forward to within
// the order of the sums, and Evaluate's to within featuresTolerance.
func (e *NetEvaluator) Value(b *Board) float64 {
	if e.race != nil && inRace(b) {
		return e.race.Value(b)
	}
	net := e.net
	if net.In != InputSize {
		if v, ok := BearoffValue(b); ok {
			return v
		}
	}
	pre := e.tmp[:net.H]
	copy(pre, net.B1)
	view := int(b.stm)
	for s := 0; s < 2; s++ {
		if off := b.pts[s][Off]; off > 0 {
			net.AddInput(pre, input(view, s, Off), float64(off)/Checkers)
		}
		for p := 1; p <= Bar; p++ {
			if n := b.pts[s][p]; n > 0 {
				for k, u := range pointUnits[n] {
					if u != 0 {
						net.AddInput(pre, input(view, s, p)+k, u)
					}
				}
			}
		}
	}
	if net.In != InputSize {
		features(b, e.feat[:], nil)
		for i, v := range e.feat {
			if v != 0 {
				net.AddInput(pre, InputSize+i, v)
			}
		}
	}
	return net.Output(pre)
}

// netKit is the backgammon network as the stages and training use it, by
// variant name (search.NetKit; the engine adds its evaluator).
var netKit = search.VariantNets[Variant]{
	Parse:    ParseVariant,
	Builtin:  EmbeddedNet,
	New:      func(v Variant, rng *rand.Rand, scale float64) (*nn.Net, error) { return NewNet(v, 0, rng, scale) },
	Check:    CheckNet,
	Features: func(pos game.State, x []float64) { Features(pos.(*Board), x) },
	Rate:     func(Variant) float64 { return 0.1 },
	Inputs:   func(_ Variant, set string) (int, error) { return SetInputs(set) },
	Phases:   map[string]func(game.State) bool{RacePhase: func(pos game.State) bool { return inRace(pos.(*Board)) }},
	Outcomes: outcomesOf,
}.Kit()

// defaultEval is mlp where the default variant has a built-in net, else
// the contact evaluator.
func defaultEval() string {
	if _, err := EmbeddedNet(OnePoint); err == nil {
		return "mlp"
	}
	return HandNames[HandContact]
}

// luckEval is the evaluator of a variant's default luck reference: the
// built-in net where the variant has one. Over the same 2,000 games (net
// against contact at depth 1) the luck-adjusted interval's variance was
// 1.71 times smaller than over pairs with it, and 2.4 times larger with
// contact.
func luckEval(variant string) string {
	if v, err := ParseVariant(variant); err == nil {
		if _, err := EmbeddedNet(v); err == nil {
			return "mlp"
		}
	}
	return HandNames[HandContact]
}

// chanceNode returns the chance node before a decision: the roll taken
// back (search.Description.ChanceNode).
func chanceNode(pos game.State) (game.State, bool) {
	b := *pos.(*Board)
	if b.Kind() != game.Decision {
		return nil, false
	}
	b.ClearRoll()
	return &b, true
}
