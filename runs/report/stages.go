package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"starlab/regression"
	"starlab/runs"
	"starlab/search/bench"
	"starlab/selfplay"
	"starlab/td"
)

// readJSON reads a run's JSON file into v; ok is false when the file is
// missing (a run that has not written it yet).
func readJSON(path string, v any) (ok bool, err error) {
	if err := runs.ReadJSON(path, v); errors.Is(err, fs.ErrNotExist) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	return true, nil
}

// withResult returns the adder of a run whose stage writes its result as
// the JSON file name: add shows the result, and a run that has not
// written it yet shows nothing more.
func withResult[R any](name string, add func(*Section, *R) error) func(*Section, *runs.Run) error {
	return func(s *Section, run *runs.Run) error {
		var r R
		if ok, err := readJSON(run.Path(name), &r); err != nil || !ok {
			return err
		}
		return add(s, &r)
	}
}

// num formats x as the terminal does: "-" when undefined (NaN), "inf" or
// "-inf" when unbounded, else with format.
func num(x float64, format string) string { return runs.Num(x).Format(format) }

// pct formats a share as a percentage, as num does.
func pct(x float64) string { return num(100*x, "%.1f%%") }

func addTrain(s *Section, run *runs.Run) error {
	s.Title = "train: the network's learning curve"
	curve, err := td.ReadCurve(run.Dir())
	if errors.Is(err, fs.ErrNotExist) || err == nil && len(curve) == 0 {
		s.Notes = append(s.Notes, "No learning curve yet: the run has reached no checkpoint.")
		return nil
	}
	if err != nil {
		return err
	}
	opponent := "the game's hand evaluator"
	for _, p := range curve {
		if p.Opponent != "" {
			opponent = "the game's hand evaluator, eval=" + p.Opponent + ","
			break
		}
	}
	judged := false // a run with -judge: the static error against exact values too
	fit := false    // a run of search targets, whose error is the fit's and not TD's
	for _, p := range curve {
		judged = judged || !math.IsNaN(float64(p.ExactMAE))
		fit = fit || !math.IsNaN(float64(p.FitError))
	}
	errHead, trainErr := "mean |TD error|", func(p td.CurvePoint) float64 { return float64(p.TDError) }
	if fit {
		errHead, trainErr = "mean |fit error|", func(p td.CurvePoint) float64 { return float64(p.FitError) }
	}
	t := Table{Caption: "Learning curve: score against " + opponent + " at depth 1 over duplicate-dice games, luck-adjusted with " + s.trainLuckRef() + " (- where a checkpoint was not measured)",
		Head: []string{"games", "net", "seconds", errHead, "score", "± 95%, duplicate dice", "luck-adjusted", "± 95%", "plies per game"}}
	if judged {
		t.Head = append(t.Head, "static error against exact values", "± its standard error")
	}
	for _, p := range curve {
		plies := p.MeanPlies.Format("%.1f") // "-" at a checkpoint without a measurement
		net := p.NetID
		if net == "" {
			net = "-" // a curve of format 1
		}
		row := []string{fmt.Sprint(p.Games), net, num(p.Seconds, "%.1f"), num(trainErr(p), "%.4f"),
			pct(float64(p.Score)), pct(float64(p.ScoreCI95)), pct(float64(p.LuckScore)), pct(float64(p.LuckCI95)), plies}
		if judged {
			row = append(row, num(float64(p.ExactMAE), "%.4f"), num(float64(p.ExactSE), "%.4f"))
		}
		t.add(row...)
	}
	s.Tables = append(s.Tables, t)
	if last := curve[len(curve)-1]; last.NetID != "" {
		s.Notes = append(s.Notes, fmt.Sprintf("The net: %s, id %s, after %d games (the last checkpoint). Each row names its net by its id; %s is the net of the first row with the best score.",
			td.NetFile, last.NetID, last.Games, td.BestFile))
	}
	for _, p := range curve {
		if note := td.Repeated(p.MeasurePairs, p.DistinctPairs); note != "" {
			s.Notes = append(s.Notes, fmt.Sprintf("The measurement after %d games: %s.", p.Games, note))
		}
	}
	if _, err := os.Stat(run.Path(td.CurvePNG)); err == nil {
		return s.image(run, td.CurvePNG, "Learning curve")
	}
	// An unfinished run draws its curve at the end: draw what there is.
	data, err := td.CurvePNGData(curve)
	if err != nil {
		return err
	}
	s.Images = append(s.Images, inline(data, fmt.Sprintf("Learning curve so far (%d checkpoints)", len(curve))))
	return nil
}

// trainLuckRef names the luck reference a train run's measurements
// valued the rolls with: the match stage's default for its game and
// variant (selfplay.LuckRef), which the train stage uses and does not
// record; where the game is not known here, it says so in words.
func (s *Section) trainLuckRef() string {
	var set struct {
		Game    string `json:"game"`
		Variant string `json:"variant"`
	}
	if json.Unmarshal(s.Manifest.Settings, &set) == nil && s.games != nil && set.Game != "" {
		if g, err := s.games(set.Game); err == nil {
			return "the luck reference " + selfplay.LuckRef(g, set.Variant)
		}
	}
	return "the match stage's default luck reference for the game"
}

