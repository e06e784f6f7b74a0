package td

import (
	"math"

	"starlab/nn"
	"starlab/runs"
	"starlab/search"
	"starlab/search/game"
	"starlab/selfplay"
)

// learner applies TD updates to the net it owns.
type learner struct {
	s   *Settings
	net *nn.Net
	// fit is the net the updates step: net, or its net of the phase
	// Settings.Phase, whose positions alone are learnt (inPhase).
	fit     *nn.Net
	inPhase func(game.State) bool
	p       player // evaluates targets with the current weights
	x, h    []float64
	g       *nn.Grad
	trace   *nn.Grad
	sumErr  float64
	nErr    int64
	cur     game.State // the state of the game being replayed
	before  game.State // the afterstate being learnt
	// expected's scratch, by depth of its recursion: the state after an
	// event, and the chance node's events.
	stack  []game.State
	events [][]game.Event
	// out is the game's outcomes where the net stepped has outputs of
	// probabilities (nn.Head): each output then moves towards its own
	// target, and a target is k values, from the view of the afterstate's
	// mover, where it is otherwise one value in side 0's view (k 1). xa
	// and ha are the next afterstate's inputs and hidden units, t a
	// target.
	out    *search.Outcomes
	k      int
	t      []float64
	xa, ha []float64
}

func newLearner(s *Settings, net *nn.Net) (*learner, error) {
	val, err := s.Kit.Net.Evaluator(net)
	if err != nil {
		return nil, err
	}
	fit := s.trained(net)
	l := &learner{s: s, net: net, fit: fit, inPhase: s.learnt(), x: make([]float64, net.In), h: make([]float64, 2*fit.H), g: fit.NewGrad(), trace: fit.NewGrad()}
	l.p = player{val: val}
	l.k = 1
	if fit.Head != nil {
		switch {
		case s.Lambda != 0 || s.Expected:
			return nil, runs.Usagef("-lambda %g, -expected %v: a net of outcomes learns by TD(0) from the afterstate that came", s.Lambda, s.Expected)
		case fit == net && len(net.Phases) > 0:
			return nil, runs.Usagef("a net of outcomes with phase nets learns by TD one net at a time: give -phase, or a net without them")
		}
		// Outcomes is given: a game without it gets no net of outcomes
		// here (the kit's Check refuses one from -from or -resume, and
		// Settings.Check refuses -outcomes).
		if l.out, err = s.Kit.Net.Outcomes(s.Variant); err != nil {
			return nil, runs.Usagef("%v", err)
		}
		l.k, l.xa, l.ha = fit.Head.K(), make([]float64, net.In), make([]float64, 2*fit.H)
	}
	l.t = make([]float64, l.k)
	return l, nil
}

// sideZero returns the sign that turns a value for the mover of s into one
// for side 0: TD(lambda) runs on values of one fixed perspective, so that
// a trace can add gradients of positions of both sides.
func sideZero(s game.State) float64 {
	if s.Mover() == 0 {
		return 1
	}
	return -1
}

// target writes into t the TD target of the afterstate before, in side
// 0's view: the rules' value when the game ended, otherwise the net's
// value of the next afterstate, after (sampled), or the expected 1-ply
// value of before (Expected). A net of outcomes's are its probabilities
// (outcomeTarget).
func (l *learner) target(before, after game.State, t []float64) {
	switch {
	case l.out != nil:
		l.outcomeTarget(before, after, t)
	case l.s.Expected:
		t[0] = sideZero(before) * l.expected(before)
	default:
		t[0] = sideZero(after) * l.p.valueFor(after, after.Mover())
	}
}

// outcomeTarget writes into t the probabilities of the next afterstate,
// after, from the view of before's mover: the game's result where it
// ended, otherwise those the game knows exactly where it knows them and
// the net's for the rest.
func (l *learner) outcomeTarget(before, after game.State, t []float64) {
	if after.Kind() == game.Over {
		l.out.Over(after, t)
	} else {
		known := 0
		if l.out.Exact != nil {
			known = l.out.Exact(l.fit, after, t)
		}
		if known < l.k {
			var p [nn.MaxOutputs]float64
			l.s.Kit.Net.Features(after, l.xa)
			l.fit.Probs(l.xa, l.ha, p[:])
			copy(t[known:l.k], p[known:l.k])
		}
	}
	if after.Mover() != before.Mover() {
		l.out.Flip(t)
	}
}

