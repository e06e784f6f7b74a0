package selfplay

import (
	"context"
	"errors"
	"math"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"starlab/runs"
	"starlab/search"
)

// exactEndgames returns Dice positions of the exact suite with at most 8
// empty cells, and their exact values: a depth-17 search plays them to
// the end, so that its rollouts' mean is the exact value.
func exactEndgames(t *testing.T, n int) (positions []string, exact []float64) {
	t.Helper()
	ps, err := search.ReadSuite(diceGame, "../search/testdata/dice5x5-4-exact.suite")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if text := p.Pos.String(); strings.Count(text, "-") <= 9 && len(positions) < n { // the roll's "-1" and 8 cells
			positions, exact = append(positions, text), append(exact, p.Exact)
		}
	}
	return positions, exact
}

// rolloutInto runs Rollout of set into dir, cancelled once after trials
// trials when after is above 0.
func rolloutInto(t *testing.T, dir string, set RolloutSettings, after int64) (*RolloutResult, error) {
	t.Helper()
	run, err := runs.Open(dir)
	if err != nil {
		if run, err = runs.CreateAt(dir, "rollout", nil, &set, set.Seed); err != nil {
			t.Fatal(err)
		}
	}
	defer run.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res, err := Rollout(ctx, set, run, func(done, _ int64, _ string) {
		if after > 0 && done >= after {
			cancel()
		}
	})
	if err == nil {
		err = run.Finish(nil)
	}
	return res, err
}

