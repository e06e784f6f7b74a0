package regression

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"starlab/runs"
	"starlab/search"
	toyengine "starlab/search/engine/toy"
	"starlab/search/game"
	"starlab/search/game/gametest"
	"starlab/search/game/toy"
)

// toyGame is the toy game, of weighted and optional chance (a roll is a
// move whose child is the chance node), as a command would hand it over.
var toyGame = toyengine.Game()

// toyEval is the toy engine's eval=race, the oracle's evaluation.
func toyEval(s game.State) float64 { return s.(*toy.Board).Evaluate() }

// toySuite writes a suite of toy positions of target 6, decisions and
// chance nodes, and returns its path.
func toySuite(t *testing.T, lines ...string) string {
	t.Helper()
	if len(lines) == 0 {
		lines = []string{"6 0 0 0", "6 2 1 r1", "6 3 4 1", "6 1 5 0", "6 4 4 r0", "6 5 2 0", "6 2 2 1"}
	}
	path := filepath.Join(t.TempDir(), "toy.suite")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCollectAndFitToy: collect over the toy game searches a decision at
// the chance node its roll leads to and a chance node as it is; each event
// gives a row per pair with the node's notation and phase and the event's
// weight out of 6, and the values of the state after the event are the
// exact depth-limited values (the table off). Fit bands the rows by phase
// and writes a parameter file naming game toy and the variant, which the
// toy engine takes for that variant and refuses, in one line naming the
// file, for another.
func TestCollectAndFitToy(t *testing.T) {
	root := t.TempDir()
	suite := toySuite(t)
	s := DefaultCollectSettings(toyGame)
	s.Kit, s.Suite, s.Pairs, s.Engine, s.Chunk = toyGame, suite, []Pair{{1, 3}, {2, 4}}, "staretc:eval=race,tt=0", 3
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	if s.GameName != "toy" || s.Variant != "6" {
		t.Fatalf("Check filled in game %q variant %q, want toy 6", s.GameName, s.Variant)
	}
	run, err := runs.CreateAt(filepath.Join(root, "collect"), "collect", nil, s, 0)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Collect(context.Background(), s, run, runs.NoProgress)
	if err := run.Finish(err); err != nil {
		t.Fatal(err)
	}
	run.Close()
	if res.Positions != 7 || res.Rows != 7*3*2 || res.Parts != 3 {
		t.Fatalf("result %+v, want 7 positions, 42 rows in 3 parts", res)
	}
	rows, err := ReadRows(run.Dir())
	if err != nil {
		t.Fatal(err)
	}
	ps, err := search.ReadSuite(toyGame, suite)
	if err != nil {
		t.Fatal(err)
	}
	weights := map[int32]int32{0: 1, 1: 2, 2: 3}
	phases := map[int32]bool{}
	for _, r := range rows {
		pos := ps[r.GameID].Pos
		node := pos.Clone()
		if node.Kind() == game.Decision {
			node.Play(toy.Roll)
		}
		if r.Game != "toy" || r.Variant != "6" || r.Position != node.String() || r.Phase != int32(toyGame.Phase(node)) ||
			r.Weight != weights[r.Event] || r.Total != toy.TotalWeight || r.Eval != "race" {
			t.Fatalf("row %+v of suite position %s (chance node %s)", r, pos, node)
		}
		after := node.Clone()
		after.Happen(game.Event{ID: uint16(r.Event), Weight: uint16(r.Weight)})
		for _, c := range []struct {
			depth int32
			v     float64
		}{{r.ShallowDepth, r.VShallow}, {r.DeepDepth, r.VDeep}} {
			if want := gametest.Value(after, int(c.depth), false, toyEval); math.Abs(c.v-want) > 1e-9 {
				t.Fatalf("row %+v: value %v at depth %d, exact %v", r, c.v, c.depth, want)
			}
		}
		phases[r.Phase] = true
	}
	if len(phases) < 3 {
		t.Fatalf("phases %v: the suite tests no bands", phases)
	}

	fs := FitSettings{Inputs: []string{run.Dir()}, GameName: "toy", Folds: 2, SigmaFloor: 0.01, Bands: 2, MinBandRows: 3, T: 1.6}
	frun, err := runs.CreateAt(filepath.Join(root, "fit"), "fit", nil, fs, 0)
	if err != nil {
		t.Fatal(err)
	}
	f, err := RunFit(context.Background(), fs, frun, runs.NoProgress)
	frun.Close()
	if err != nil {
		t.Fatal(err)
	}
	bands := 0
	for _, l := range f.Lines {
		if l.Band != "all" {
			bands++
			if all := f.Lines[0]; l.MinPhase < all.MinPhase || l.MaxPhase > all.MaxPhase || l.N >= all.N {
				t.Errorf("band %+v is not within %+v", l, all)
			}
		}
	}
	if f.Game != "toy" || f.Variant != "6" || f.Lines[0].Band != "all" || bands == 0 {
		t.Fatalf("fit %+v, want game toy, variant 6 and bands of phases", f)
	}
	path := frun.Path(ProbCutFile)
	p, err := search.LoadProbCut(path)
	if err != nil {
		t.Fatal(err)
	}
	if p.Version != search.ProbCutVersion || p.Game != "toy" || p.Variant != "6" || p.Eval != "race" || len(p.Pairs) != 2 {
		t.Fatalf("probcut.json %+v", p)
	}
	spec, err := search.ParseSpec("cpc:eval=race,tt=0,probcut=" + path)
	if err != nil {
		t.Fatal(err)
	}
	r := spec.Config.MustResolve()
	six, _ := toyGame.New("6")
	eight, _ := toyGame.New("8")
	if err := toyGame.Check(r, six); err != nil {
		t.Errorf("the fit for its own variant: %v", err)
	}
	if err := toyGame.Check(r, eight); err == nil || !strings.Contains(err.Error(), path) || strings.Contains(err.Error(), "\n") {
		t.Errorf("the fit of variant 6 for variant 8: %v, want one line naming %s", err, path)
	}
}

// TestCollectRefusesPositions: a finished suite position, a decision with
// no chance node to search, and a suite of two variants are refused, in
// one line naming the suite and the position, before anything runs.
func TestCollectRefusesPositions(t *testing.T) {
	noChance := toyGame
	noChance.ChanceNode = func(game.State) (game.State, bool) { return nil, false }
	for _, c := range []struct {
		g     search.Kit
		lines []string
		want  string
	}{
		{toyGame, []string{"6 0 0 0", "6 6 1 1"}, "suite position 2 (line 2, 6 6 1 1) is finished"},
		{noChance, []string{"6 0 0 r1", "6 1 0 1"}, "suite position 2 (line 2, 6 1 0 1) has no chance node to search"},
		{toyGame, []string{"6 0 0 0", "8 0 0 0"}, "suite position 2 (line 2) is of variant 8, the first is of 6"},
	} {
		s := DefaultCollectSettings(toyGame)
		s.Kit, s.Suite, s.Pairs, s.Engine = c.g, toySuite(t, c.lines...), []Pair{{1, 3}}, "staretc:eval=race,tt=0"
		err := s.Check()
		if err == nil || !runs.IsUsage(err) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), s.Suite) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: %v, want a usage error naming %s and saying %q", c.lines, err, s.Suite, c.want)
		}
	}
	// The chance node of a decision, where the game has one, is searched.
	s := DefaultCollectSettings(toyGame)
	s.Kit, s.Suite, s.Pairs, s.Engine = noChance, toySuite(t, "6 0 0 r1", "6 1 0 r0"), []Pair{{1, 3}}, "staretc:eval=race,tt=0"
	if err := s.Check(); err != nil {
		t.Errorf("chance nodes: %v", err)
	}
}

