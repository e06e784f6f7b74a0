package td

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"starlab/nn"
	"starlab/runs"
	"starlab/search"
	"starlab/search/game"
	"starlab/search/games"
	"starlab/selfplay"
)

// rolloutRun rolls out n positions of Dice 5x5/4 before their roll, each
// by 16 plain trials of StarETC at depth 1, into dir (a run there is
// resumed), stopping after trials trials when above 0.
func rolloutRun(t *testing.T, dir string, n int, trials int64) {
	t.Helper()
	rolloutRunOf(t, dir, n, trials, runs.Shard{})
}

// rolloutRunOf is rolloutRun of shard sh.
func rolloutRunOf(t *testing.T, dir string, n int, trials int64, sh runs.Shard) {
	t.Helper()
	g := diceGame()
	ps, err := search.ReadSuite(g, "../search/testdata/dice5x5-4-exact.suite")
	if err != nil {
		t.Fatal(err)
	}
	var positions []string
	for _, p := range ps {
		if p.Pos.Kind() == game.Chance && len(positions) < n {
			positions = append(positions, p.Pos.String())
		}
	}
	set := selfplay.RolloutSettings{Kit: g, Positions: positions, Player: "staretc:depth=1", Trials: 16, Luck: "none", Seed: 9, Workers: 2, Shard: sh}
	run, err := runs.Open(dir)
	if err == nil {
		err = run.Resume()
	} else {
		run, err = runs.CreateAt(dir, "rollout", nil, &set, set.Seed)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err = selfplay.Rollout(ctx, set, run, func(done, _ int64, _ string) {
		if trials > 0 && done >= trials {
			cancel()
		}
	})
	if trials > 0 {
		return
	}
	if err == nil {
		err = run.Finish(nil)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// rolloutError is the root mean squared error of the net in file against
// the rolled-out values of s's rows.
func rolloutError(t *testing.T, s *Settings, file string) float64 {
	t.Helper()
	net, err := nn.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	x, h := make([]float64, net.In), make([]float64, 2*net.H)
	sum := 0.0
	for _, r := range s.res.rolled {
		s.Kit.Net.Features(r.pos, x)
		d := net.Forward(x, h) - r.target
		sum += d * d
	}
	return math.Sqrt(sum / float64(len(s.res.rolled)))
}

// TestRolloutTargetOfPlays: a -plays rollout's rows are the moves of
// decisions; -target rollout fits each move's afterstate, valued for its
// mover, and leaves out the moves that end the game, which the net does
// not value.
func TestRolloutTargetOfPlays(t *testing.T) {
	g := diceGame()
	ps, err := search.ReadSuite(g, "../search/testdata/dice5x5-4-exact.suite")
	if err != nil {
		t.Fatal(err)
	}
	// decisions (the suite's positions after each of their rolls), the
	// first of them with a move that ends the game
	var positions []string
	var events []game.Event
	var moves []game.Move
	for _, p := range ps {
		if p.Pos.Kind() != game.Chance {
			continue
		}
		events, _ = p.Pos.Outcomes(events)
		for _, e := range events {
			d := p.Pos.Clone()
			d.Happen(e)
			if d.Kind() != game.Decision || len(positions) >= 6 {
				continue
			}
			ends := false
			for _, m := range d.Legal(moves) {
				w := d.Clone()
				w.Play(m)
				ends = ends || w.Kind() == game.Over
			}
			if len(positions) > 0 || ends {
				positions = append(positions, d.String())
			}
		}
	}
	dir := t.TempDir()
	ro := filepath.Join(dir, "rollout")
	set := selfplay.RolloutSettings{Kit: g, Positions: positions, Plays: true, Player: "staretc:depth=1", Trials: 4, Luck: "none", Seed: 9, Workers: 2}
	run, err := runs.CreateAt(ro, "rollout", nil, &set, set.Seed)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := selfplay.Rollout(context.Background(), set, run, runs.NoProgress); err != nil {
		t.Fatal(err)
	}
	if err := run.Finish(nil); err != nil {
		t.Fatal(err)
	}
	run.Close()
	s := small()
	s.Target, s.Rollouts, s.Games = TargetRollout, ro, 100
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	_, rows, err := selfplay.ReadRollout(s.Kit, ro)
	if err != nil {
		t.Fatal(err)
	}
	var want []rolledRow
	ended := 0
	for _, r := range rows {
		if r.Row.Play == "" {
			t.Fatalf("row %+v of a -plays rollout names no play", r.Row)
		}
		if r.Start.Kind() == game.Over {
			ended++
			continue
		}
		v := float64(r.Row.Value)
		if r.Side != r.Start.Mover() {
			v = -v
		}
		want = append(want, rolledRow{pos: r.Start, target: v})
	}
	if ended == 0 || len(want) == 0 || len(s.res.rolled) != len(want) || s.RolloutRows != len(rows) {
		t.Fatalf("%d rows, %d of moves that end the game; fitted %d, want %d; rollout_rows %d", len(rows), ended, len(s.res.rolled), len(want), s.RolloutRows)
	}
	for i, w := range want {
		if got := s.res.rolled[i]; got.target != w.target || got.pos.String() != w.pos.String() || got.pos.Kind() != game.Chance {
			t.Fatalf("row %d: %v of %s, want %v of %s", i, got.target, got.pos, w.target, w.pos)
		}
	}
	if _, err := train(t, s, filepath.Join(dir, "fit"), runs.NoProgress); err != nil {
		t.Fatal(err)
	}
}

// TestRolloutTarget: -target rollout fits a net to a rollout's positions:
// each row's target is its rolled-out value for the side whose net value
// it is, ten epochs of the fit from a TD net bring its error against them
// down, a run cut and resumed ends with the uninterrupted run's net, and
// the settings that have no meaning without games are refused.
func TestRolloutTarget(t *testing.T) {
	dir := t.TempDir()
	ro := filepath.Join(dir, "rollout")
	rolloutRun(t, ro, 40, 0)
	first, err := train(t, small(), filepath.Join(dir, "td"), runs.NoProgress)
	if err != nil {
		t.Fatal(err)
	}
	s := small()
	s.Target, s.Rollouts, s.From, s.Games, s.Rate, s.MiniBatch = TargetRollout, ro, first.Net, 400, 0.01, 8
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	_, rows, err := selfplay.ReadRollout(s.Kit, ro)
	if err != nil || len(rows) != 40 || len(s.res.rolled) != 40 || s.RolloutRows != 40 {
		t.Fatalf("read %d rows (%v), settings hold %d and record %d, want 40", len(rows), err, len(s.res.rolled), s.RolloutRows)
	}
	for i, r := range rows {
		want := float64(r.Row.Value)
		if r.Side != r.Start.Mover() {
			want = -want
		}
		if got := s.res.rolled[i]; got.target != want || got.pos.String() != r.Row.Position {
			t.Fatalf("row %d: target %v of %s, the rollout's %v for its mover", i, got.target, got.pos, want)
		}
	}
	whole, err := train(t, s, filepath.Join(dir, "whole"), runs.NoProgress)
	if err != nil {
		t.Fatal(err)
	}
	before, after := rolloutError(t, &s, first.Net), rolloutError(t, &s, whole.Net)
	if !(after < 0.8*before) {
		t.Errorf("ten epochs of the fit: error %.4f against the rollouts, %.4f before", after, before)
	}
	t.Logf("error against the rollouts: %.4f before, %.4f after", before, after)
	if math.IsNaN(float64(whole.MeanFitErr)) || !math.IsNaN(float64(whole.MeanTDErr)) {
		t.Errorf("fit error %v, TD error %v: a rollout fit has the first alone", whole.MeanFitErr, whole.MeanTDErr)
	}
	// Cut after the measurement at 300, which is no checkpoint (every
	// 200): the run resumes from it.
	if got := cutAndResume(t, s, filepath.Join(dir, "cut"), 330); netID(t, got.Net) != netID(t, whole.Net) {
		t.Fatalf("resumed: net %s, uninterrupted %s", netID(t, got.Net), netID(t, whole.Net))
	}
	for _, c := range []struct {
		edit func(*Settings)
		want string
	}{
		{func(s *Settings) { s.Target = TargetTD }, "-rollouts and -target rollout"},
		{func(s *Settings) { s.Rollouts = "" }, "-rollouts and -target rollout"},
		{func(s *Settings) { s.StartSuite = "../search/dice/suites/dice5x5-4.suite" }, "-starts"},
		{func(s *Settings) { s.Lambda = 0.5 }, "-lambda"},
		{func(s *Settings) { s.Variant = "4x4-3" }, "the training's variant is 4x4-3"},
		{func(s *Settings) { s.Rollouts = filepath.Join(dir, "td") }, "not a rollout"},
		{func(s *Settings) { s.RolloutRows = 41 }, "41 rows asked for, the first 40"},
		{func(s *Settings) { s.RolloutRows = -1 }, "-rollout-rows -1"},
		{func(s *Settings) { s.Rollouts, s.Target, s.RolloutRows = "", TargetTD, 5 }, "-rollout-rows 5"},
	} {
		b := small()
		b.Target, b.Rollouts = TargetRollout, ro
		c.edit(&b)
		if err := b.Check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with it", c.want, err)
		}
	}
}

// TestRolloutTargetWhileRolling: a training from a rollout still going
// fits the rows from the first whose trials are all played, and records
// their number, so that its settings read the same rows once the rollout
// has gone on.
func TestRolloutTargetWhileRolling(t *testing.T) {
	ro := filepath.Join(t.TempDir(), "rollout")
	rolloutRun(t, ro, 40, 200) // 12 rows of 16 trials and some
	s := small()
	s.Target, s.Rollouts = TargetRollout, ro
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	n := s.RolloutRows
	if n < 10 || n >= 40 || len(s.res.rolled) != n {
		t.Fatalf("after 200 trials: %d rows recorded, %d read", n, len(s.res.rolled))
	}
	first := s.res.rolled
	rolloutRun(t, ro, 40, 0)
	again := small()
	again.Target, again.Rollouts, again.RolloutRows = TargetRollout, ro, n
	if err := again.Check(); err != nil {
		t.Fatal(err)
	}
	for i, r := range again.res.rolled {
		if i >= len(first) || r.target != first[i].target || r.pos.String() != first[i].pos.String() {
			t.Fatalf("row %d read again: %+v, first read %d rows", i, r, len(first))
		}
	}
	if len(again.res.rolled) != n {
		t.Fatalf("read again %d rows, recorded %d", len(again.res.rolled), n)
	}
	all := small()
	all.Target, all.Rollouts = TargetRollout, ro
	if err := all.Check(); err != nil || all.RolloutRows != 40 {
		t.Fatalf("the rollout ended: %d rows (%v), want 40", all.RolloutRows, err)
	}
}

// TestRolloutTargetUnits: a row's target is its value for the side whose
// net value it is, in the net's units: a move's rollout (-plays), valued
// for the side that moved, is negated for the position after it, whose
// mover is the other side; a money rollout's points are divided by 3; and
// a shard of a rollout, which holds a part of each row's trials, is
// refused.
func TestRolloutTargetUnits(t *testing.T) {
	dir := t.TempDir()
	g := diceGame()
	ps, err := search.ReadSuite(g, "../search/testdata/dice5x5-4-exact.suite")
	if err != nil {
		t.Fatal(err)
	}
	var decisions []string // two positions of the suite, rolled
	var events []game.Event
	for _, p := range ps {
		if p.Pos.Kind() == game.Chance && len(decisions) < 2 {
			st := p.Pos.Clone()
			events, _ = st.Outcomes(events)
			st.Happen(events[0])
			if st.Kind() == game.Decision {
				decisions = append(decisions, st.String())
			}
		}
	}
	bg, err := games.Lookup("backgammon")
	if err != nil {
		t.Fatal(err)
	}
	start, err := bg.New("money")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		kit   search.Kit
		set   selfplay.RolloutSettings
		scale float64
		sign  float64
	}{
		{g, selfplay.RolloutSettings{Positions: decisions, Plays: true, Player: "staretc:depth=1", Trials: 4, Luck: "none", Seed: 2, Workers: 1}, 1, -1},
		{bg, selfplay.RolloutSettings{Variant: "money", Player: "staretc:depth=1", Trials: 6, Luck: "none", Seed: 2, Workers: 1}, 3, 1},
	} {
		c.set.Kit = c.kit
		ro := filepath.Join(dir, c.kit.Name())
		run, err := runs.CreateAt(ro, "rollout", nil, &c.set, c.set.Seed)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := selfplay.Rollout(context.Background(), c.set, run, runs.NoProgress); err != nil {
			t.Fatal(err)
		}
		run.Close()
		s := DefaultSettings(c.kit)
		s.Target, s.Rollouts, s.Variant = TargetRollout, ro, c.set.Variant
		if err := s.Check(); err != nil {
			t.Fatal(err)
		}
		_, rows, err := selfplay.ReadRollout(c.kit, ro)
		if err != nil || len(rows) == 0 || len(rows) != len(s.res.rolled) {
			t.Fatalf("%s: %d rows read (%v), %d fitted", c.kit.Name(), len(rows), err, len(s.res.rolled))
		}
		nonzero := false
		for i, r := range rows {
			want := c.sign * float64(r.Row.Value) / c.scale
			if got := s.res.rolled[i].target; got != want {
				t.Errorf("%s row %d (%s %s): target %v, want %v", c.kit.Name(), i, r.Row.Position, r.Row.Play, got, want)
			}
			nonzero = nonzero || want != 0
		}
		if !nonzero {
			t.Errorf("%s: every target is 0, which tells no sign or scale", c.kit.Name())
		}
	}
	if start.Kind() != game.Chance {
		t.Fatalf("the money start %s is not before its roll", start)
	}
	sh := filepath.Join(dir, "shard")
	rolloutRunOf(t, sh, 4, 0, runs.Shard{Index: 0, Count: 2})
	s := small()
	s.Target, s.Rollouts = TargetRollout, sh
	if err := s.Check(); err == nil || !strings.Contains(err.Error(), "starlab merge") {
		t.Fatalf("a shard of a rollout: %v, want an error pointing to starlab merge", err)
	}
}
