// Package pipeline is the run stage: a recipe's stages (train, collect,
// fit, bench, tune, matches, report) called in process, one after the
// other, each in a numbered sub-directory of one run directory; a recipe
// leaves out the stages it does not need. A stage whose run is done is not
// redone; an unfinished one is resumed, so a pipeline killed at any point
// and run again finishes the same run.
//
// Check reports every problem of a recipe a check can see before the
// first stage runs (Run calls it first): a recipe without a stage, match
// names, which name directories and so must be plain file names, every
// match's engines and luck reference by the rules and the parser of
// starlab match and its -luck (selfplay.MatchSettings.CheckPending), and
// the suites, nets and parameter files the stages will read that the
// recipe does not make. A pipeline run's manifest records its
// recipe as resolved; FindRun finishes an unfinished run only with the
// recipe it started with (Changes compares them), so a changed recipe
// starts a new run, or is refused in the old run's directory.
//
// Recipes are JSON (schema: Recipe; unknown fields are refused), embedded
// under recipes/ and overridable by a path. A spec keeps a product's name
// ({net}); the stage gets the file as a value of its settings
// (search.Products), not spliced into the spec's text. A recipe names its game and
// variant, which every stage plays; the command passes the registry's
// lookup, so that the pipeline imports no game. A match variant may name the
// pipeline's own products: {net} is the trained net (best.json), {probcut}
// the fitted parameters (probcut.json), and a tune stage's suite {suite}
// is the collect stage's positions (suite.txt); a recipe without a train stage (fit
// stage) cannot name them, and its engines use the built-in net (fit).
package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path/filepath"
	"strings"
	"time"

	"starlab/regression"
	"starlab/runs"
	"starlab/runs/report"
	"starlab/search"
	"starlab/search/bench"
	"starlab/selfplay"
	"starlab/td"
)

// StageResult is what one stage of a pipeline did.
type StageResult struct {
	Name    string  `json:"name"`
	Dir     string  `json:"dir"`
	Skipped bool    `json:"skipped"` // done before this process
	Seconds float64 `json:"seconds"`
}

// Result is what a pipeline run made.
type Result struct {
	Recipe  string                  `json:"recipe"`
	Dir     string                  `json:"dir"`
	Stages  []StageResult           `json:"stages"`
	Net     string                  `json:"net"`
	ProbCut string                  `json:"probcut"`
	Train   *td.Result              `json:"train,omitempty"`
	Fit     *regression.FitResult   `json:"fit,omitempty"`
	Bench   *bench.Summary          `json:"bench,omitempty"`
	Tune    *regression.TuneResult  `json:"tune,omitempty"`
	Matches []*selfplay.MatchReport `json:"matches"`
	Papers  []string                `json:"papers"` // the paper's result of each match, if the recipe gives it
	Report  string                  `json:"report"`
}

// Run runs the recipe in the run directory run, each stage in a
// sub-directory, skipping stages whose run is done and resuming the one
// that is not.
func Run(ctx context.Context, r *Recipe, run *runs.Run, progress runs.Progress) (*Result, error) {
	r.bindGame()
	res := &Result{Recipe: r.Name, Dir: run.Dir()}
	if err := r.Check(); err != nil {
		return res, fmt.Errorf("recipe %s: %w", r.Name, err)
	}
	sg := &stager{r: r, run: run, res: res, progress: progress}
	if r.Train != nil {
		if err := sg.train(ctx); err != nil {
			return res, err
		}
	}
	suite := "" // the collect's positions
	if r.Collect != nil {
		var err error
		if suite, err = sg.collect(ctx); err != nil {
			return res, err
		}
	}
	if r.Bench != nil {
		if err := sg.bench(ctx); err != nil {
			return res, err
		}
	}
	if r.Tune != nil {
		if err := sg.tune(ctx, suite); err != nil {
			return res, err
		}
	}
	for _, m := range r.Matches {
		if err := sg.match(ctx, m); err != nil {
			return res, err
		}
	}
	if err := sg.report(ctx); err != nil {
		return res, err
	}
	return res, nil
}

// stager runs the stages of a pipeline run, each in a numbered
// sub-directory of run, and records them in res.
type stager struct {
	r        *Recipe
	run      *runs.Run
	res      *Result
	progress runs.Progress
	k        int // stages are numbered in the order they run
}

// next returns the sub-directory of the next stage, name numbered.
func (sg *stager) next(name string) string { sg.k++; return fmt.Sprintf("%d-%s", sg.k, name) }

// stage runs one stage in the sub-directory name, unless it is done,
// and then reads its summary file into summary (when not nil): what
// the pipeline reports comes from the stage's files, whichever process
// ran it.
func (sg *stager) stage(name, command string, settings any, summaryFile string, summary any, fn func(st *runs.Run, p runs.Progress) error) error {
	dir := sg.run.Path(name)
	read := func() error {
		if summary == nil {
			return nil
		}
		return runs.ReadJSON(filepath.Join(dir, summaryFile), summary)
	}
	start := time.Now()
	sr := StageResult{Name: name, Dir: dir}
	st, err := runs.Open(dir)
	switch {
	case err == nil && st.Manifest().Status == runs.StatusDone:
		sr.Skipped = true
		sg.res.Stages = append(sg.res.Stages, sr)
		return read()
	case err == nil:
		if err := st.Resume(); err != nil {
			return err
		}
	case errors.Is(err, fs.ErrNotExist):
		if st, err = runs.CreateAt(dir, command, []string{"starlab", "run", sg.r.Name}, settings, sg.r.Seed); err != nil {
			return err
		}
	default:
		return err
	}
	err = fn(st, func(done, total int64, status string) {
		sg.progress(done, total, strings.TrimSpace(name+" "+status))
	})
	if ferr := st.Finish(err); ferr != nil && err == nil {
		err = ferr
	}
	st.Close()
	if err != nil {
		return fmt.Errorf("stage %s: %w", name, err)
	}
	sr.Seconds = time.Since(start).Seconds()
	sg.res.Stages = append(sg.res.Stages, sr)
	return read()
}

