package td

import (
	"context"
	"math"

	"starlab/nn"
	"starlab/runs"
)

// trainer is one way of training the net, so that Run, which plays the
// rounds, writes the points of the learning curve and checkpoints, is the
// same loop for each: TD self-play (tdTrainer), search targets
// (searchTrainer, TreeStrap being one of its settings) and rolled-out
// values (rolloutTrainer).
type trainer interface {
	// round trains the net on games g..g+n-1. next is the number of games
	// of the round after it that come before the same point (0: none), and
	// last says that a point of the curve (a measurement or a checkpoint)
	// follows the round, whose net must then owe nothing to later games.
	round(ctx context.Context, g, n, next int64, last bool) error
	// errorSince returns the mean error of the positions trained since the
	// last point and what that error is, for the progress line.
	errorSince() (mean float64, what string)
	// point records the mean error since the last point in pt, in the
	// column of what it is (the other NaN), and begins a new mean. The
	// net after the round is the point's, which is written (a checkpoint's
	// or a measurement's alike) and which a resumed run starts from: the
	// trainer starts afresh there as the resumed run does.
	point(pt *CurvePoint)
	// stop ends whatever the trainer runs besides the caller.
	stop()
}

// newTrainer returns the trainer of the settings, checked, for net.
func newTrainer(s *Settings, net *nn.Net) (trainer, error) {
	switch s.Target {
	case TargetSearch:
		return &searchTrainer{fit: newFitter(s, net)}, nil
	case TargetRollout:
		return newRolloutTrainer(newFitter(s, net)), nil
	}
	l, err := newLearner(s, net)
	if err != nil {
		return nil, err
	}
	t := &tdTrainer{l: l}
	if s.Batch > 1 {
		if t.cr, err = newCrew(s, l); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// meanError is the mean of the sum of n errors, 0 of none.
func meanError(sum float64, n int64) float64 { return sum / math.Max(1, float64(n)) }

// tdTrainer is TD self-play: online with Batch 1, by a crew of workers
// otherwise.
type tdTrainer struct {
	l  *learner // its settings are the run's
	cr *crew    // nil with Batch 1
}

// round plays and learns games g..g+n-1: with Batch 1 (online TD, one
// game a round) on the calling goroutine with the weights as they are,
// each update made at once; otherwise by the crew, which starts playing
// the next round, of next games, before it learns this one.
func (t *tdTrainer) round(ctx context.Context, g, n, next int64, _ bool) error {
	if t.cr != nil {
		return t.cr.round(ctx, g, n, next)
	}
	for i := range n {
		gm, err := t.l.p.play(ctx, t.l.s, g+i)
		if err != nil {
			return err
		}
		t.l.learn(g+i, &gm, t.l.s.rate(g+i))
	}
	return nil
}

func (t *tdTrainer) errorSince() (float64, string) {
	return meanError(t.l.sumErr, t.l.nErr), "TD error"
}

func (t *tdTrainer) point(pt *CurvePoint) {
	pt.TDError, pt.FitError = runs.Num(meanError(t.l.sumErr, t.l.nErr)), runs.Num(math.NaN())
	t.l.sumErr, t.l.nErr = 0, 0
}

func (t *tdTrainer) stop() {
	if t.cr != nil {
		t.cr.stop()
	}
}

// searchTrainer fits the net to the values the target search finds of
// the afterstates of its self-play games (or of every afterstate of its
// tree, with TreeStrap).
type searchTrainer struct {
	fit *fitter // its settings are the run's, its net the one trained
}

func (t *searchTrainer) round(ctx context.Context, g, n, _ int64, last bool) error {
	return searchRound(ctx, t.fit.s, t.fit, g, n, last)
}

// errorSince returns the fit's error: of each position's value before its
// step, against its target.
func (t *searchTrainer) errorSince() (float64, string) {
	return meanError(t.fit.sumErr, t.fit.nErr), "fit error"
}

// point starts the fitter afresh, Adam's moments and the mean error, as
// a run resumed from the point does, so that a resumed run trains the net
// of an uninterrupted one.
func (t *searchTrainer) point(pt *CurvePoint) {
	pt.TDError, pt.FitError = runs.Num(math.NaN()), runs.Num(meanError(t.fit.sumErr, t.fit.nErr))
	t.fit = newFitter(t.fit.s, t.fit.whole)
}

func (t *searchTrainer) stop() {}
