package td

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"starlab/runs"
	"starlab/runs/runstest"
)

// rewriteState rewrites the state file at path as an earlier format wrote
// it: format, and each curve point through edit, without the judged loss
// that no earlier format had.
func rewriteState(t *testing.T, path, format string, edit func(pt map[string]any)) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var st map[string]any
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	st["format"] = format
	for _, p := range st["curve"].([]any) {
		delete(p.(map[string]any), "judge_loss")
		delete(p.(map[string]any), "judge_loss_ci95")
		edit(p.(map[string]any))
	}
	if data, err = json.Marshal(st); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// toV1 rewrites the state file at path as format 1 wrote it: the score as
// score_vs_pairs, no opponent, no counts of pairs and no exact error.
func toV1(t *testing.T, path string) {
	t.Helper()
	rewriteState(t, path, FormatV1, func(pt map[string]any) {
		pt["score_vs_pairs"] = pt["score_vs_hand"]
		for _, k := range []string{"score_vs_hand", "opponent", "measure_pairs", "distinct_pairs", "exact_mae", "exact_se", "fit_error"} {
			delete(pt, k)
		}
	})
}

// TestFormatV1StillLoads: the files of a train run of format 1, whose
// score is score_vs_pairs whatever the game, still load: an unfinished
// run's state file is read as a curve and resumes to the net and the
// scores of the uninterrupted run, and a curve.parquet of format 1 is read
// with its scores, naming no opponent.
func TestFormatV1StillLoads(t *testing.T) {
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole")
	if _, err := train(t, tiny(), whole, runs.NoProgress); err != nil {
		t.Fatal(err)
	}
	want, err := ReadCurve(whole)
	if err != nil {
		t.Fatal(err)
	}
	if p := want[2]; p.Opponent != "pairs" || p.MeasurePairs != 2 || p.DistinctPairs < 1 || p.DistinctPairs > 2 {
		t.Fatalf("the measured point %+v: want an opponent pairs and 2 pairs", p)
	}

	// Cancelled after 28 games: points at 8, 16 and 24 (measured).
	cut := filepath.Join(dir, "cut")
	stopAfter(t, cut, 8)
	// a run of format 1 stopped before its end wrote no curve file
	for _, f := range []string{CurveFile, CurvePNG, CurveSVG} {
		if err := os.Remove(filepath.Join(cut, f)); err != nil {
			t.Fatal(err)
		}
	}
	toV1(t, filepath.Join(cut, StateFile))
	if data, _ := os.ReadFile(filepath.Join(cut, StateFile)); !bytes.Contains(data, []byte(`"score_vs_pairs":`)) || !bytes.Contains(data, []byte(FormatV1)) {
		t.Fatalf("the state file is not of format 1: %s", data)
	}
	old, err := ReadCurve(cut)
	if err != nil {
		t.Fatal(err)
	}
	if len(old) != 3 || old[2].Score != want[2].Score || old[2].Opponent != "" {
		t.Fatalf("state file of format 1 read as %+v, want 3 points, the third scored %v", old, want[2].Score)
	}
	if err := resumeTiny(cut); err != nil {
		t.Fatalf("resumed from a state file of format 1: %v", err)
	}
	got, err := ReadCurve(cut)
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range want {
		if g := got[i]; !same(float64(g.Score), float64(w.Score)) || g.Opponent != "pairs" {
			t.Errorf("point %d resumed from format 1: %+v, uninterrupted %+v", i, g, w)
		}
	}
	for _, f := range []string{NetFile, BestFile} {
		a, err1 := os.ReadFile(filepath.Join(whole, f))
		b, err2 := os.ReadFile(filepath.Join(cut, f))
		if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
			t.Errorf("%s resumed from format 1 differs from the uninterrupted run's (%v, %v)", f, err1, err2)
		}
	}

	// A finished run of format 1: its curve.parquet.
	v1 := filepath.Join(dir, "v1")
	run, err := runs.CreateAt(v1, "train", nil, tiny(), 1)
	if err != nil {
		t.Fatal(err)
	}
	writeOldCurve(t, run, FormatV1, want, "fit_error", "score_vs_hand", "opponent", "measure_pairs", "distinct_pairs", "exact_mae", "exact_se", "judge_loss", "judge_loss_ci95")
	defer run.Close()
	back, err := ReadCurve(v1)
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != len(want) || back[2].Score != want[2].Score || back[2].Opponent != "" || back[2].DistinctPairs != 0 {
		t.Fatalf("curve.parquet of format 1 read as %+v, want %d points, the third scored %v", back, len(want), want[2].Score)
	}
	// Another format is refused, naming the file and the formats.
	if err := runs.WriteParquet(run, "other.parquet", "starlab-train/0", want); err != nil {
		t.Fatal(err)
	}
	if _, err := readCurveFile(filepath.Join(v1, "other.parquet"), func() (bool, error) { return false, nil }); err == nil || !strings.Contains(err.Error(), "other.parquet") {
		t.Errorf("a curve of format starlab-train/0: %v", err)
	}
}

