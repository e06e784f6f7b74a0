package td

import (
	"context"

	"starlab/runs"
	"starlab/search/game"
	"starlab/selfplay"
)

// rolledRow is a row of Settings.Rollouts as TargetRollout fits it: the
// position rolled out, before its chance event, and its rolled-out value
// for its mover in the net's units (points over Kit.PointsOf).
type rolledRow struct {
	pos    game.State
	target float64
}

// rolledRows reads the first RolloutRows rows of Rollouts (all of the
// first rows whose trials are played, with RolloutRows 0, which it sets),
// nil without Rollouts: a rollout of the game and variant trained, of
// positions before their chance event (the positions the net values), or
// a -plays rollout of the moves of decisions, each the position the move
// leads to, those that end the game left out.
// Errors are runs.UsageError naming the run.
func (s *Settings) rolledRows() ([]rolledRow, error) {
	if s.Rollouts == "" {
		if s.RolloutRows != 0 {
			return nil, runs.Usagef("-rollout-rows %d: the rows of -rollouts, which names none", s.RolloutRows)
		}
		return nil, nil
	}
	rs, rows, err := selfplay.ReadRollout(s.Kit, s.Rollouts)
	if err != nil {
		return nil, runs.Usagef("-rollouts %s: %v", s.Rollouts, err)
	}
	if rs.Shard.Count > 1 {
		return nil, runs.Usagef("-rollouts %s: shard %d/%d of a rollout, which holds a part of each row's trials; fit the run starlab merge makes of its shards", s.Rollouts, rs.Shard.Index, rs.Shard.Count)
	}
	if rs.Variant != s.Variant {
		return nil, runs.Usagef("-rollouts %s: a rollout of %s %s, the training's variant is %s", s.Rollouts, s.GameName, rs.Variant, s.Variant)
	}
	played := 0 // the rows from the first whose trials are all played
	for played < len(rows) && rows[played].Index == played {
		played++
	}
	switch {
	case s.RolloutRows < 0:
		return nil, runs.Usagef("-rollout-rows %d: want 0 (every row played) or more", s.RolloutRows)
	case played == 0:
		return nil, runs.Usagef("-rollouts %s: its first row has not all its trials played yet", s.Rollouts)
	case s.RolloutRows == 0:
		s.RolloutRows = played
	case s.RolloutRows > played:
		return nil, runs.Usagef("-rollouts %s: %d rows asked for, the first %d have all their trials played", s.Rollouts, s.RolloutRows, played)
	}
	scale := s.Kit.PointsOf(s.Variant)
	out := make([]rolledRow, 0, s.RolloutRows)
	for i, r := range rows[:s.RolloutRows] {
		if r.Start.Kind() == game.Over {
			// a move of a -plays rollout that ends the game: its value
			// is the result, and the net values no ended position
			continue
		}
		if r.Start.Kind() != game.Chance {
			return nil, runs.Usagef("-rollouts %s: row %d (%s) is not before its chance event; the net values positions before their roll", s.Rollouts, i+1, r.Row.Position)
		}
		v := float64(r.Row.Value) / scale
		if r.Side != r.Start.Mover() {
			v = -v
		}
		out = append(out, rolledRow{pos: r.Start, target: v})
	}
	if len(out) == 0 {
		return nil, runs.Usagef("-rollouts %s: its first %d rows are all of ended games", s.Rollouts, s.RolloutRows)
	}
	return out, nil
}

// rolloutTrainer fits the net to the rows of Settings.Rollouts: "game" g
// of the training is row order[g mod N] of epoch g / N, the order of each
// epoch a permutation drawn from the epoch's own stream, so that a run
// depends on its settings alone and a resumed run fits as an uninterrupted
// one.
type rolloutTrainer struct {
	searchTrainer
	x     []float64
	epoch int64 // the epoch of order
	order []int
}

func newRolloutTrainer(fit *fitter) *rolloutTrainer {
	return &rolloutTrainer{searchTrainer: searchTrainer{fit: fit}, x: make([]float64, fit.net.In), epoch: -1}
}

// round fits rows g..g+n-1 in their order, at the rate of g, stepping a
// partial mini-batch when a point of the curve follows (last).
func (t *rolloutTrainer) round(ctx context.Context, g, n, _ int64, last bool) error {
	s := t.fit.s
	rows := s.res.rolled
	N := int64(len(rows))
	rate := s.rate(g)
	for i := g; i < g+n; i++ {
		if e := i / N; e != t.epoch {
			t.order, t.epoch = runs.Stream(s.Seed, "train/rollout-order", uint64(e)).Perm(len(rows)), e
		}
		r := &rows[t.order[i%N]]
		s.Kit.Net.Features(r.pos, t.x)
		t.fit.add(sample{x: t.x, target: r.target}, rate)
	}
	if last {
		t.fit.step(rate)
	}
	return ctx.Err()
}
