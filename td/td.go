package td

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"time"

	"starlab/nn"
	"starlab/runs"
)

// The train stage's files in its run directory.
const (
	NetFile   = "net.json"      // the net after the last checkpoint
	BestFile  = "best.json"     // the net with the best measured score against the hand evaluator
	StateFile = "state.json"    // games done and the learning curve so far
	CurveFile = "curve.parquet" // the learning curve
	// NextFile is the net of a point being written: measured from there,
	// it becomes NetFile once the state that counts its games is written,
	// so that the net and the state change together.
	NextFile = "net.next.json"
)

// Result is what the train stage returns.
type Result struct {
	Games     int64   `json:"games"`
	Seconds   float64 `json:"seconds"`
	GamesPerS float64 `json:"games_per_s"`
	Net       string  `json:"net"`
	Best      string  `json:"best"`
	NetID     string  `json:"net_id"`
	// Opponent names the hand evaluator the last measurement played
	// against at depth 1 ("pairs" in Dice, "material" in
	// ChanceBreakthrough), and Score is the net's score against it.
	Opponent  string       `json:"opponent"`
	Score     runs.Num     `json:"score_vs_hand"`
	ScoreCI95 runs.Num     `json:"score_ci95"`
	LuckScore runs.Num     `json:"luck_score"`
	LuckCI95  runs.Num     `json:"luck_ci95"`
	Curve     []CurvePoint `json:"-"`
	MeanPlies runs.Num     `json:"mean_plies"`
	// MeanTDErr and MeanFitErr are the last point's error (see
	// CurvePoint): TD's, or the fit's to search targets; the other is NaN.
	MeanTDErr  runs.Num `json:"td_error"`
	MeanFitErr runs.Num `json:"fit_error"`
	Checkpoint int64    `json:"checkpoint_games"`
	// MeasurePairs and DistinctPairs count the last measurement's pairs
	// of games and those that differ (see CurvePoint).
	MeasurePairs  int32 `json:"measure_pairs"`
	DistinctPairs int32 `json:"distinct_pairs"`
	// ExactMAE and ExactSE are the last measurement's static error
	// against the held-out suite's exact values (-judge); NaN without one.
	ExactMAE runs.Num `json:"exact_mae"`
	ExactSE  runs.Num `json:"exact_se"`
	// JudgeLoss and JudgeCI95 are the last measurement's judged loss per
	// decision and its interval (-judge-by); NaN without one.
	JudgeLoss runs.Num `json:"judge_loss"`
	JudgeCI95 runs.Num `json:"judge_loss_ci95"`
}

// Repeated says whether the last measurement's pairs of games were not all
// different, "" when they were (see the function Repeated).
func (r *Result) Repeated() string { return Repeated(r.MeasurePairs, r.DistinctPairs) }

// Run is the train stage: self-play training of a net for the board of
// the settings, by TD or towards search targets (Settings.Target), from
// scratch or, when the run directory holds a checkpoint, from it. It
// checkpoints every CheckpointEvery games (the net and the state,
// atomically), measures the net against the game's hand evaluator every
// MeasureEvery games with the match library (duplicate dice, luck
// adjusted), keeps the best net by that score, and writes the learning
// curve. Settings that Check has checked are not read again: the suites
// and the target spec they name are those Check read. Cancelled, it
// writes the curve to the last checkpoint (stopped) and returns ctx's
// error; a later Run on the run continues from that checkpoint, losing
// only the games since.
func Run(ctx context.Context, s Settings, run *runs.Run, progress runs.Progress) (_ *Result, err error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	st, net, err := startNet(&s, run)
	if err != nil {
		return nil, err
	}
	if err := dropCurve(run); err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			err = stopped(ctx, run, st, err)
		}
	}()
	settingsMap := map[string]any{}
	raw, _ := json.Marshal(s)
	_ = json.Unmarshal(raw, &settingsMap)
	tr, err := newTrainer(&s, net)
	if err != nil {
		return nil, err
	}
	defer tr.stop()
	start := time.Now()
	prior := st.Seconds
	elapsed := func() float64 { return prior + time.Since(start).Seconds() }
	g := st.Games
	progress(g, s.Games, "")
	round := int64(s.Batch)
	for g < s.Games {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// A round: games g..g+n-1, learnt in game order; the round after,
		// of next games, is the one before the same stop (0: none).
		stop := min(s.Games, nextStop(g, s.CheckpointEvery), nextStop(g, s.MeasureEvery))
		n := min(round, stop-g)
		end := g + n
		measure := end%s.MeasureEvery == 0 || end == s.Games
		checkpoint := end%s.CheckpointEvery == 0 || end == s.Games
		if err := tr.round(ctx, g, n, min(round, stop-end), measure || checkpoint); err != nil {
			return nil, err
		}
		g = end
		mean, what := tr.errorSince()
		progress(g, s.Games, fmt.Sprintf("%s %.4f  %.0f games/s", what, mean, float64(g-st.Games)/math.Max(time.Since(start).Seconds(), 1e-9)))
		if !measure && !checkpoint {
			continue
		}
		pt := newPoint(&s, net, g, elapsed(), checkpoint)
		tr.point(&pt)
		net.Meta = nn.Meta{Games: g, Source: s.source(), Settings: settingsMap}
		if s.Phase != "" {
			s.trained(net).Meta = net.Meta // the run that trains it
		}
		if err := writePoint(ctx, &s, run, net, &st, pt, measure); err != nil {
			return nil, err
		}
	}
	return finish(&s, run, net, st, g)
}

