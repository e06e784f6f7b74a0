package selfplay

import (
	"bytes"
	"context"
	"errors"
	"math"
	"path/filepath"
	"reflect"
	"testing"

	"starlab/runs"
	"starlab/search"
	"starlab/search/game"
)

// analyzedMatch plays a Dice match of a depth-3 StarETC against a depth-1
// Star1 with the pairs evaluator and returns its run directory.
func analyzedMatch(t *testing.T) string {
	t.Helper()
	set := DefaultMatchSettings(diceGame, "staretc:depth=3", "star1:depth=1,eval=pairs")
	set.Games, set.Seed, set.Concurrency, set.Luck = 8, 5, 2, "none"
	run, err := runs.CreateAt(filepath.Join(t.TempDir(), "match"), "match", nil, &set, 5)
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	if _, err := RunMatch(context.Background(), set, run, runs.NoProgress); err != nil {
		t.Fatal(err)
	}
	return run.Dir()
}

// analyzeInto runs Analyze of match into dir, cancelled once after games
// judged games when after is above 0.
func analyzeInto(t *testing.T, dir, match string, after int64) (*AnalyzeResult, error) {
	t.Helper()
	return analyzeShard(t, dir, match, after, runs.Shard{})
}

// analyzeShard is analyzeInto of shard of the match's pairs.
func analyzeShard(t *testing.T, dir, match string, after int64, shard runs.Shard) (*AnalyzeResult, error) {
	t.Helper()
	set := AnalyzeSettings{Kit: diceGame, Match: match, Judge: "staretc:depth=3", Workers: 2, Shard: shard}
	run, err := runs.Open(dir)
	if err != nil {
		if run, err = runs.CreateAt(dir, "analyze", nil, &set, 0); err != nil {
			t.Fatal(err)
		}
	}
	defer run.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res, err := Analyze(ctx, set, run, func(done, _ int64, _ string) {
		if after > 0 && done >= after {
			cancel()
		}
	})
	if err == nil {
		err = run.Finish(nil)
	}
	return res, err
}

// TestAnalyze: an engine judged by its own search loses nothing, a weaker
// one loses more, with an interval, and a run stopped after some games
// resumes to the same rows as one that was not.
func TestAnalyze(t *testing.T) {
	match := analyzedMatch(t)
	whole := filepath.Join(t.TempDir(), "whole")
	res, err := analyzeInto(t, whole, match, 0)
	if err != nil {
		t.Fatal(err)
	}
	a, b := res.Sides[0], res.Sides[1]
	if res.Games != 8 || a.Decisions == 0 || a.MeanLoss != 0 || a.Errors != 0 {
		t.Errorf("staretc:depth=3 judged by itself: %+v over %d games", a, res.Games)
	}
	if math.IsNaN(float64(res.Predicted)) || math.IsNaN(float64(res.Actual)) || !(res.ActualCI95 > 0) {
		t.Errorf("the judge's account %v ± %v, the score %v ± %v", res.Predicted, res.PredictedCI95, res.Actual, res.ActualCI95)
	}
	if !(b.MeanLoss > 0) || !(b.CI95 > 0) || !(b.Blunders <= b.Errors) || len(b.Worst) == 0 || b.Worst[0].Loss < b.Worst[len(b.Worst)-1].Loss {
		t.Errorf("star1:depth=1 judged by staretc:depth=3: %+v", b)
	}
	cut := filepath.Join(t.TempDir(), "cut")
	if _, err := analyzeInto(t, cut, match, 3); !errors.Is(err, context.Canceled) {
		t.Fatalf("a stopped analysis returned %v", err)
	}
	if _, err := analyzeInto(t, cut, match, 0); err != nil {
		t.Fatal(err)
	}
	want, err := runs.ReadParquet[JudgedDecision](filepath.Join(whole, AnalysisFile), AnalyzeFormat)
	if err != nil {
		t.Fatal(err)
	}
	got, err := runs.ReadParquet[JudgedDecision](filepath.Join(cut, AnalysisFile), AnalyzeFormat)
	if err != nil || !reflect.DeepEqual(want, got) {
		t.Fatalf("the resumed analysis has %d rows (%v), the whole %d, or they differ", len(got), err, len(want))
	}

	// Two shards merged give the rows and the figures of the whole.
	var shards []string
	for i := range 2 {
		d := filepath.Join(t.TempDir(), "shard")
		if _, err := analyzeShard(t, d, match, 0, runs.Shard{Index: i, Count: 2}); err != nil {
			t.Fatal(err)
		}
		shards = append(shards, d)
	}
	mres, got, err := mergeAnalyzed(t, shards)
	if err != nil || !reflect.DeepEqual(want, got) || !reflect.DeepEqual(mres, res) {
		t.Fatalf("the merged shards: %d rows (%v), %+v; the whole: %d rows, %+v", len(got), err, mres, len(want), res)
	}
}

