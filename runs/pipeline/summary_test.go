package pipeline

import (
	"math"
	"os"
	"path/filepath"
	breakthroughengine "starlab/search/engine/breakthrough"
	diceengine "starlab/search/engine/dice"
	"strings"
	"testing"

	"starlab/regression"
	"starlab/runs"
	"starlab/search/bench"
	"starlab/selfplay"
	"starlab/td"
)

// TestSummaryPrintsUndefinedAsTheStagesDo: the summary starlab run ends
// with, made from the stages' files as the pipeline reads them, prints
// "-" or "inf" where the stages' own tables do, never a number: no
// chapter's figures for a depth the chapter never measured (starlab tune
// prints "-"), no mean of an undefined bench figure, no score of a
// measurement that is undefined.
func TestSummaryPrintsUndefinedAsTheStagesDo(t *testing.T) {
	dir := t.TempDir()
	read := func(name, text string, v any) {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := runs.ReadJSON(path, v); err != nil {
			t.Fatal(err)
		}
	}
	res := &Result{Recipe: "r", Dir: dir, Net: "n.json", Train: &td.Result{Games: 40, Opponent: "pairs", Score: runs.Num(math.NaN()), ScoreCI95: runs.Num(math.Inf(1))},
		Tune: &regression.TuneResult{}, Bench: &bench.Summary{},
		Fit: &regression.FitResult{NetID: "f", Lines: []regression.Line{{Shallow: 3, Deep: 7, Band: "all", A: 0.9, B: -0.0004, Sigma: 0.1}}}}
	read("tune.json", `{"format": "starlab-tune/2", "cpc": ["cpc:a", "cpc:b"], "probcut": ["p", "p"], "rows": [
		{"depth": 5, "t": 0.8, "engine": "cpc:a", "reduction": 0.5, "reduction_se": null, "acpcme": 0.01, "acpcme_se": null, "acpcme_minus_first": null, "chapter_reduction": null, "chapter_acpcme": null},
		{"depth": 5, "t": 0.8, "engine": "cpc:b", "reduction": 0.6, "reduction_se": 0.02, "acpcme": 0.02, "acpcme_se": 0.001, "acpcme_minus_first": 0.01, "acpcme_minus_first_se": null, "chapter_reduction": null, "chapter_acpcme": null},
		{"depth": 9, "t": 0.8, "engine": "cpc:a", "reduction": 0.5, "reduction_se": 0.01, "acpcme": 0.01, "acpcme_se": 0.002, "acpcme_minus_first": null, "chapter_reduction": 0.41, "chapter_acpcme": 0.005},
		{"depth": 9, "t": 0.8, "engine": "cpc:b", "reduction": 0.6, "reduction_se": 0.01, "acpcme": 0.02, "acpcme_se": 0.002, "acpcme_minus_first": 0.01, "acpcme_minus_first_se": 0.003, "chapter_reduction": 0.41, "chapter_acpcme": 0.005}]}`, res.Tune)
	res.Tune.Bind(diceengine.Game()) // as Run binds the tune it read back
	read("bench.json", `{"positions": 1, "results": [{"depth": 3, "algos": [
		{"algo": "staretc", "nodes": {"mean": null}}, {"algo": "star1", "nodes": {"mean": "inf"}}]}]}`, res.Bench)
	rep := &selfplay.MatchReport{}
	read("summary.json", `{"pairings": [{"a": "x", "b": "y", "games": 2, "score": 1, "luck": true, "luck_score": null, "luck_ci95": "inf"}]}`, rep)
	res.Matches = []*selfplay.MatchReport{rep}
	var b strings.Builder
	res.WriteSummary(&b)
	out := b.String()
	for _, want := range []string{
		"40 games, last measured - ± inf against pairs",
		"  engine 2: cpc:b (p)\n",
		"depth 5 t=0.8: [1] 50.0% ± - 0.0100 ± -; [2] 60.0% ± 2.0% 0.0200 ± 0.0010 (vs [1] +0.0100 ± -)\n",
		"depth 9 t=0.8: [1] 50.0% ± 1.0% 0.0100 ± 0.0020; [2] 60.0% ± 1.0% 0.0200 ± 0.0020 (vs [1] +0.0100 ± 0.0030) (chapter 41.0% 0.005)\n",
		"the chapter's, for cpc:multi=0,r=4,cpcmin=8,cpcmax=11, in its points / 10",
		"staretc -  star1 -\n",
		"luck-adjusted - ± inf,",
		"3:7 a=0.900 b=+0.000 σ=0.100", // b rounds to 0: no "-0.000"
	} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	for _, bad := range []string{"NaN", "Inf", "0.0% 0.00", "(chapter - -)"} {
		if strings.Contains(out, bad) {
			t.Errorf("summary prints %q:\n%s", bad, out)
		}
	}
}

