package td

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"sync"

	"starlab/nn"
	"starlab/runs"
	"starlab/search"
	"starlab/search/game"
	"starlab/selfplay"
)

// The targets of training (Settings.Target).
const (
	// TargetTD is temporal differences, the thesis's: each afterstate
	// moves towards the next one's value (or Expected's mean, or
	// TD(lambda)'s trace), by the net's own 1-ply values.
	TargetTD = "td"
	// TargetSearch moves each afterstate of the self-play games towards
	// the value a deeper search of it finds (TargetSpec), as NNUE's
	// trainers fit search-labelled positions in bulk and Veness et al.
	// (2009) bootstrap from game-tree search; with eval=mlp and no net=
	// the search evaluates with the net being trained, as it was at the
	// round's start.
	TargetSearch = "search"
	// TargetRollout fits the positions of a rollout run (Rollouts) to
	// their rolled-out values, as gnubg's nets were refined on rolled-out
	// positions and wildbg's are trained: no self-play, a "game" of the
	// training being one position fitted (an epoch as many as the rows),
	// each epoch's order shuffled by its own stream.
	TargetRollout = "rollout"
)

// DefaultTargetSpec is the search of TargetSearch when Settings names none.
const DefaultTargetSpec = "staretc:depth=5,tt=4"

// The optimisers (Settings.Optimizer).
const (
	// OptSGD is TD's step of Rate along the gradient, one position at a
	// time.
	OptSGD = "sgd"
	// OptAdam is Adam (Kingma and Ba 2015) over mini-batches of MiniBatch
	// positions of the squared error, Rate its step size: the optimiser
	// for fixed targets such as a search's.
	OptAdam = "adam"
)

// checkTarget checks and fills in the target and optimiser settings:
// TargetSearch's spec (DefaultTargetSpec), Adam as its optimiser, Adam's
// rate 0.001 and mini-batches of 256. The spec itself is parsed, and
// checked against TreeStrap, with the suites (Settings.resolve).
func (s *Settings) checkTarget() error {
	if (s.Rollouts != "") != (s.Target == TargetRollout) {
		return runs.Usagef("-rollouts and -target rollout go together")
	}
	switch s.Target {
	case "", TargetTD:
		s.Target = TargetTD
		if s.Optimizer == "" {
			s.Optimizer = OptSGD
		}
		if s.Optimizer != OptSGD {
			return runs.Usagef("-optimizer %s: TD's updates are steps along the gradient (sgd); Adam is for -target search", s.Optimizer)
		}
		if s.TargetSpec != "" || s.PlayDepth > 1 || s.TreeStrap || s.Plays != 0 {
			return runs.Usagef("-target-spec, -play-depth, -treestrap and -plays: only -target search searches")
		}
		return nil
	case TargetSearch:
	case TargetRollout:
		if s.TargetSpec != "" || s.PlayDepth > 1 || s.TreeStrap || s.Plays != 0 || s.StartSuite != "" {
			return runs.Usagef("-target-spec, -play-depth, -treestrap, -plays and -starts: -target rollout plays no games, it fits the rollout's positions")
		}
	default:
		return runs.Usagef("-target %s: want td, search or rollout", s.Target)
	}
	if s.Plays < 0 || s.Plays > 1000 {
		return runs.Usagef("-plays %d: want 0 (the afterstates played) to 1000 plays a decision", s.Plays)
	}
	if s.PlayDepth < 0 || s.PlayDepth > 64 {
		return runs.Usagef("-play-depth %d: want 0 or 1 (the 1-ply net) to 64", s.PlayDepth)
	}
	if s.Lambda != 0 || s.Expected {
		return runs.Usagef("-lambda and -expected are TD's; -target %s moves each position to its value", s.Target)
	}
	if s.TargetSpec == "" && s.Target == TargetSearch {
		s.TargetSpec = DefaultTargetSpec
	}
	if s.Optimizer == "" {
		s.Optimizer = OptAdam
	}
	switch s.Optimizer {
	case OptAdam:
		if s.Rate == 0 {
			s.Rate = 0.001
		}
		if s.MiniBatch == 0 {
			s.MiniBatch = 256
		}
	case OptSGD:
		if s.MiniBatch == 0 {
			s.MiniBatch = 1
		}
	default:
		return runs.Usagef("-optimizer %s: want sgd or adam", s.Optimizer)
	}
	if s.MiniBatch < 1 || s.MiniBatch > 1<<16 {
		return runs.Usagef("-minibatch %d: want 1 to 65536 positions", s.MiniBatch)
	}
	return nil
}

// targetSpec parses TargetSpec: an engine of the game searched to a
// depth (a time or node limit would make the targets depend on the
// machine).
func (s *Settings) targetSpec() (search.Spec, error) {
	spec, err := selfplay.ParseTargetSpec(s.Kit, s.TargetSpec)
	if err != nil {
		return spec, runs.Usagef("-target-spec: %v", err)
	}
	if !spec.Limits.DepthOnly() {
		return spec, runs.Usagef("-target-spec %s: give a depth and no other limit, so that the targets are the same on any machine", s.TargetSpec)
	}
	return spec, nil
}

