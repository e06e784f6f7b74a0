package td

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"starlab/nn"
	"starlab/search/game"
	"starlab/selfplay"
)

// crew trains in rounds of Batch games (Batch > 1). Its workers play a
// round's games with a frozen copy of the weights and, game by game, take
// each afterstate's inputs and TD target with those weights; the learner
// then moves the live net towards the targets, game after game, each
// update made at once as online TD makes it. The copy is taken when the
// round starts, which is before the learner learns the round before: the
// workers play one round while the learner learns the previous one (on the
// calling goroutine, which then helps play). With one worker everything
// runs on the calling goroutine in the same order of copies and updates,
// so the net is the same whatever the number of workers. The workers live
// as long as the crew, and the frozen net and the evaluators over it are
// made once: a round costs a copy of the weights and two handovers, each
// a count that the other side waits for (signal).
type crew struct {
	s       *Settings
	net     *nn.Net // the live net, the learner's
	frozen  *nn.Net // the copy the round in play is played with
	learner *learner
	workers []*learner // over frozen; workers[0] works on the calling goroutine
	steps   [2][]steps // by game, the round in play's (steps[buf]) and the one before's
	// The round in play: games g..g+n-1, the next to take, and the round's
	// context; playing says that it was begun and not yet finished.
	ctx     context.Context
	g, n    int64
	buf     int
	next    atomic.Int64
	playing bool
	// begun counts the rounds begun, and ended the rounds the workers
	// but the first have ended (each worker adds one a round), with the
	// error of each in errs; quit, set before a last begun, ends them.
	begun, ended signal
	errs         []error
	quit         bool
}

// steps are one game's afterstates as a worker saw them, in the order of
// the game: the inputs (net.In each), whether side 0 moves (sideZero),
// and the TD target (learner.target, learner.k values each), taken with
// the frozen weights.
type steps struct {
	x, sign, target []float64
}

// newCrew returns the crew of learner l, with min(Workers, Batch)
// workers.
func newCrew(s *Settings, l *learner) (*crew, error) {
	c := &crew{s: s, net: l.net, frozen: l.net.Clone(), learner: l}
	c.steps = [2][]steps{make([]steps, s.Batch), make([]steps, s.Batch)}
	for range min(s.Workers, s.Batch) {
		w, err := newLearner(s, c.frozen)
		if err != nil {
			return nil, err
		}
		c.workers = append(c.workers, w)
	}
	c.begun.init()
	c.ended.init()
	c.errs = make([]error, len(c.workers))
	for k, w := range c.workers[1:] {
		go func() {
			for r := int64(1); ; r++ {
				c.begun.wait(r)
				if c.quit {
					return
				}
				c.errs[k+1] = c.work(w)
				c.ended.add(1)
			}
		}()
	}
	return c, nil
}

// stop waits for a round in play (a cancelled one stops at once) and ends
// the workers' goroutines.
func (c *crew) stop() {
	if c.playing {
		_ = c.finish()
	}
	c.quit = true
	c.begun.add(1)
}

// round learns games g..g+n-1, playing them first unless they are in
// play; next games, when not 0, are the round after, which it begins
// before it learns.
func (c *crew) round(ctx context.Context, g, n, next int64) error {
	switch {
	case !c.playing:
		c.begin(ctx, g, n)
	case c.g != g || c.n != n:
		panic(fmt.Sprintf("td: round of games %d+%d asked for, %d+%d in play", g, n, c.g, c.n))
	}
	if err := c.finish(); err != nil {
		return err
	}
	learn := c.steps[c.buf][:n]
	if next > 0 {
		c.begin(ctx, g+n, next)
	}
	l := c.learner
	for i := range learn {
		st := &learn[i]
		rate := c.s.rate(g + int64(i))
		l.trace.Zero()
		for k, sign := range st.sign {
			l.step(st.x[k*c.net.In:][:c.net.In], sign, st.target[k*l.k:][:l.k], rate)
		}
	}
	return nil
}

// begin starts playing games g..g+n-1 with a copy of the weights as they
// are now.
func (c *crew) begin(ctx context.Context, g, n int64) {
	c.frozen.SetWeights(c.net)
	c.ctx, c.g, c.n, c.buf, c.playing = ctx, g, n, 1-c.buf, true
	c.next.Store(0)
	c.begun.add(1)
}

// finish plays the round's games that no worker took on the calling
// goroutine and waits for the workers.
func (c *crew) finish() error {
	err := c.work(c.workers[0])
	c.ended.wait(c.begun.n.Load() * int64(len(c.workers)-1))
	for _, e := range c.errs[1:] {
		if err == nil {
			err = e
		}
	}
	c.playing = false
	return err
}

// work plays the round's games that w takes until none is left, or until
// one fails, and records their afterstates.
func (c *crew) work(w *learner) error {
	for {
		i := c.next.Add(1) - 1
		if i >= c.n {
			return nil
		}
		gm, err := w.p.play(c.ctx, c.s, c.g+i)
		if err != nil {
			c.next.Store(c.n) // the others stop too
			return err
		}
		w.record(c.g+i, &gm, &c.steps[c.buf][i])
	}
}

// record writes the afterstates of gm, game g, into st: their inputs and
// TD targets, taken with l's net as learn takes them.
func (l *learner) record(g int64, gm *selfplay.Record, st *steps) {
	In := l.net.In
	st.x, st.sign, st.target = st.x[:0], st.sign[:0], st.target[:0]
	l.replay(l.s.gameStart(g), gm, func(before, after game.State) {
		k := len(st.sign)
		if len(st.x)+In <= cap(st.x) {
			st.x = st.x[:len(st.x)+In]
		} else {
			st.x = append(st.x, make([]float64, In)...)
		}
		l.s.Kit.Net.Features(before, st.x[k*In:][:In])
		l.target(before, after, l.t)
		st.sign, st.target = append(st.sign, sideZero(before)), append(st.target, l.t...)
	})
}

// spinFor is how long a wait on a signal spins before it sleeps. The
// handovers of a round come microseconds apart on the small boards (a
// round of 16 games of 5x5 Dice takes 0.3 ms on two cores), and a
// goroutine woken from sleep may start late: on a two-core virtual machine
// one woken by a channel send started only once its waker blocked, 0.1 ms
// and more later, so that two workers trained no faster than one.
const spinFor = time.Millisecond

// signal is a count that goroutines wait to reach: a wait spins, yielding
// to other goroutines, for up to spinFor, then sleeps until the count is
// reached.
type signal struct {
	n    atomic.Int64
	mu   sync.Mutex
	cond sync.Cond
}

func (s *signal) init() { s.cond.L = &s.mu }

// add adds d to the count and wakes the sleeping waits.
func (s *signal) add(d int64) {
	s.mu.Lock()
	s.n.Add(d)
	s.mu.Unlock()
	s.cond.Broadcast()
}

// wait returns once the count is at least n.
func (s *signal) wait(n int64) {
	if s.n.Load() >= n {
		return
	}
	for deadline := time.Now().Add(spinFor); time.Now().Before(deadline); {
		runtime.Gosched()
		if s.n.Load() >= n {
			return
		}
	}
	s.mu.Lock()
	for s.n.Load() < n {
		s.cond.Wait()
	}
	s.mu.Unlock()
}
