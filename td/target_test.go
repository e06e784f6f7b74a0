package td

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"starlab/nn"
	"starlab/runs"
)

// searchTiny is a training towards depth-3 search values of a deep net,
// its games played by depth-3 searches, on 4x4/3, in rounds of 4 games,
// mini-batches of 16, checkpoints every 8 games and a measurement every
// 24.
func searchTiny(workers int) Settings {
	s := tiny()
	s.Target, s.TargetSpec, s.MiniBatch, s.Hidden, s.Layers, s.Workers = TargetSearch, "staretc:depth=3,tt=1", 16, 8, []int{6}, workers
	s.PlayDepth = 3
	return s
}

// TestSearchTargets: training towards search values moves a deep net,
// with a fit error in (0, 2) at the last point and no TD error, writes a
// version-3 net with its layout, and gives the same net with one worker
// or two, and when stopped and resumed at any round.
func TestSearchTargets(t *testing.T) {
	dir := t.TempDir()
	var files [][]byte
	var first *Result
	for _, w := range []int{1, 2} {
		res, err := train(t, searchTiny(w), filepath.Join(dir, string(rune('0'+w))), runs.NoProgress)
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(res.Net)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, data)
		first = res
	}
	ids := []string{netID(t, filepath.Join(dir, "1", NetFile)), netID(t, filepath.Join(dir, "2", NetFile))}
	if ids[0] != ids[1] {
		t.Fatalf("one worker trained net %s, two %s", ids[0], ids[1])
	}
	net, err := nn.Parse(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if l := net.Layout(); len(l) != 2 || l[0] != 8 || l[1] != 6 || net.Meta.Games != 60 || !bytes.Contains(files[0], []byte(`"version": 3`)) {
		t.Fatalf("net of layout %v after %d games", l, net.Meta.Games)
	}
	c := first.Curve
	if len(c) != 8 || !(c[len(c)-1].FitError > 0 && c[len(c)-1].FitError < 2) || !math.IsNaN(float64(c[len(c)-1].TDError)) || c[0].NetID == c[len(c)-1].NetID {
		t.Fatalf("%d points, fit error of the last %v (TD error %v), nets %s to %s", len(c), c[len(c)-1].FitError, c[len(c)-1].TDError, c[0].NetID, c[len(c)-1].NetID)
	}
	if !(first.MeanFitErr > 0) || !math.IsNaN(float64(first.MeanTDErr)) {
		t.Errorf("result's fit error %v, TD error %v: want the fit's alone", first.MeanFitErr, first.MeanTDErr)
	}
	// Stopped after k rounds and resumed, as TestResumeAtAnyPointKeepsTheCurve.
	for _, k := range []int{2, 3, 7, 12} {
		cut := filepath.Join(dir, "cut", string(rune('a'+k)))
		stopRun(t, searchTiny(2), cut, func(calls int, _ int64) bool { return calls == k })
		if _, err := resumeRun(searchTiny(1), cut); err != nil {
			t.Fatal(err)
		}
		if got := netID(t, filepath.Join(cut, NetFile)); got != ids[0] {
			t.Errorf("k=%d: the resumed run's net is %s, the uninterrupted run's %s", k, got, ids[0])
		}
	}
}

// TestSearchTargetSettings: the target's settings are checked, in one
// line naming the flag.
func TestSearchTargetSettings(t *testing.T) {
	for _, c := range []struct {
		edit func(*Settings)
		want string
	}{
		{func(s *Settings) { s.Target = "mc" }, "-target mc"},
		{func(s *Settings) { s.Target, s.TargetSpec = TargetSearch, "staretc:movetime=10ms" }, "give a depth"},
		{func(s *Settings) { s.Target, s.TargetSpec = TargetSearch, "staretc:depth=3,eval=nope" }, "-target-spec"},
		{func(s *Settings) { s.Target, s.Lambda = TargetSearch, 0.5 }, "-lambda"},
		{func(s *Settings) { s.Optimizer = OptAdam }, "-optimizer adam"},
		{func(s *Settings) { s.TargetSpec = "staretc:depth=3" }, "only -target search"},
		{func(s *Settings) { s.PlayDepth = 3 }, "only -target search"},
		{func(s *Settings) { s.Target, s.PlayDepth = TargetSearch, -2 }, "-play-depth -2"},
		{func(s *Settings) { s.Target, s.Optimizer = TargetSearch, "lbfgs" }, "-optimizer lbfgs"},
		{func(s *Settings) { s.Target, s.MiniBatch = TargetSearch, -1 }, "-minibatch -1"},
		{func(s *Settings) { s.Layers = []int{0} }, "-hidden"},
		{func(s *Settings) { s.TreeStrap = true }, "only -target search"},
		{func(s *Settings) { s.Plays = 3 }, "only -target search"},
		{func(s *Settings) { s.Target, s.Plays = TargetSearch, -1 }, "-plays -1"},
		{func(s *Settings) { s.Target, s.TreeStrap, s.TargetSpec = TargetSearch, true, "cpc:depth=3" }, "sound algorithm"},
		{func(s *Settings) {
			s.Target, s.TreeStrap, s.TargetSpec = TargetSearch, true, "staretc:depth=3,eval=pairs"
		}, "eval=mlp"},
	} {
		s := tiny()
		c.edit(&s)
		err := s.Check()
		var ue *runs.UsageError
		if err == nil || !errors.As(err, &ue) || !bytes.Contains([]byte(err.Error()), []byte(c.want)) {
			t.Errorf("%+v: %v, want a usage error with %q", c.want, err, c.want)
		}
	}
	s := tiny()
	s.Target = TargetSearch
	if err := s.Check(); err != nil || s.TargetSpec != DefaultTargetSpec || s.Optimizer != OptAdam || s.Rate != 0.001 || s.MiniBatch != 256 {
		t.Fatalf("defaults of -target search: %v %+v", err, s)
	}
}