// TestSideAnalysisByHand: the figures of a side on numbers worked by hand.
// Two pairs: pair 0 holds losses 0.1 and 0 (game 1), pair 1 holds 0.2
// (game 3) and 0.3 and 0.1 (game 4). The mean is 0.7/5 = 0.14; the
// clusters' residuals L - m n are 0.1 - 0.28 and 0.6 - 0.42, ±0.18, so
// the standard error is √(2/1 · 0.0648)/5 = 0.072 and the interval t(1
// df) = 12.706 times it.
func TestSideAnalysisByHand(t *testing.T) {
	var rows []JudgedDecision
	for _, c := range []struct {
		game int32
		loss float64
	}{{1, 0.1}, {1, 0}, {3, 0.2}, {4, 0.3}, {4, 0.1}} {
		rows = append(rows, JudgedDecision{Game: c.game, Player: "A", Loss: c.loss}, JudgedDecision{Game: c.game, Player: "B", Loss: 1})
	}
	a := sideAnalysis("x", "A", rows, func(g int32) int32 { return (g - 1) / 2 })
	if a.Decisions != 5 || math.Abs(float64(a.MeanLoss)-0.14) > 1e-12 || math.Abs(float64(a.CI95)-12.706204736*0.072) > 1e-6 ||
		a.Errors != 0.8 || a.Blunders != 0.8 || len(a.Worst) != 4 || a.Worst[0].Loss != 0.3 {
		t.Errorf("side A: %+v", a)
	}
}

// TestAnalyzePositions judges engines on a suite's positions: an engine
// judged by its own search loses nothing, a weaker one more, and two
// shards merged give the rows of the whole.
func TestAnalyzePositions(t *testing.T) {
	ps, err := search.ReadSuite(diceGame, "../search/dice/suites/dice5x5-4.suite")
	if err != nil {
		t.Fatal(err)
	}
	set := AnalyzeSettings{Kit: diceGame, Engines: []string{"staretc:depth=3", "star1:depth=1,eval=pairs"}, Judge: "staretc:depth=3", Workers: 2}
	for i, p := range ps[:12] { // each rolled: a decision
		if evs, _ := p.Pos.Outcomes(nil); len(evs) > 0 {
			p.Pos.Happen(evs[i%len(evs)])
		}
		set.Positions = append(set.Positions, p.Pos.String())
	}
	judged := func(shard runs.Shard) (*AnalyzeResult, string) {
		s := set
		s.Shard = shard
		run, err := runs.CreateAt(filepath.Join(t.TempDir(), "a"), "analyze", nil, &s, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer run.Close()
		res, err := Analyze(context.Background(), s, run, runs.NoProgress)
		if err == nil {
			err = run.Finish(nil)
		}
		if err != nil {
			t.Fatal(err)
		}
		return res, run.Dir()
	}
	res, whole := judged(runs.Shard{})
	a, b := res.Sides[0], res.Sides[1]
	if res.Positions == 0 || a.Decisions != res.Positions || a.MeanLoss != 0 || !(b.MeanLoss > 0) || !(b.CI95 > 0) {
		t.Errorf("on %d positions: A %+v, B %+v", res.Positions, a, b)
	}
	if p := res.Paired; p == nil || p.Positions != res.Positions || math.Abs(float64(p.Mean-(b.MeanLoss-a.MeanLoss))) > 1e-12 || !(p.CI95 > 0) {
		t.Errorf("paired over %d positions: %+v, want B less A %v", res.Positions, p, b.MeanLoss-a.MeanLoss)
	}
	var dirs []string
	for i := range 2 {
		_, d := judged(runs.Shard{Index: i, Count: 2})
		dirs = append(dirs, d)
	}
	want, err := runs.ReadParquet[JudgedDecision](filepath.Join(whole, AnalysisFile), AnalyzeFormat)
	if err != nil {
		t.Fatal(err)
	}
	mres, got, err := mergeAnalyzed(t, dirs)
	if err != nil || !reflect.DeepEqual(got, want) || mres.Sides[1].MeanLoss != b.MeanLoss || !reflect.DeepEqual(mres.Paired, res.Paired) {
		t.Fatalf("merged: %d rows (%v), %+v; whole: %d rows, %+v", len(got), err, mres.Sides[1], len(want), b)
	}
}

// TestExportPositions exports at most 3 decisions a game of a match as a
// suite: each a decision with more than one legal move, each once, and
// the suite reads back as the positions analyze -suite judges.
func TestExportPositions(t *testing.T) {
	match := analyzedMatch(t)
	files, res, err := ExportFiles(context.Background(), ExportSettings{Kit: diceGame, Match: match, Positions: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[0].Name != PositionsFile || res.Games != 8 {
		t.Fatalf("%d files, %+v", len(files), res)
	}
	ps, err := search.ParseSuite(diceGame, bytes.NewReader(files[0].Data))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, p := range ps {
		text := p.Pos.String()
		if p.Pos.Kind() != game.Decision || len(p.Pos.Legal(nil)) < 2 || seen[text] {
			t.Errorf("%s: not a decision with a choice, or given twice", text)
		}
		seen[text] = true
	}
	if len(ps) == 0 || len(ps) > 3*res.Games {
		t.Errorf("%d positions from %d games, at most 3 each", len(ps), res.Games)
	}
}

// mergeAnalyzed merges the analyze shards in dirs into a new run and
// returns its result and rows, the error of reading the rows.
func mergeAnalyzed(t *testing.T, dirs []string) (*AnalyzeResult, []JudgedDecision, error) {
	t.Helper()
	sh, err := runs.CheckShards(dirs, "workers")
	if err != nil {
		t.Fatal(err)
	}
	merged, err := runs.CreateAt(filepath.Join(t.TempDir(), "merged"), "analyze", nil, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer merged.Close()
	res, err := MergeAnalyze(context.Background(), diceGame, sh, merged, runs.NoProgress)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := runs.ReadParquet[JudgedDecision](merged.Path(AnalysisFile), AnalyzeFormat)
	return res, rows, err
}
