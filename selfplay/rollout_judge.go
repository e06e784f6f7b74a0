package selfplay

import (
	"context"
	"io"

	"starlab/search"
	"starlab/search/game"
)

// RolloutJudge are the settings of analyze's rollout judge (-judge
// rollout): the position each legal move leads to is valued by a rollout
// of it, Trials trials played by Player with the luck Luck sees taken
// out, trial t of every move of a decision from the same dice.
type RolloutJudge struct {
	Player   string `json:"player"`
	Luck     string `json:"luck"`
	Trials   int    `json:"trials"`
	Truncate int    `json:"truncate,omitempty"`
	Seed     uint64 `json:"seed"`
}

// settings returns the rollout the judge plays in variant of g.
func (r RolloutJudge) settings(g search.Kit, variant string) RolloutSettings {
	return RolloutSettings{Kit: g, GameName: g.Name(), Variant: variant, Player: r.Player, Luck: r.Luck,
		Trials: r.Trials, Truncate: r.Truncate, Seed: r.Seed, Workers: 1}
}

// rolloutValuer values positions by rollouts, on one worker's player and
// reference: an outside.Valuer, as gnubg's evaluation is.
type rolloutValuer struct {
	set    RolloutSettings
	cfg    *MatchConfig
	w      *matchWorker
	strata [stratifiedNodes][]int
	scale  float64
}

// newRolloutValuer starts a rollout judge of variant, its outside
// programs' messages to log.
func newRolloutValuer(g search.Kit, r RolloutJudge, variant string, log io.Writer) (*rolloutValuer, error) {
	set := r.settings(g, variant)
	cfg, _, err := set.resolve()
	if err != nil {
		return nil, err
	}
	cfg.EngineLog = log
	return &rolloutValuer{set: set, cfg: cfg, w: newTrialWorker(cfg), strata: trialStrata(set.Seed), scale: g.PointsOf(variant)}, nil
}

// Value returns the mean over the trials of st's rollout, result less
// luck, for st's mover, in the game's values.
func (v *rolloutValuer) Value(ctx context.Context, st game.State) (float64, error) {
	item := rolloutItem{start: st, side: st.Mover()}
	sum := 0.0
	for t := range v.set.Trials {
		tr, err := v.w.playTrial(ctx, v.cfg, item, rolloutTask{0, t}, &v.set, v.strata, v.scale)
		if err != nil {
			return 0, err
		}
		sum += tr.Result - tr.Luck
	}
	return sum / float64(v.set.Trials) / v.scale, nil
}

// Close stops the judge's outside programs.
func (v *rolloutValuer) Close() error {
	v.w.close()
	return nil
}