// TestFormatV2StillLoads: a train run of format 2, whose points have no
// error against exact values, still loads: an unfinished run's state file
// resumes to the net of the uninterrupted run, and a curve.parquet of
// format 2 is read with its scores, the error undefined (NaN).
func TestFormatV2StillLoads(t *testing.T) {
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole")
	if _, err := train(t, tiny(), whole, runs.NoProgress); err != nil {
		t.Fatal(err)
	}
	want, err := ReadCurve(whole)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "cut")
	stopAfter(t, cut, 8)
	rewriteState(t, filepath.Join(cut, StateFile), FormatV2, func(pt map[string]any) {
		delete(pt, "exact_mae")
		delete(pt, "exact_se")
		delete(pt, "fit_error")
	})
	old, err := ReadCurve(cut)
	if err != nil || len(old) != 3 || old[2].Score != want[2].Score || !math.IsNaN(float64(old[2].ExactMAE)) {
		t.Fatalf("state file of format 2 read as %+v, %v", old, err)
	}
	if err := resumeTiny(cut); err != nil {
		t.Fatalf("resumed from a state file of format 2: %v", err)
	}
	a, err1 := os.ReadFile(filepath.Join(whole, NetFile))
	b, err2 := os.ReadFile(filepath.Join(cut, NetFile))
	if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
		t.Errorf("the net resumed from format 2 differs from the uninterrupted run's (%v, %v)", err1, err2)
	}
	v2 := filepath.Join(dir, "v2")
	run, err := runs.CreateAt(v2, "train", nil, tiny(), 1)
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	writeOldCurve(t, run, FormatV2, want, "fit_error", "score_vs_pairs", "exact_mae", "exact_se", "judge_loss", "judge_loss_ci95")
	back, err := ReadCurve(v2)
	if err != nil || len(back) != len(want) || back[2].Score != want[2].Score || back[2].Opponent != "pairs" || !math.IsNaN(float64(back[2].ExactSE)) {
		t.Fatalf("curve.parquet of format 2 read as %+v, %v", back, err)
	}
}

// toV3 rewrites the state file at path as format 3 wrote it: one error,
// td_error, the fit's in a run of search targets.
func toV3(t *testing.T, path string) {
	t.Helper()
	rewriteState(t, path, FormatV3, func(pt map[string]any) {
		if pt["td_error"] == nil {
			pt["td_error"] = pt["fit_error"]
		}
		delete(pt, "fit_error")
	})
}

// writeOldCurve writes the points of curve as the curve.parquet of run in
// an earlier format, which had the columns of curvePointOld but drop: the
// score under score_vs_hand and score_vs_pairs (format 1's name), and the
// one error of the run, TD's or the fit's, under td_error.
func writeOldCurve(t *testing.T, run *runs.Run, format string, curve []CurvePoint, drop ...string) {
	t.Helper()
	points := make([]curvePointOld, len(curve))
	for i, p := range curve {
		if math.IsNaN(float64(p.TDError)) {
			p.TDError = p.FitError
		}
		points[i] = curvePointOld{CurvePoint: p, ScoreV1: p.Score}
	}
	runstest.WriteOldParquet(t, run.Path(CurveFile), format, points, drop...)
}