// TestTuneToy: tune over the toy game names the game and the variant, and
// each record's Actual is the exact value, from the root's mover's view,
// of a move of the root at a decision (a child searched one decision
// shallower, its value negated) and the root's own at a chance node; cpc
// with bounds too wide to cut errs nowhere.
func TestTuneToy(t *testing.T) {
	// Parameters that predict the opposite of the deep value, so that cpc
	// cuts wrongly and chooses other moves than staretc.
	var pairs []string
	for deep := 1; deep <= 4; deep++ {
		for shallow := 0; shallow < deep; shallow++ {
			pairs = append(pairs, fmt.Sprintf(`{"shallow":%d,"deep":%d,"a":-1,"b":0,"sigma":0.01}`, shallow, deep))
		}
	}
	wrong := filepath.Join(t.TempDir(), "wrong.json")
	if err := os.WriteFile(wrong, []byte(`{"format":"starlab-probcut","version":2,"source":"test","eval":"race","game":"toy","variant":"6","pairs":[`+strings.Join(pairs, ",")+`]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	s := DefaultTuneSettings(toyGame, toySuite(t))
	s.Kit, s.Depths, s.Ts, s.CPC = toyGame, []int{3, 4}, []float64{1e6, 0.05}, SpecList{"cpc:eval=race,tt=0", "cpc:eval=race,tt=0,probcut=" + wrong}
	res, run := checkAndTune(t, s)
	if res.Game != "toy" || res.Variant != "6" || res.Positions != 7 {
		t.Fatalf("result of game %q variant %q over %d positions", res.Game, res.Variant, res.Positions)
	}
	recs, err := runs.ReadParquet[TuneRecord](run.Path(TuneRowsFile), TuneFormat)
	if err != nil {
		t.Fatal(err)
	}
	rolled, changed := 0, 0
	for _, r := range recs {
		pos, err := toyGame.Parse(r.Notation)
		if err != nil {
			t.Fatal(err)
		}
		if r.Rolled != (pos.Kind() == game.Decision) {
			t.Fatalf("record %+v: rolled %v for a %s", r, r.Rolled, pos.Kind())
		}
		found := false
		if r.Rolled {
			rolled++
			for _, m := range pos.Legal(nil) {
				c := pos.Clone()
				c.Play(m)
				found = found || math.Abs(r.Actual+gametest.Value(c, int(r.Depth)-1, false, toyEval)) < 1e-9
			}
		} else {
			found = math.Abs(r.Actual-gametest.Value(pos, int(r.Depth), false, toyEval)) < 1e-9
		}
		if !found || r.Error != r.Value-r.Actual {
			t.Fatalf("record %+v: actual is no move's exact value", r)
		}
		if r.T == 1e6 && r.Error != 0 {
			t.Fatalf("record %+v: cpc that cannot cut errs", r)
		}
		if r.MoveChanged {
			changed++
		}
	}
	if len(recs) != 7*2*2*2 || rolled == 0 || rolled == len(recs) || changed == 0 {
		t.Fatalf("%d records, %d at decisions, %d with another move than staretc's", len(recs), rolled, changed)
	}
}