// TestSummaryTuneChapterOnlyOnItsBoard: the run summary gives the
// chapter's figures beside a tune of ChanceBreakthrough 8x8 and none
// beside one of 5x6, even from a tune.json that an earlier version wrote
// with the 8x8 figures in its rows.
func TestSummaryTuneChapterOnlyOnItsBoard(t *testing.T) {
	for _, c := range []struct{ variant, want string }{
		{"8x8", "depth 5 t=1.6: [1] 50.0% ± 1.0% 0.0100 ± 0.0020 (chapter 53.9% 0.021)\n"},
		{"5x6", ""},
	} {
		res := &Result{Recipe: "r", Dir: t.TempDir(), Tune: &regression.TuneResult{}}
		path := filepath.Join(res.Dir, "tune.json")
		text := `{"format": "starlab-tune/3", "game": "breakthrough", "variant": "` + c.variant + `", "cpc": ["cpc:eval=material"], "probcut": ["p"],
			"chapter_scale": "the chapter's points / 1500", "chapter_engine": "cpc:multi=0,r=2,cpcmin=3,cpcmax=5,cpcstep=2", "rows": [
			{"depth": 5, "t": 1.6, "engine": "cpc:eval=material", "reduction": 0.5, "reduction_se": 0.01, "acpcme": 0.01, "acpcme_se": 0.002, "acpcme_minus_first": null,
			 "chapter_scale": "the chapter's points / 1500", "chapter_reduction": 0.539, "chapter_acpcme": 0.021346666666666667, "chapter_dcpcme": 0.12182}]}`
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := runs.ReadJSON(path, res.Tune); err != nil {
			t.Fatal(err)
		}
		res.Tune.Bind(breakthroughengine.Game()) // as Run binds the tune it read back
		var b strings.Builder
		res.WriteSummary(&b)
		out := b.String()
		if c.want == "" && strings.Contains(out, "chapter") || !strings.Contains(out, c.want) {
			t.Errorf("%s: summary\n%s\nwant the chapter's figures only as %q", c.variant, out, c.want)
		}
	}
}

// TestSummaryTrainOpponent: the summary names the opponent the train
// stage measured against, the game's hand evaluator, and says so when the
// measurement's pairs of games were all one pair.
func TestSummaryTrainOpponent(t *testing.T) {
	res := &Result{Recipe: "r", Dir: t.TempDir(), Net: "n.json",
		Train: &td.Result{Games: 2000, Opponent: "material", Score: 0, ScoreCI95: 0, MeasurePairs: 200, DistinctPairs: 1}}
	var b strings.Builder
	res.WriteSummary(&b)
	want := "net n.json: 2000 games, last measured 0.0% ± 0.0% against material at depth 1 (all 200 couples of games on shared dice are the same two games: the score is theirs, repeated, and its interval means nothing)\n"
	if out := b.String(); !strings.Contains(out, want) {
		t.Errorf("summary\n%s\nlacks %q", out, want)
	}
}