// TestFormatV3StillLoads: a train run of format 3, whose one error is
// td_error whatever the target, still loads with the error in the column
// of the run's target: a search-target run's state file and curve.parquet
// give fit_error (td_error undefined), a TD run's give td_error (fit_error
// undefined), and the unfinished search-target run resumes to the net and
// the fit errors of the uninterrupted run.
func TestFormatV3StillLoads(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		s    Settings
		fit  bool
	}{{"td", tiny(), false}, {"search", searchTiny(2), true}} {
		whole := filepath.Join(dir, c.name, "whole")
		if _, err := train(t, c.s, whole, runs.NoProgress); err != nil {
			t.Fatal(err)
		}
		want, err := ReadCurve(whole)
		if err != nil {
			t.Fatal(err)
		}
		cut := filepath.Join(dir, c.name, "cut")
		stopRun(t, c.s, cut, func(calls int, _ int64) bool { return calls == 8 })
		toV3(t, filepath.Join(cut, StateFile))
		old, err := ReadCurve(cut)
		if err != nil || len(old) < 2 {
			t.Fatalf("%s: state file of format 3 read as %+v, %v", c.name, old, err)
		}
		for i, p := range old {
			if c.fit && (!math.IsNaN(float64(p.TDError)) || p.FitError != want[i].FitError) ||
				!c.fit && (p.TDError != want[i].TDError || !math.IsNaN(float64(p.FitError))) {
				t.Errorf("%s: point %d of format 3 read with TD error %v and fit error %v, the uninterrupted run's %v and %v",
					c.name, i, p.TDError, p.FitError, want[i].TDError, want[i].FitError)
			}
		}
		if _, err := resumeRun(c.s, cut); err != nil {
			t.Fatalf("%s: resumed from a state file of format 3: %v", c.name, err)
		}
		got, err := ReadCurve(cut)
		if err != nil {
			t.Fatal(err)
		}
		for i, w := range want {
			if g := got[i]; !same(float64(g.TDError), float64(w.TDError)) || !same(float64(g.FitError), float64(w.FitError)) {
				t.Errorf("%s: point %d resumed from format 3: errors %v and %v, uninterrupted %v and %v", c.name, i, g.TDError, g.FitError, w.TDError, w.FitError)
			}
		}
		if a, b := netID(t, filepath.Join(whole, NetFile)), netID(t, filepath.Join(cut, NetFile)); a != b {
			t.Errorf("%s: the net resumed from format 3 is %s, the uninterrupted run's %s", c.name, b, a)
		}
		// A finished run of format 3: its curve.parquet.
		v3 := filepath.Join(dir, c.name, "v3")
		run, err := runs.CreateAt(v3, "train", nil, c.s, 1)
		if err != nil {
			t.Fatal(err)
		}
		writeOldCurve(t, run, FormatV3, want, "fit_error", "score_vs_pairs", "judge_loss", "judge_loss_ci95")
		run.Close()
		back, err := ReadCurve(v3)
		if err != nil || len(back) != len(want) {
			t.Fatalf("%s: curve.parquet of format 3 read as %+v, %v", c.name, back, err)
		}
		for i, w := range want {
			if g := back[i]; !same(float64(g.TDError), float64(w.TDError)) || !same(float64(g.FitError), float64(w.FitError)) || g.Score != w.Score && !math.IsNaN(float64(w.Score)) {
				t.Errorf("%s: point %d of a curve.parquet of format 3: %+v, the run's %+v", c.name, i, g, w)
			}
		}
	}
}

// TestJudgeCurve: with -judge each measured point carries the net's static
// error against the suite's exact values, equal to eval's figure for the
// net of that point; a suite without exact values is refused.
func TestJudgeCurve(t *testing.T) {
	s := tiny()
	s.Variant, s.JudgeSuite = "5x5-4", "../search/testdata/endgame5x5-4.suite"
	dir := filepath.Join(t.TempDir(), "j")
	res, err := train(t, s, dir, runs.NoProgress)
	if err != nil {
		t.Fatal(err)
	}
	curve, err := ReadCurve(dir)
	if err != nil {
		t.Fatal(err)
	}
	last := curve[len(curve)-1]
	j, err := s.judgeSuite()
	if err != nil {
		t.Fatal(err)
	}
	want, err := j.judge(filepath.Join(dir, NetFile))
	if err != nil {
		t.Fatal(err)
	}
	if float64(last.ExactMAE) != want.MAE || float64(res.ExactSE) != want.SE || want.N != 50 || !(want.MAE > 0) {
		t.Errorf("last point's error %v ± %v (result %v); the net's, judged again: %+v", last.ExactMAE, last.ExactSE, res.ExactMAE, want)
	}
	s.JudgeSuite = "../search/dice/suites/dice5x5-4.suite" // no exact values
	if err := s.Check(); err == nil || !runs.IsUsage(err) || !strings.Contains(err.Error(), "exact") {
		t.Errorf("a suite without exact values: %v", err)
	}
}