// train runs the train stage; the net is its best. Trained before this
// process, its result is read back from its learning curve.
func (sg *stager) train(ctx context.Context) error {
	r, run, res := sg.r, sg.run, sg.res
	name := sg.next("train")
	if err := sg.stage(name, "train", r.Train, "", nil, func(st *runs.Run, p runs.Progress) (err error) {
		res.Train, err = td.Run(ctx, *r.Train, st, p)
		return err
	}); err != nil {
		return err
	}
	res.Net = run.Path(filepath.Join(name, td.BestFile))
	if res.Train == nil { // trained before this process: the curve has the scores
		curve, err := td.ReadCurve(run.Path(name))
		if err != nil {
			return err
		}
		res.Train = &td.Result{}
		for _, p := range curve {
			if !math.IsNaN(float64(p.Score)) {
				res.Train.Games, res.Train.Score, res.Train.ScoreCI95, res.Train.Opponent = p.Games, p.Score, p.ScoreCI95, p.Opponent
				res.Train.MeasurePairs, res.Train.DistinctPairs = p.MeasurePairs, p.DistinctPairs
			}
		}
	}
	return nil
}

// collect runs the collect stage and, when the recipe fits, the fit stage
// on its rows; it returns the collect's positions, which a tune stage's
// suite may name.
func (sg *stager) collect(ctx context.Context) (string, error) {
	r, run, res := sg.r, sg.run, sg.res
	name := sg.next("collect")
	suite := run.Path(filepath.Join(name, regression.SuiteFile))
	collect := *r.Collect
	collect.Products = products(res.Net, "")
	if err := sg.stage(name, "collect", collect, "", nil, func(st *runs.Run, p runs.Progress) error {
		_, err := regression.Collect(ctx, collect, st, p)
		return err
	}); err != nil {
		return suite, err
	}
	if r.Fit != nil {
		fit := *r.Fit
		fit.Inputs = []string{run.Path(name)}
		name = sg.next("fit")
		res.Fit = &regression.FitResult{}
		if err := sg.stage(name, "fit", fit, regression.FitFile, res.Fit, func(st *runs.Run, p runs.Progress) error {
			_, err := regression.RunFit(ctx, fit, st, p)
			return err
		}); err != nil {
			return suite, err
		}
		res.ProbCut = run.Path(filepath.Join(name, regression.ProbCutFile))
	}
	return suite, nil
}

// bench runs the bench stage.
func (sg *stager) bench(ctx context.Context) error {
	r, res := sg.r, sg.res
	name := sg.next("bench")
	res.Bench = &bench.Summary{}
	return sg.stage(name, "bench", r.Bench, bench.SummaryFile, res.Bench, func(st *runs.Run, p runs.Progress) error {
		_, err := bench.Run(ctx, *r.Bench, st, p)
		return err
	})
}

// tune runs the tune stage, its suite {suite} the collect's positions.
func (sg *stager) tune(ctx context.Context, suite string) error {
	r, res := sg.r, sg.res
	name := sg.next("tune")
	tune := *r.Tune
	tune.Products = products(res.Net, res.ProbCut)
	if tune.Suite == SuiteProduct {
		tune.Suite = suite
	}
	res.Tune = &regression.TuneResult{}
	if err := sg.stage(name, "tune", tune, regression.TuneSummaryFile, res.Tune, func(st *runs.Run, p runs.Progress) error {
		_, err := regression.Tune(ctx, tune, st, p)
		return err
	}); err != nil {
		return err
	}
	res.Tune.Bind(r.Kit) // read back from tune.json
	return nil
}

// match runs the match stage of m, its specs given the products made.
func (sg *stager) match(ctx context.Context, m MatchStage) error {
	r, res := sg.r, sg.res
	ms := r.matchSettings(m, res.Net, res.ProbCut)
	name := sg.next(m.Name)
	rep := &selfplay.MatchReport{}
	if err := sg.stage(name, "match", ms, selfplay.SummaryFile, rep, func(st *runs.Run, p runs.Progress) error {
		_, err := selfplay.RunMatch(ctx, ms, st, p)
		return err
	}); err != nil {
		return err
	}
	res.Matches = append(res.Matches, rep)
	res.Papers = append(res.Papers, m.Paper)
	return nil
}

// report writes the summary this run prints, kept for the report to show
// on top, and the run's report.
func (sg *stager) report(ctx context.Context) error {
	r, run, res := sg.r, sg.run, sg.res
	res.Report = run.Path(report.File)
	var sum bytes.Buffer
	res.WriteSummary(&sum)
	if err := runs.WriteBytesAtomic(run.Path(report.PipelineSummary), sum.Bytes()); err != nil {
		return err
	}
	sg.progress(0, 1, "report")
	// The report's runs are all of the recipe's game.
	recipeGame := func(name string) (search.Kit, error) {
		if name != r.Kit.Name() {
			return search.Kit{}, fmt.Errorf("game %q is not the recipe's, %s", name, r.Kit.Name())
		}
		return r.Kit, nil
	}
	rp, err := report.Run(ctx, run.Dir(), recipeGame, runs.NoProgress)
	if err != nil {
		return err
	}
	res.Report = rp.Path
	return nil
}