// expected returns the 1-ply value of s for its mover: over a chance node
// the mean, by the events' weights, of the values after each event; at a
// decision the best move's value; the rules' value when s is over.
func (l *learner) expected(s game.State) float64 { return l.expectedAt(s, 0) }

func (l *learner) expectedAt(s game.State, depth int) float64 {
	switch s.Kind() {
	case game.Over:
		return s.Result()
	case game.Decision:
		_, v := l.p.best(s)
		return v
	}
	if depth == len(l.stack) {
		l.stack, l.events = append(l.stack, nil), append(l.events, nil)
	}
	var total int
	l.events[depth], total = s.Outcomes(l.events[depth])
	sum := 0.0
	for _, e := range l.events[depth] {
		w := scratch(&l.stack[depth], s)
		w.Happen(e)
		v := l.expectedAt(w, depth+1)
		if w.Mover() != s.Mover() {
			v = -v
		}
		sum += float64(e.Weight) * v
	}
	return sum / float64(total)
}

// learn replays one game and applies its TD updates: for each afterstate
// s_k, delta = target - U(s_k), trace = lambda*trace + grad U(s_k), and
// weights += rate*delta*trace; the trace is reset every game. With sampled
// targets the last target is the game's result, never the net's value;
// with Expected every target, the last included, is the expected 1-ply
// value, which is the rules' value only where the game ends.
// TD(0) needs no trace: its update touches only the rows of the inputs a
// position sets (nn.Net.Update).
//
// The game is game g, which this stage just played from its start
// (Settings.gameStart), so its actions are applied without the checks of
// selfplay.Record.Replay, which would cost a twentieth of the training's
// time.
func (l *learner) learn(g int64, gm *selfplay.Record, rate float64) {
	l.trace.Zero()
	l.replay(l.s.gameStart(g), gm, func(before, after game.State) { l.update(before, after, rate) })
}

// replay replays game gm and calls visit with each afterstate and the next
// one, in the order of the game: the start, every position a move leads
// to, and the position an event ends the game in; with a phase
// (Settings.Phase) only the afterstates of the phase.
func (l *learner) replay(start game.State, gm *selfplay.Record, visit func(before, after game.State)) {
	s := scratch(&l.cur, start)
	scratch(&l.before, s) // the start is an afterstate
	afterMove := false
	for _, a := range gm.Actions {
		if afterMove {
			l.visitIn(visit, s)
			l.before.CopyFrom(s)
		}
		afterMove = s.Kind() == game.Decision
		if afterMove {
			s.Play(game.Move(a))
		} else {
			s.Happen(game.Event{ID: uint16(a)})
		}
	}
	if afterMove || s.Kind() == game.Over {
		l.visitIn(visit, s)
	}
}

// visitIn calls visit with the afterstate being learnt and after unless
// the trained net is a phase's and the afterstate is not of it.
func (l *learner) visitIn(visit func(before, after game.State), after game.State) {
	if l.inPhase == nil || l.inPhase(l.before) {
		visit(l.before, after)
	}
}

// update applies the TD update of the afterstate before, whose next
// afterstate is after.
func (l *learner) update(before, after game.State, rate float64) {
	l.s.Kit.Net.Features(before, l.x)
	l.target(before, after, l.t)
	l.step(l.x, sideZero(before), l.t, rate)
}

// step moves the net's value of an afterstate, whose inputs are x and
// whose sideZero is sign, towards the target t (target), through the
// trace with TD(lambda); a net of outcomes's each output towards its
// own.
func (l *learner) step(x []float64, sign float64, t []float64, rate float64) {
	if l.out != nil {
		var p, c [nn.MaxOutputs]float64
		l.fit.Probs(x, l.h, p[:])
		d := 0.0
		for k := range l.k {
			c[k] = t[k] - p[k]
			d += l.fit.Head.Value[k+1] * c[k]
		}
		l.fit.StepProbs(x, l.h, p[:l.k], c[:l.k], rate)
		l.sumErr += math.Abs(d)
		l.nErr++
		return
	}
	target := t[0]
	var delta float64
	if l.s.Lambda == 0 && len(l.fit.Deep) == 0 {
		v := l.fit.Forward(x, l.h)
		delta = target - sign*v
		l.fit.Update(x, l.h, v, sign*rate*delta)
	} else {
		v := l.fit.Backward(x, l.h, l.g)
		l.trace.Scale(l.s.Lambda)
		l.trace.AddScaled(l.g, sign)
		delta = target - sign*v
		l.fit.Step(l.trace, rate*delta)
	}
	l.sumErr += math.Abs(delta)
	l.nErr++
}