// sample is a position with its target, both from its mover's view: the
// net's inputs and the searched value.
type sample struct {
	x      []float64
	target float64
}

// labeller plays a round's games and labels their afterstates: a player
// and a search engine over the round's frozen weights, one per worker.
type labeller struct {
	p      player
	leaf   search.NetValue // the leaves' values of TreeStrap's tree
	engine search.Engine
	limits search.Limits
	in     int // the net's inputs
	cur    game.State
	after  game.State // the scratch afterstate of addPlays
}

// newLabeller returns a labeller whose player and search evaluate with
// frozen (when the search's evaluator is the net being trained).
func (s *Settings) newLabeller(frozen *nn.Net, spec search.Spec) (*labeller, error) {
	val, err := s.Kit.Net.Evaluator(frozen)
	if err != nil {
		return nil, err
	}
	res, err := spec.Config.Resolve()
	if err != nil {
		return nil, err
	}
	if spec.Config.Eval == "mlp" && spec.Config.Net == "" {
		res = res.WithNet(frozen)
	}
	leaf := val
	if net := res.NetFile(); net != nil && net != frozen {
		if leaf, err = s.Kit.Net.Evaluator(net); err != nil {
			return nil, err
		}
	}
	return &labeller{p: player{val: val}, leaf: leaf, engine: s.Kit.NewEngine(res), limits: spec.Limits, in: frozen.In}, nil
}

// searchPlayer chooses the best move of a search to a depth with the
// labeller's engine, or with the probability Explore a random one: the
// self-play of PlayDepth above 1.
type searchPlayer struct {
	lb    *labeller
	depth int
}

func (*searchPlayer) Name() string { return "td-search" }

func (sp *searchPlayer) Choose(ctx context.Context, s game.State) selfplay.Choice {
	p := &sp.lb.p
	if p.explore > 0 && p.rng.Float64() < p.explore {
		moves := s.Legal(p.moves)
		p.moves = moves
		return selfplay.Choice{Move: moves[p.rng.IntN(len(moves))]}
	}
	r := sp.lb.engine.Search(ctx, s, search.Limits{Depth: sp.depth, PlayDepths: true}, nil)
	if len(r.Iterations) == 0 {
		moves := s.Legal(p.moves)
		p.moves = moves
		return selfplay.Choice{Move: moves[0]}
	}
	return selfplay.Choice{Move: game.Move(r.Last().BestMove), Score: r.Last().Score}
}