func addFit(s *Section, run *runs.Run) error {
	s.Title = "fit: ChanceProbCut's parameters"
	var f regression.FitResult
	if ok, err := readJSON(run.Path(regression.FitFile), &f); err != nil || !ok {
		return err
	}
	net := ""
	if f.NetID != "" {
		net = ", net " + f.NetID
	}
	t := Table{Caption: fmt.Sprintf("v_deep = a·v_shallow + b per depth pair, %s %s, eval=%s%s; ± is the standard error of a or b, clustered by position (a position's events share its searches); σ is the largest of the fit's, the cross-validated error and the floor", f.Game, f.Variant, f.Eval, net),
		Head: []string{"pair", "band (phase)", "n", "games", "a", "±", "b", "±", "σ", "fit σ", "cv rmse", "R²"}}
	for _, l := range f.Lines {
		t.add(fmt.Sprintf("%d:%d", l.Shallow, l.Deep), l.Band, fmt.Sprint(l.N), fmt.Sprint(l.Games),
			num(l.A, "%.4f"), l.ASE.Format("%.4f"), num(l.B, "%.4f"), l.BSE.Format("%.4f"), num(l.Sigma, "%.4f"), num(l.SigmaFit, "%.4f"), num(l.CVRMSE, "%.4f"), l.R2.Format("%.4f"))
	}
	s.Tables = append(s.Tables, t)
	for _, l := range f.Lines {
		if l.Band == "all" {
			name := regression.ScatterName(regression.Pair{Shallow: l.Shallow, Deep: l.Deep})
			if err := s.image(run, name+".png", fmt.Sprintf("Depths %d and %d", l.Shallow, l.Deep)); err != nil {
				return err
			}
		}
	}
	return nil
}

// addTune shows the tune table with its engines, the chapter's figures
// on our scale, and its plot; a tune.json of an older format, whose
// chapter's figures are on the chapter's own scale, is named, not shown.
func addTune(s *Section, run *runs.Run) error {
	s.Title = "tune: ChanceProbCut's nodes saved against move error"
	var head struct {
		Format string `json:"format"`
	}
	if ok, err := readJSON(run.Path(regression.TuneSummaryFile), &head); err != nil || !ok {
		return err
	}
	if head.Format != regression.TuneFormat {
		s.Notes = append(s.Notes, fmt.Sprintf("%s is of format %q, not %q: a tune of an older starlab, without standard errors and with the chapter's errors on its own scale; run the tune again to see it here.",
			regression.TuneSummaryFile, head.Format, regression.TuneFormat))
		return nil
	}
	var r regression.TuneResult
	if _, err := readJSON(run.Path(regression.TuneSummaryFile), &r); err != nil {
		return err
	}
	if s.games != nil {
		if g, err := s.games(r.GameName()); err == nil {
			r.Bind(g)
		}
	}
	for i, c := range r.CPC {
		src := "-"
		if i < len(r.ProbCut) {
			src = s.names.probcutSource(r.ProbCut[i])
		}
		s.Notes = append(s.Notes, fmt.Sprintf("Engine %d: %s over %d positions; parameters: %s.", i+1, s.names.spec(c), r.Positions, src))
	}
	h, lines := r.Table()
	beside, scale := "Against staretc.", ""
	if ch := r.Chapter(); ch != nil {
		beside, scale = "Against staretc, beside the chapter's "+ch.Tables+".", fmt.Sprintf("; the chapter's points / %d", ch.Points)
	}
	t := Table{Caption: beside + " " + strings.Join(strings.Fields(r.Caption()), " "), Head: h, Open: true}
	for _, l := range lines {
		t.add(l...)
		if e, err := strconv.Atoi(l[2]); err == nil && e >= 1 && e <= len(r.CPC) {
			t.Rows[len(t.Rows)-1][2].Title = r.CPC[e-1]
		}
	}
	s.Tables = append(s.Tables, t)
	return s.image(run, regression.TunePlot+".png", "Reduction against error (errors on our scale"+scale+")")
}

func addCollect(s *Section, run *runs.Run) error {
	s.Title = "collect: shallow and deep searches of chance events"
	// A run without part files has no rows yet; a part file that cannot
	// be read is damaged, and the report fails naming it.
	if parts, _ := filepath.Glob(run.Path(filepath.Join(regression.RowsDir, "*.parquet"))); len(parts) == 0 {
		s.Notes = append(s.Notes, "No rows yet.")
		return nil
	}
	rows, err := regression.ReadRows(run.Dir())
	if err != nil {
		return err
	}
	type acc struct {
		n              int
		nodesS, nodesD float64
	}
	by := map[regression.Pair]*acc{}
	var pairs []regression.Pair
	games := map[int64]bool{}
	for _, r := range rows {
		p := regression.Pair{Shallow: int(r.ShallowDepth), Deep: int(r.DeepDepth)}
		a := by[p]
		if a == nil {
			a = &acc{}
			by[p] = a
			pairs = append(pairs, p)
		}
		a.n++
		a.nodesS += float64(r.NodesShallow)
		a.nodesD += float64(r.NodesDeep)
		games[r.GameID] = true
	}
	t := Table{Caption: fmt.Sprintf("%d rows from %d positions", len(rows), len(games)),
		Head: []string{"pair", "events", "mean nodes, shallow", "mean nodes, deep"}}
	for _, p := range pairs {
		a := by[p]
		t.add(p.String(), fmt.Sprint(a.n), num(a.nodesS/float64(a.n), "%.0f"), num(a.nodesD/float64(a.n), "%.0f"))
	}
	s.Tables = append(s.Tables, t)
	return nil
}

func addBench(s *Section, run *runs.Run) error {
	s.Title = "bench: nodes and time to depth"
	var sum bench.Summary
	if ok, err := readJSON(run.Path(bench.SummaryFile), &sum); err != nil || !ok {
		return err
	}
	var text bytes.Buffer
	sum.WriteText(&text)
	s.Text = s.names.text(text.String())
	data, err := nodesPlot(&sum)
	if err != nil {
		return err
	}
	s.Images = append(s.Images, inline(data, "Mean nodes against depth"))
	return nil
}