// TestRolloutExact: rollouts of Dice endgames played perfectly converge
// to their exact values, within 2 standard errors on every position, the
// luck reference shrinks the standard error, and the figures do not
// depend on the workers, on a stop and resume, or on sharding.
func TestRolloutExact(t *testing.T) {
	positions, exact := exactEndgames(t, 6)
	set := RolloutSettings{Kit: diceGame, Positions: positions, Player: "staretc:depth=17", Trials: 144, Seed: 3, Workers: 2}
	whole := filepath.Join(t.TempDir(), "whole")
	res, err := rolloutInto(t, whole, set, 0)
	if err != nil {
		t.Fatal(err)
	}
	var ratio float64
	for i, r := range res.Rows {
		if r.Trials != 144 || !(r.SE > 0) || math.Abs(float64(r.Value)-exact[i]) > 2*float64(r.SE) {
			t.Errorf("%s: rollout %.4f ± %.4f over %d trials, exact %.4f", r.Position, r.Value, r.SE, r.Trials, exact[i])
		}
		ratio += float64(r.SE/r.PlainSE) / float64(len(res.Rows))
	}
	if !(ratio < 0.7) {
		t.Errorf("the reference's standard error is %.2f of the plain one's on average", ratio)
	}
	t.Logf("mean SE ratio %.2f, %.0f trials/s", ratio, res.TrialsPerSecond)

	one := set
	one.Workers = 1
	cut := filepath.Join(t.TempDir(), "cut")
	if _, err := rolloutInto(t, cut, one, 100); !errors.Is(err, context.Canceled) {
		t.Fatalf("a stopped rollout returned %v", err)
	}
	resumed, err := rolloutInto(t, cut, one, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(resumed.Rows, res.Rows) {
		t.Errorf("stopped, resumed on one worker: %+v\nwhole on two: %+v", resumed.Rows, res.Rows)
	}

	var shards []string
	for i := range 2 {
		d := filepath.Join(t.TempDir(), "shard"+strconv.Itoa(i))
		sh := set
		sh.Shard = runs.Shard{Index: i, Count: 2}
		if _, err := rolloutInto(t, d, sh, 0); err != nil {
			t.Fatal(err)
		}
		shards = append(shards, d)
	}
	sh, err := runs.CheckShards(shards, "workers")
	if err != nil {
		t.Fatal(err)
	}
	merged, err := runs.CreateAt(filepath.Join(t.TempDir(), "merged"), "rollout", nil, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer merged.Close()
	mres, err := MergeRollout(context.Background(), diceGame, sh, merged, runs.NoProgress)
	if err != nil {
		t.Fatal(err)
	}
	want, err := runs.ReadParquet[RolloutRow](filepath.Join(whole, RolloutFile), RolloutFormat)
	if err != nil {
		t.Fatal(err)
	}
	got, err := runs.ReadParquet[RolloutRow](merged.Path(RolloutFile), RolloutFormat)
	if err != nil || !reflect.DeepEqual(mres.Rows, res.Rows) || !reflect.DeepEqual(got, want) {
		t.Fatalf("the merged shards: %+v (%v)\nthe whole: %+v", mres.Rows, err, res.Rows)
	}
}

// TestRolloutPlays: every move of a rolled position is rolled out with
// the same dice, valued for the side that moved, and a truncated rollout
// values each trial where it stops.
func TestRolloutPlays(t *testing.T) {
	positions, _ := exactEndgames(t, 1)
	st, err := diceGame.Parse(positions[0])
	if err != nil {
		t.Fatal(err)
	}
	evs, _ := st.Outcomes(nil)
	st.Happen(evs[0])
	moves := st.Legal(nil)
	set := RolloutSettings{Kit: diceGame, Positions: []string{st.String()}, Plays: true, Player: "staretc:depth=3", Trials: 36, Seed: 1, Workers: 2}
	res, err := rolloutInto(t, filepath.Join(t.TempDir(), "plays"), set, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != len(moves) {
		t.Fatalf("%d rows for %d moves", len(res.Rows), len(moves))
	}
	for _, r := range res.Rows {
		if r.Play == "" || r.Side != res.Rows[0].Side || r.Trials != 36 || math.Abs(float64(r.Value)) > 1 {
			t.Errorf("row %+v", r)
		}
	}
	set.Plays, set.Truncate = false, 2
	res, err = rolloutInto(t, filepath.Join(t.TempDir(), "truncated"), set, 0)
	if err != nil {
		t.Fatal(err)
	}
	if r := res.Rows[0]; r.Trials != 36 || r.Decisions > 2 || math.Abs(float64(r.Value)) > 1 || r.Win != 0 {
		t.Errorf("truncated after 2 decisions: %+v", r)
	}
}

// TestAnalyzeRolloutJudge judges engines on Dice endgames by rollouts
// played to the end: losses are finite and not negative, and the engine
// that searches to the end loses less than the one-ply pairs heuristic.
func TestAnalyzeRolloutJudge(t *testing.T) {
	positions, _ := exactEndgames(t, 40)
	set := AnalyzeSettings{Kit: diceGame, Engines: []string{"staretc:depth=17", "star1:depth=1,eval=pairs"}, Judge: "rollout", Workers: 2,
		Rollout: &RolloutJudge{Player: "staretc:depth=17", Trials: 72, Seed: 1}}
	for i, text := range positions { // each rolled: a decision
		st, err := diceGame.Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		evs, _ := st.Outcomes(nil)
		st.Happen(evs[i%len(evs)])
		set.Positions = append(set.Positions, st.String())
	}
	run, err := runs.CreateAt(filepath.Join(t.TempDir(), "a"), "analyze", nil, &set, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	res, err := Analyze(context.Background(), set, run, runs.NoProgress)
	if err != nil {
		t.Fatal(err)
	}
	a, b := res.Sides[0], res.Sides[1]
	t.Logf("%s, %d positions: A loses %v ± %v, B %v ± %v", res.Judge, res.Positions, a.MeanLoss, a.CI95, b.MeanLoss, b.CI95)
	if res.Positions == 0 || !(a.MeanLoss >= 0) || !(b.MeanLoss > a.MeanLoss) || !strings.HasPrefix(res.Judge, "rollout (72 trials") {
		t.Errorf("judged by %s on %d positions: A %+v\nB %+v", res.Judge, res.Positions, a, b)
	}
}

// TestRolloutOneTrial: a row of one trial has no standard error, and its
// summary says so (null) rather than failing to be written; a shard that
// owns none of a row's trials writes its rows too.
func TestRolloutOneTrial(t *testing.T) {
	set := RolloutSettings{Kit: diceGame, Player: "staretc:depth=1", Trials: 1, Seed: 1, Workers: 1}
	res, err := rolloutInto(t, filepath.Join(t.TempDir(), "one"), set, 0)
	if err != nil {
		t.Fatal(err)
	}
	if r := res.Rows[0]; r.Trials != 1 || !math.IsNaN(float64(r.SE)) || math.IsNaN(float64(r.Value)) {
		t.Errorf("one trial: %+v", r)
	}
	set.Shard = runs.Shard{Index: 1, Count: 2}
	res, err = rolloutInto(t, filepath.Join(t.TempDir(), "none"), set, 0)
	if err != nil {
		t.Fatal(err)
	}
	if r := res.Rows[0]; r.Trials != 0 || !math.IsNaN(float64(r.Value)) {
		t.Errorf("a shard without trials: %+v", r)
	}
}

// TestReadRollout: a rollout's rows as training reads them (ReadRollout)
// are those whose every trial is journalled, with the figures a finished
// run's summary gives them: after a stop, the rows played through; after
// the end, every row.
func TestReadRollout(t *testing.T) {
	positions, _ := exactEndgames(t, 3)
	set := RolloutSettings{Kit: diceGame, Positions: positions, Player: "staretc:depth=3", Trials: 8, Luck: "none", Seed: 4, Workers: 1}
	cut := filepath.Join(t.TempDir(), "cut")
	if _, err := rolloutInto(t, cut, set, 12); !errors.Is(err, context.Canceled) {
		t.Fatalf("a stopped rollout returned %v", err)
	}
	_, part, err := ReadRollout(diceGame, cut)
	if err != nil {
		t.Fatal(err)
	}
	res, err := rolloutInto(t, cut, set, 0)
	if err != nil {
		t.Fatal(err)
	}
	got, all, err := ReadRollout(diceGame, cut)
	if err != nil {
		t.Fatal(err)
	}
	if len(part) != 1 || len(all) != 3 || got.Trials != 8 || got.Player != set.Player {
		t.Fatalf("read %d rows after 12 trials of 8 a row and %d after all of them, settings %+v", len(part), len(all), got)
	}
	for i, r := range append(part, all...) {
		want := res.Rows[max(0, i-1)]
		if !reflect.DeepEqual(r.Row, want) || r.Start.String() != want.Position || diceGame.Sides[r.Side] != want.Side {
			t.Errorf("row read %d: %+v (side %d of %s), the summary's %+v", i, r.Row, r.Side, r.Start, want)
		}
	}
	if _, _, err := ReadRollout(diceGame, t.TempDir()); err == nil {
		t.Error("a directory without a run read as a rollout")
	}
}