// label plays game g and returns its afterstates that are not over (and
// are of the phase Settings.Phase, with one), each with its searched
// value. The table is emptied before the game, so that
// a game's targets are the same whichever worker labels it.
func (lb *labeller) label(ctx context.Context, s *Settings, g int64) ([]sample, error) {
	lb.engine.ClearTT()
	start := s.gameStart(g)
	p := &lb.p
	p.rng, p.explore = runs.Stream(s.Seed, "train/explore", uint64(g)), s.Explore
	var players [2]selfplay.Player = [2]selfplay.Player{p, p}
	if s.PlayDepth > 1 {
		sp := &searchPlayer{lb: lb, depth: s.PlayDepth}
		players = [2]selfplay.Player{sp, sp}
	}
	rec, err := selfplay.Play(ctx, s.Kit, start, players, selfplay.NewChanceStream(runs.StreamSeed(s.Seed, "train/dice", uint64(g))), nil)
	if err != nil {
		return nil, err
	}
	var out []sample
	inPhase := s.learnt()
	add := func(pos game.State) error {
		if pos.Kind() == game.Over || inPhase != nil && !inPhase(pos) {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if s.TreeStrap {
			lb.treeSamples(s, pos, lb.limits.Depth, &out)
			return nil
		}
		r := lb.engine.Search(ctx, pos, lb.limits, nil)
		if len(r.Iterations) == 0 {
			return fmt.Errorf("the target search of a position of game %d completed no iteration", g)
		}
		x := make([]float64, lb.in)
		s.Kit.Net.Features(pos, x)
		out = append(out, sample{x: x, target: r.Last().Score})
		return nil
	}
	pos := scratch(&lb.cur, start)
	if err := add(pos); err != nil { // the start is an afterstate
		return nil, err
	}
	for _, a := range rec.Actions {
		if pos.Kind() == game.Decision {
			var err error
			if s.Plays > 0 { // the best plays, before the one made
				err = lb.addPlays(pos, s.Plays, add)
				pos.Play(game.Move(a))
			} else {
				pos.Play(game.Move(a))
				err = add(pos)
			}
			if err != nil {
				return nil, err
			}
		} else {
			pos.Happen(game.Event{ID: uint16(a)})
		}
	}
	return out, nil
}

// addPlays calls add on the afterstates of the n plays of the decision
// pos best by the net's 1-ply values for its mover (every play, with
// fewer), the best first; of equal values the first in the game's order
// comes first. pos is left as it was.
func (lb *labeller) addPlays(pos game.State, n int, add func(game.State) error) error {
	vs := lb.p.playValues(pos) // sorted in the player's buffer: nothing else values plays until the next decision
	slices.SortStableFunc(vs, func(a, b playValue) int { return cmp.Compare(b.v, a.v) })
	for _, pv := range vs[:min(n, len(vs))] {
		w := scratch(&lb.after, pos)
		w.Play(pv.m)
		if err := add(w); err != nil {
			return err
		}
	}
	return nil
}

// treeSamples appends to out every position of pos's expectimax tree to
// depth (game.Expectimax, whose values every sound algorithm finds, its
// leaves valued by the labeller's net) that a move led to, pos itself
// included, and that the recursion valued from below, with its value
// there as target: TreeStrap's targets (Veness et al. 2009), every
// interior afterstate of the search fitted to its searched value.
func (lb *labeller) treeSamples(s *Settings, pos game.State, depth int, out *[]sample) {
	game.Expectimax(pos, depth, s.Kit.CountsChance(), lb.leaf.Value, func(st game.State, v float64, afterMove bool) {
		if afterMove {
			x := make([]float64, lb.in)
			s.Kit.Net.Features(st, x)
			*out = append(*out, sample{x: x, target: v})
		}
	})
}

// fitter moves the net towards the samples' targets, in mini-batches of
// the squared error, in the order the samples come.
type fitter struct {
	s *Settings
	// whole is the net the games are played and labelled with, net the
	// one stepped: whole, or its net of the phase Settings.Phase.
	whole   *nn.Net
	net     *nn.Net
	adam    *nn.Adam
	h       []float64
	g, sum  *nn.Grad
	pending int // samples in sum, not yet stepped
	sumErr  float64
	nErr    int64
}

func newFitter(s *Settings, whole *nn.Net) *fitter {
	net := s.trained(whole)
	f := &fitter{s: s, whole: whole, net: net, h: make([]float64, 2*net.H), g: net.NewGrad(), sum: net.NewGrad()}
	if s.Optimizer == OptAdam {
		f.adam = nn.NewAdam(net, s.Rate)
	}
	return f
}

// add adds a sample's gradient of ½(v - target)² to the mini-batch, and
// steps when it is full; rate is the step size of the games trained.
func (f *fitter) add(sm sample, rate float64) {
	v := f.net.Backward(sm.x, f.h, f.g)
	f.sum.AddScaled(f.g, v-sm.target)
	f.sumErr += math.Abs(sm.target - v)
	f.nErr++
	f.pending++
	if f.pending == f.s.MiniBatch {
		f.step(rate)
	}
}

// step steps along the mean gradient of the pending samples: Adam's step,
// or -rate times it.
func (f *fitter) step(rate float64) {
	if f.pending == 0 {
		return
	}
	f.sum.Scale(1 / float64(f.pending))
	if f.adam != nil {
		f.adam.Rate = rate
		f.adam.Step(f.net, f.sum)
	} else {
		f.net.Step(f.sum, -rate)
	}
	f.sum.Zero()
	f.pending = 0
}

// searchRound plays games g..g+n-1 with the weights of net as they are
// now, on the workers, from the starts that s, checked, has read, labels their afterstates by the target search and
// fits the net to them: the round's samples in an order shuffled by the
// round's own stream, so that a mini-batch mixes games and a run depends
// on its settings and not on the workers. A partial mini-batch is stepped
// at the end of the round when the round ends at a checkpoint or a
// measurement (last), so that what a checkpoint saves is all the games
// before it.
func searchRound(ctx context.Context, s *Settings, f *fitter, g, n int64, last bool) error {
	frozen := f.whole.Clone()
	idx := make([]int64, n)
	for i := range idx {
		idx[i] = g + int64(i)
	}
	type labelled struct {
		i  int64
		ss []sample
	}
	byGame := make([][]sample, n)
	var mu sync.Mutex
	var werr error // a worker's labeller's error, the same for every worker
	err := runs.Pool(ctx, s.Workers, idx,
		func() *labeller {
			lb, err := s.newLabeller(frozen, s.res.spec)
			if err != nil {
				mu.Lock()
				werr = err
				mu.Unlock()
			}
			return lb
		},
		func(ctx context.Context, lb *labeller, gi int64) (labelled, error) {
			if lb == nil {
				mu.Lock()
				defer mu.Unlock()
				return labelled{}, fmt.Errorf("target search: %v", werr)
			}
			ss, err := lb.label(ctx, s, gi)
			return labelled{gi, ss}, err
		},
		func(r labelled) (bool, error) { byGame[r.i-g] = r.ss; return false, nil })
	if err != nil {
		return err
	}
	var all []sample
	for _, ss := range byGame {
		all = append(all, ss...)
	}
	rng := runs.Stream(s.Seed, "train/shuffle", uint64(g))
	rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	rate := s.rate(g)
	for _, sm := range all {
		f.add(sm, rate)
	}
	if last {
		f.step(rate)
	}
	return nil
}
