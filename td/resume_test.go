package td

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"

	"starlab/runs"
)

// tiny is a training on 4x4/3 whose checkpoints (every 8 games) are
// measured only every third time (every 24 games) and whose last point,
// at 60 games, is measured without being a multiple of either.
func tiny() Settings {
	s := DefaultSettings(diceGame())
	s.Variant, s.Games, s.Seed = "4x4-3", 60, 5
	s.CheckpointEvery, s.MeasureEvery, s.MeasureGames, s.Batch, s.Workers = 8, 24, 4, 4, 2
	return s
}

// same reports whether two figures are equal, NaN equal to NaN.
func same(a, b float64) bool {
	return a == b || math.IsNaN(a) && math.IsNaN(b)
}

// stopAfter starts the tiny training in cut and cancels it at its k-th
// progress call, as Ctrl-C would.
func stopAfter(t *testing.T, cut string, k int) {
	t.Helper()
	stopRun(t, tiny(), cut, func(calls int, _ int64) bool { return calls == k })
}

// stopRun starts training s in cut and cancels it, as Ctrl-C would, at
// the first progress call (the calls so far and the games played) that
// stop accepts.
func stopRun(t *testing.T, s Settings, cut string, stop func(calls int, games int64) bool) {
	t.Helper()
	run, err := runs.CreateAt(cut, "train", nil, s, s.Seed)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	_, err = Run(ctx, s, run, func(games, _ int64, _ string) {
		if calls++; stop(calls, games) {
			cancel()
		}
	})
	cancel()
	run.Close()
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("%s cancelled: returned %v", cut, err)
	}
}

// resumeTiny resumes the tiny training in cut to its end.
func resumeTiny(cut string) error {
	_, err := resumeRun(tiny(), cut)
	return err
}

// resumeRun resumes the training in cut to its end, with s for what a
// resumed run takes from its caller (the game, the workers).
func resumeRun(s Settings, cut string) (*Result, error) {
	again, err := runs.Open(cut)
	if err != nil {
		return nil, err
	}
	defer again.Close()
	if err := again.Resume(); err != nil {
		return nil, err
	}
	return Run(context.Background(), s, again, runs.NoProgress)
}

// TestResumeAtAnyPointKeepsTheCurve: a train run cancelled after k
// progress calls, for k before and after measured and unmeasured
// checkpoints and in the middle of a measurement, and resumed, writes the
// curve.parquet of the uninterrupted run row by row (NaN where NaN, the
// times aside) and the same net and best net, byte for byte.
func TestResumeAtAnyPointKeepsTheCurve(t *testing.T) {
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole")
	if _, err := train(t, tiny(), whole, runs.NoProgress); err != nil {
		t.Fatal(err)
	}
	want, err := runs.ReadParquet[CurvePoint](filepath.Join(whole, CurveFile), Format)
	if err != nil {
		t.Fatal(err)
	}
	// Points at 8, 16, 24 (measured), 32, 40, 48 (measured), 56 and 60
	// (measured): rows without a measurement must be there, undefined.
	if len(want) != 8 || !math.IsNaN(float64(want[0].Score)) || math.IsNaN(float64(want[2].Score)) || !math.IsNaN(float64(want[0].MeanPlies)) || math.IsNaN(float64(want[2].MeanPlies)) {
		t.Fatalf("uninterrupted curve: %+v", want)
	}
	// Progress is called once at the start and after every round of 4
	// games: call k reports 4(k-1) games. Cancelling at a checkpoint's
	// call stops after it is written (or in its measurement).
	for _, k := range []int{1, 2, 3, 4, 6, 7, 8, 10, 12, 13, 14, 15, 16} {
		cut := filepath.Join(dir, "cut", string(rune('a'+k)))
		stopAfter(t, cut, k)
		if err := resumeTiny(cut); err != nil {
			t.Fatalf("k=%d: resumed: %v", k, err)
		}
		got, err := runs.ReadParquet[CurvePoint](filepath.Join(cut, CurveFile), Format)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("k=%d: %d curve rows, uninterrupted %d", k, len(got), len(want))
		}
		for i, w := range want {
			g := got[i]
			if g.Games != w.Games || g.TDError != w.TDError || !same(float64(g.FitError), float64(w.FitError)) || g.NetID != w.NetID || g.Checkpoint != w.Checkpoint ||
				!same(float64(g.Score), float64(w.Score)) || !same(float64(g.ScoreCI95), float64(w.ScoreCI95)) ||
				!same(float64(g.LuckScore), float64(w.LuckScore)) || !same(float64(g.LuckCI95), float64(w.LuckCI95)) ||
				!same(float64(g.MeanPlies), float64(w.MeanPlies)) || g.Opponent != w.Opponent || g.MeasurePairs != w.MeasurePairs || g.DistinctPairs != w.DistinctPairs {
				t.Errorf("k=%d: row %d resumed %+v, uninterrupted %+v", k, i, g, w)
			}
		}
		for _, f := range []string{NetFile, BestFile} {
			a, err1 := os.ReadFile(filepath.Join(whole, f))
			b, err2 := os.ReadFile(filepath.Join(cut, f))
			if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
				t.Errorf("k=%d: %s differs from the uninterrupted run's (%v, %v)", k, f, err1, err2)
			}
		}
	}
}