// TestTreeStrap: -treestrap labels every afterstate of the target
// search's tree, more samples than the games' afterstates; the root's
// value is the target engine's (StarETC with its table, to 1e-9), with
// the net's leaves; and the trained net is the same with one worker or
// two.
func TestTreeStrap(t *testing.T) {
	s := searchTiny(1)
	s.TreeStrap, s.PlayDepth = true, 0
	lb := testLabeller(t, &s)
	ctx := context.Background()
	for g := int64(0); g < 3; g++ {
		all, err := lb.label(ctx, &s, g)
		if err != nil {
			t.Fatal(err)
		}
		s.TreeStrap = false
		roots, err := lb.label(ctx, &s, g)
		s.TreeStrap = true
		if err != nil {
			t.Fatal(err)
		}
		if len(all) <= len(roots) {
			t.Fatalf("game %d: %d TreeStrap samples, %d afterstates", g, len(all), len(roots))
		}
		// Each afterstate's tree ends with the afterstate itself (no
		// position below it is the same: every move adds a checker).
		k := 0
		for _, r := range roots {
			for k < len(all) && !slices.Equal(all[k].x, r.x) {
				k++
			}
			if k == len(all) || math.Abs(all[k].target-r.target) > 1e-9 {
				t.Fatalf("game %d: an afterstate searched to %v by the engine is not in the tree with that value", g, r.target)
			}
			k++
		}
	}
	ids := trainedIDs(t, func(s *Settings, i int) { s.Workers, s.TreeStrap, s.PlayDepth, s.Games = i+1, true, 0, 24 })
	if ids[0] != ids[1] {
		t.Fatalf("one worker trained net %s, two %s", ids[0], ids[1])
	}
}

// TestPlays: -plays N labels the N plays of each decision best by the
// net's 1-ply values, the best first: with N = 1 and no exploration the
// afterstates played, so the same samples and net as without it; with
// N = 3 each decision's samples are its three best plays (or all, with
// fewer), their targets the target engine's values of them, in order of
// the net's values.
func TestPlays(t *testing.T) {
	s := searchTiny(1)
	s.PlayDepth, s.Explore = 0, 0
	lb := testLabeller(t, &s)
	ctx := context.Background()
	same := func(a, b []sample) bool {
		return slices.EqualFunc(a, b, func(x, y sample) bool { return slices.Equal(x.x, y.x) && x.target == y.target })
	}
	for g := int64(0); g < 3; g++ {
		played, err := lb.label(ctx, &s, g)
		if err != nil {
			t.Fatal(err)
		}
		s.Plays = 1
		one, err := lb.label(ctx, &s, g)
		if err != nil {
			t.Fatal(err)
		}
		s.Plays = 3
		three, err := lb.label(ctx, &s, g)
		s.Plays = 0
		if err != nil {
			t.Fatal(err)
		}
		if !same(played, one) {
			t.Fatalf("game %d: -plays 1 labelled %d samples, not the %d afterstates played", g, len(one), len(played))
		}
		if len(three) <= len(played) {
			t.Fatalf("game %d: -plays 3 labelled %d samples, the afterstates played %d", g, len(three), len(played))
		}
		// Each decision's first sample is the play made, with its target.
		k := 1 // both lists start with the start position
		for _, p := range played[1:] {
			for k < len(three) && !slices.Equal(three[k].x, p.x) {
				k++
			}
			if k == len(three) || three[k].target != p.target {
				t.Fatalf("game %d: an afterstate played is not among -plays 3's samples in order", g)
			}
			k++
		}
	}
	ids := trainedIDs(t, func(s *Settings, i int) { s.PlayDepth, s.Explore, s.Plays, s.Games = 0, 0, i, 24 })
	if ids[0] != ids[1] {
		t.Fatalf("-plays 1 without exploration trained net %s, the afterstates played %s", ids[1], ids[0])
	}
}

// testLabeller checks s and returns a labeller of its target search over
// a random net.
func testLabeller(t *testing.T, s *Settings) *labeller {
	t.Helper()
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	spec, err := s.targetSpec()
	if err != nil {
		t.Fatal(err)
	}
	net, err := s.Kit.Net.New(s.Variant, runs.Stream(1, "test", 0), 0.3)
	if err != nil {
		t.Fatal(err)
	}
	lb, err := s.newLabeller(net, spec)
	if err != nil {
		t.Fatal(err)
	}
	return lb
}

// trainedIDs returns the ids of the nets of two trainings of searchTiny(1)
// as edit(s, i) makes the i-th of them, 0 and 1.
func trainedIDs(t *testing.T, edit func(s *Settings, i int)) []string {
	t.Helper()
	dir := t.TempDir()
	var ids []string
	for i := range 2 {
		s := searchTiny(1)
		edit(&s, i)
		res, err := train(t, s, filepath.Join(dir, string(rune('0'+i))), runs.NoProgress)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, netID(t, res.Net))
	}
	return ids
}