// startNet returns the state and the net the training goes on from: a
// checkpoint's, when the run directory holds one (finishing the point a
// stopped run was writing, commitNext), or else no games and a copy of
// From's net, or a new net of the settings' inputs and layers. The net's
// Meta is set at each point, before it is written.
func startNet(s *Settings, run *runs.Run) (state, *nn.Net, error) {
	st := state{Format: Format, Best: -1}
	var net *nn.Net
	if _, err := os.Stat(run.Path(StateFile)); err == nil {
		if st, err = readState(run.Path(StateFile), s); err != nil {
			return st, nil, err
		}
		if err := commitNext(run, st.Games); err != nil {
			return st, nil, err
		}
		if net, err = nn.Load(run.Path(NetFile)); err != nil {
			return st, nil, err
		}
		if err := s.Kit.Net.Check(net, s.Variant); err != nil {
			return st, nil, fmt.Errorf("net file %s: %v", run.Path(NetFile), err)
		}
	} else if s.res.initial != nil {
		net = s.res.initial.Clone()
	} else {
		var err error
		if net, err = s.Kit.Net.New(s.Variant, runs.Stream(s.Seed, "train/init", 0), s.Init); err != nil {
			return st, nil, err
		}
		if (s.Hidden != 0 && s.Hidden != net.H) || len(s.Layers) > 0 || s.Inputs != "" {
			// The game's variant, with the inputs and layers asked for
			// drawn afresh from the same stream.
			in := net.In
			if s.Inputs != "" {
				if in, err = s.Kit.Net.Inputs(s.Variant, s.Inputs); err != nil {
					return st, nil, err
				}
			}
			layout := append([]int{cmp.Or(s.Hidden, net.H)}, s.Layers...)
			sized, err := nn.NewLayout(in, layout, runs.Stream(s.Seed, "train/init", 0), s.Init)
			if err != nil {
				return st, nil, runs.Usagef("-hidden %d: %v", s.Hidden, err)
			}
			sized.Game, sized.Variant, sized.VariantKey = net.Game, net.Variant, net.VariantKey
			net = sized
		}
		if s.Outcomes {
			out, err := s.Kit.Net.Outcomes(s.Variant)
			if err != nil {
				return st, nil, runs.Usagef("-outcomes: %v", err)
			}
			// The outputs' weights from a stream of their own, so that
			// the hidden layer is the one-output net's of the seed.
			if err := net.NewHead(out.Value, runs.Stream(s.Seed, "train/outputs", 0), s.Init); err != nil {
				return st, nil, runs.Usagef("-outcomes: %v", err)
			}
		}
	}
	return st, net, nil
}

// newPoint returns the point of the learning curve after g games, at
// seconds of training, without the error, which the trainer gives
// (trainer.point); the measurement and the judgement, not made yet, are
// NaN.
func newPoint(s *Settings, net *nn.Net, g int64, seconds float64, checkpoint bool) CurvePoint {
	pt := CurvePoint{Games: g, Seconds: seconds, NetID: net.ID(), Checkpoint: checkpoint,
		Score: runs.Num(math.NaN()), ScoreCI95: runs.Num(math.NaN()), LuckScore: runs.Num(math.NaN()), LuckCI95: runs.Num(math.NaN()),
		MeanPlies: runs.Num(math.NaN()), Opponent: s.Kit.HandEval, ExactMAE: runs.Num(math.NaN()), ExactSE: runs.Num(math.NaN()),
		JudgeLoss: runs.Num(math.NaN()), JudgeCI95: runs.Num(math.NaN())}
	pt.GamesPerS = float64(g) / math.Max(pt.Seconds, 1e-9)
	return pt
}