// TestStoppedRunWritesItsCurve: a run cancelled before its first
// checkpoint writes no curve; cancelled after its third (24 games, call
// 8 reports them), it writes curve.parquet and its plots with the rows to
// that checkpoint, which a resume then continues.
func TestStoppedRunWritesItsCurve(t *testing.T) {
	dir := t.TempDir()
	early := filepath.Join(dir, "early")
	stopAfter(t, early, 1)
	if _, err := os.Stat(filepath.Join(early, CurveFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("cancelled before a checkpoint: %s: %v, want none", CurveFile, err)
	}
	late := filepath.Join(dir, "late")
	stopAfter(t, late, 8)
	got, err := runs.ReadParquet[CurvePoint](filepath.Join(late, CurveFile), Format)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[2].Games != 24 || math.IsNaN(float64(got[2].Score)) {
		t.Fatalf("cancelled after 24 games: curve %+v, want the rows at 8, 16 and 24 (measured)", got)
	}
	for _, f := range []string{CurvePNG, CurveSVG} {
		if _, err := os.Stat(filepath.Join(late, f)); err != nil {
			t.Errorf("cancelled after 24 games: %v", err)
		}
	}
	// Resumed, the run drops those files before it trains on, so that a
	// kill leaves none older than the state; stopped again, it writes
	// them anew.
	again, err := runs.Open(late)
	if err != nil {
		t.Fatal(err)
	}
	if err := again.Resume(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	_, err = Run(ctx, tiny(), again, func(games, _ int64, _ string) {
		for _, f := range []string{CurveFile, CurvePNG, CurveSVG} {
			if _, err := os.Stat(filepath.Join(late, f)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("resumed, at %d games: %s: %v, want none", games, f, err)
			}
		}
		cancel()
	})
	cancel()
	again.Close()
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("resumed and cancelled: %v", err)
	}
	if got, err := runs.ReadParquet[CurvePoint](filepath.Join(late, CurveFile), Format); err != nil || len(got) != 3 {
		t.Fatalf("stopped again: %d rows (%v), want 3", len(got), err)
	}
}

// TestStateKeepsUndefinedFigures: the state file, written as Run writes
// it and read back as Run resumes from it, keeps NaN and the infinities
// of the curve rather than reading them as 0.
func TestStateKeepsUndefinedFigures(t *testing.T) {
	run, err := runs.CreateAt(filepath.Join(t.TempDir(), "s"), "train", nil, tiny(), 1)
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	nan, inf := runs.Num(math.NaN()), runs.Num(math.Inf(1))
	pt := CurvePoint{Games: 8, Score: nan, ScoreCI95: inf, LuckScore: -inf, LuckCI95: nan, MeanPlies: nan}
	if err := runs.WriteJSON(run, StateFile, state{Format: Format, Games: 8, Best: -1, Curve: []CurvePoint{pt}}); err != nil {
		t.Fatal(err)
	}
	set := DefaultSettings(diceGame())
	set.Games, set.CheckpointEvery, set.MeasureEvery = 8, 8, 8
	st, err := readState(run.Path(StateFile), &set)
	if err != nil {
		t.Fatal(err)
	}
	got := st.Curve[0]
	for _, c := range []struct {
		name      string
		got, want runs.Num
	}{{"score", got.Score, nan}, {"score ci95", got.ScoreCI95, inf}, {"luck score", got.LuckScore, -inf},
		{"luck ci95", got.LuckCI95, nan}, {"mean plies", got.MeanPlies, nan}} {
		if !same(float64(c.got), float64(c.want)) {
			t.Errorf("%s read back as %v, want %v", c.name, c.got, c.want)
		}
	}
}

// TestResumeFinishesTheNextNet: a run stopped between writing a point's
// state and making that point's net (NextFile) its net resumes from the
// point's net; a NextFile whose state was never written is dropped. Both
// end with the uninterrupted run's net, byte for byte.
func TestResumeFinishesTheNextNet(t *testing.T) {
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole")
	if _, err := train(t, tiny(), whole, runs.NoProgress); err != nil {
		t.Fatal(err)
	}
	wantNet, err := os.ReadFile(filepath.Join(whole, NetFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		stage func(cut string) error // the files as the stop left them
	}{
		{"state written, net not yet made", func(cut string) error {
			// NetFile is an older net; the point's net is still NextFile.
			if err := os.Rename(filepath.Join(cut, NetFile), filepath.Join(cut, NextFile)); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(cut, NetFile), wantNet, 0o644)
		}},
		{"net written, state not", func(cut string) error {
			// A net of more games than the state counts.
			return os.WriteFile(filepath.Join(cut, NextFile), wantNet, 0o644)
		}},
	} {
		cut := filepath.Join(dir, c.name) // with a comma, as a run directory may have
		stopAfter(t, cut, 3)              // after the checkpoint at 8 games
		if err := c.stage(cut); err != nil {
			t.Fatal(err)
		}
		if err := resumeTiny(cut); err != nil {
			t.Fatalf("%s: resumed: %v", c.name, err)
		}
		got, err := os.ReadFile(filepath.Join(cut, NetFile))
		if err != nil || !bytes.Equal(got, wantNet) {
			t.Errorf("%s: the resumed run's net differs from the uninterrupted run's (%v)", c.name, err)
		}
		if _, err := os.Stat(filepath.Join(cut, NextFile)); err == nil {
			t.Errorf("%s: %s left behind", c.name, NextFile)
		}
	}
}