// TestRunUsesWhatCheckRead: settings that Check has checked keep the
// suites it read, so that Run reads none of them again (a suite removed
// after Check does not stop the run), while settings changed since in what
// they name are read afresh.
func TestRunUsesWhatCheckRead(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile("../search/testdata/endgame5x5-4.suite")
	if err != nil {
		t.Fatal(err)
	}
	suite := filepath.Join(dir, "judge.suite")
	if err := os.WriteFile(suite, data, 0o644); err != nil {
		t.Fatal(err)
	}
	s := tiny()
	s.Variant, s.JudgeSuite = "5x5-4", suite
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(suite); err != nil {
		t.Fatal(err)
	}
	res, err := train(t, s, filepath.Join(dir, "run"), runs.NoProgress)
	if err != nil || math.IsNaN(float64(res.ExactMAE)) {
		t.Fatalf("a run of checked settings whose suite is gone: %v, exact error %v", err, res)
	}
	s.JudgeSuite = filepath.Join(dir, "other.suite")
	if err := s.Check(); err == nil || !strings.Contains(err.Error(), "other.suite") {
		t.Errorf("settings naming another suite after Check: %v, want the new suite read", err)
	}
}

// TestOldFormatsKeepTheirColumns: a file of an earlier format is read with
// the columns that format had and no others: a state file of format 1
// whose points name an opponent, which format 1 did not record, is
// refused, and so is a curve.parquet of format 3 without its exact_mae.
func TestOldFormatsKeepTheirColumns(t *testing.T) {
	v1 := `{"format":"starlab-train/1","games":8,"seconds":1,"best_score":-1,"curve":[{"games":8,"seconds":1,"td_error":0.1,` +
		`"score_vs_pairs":null,"score_ci95_pairs":null,"luck_score":null,"luck_ci95":null,"mean_plies":null,"games_per_s":1,"net_id":"x","checkpoint":true,"opponent":"pairs"}]}`
	var st state
	if err := st.parse([]byte(v1), nil); err == nil || !strings.Contains(err.Error(), "opponent") {
		t.Errorf("a state file of format 1 with an opponent: %v", err)
	}
	dir := filepath.Join(t.TempDir(), "v3")
	run, err := runs.CreateAt(dir, "train", nil, tiny(), 1)
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	writeOldCurve(t, run, FormatV3, []CurvePoint{{Games: 8, TDError: 0.1}}, "fit_error", "score_vs_pairs", "exact_mae", "judge_loss", "judge_loss_ci95")
	if _, err := readCurveFile(run.Path(CurveFile), func() (bool, error) { return false, nil }); err == nil || !strings.Contains(err.Error(), "exact_mae") {
		t.Errorf("a curve.parquet of format 3 without exact_mae: %v", err)
	}
}

// TestFormatV4StillLoads: a train run of format 4, which had no judged
// loss, still loads: an unfinished run's state file resumes to the net of
// the uninterrupted run, and its points and a curve.parquet of format 4
// read with the judged loss undefined and the rest as written.
func TestFormatV4StillLoads(t *testing.T) {
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole")
	if _, err := train(t, tiny(), whole, runs.NoProgress); err != nil {
		t.Fatal(err)
	}
	want, err := ReadCurve(whole)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "cut")
	stopRun(t, tiny(), cut, func(_ int, games int64) bool { return games >= 24 })
	rewriteState(t, filepath.Join(cut, StateFile), FormatV4, func(map[string]any) {})
	if _, err := resumeRun(tiny(), cut); err != nil {
		t.Fatal(err)
	}
	if a, b := netID(t, filepath.Join(whole, NetFile)), netID(t, filepath.Join(cut, NetFile)); a != b {
		t.Errorf("the net resumed from format 4 is %s, the uninterrupted run's %s", b, a)
	}
	got, err := ReadCurve(cut)
	if err != nil || len(got) != len(want) || !math.IsNaN(float64(got[0].JudgeLoss)) || got[len(got)-1].Score != want[len(want)-1].Score {
		t.Fatalf("resumed from format 4: %+v, %v", got, err)
	}
	v4 := filepath.Join(dir, "v4")
	run, err := runs.CreateAt(v4, "train", nil, tiny(), 1)
	if err != nil {
		t.Fatal(err)
	}
	writeOldCurve(t, run, FormatV4, want, "score_vs_pairs", "judge_loss", "judge_loss_ci95")
	run.Close()
	back, err := ReadCurve(v4)
	if err != nil || len(back) != len(want) || !math.IsNaN(float64(back[1].JudgeLoss)) || !same(float64(back[1].TDError), float64(want[1].TDError)) {
		t.Fatalf("curve.parquet of format 4 read as %+v, %v", back, err)
	}
}