// writePoint writes the point pt of the learning curve: the net as
// NextFile; when measure, its measurement against the hand evaluator and
// its judgement into pt (by the held-out suite s, checked, has read), and
// the net as BestFile when it beats st's best; then the state with the
// point, and NextFile made NetFile.
func writePoint(ctx context.Context, s *Settings, run *runs.Run, net *nn.Net, st *state, pt CurvePoint, measure bool) error {
	if err := runs.WriteFileAtomic(run.Path(NextFile), net.Write); err != nil {
		return err
	}
	if measure {
		sum, distinct, err := measureVsHand(ctx, s, run.Path(NextFile), pt.Games)
		if err != nil {
			return err
		}
		pt.MeasurePairs, pt.DistinctPairs = int32(s.MeasureGames/2), int32(distinct)
		pt.Score, pt.ScoreCI95, pt.MeanPlies = runs.Num(sum.Score), runs.Num(sum.ScoreCI95Pairs), runs.Num(sum.MeanPlies)
		pt.LuckScore, pt.LuckCI95 = sum.LuckScore, sum.LuckCI95
		if judge := s.res.judge; judge != nil {
			j, err := judge.judge(run.Path(NextFile))
			if err != nil {
				return err
			}
			pt.ExactMAE, pt.ExactSE = runs.Num(j.MAE), runs.Num(j.SE)
		}
		if s.JudgeBy != "" {
			side, err := judgePlay(ctx, s, run, run.Path(NextFile), pt.Games)
			if err != nil {
				return err
			}
			pt.JudgeLoss, pt.JudgeCI95 = side.MeanLoss, side.CI95
		}
		if sum.Score > st.Best {
			st.Best = sum.Score
			if err := runs.WriteFileAtomic(run.Path(BestFile), net.Write); err != nil {
				return err
			}
		}
	}
	st.Games, st.Seconds = pt.Games, pt.Seconds
	st.Curve = append(st.Curve, pt)
	if err := runs.WriteJSON(run, StateFile, *st); err != nil {
		return err
	}
	if err := os.Rename(run.Path(NextFile), run.Path(NetFile)); err != nil {
		return err
	}
	return nil
}

// writeCurve writes the learning curve, curve.parquet and its plots.
func writeCurve(run *runs.Run, curve []CurvePoint) error {
	if err := runs.WriteParquet(run, CurveFile, Format, curve); err != nil {
		return err
	}
	return WriteCurvePlots(run, curve)
}

// dropCurve removes the curve's files that a stopped run wrote: training
// goes on from the last checkpoint, and a kill from here on must not leave
// a curve older than the state (ReadCurve reads the file first).
func dropCurve(run *runs.Run) error {
	for _, name := range []string{CurveFile, CurvePNG, CurveSVG} {
		if err := os.Remove(run.Path(name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// stopped returns err, the error that stopped a run before its end. A
// run cancelled (Ctrl-C, a stop) first writes its learning curve to the
// last checkpoint, what a resume continues from, so that a run stopped for
// good shows its curve as a finished one does.
func stopped(ctx context.Context, run *runs.Run, st state, err error) error {
	if ctx.Err() == nil || len(st.Curve) == 0 {
		return err
	}
	if werr := writeCurve(run, st.Curve); werr != nil {
		return errors.Join(err, werr)
	}
	return err
}

// finish writes the learning curve of st (curve.parquet and its plots)
// and returns the stage's result after g games.
func finish(s *Settings, run *runs.Run, net *nn.Net, st state, g int64) (*Result, error) {
	if err := writeCurve(run, st.Curve); err != nil {
		return nil, err
	}
	last := st.Curve[len(st.Curve)-1]
	res := &Result{Games: g, Seconds: st.Seconds, GamesPerS: float64(g) / math.Max(st.Seconds, 1e-9), Net: run.Path(NetFile),
		Best: run.Path(BestFile), NetID: net.ID(), Opponent: s.Kit.HandEval, MeasurePairs: last.MeasurePairs, DistinctPairs: last.DistinctPairs, Score: last.Score, ScoreCI95: last.ScoreCI95, LuckScore: last.LuckScore,
		LuckCI95: last.LuckCI95, Curve: st.Curve, MeanPlies: last.MeanPlies, MeanTDErr: last.TDError, MeanFitErr: last.FitError, Checkpoint: g,
		ExactMAE: last.ExactMAE, ExactSE: last.ExactSE, JudgeLoss: last.JudgeLoss, JudgeCI95: last.JudgeCI95}
	return res, nil
}

// nextStop returns the first multiple of every after g.
func nextStop(g, every int64) int64 { return (g/every + 1) * every }
