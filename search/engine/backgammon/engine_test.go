package backgammon

import (
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"starlab/nn"
	"starlab/runs"
	"starlab/search"

	rules "starlab/search/backgammon"
	"starlab/search/engine/enginetest"
	"starlab/search/game"
)

// smallPositions are bear-offs and short races with a few checkers a
// side, before and after the roll, whose exact depth-limited values reach
// depth 5.
func smallPositions(t *testing.T, v rules.Variant) []game.State {
	sides := []struct{ me, opp rules.Points }{
		{rules.Points{1: 1, 2: 1, rules.Off: 13}, rules.Points{3: 1, 5: 1, rules.Off: 13}},
		{rules.Points{6: 2, rules.Off: 13}, rules.Points{1: 1, 4: 1, rules.Off: 13}},
		{rules.Points{2: 1, 6: 1, 5: 1, rules.Off: 12}, rules.Points{4: 2, rules.Off: 13}},
		{rules.Points{9: 1, 3: 1, rules.Off: 13}, rules.Points{8: 1, 2: 1, rules.Off: 13}},
		{rules.Points{12: 1, rules.Off: 14}, rules.Points{5: 1, 6: 1, rules.Off: 13}},
		// Contact: a blot to hit, a checker on the bar.
		{rules.Points{20: 1, 3: 1, rules.Off: 13}, rules.Points{10: 1, 1: 1, rules.Off: 13}},
		{rules.Points{rules.Bar: 1, 2: 1, rules.Off: 13}, rules.Points{6: 1, 19: 1, rules.Off: 13}},
	}
	var ps []game.State
	for i, s := range sides {
		for _, dice := range [][2]int{{0, 0}, {3, 1}, {4, 4}, {6, 5}} {
			b, err := rules.NewBoard(v, i%2, s.me, s.opp, dice[0], dice[1])
			if err != nil {
				t.Fatal(err)
			}
			ps = append(ps, b)
		}
	}
	return ps
}

// TestSmallPositionsExact holds expectimax, Star1, Star2 and StarETC to
// the exact depth-limited value of gametest.Value with the table off, to
// 1e-9, at depths 1 to 5, on both variants, with the hand evaluators and
// zero.
func TestSmallPositionsExact(t *testing.T) {
	leaves := 400000
	if testing.Short() {
		leaves = 40000
	}
	for _, v := range []rules.Variant{rules.OnePoint, rules.Money} {
		enginetest.Check(t, Game(), enginetest.Options{
			Variant:  v.String(),
			States:   smallPositions(t, v),
			Evals:    []string{"zero", "contact", "race"},
			Leaves:   leaves,
			MaxDepth: 5,
		})
	}
}

// TestBearoffToTheEnd searches two-sided bear-offs of gnubg's fixture to
// the end of the game (MaxDepth, the table on, eval=zero): every sound
// algorithm's value is the exact one (rules.RaceValue) to 1e-9, and so
// within gnubg's rounding (3e-5 in P(win)) of its bear-off database.
func TestBearoffToTheEnd(t *testing.T) {
	f, err := os.ReadFile("../../backgammon/testdata/gnubg-bearoff.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	g := Game()
	memo := map[uint64]float64{}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(f)), "\n") {
		var c struct {
			Position string  `json:"position"`
			PWin     float64 `json:"pwin"`
		}
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatal(err)
		}
		b, err := rules.Parse(c.Position + " O -")
		if err != nil {
			t.Fatal(err)
		}
		// Expectimax searches the whole tree: keep to the bear-offs
		// that end within 9 plies.
		if MaxDepth(b) > 9 {
			continue
		}
		exact := rules.RaceValue(b, memo)
		for _, a := range []search.Algorithm{search.Expectimax, search.Star1, search.Star2, search.StarETC} {
			c0 := search.DefaultConfig(a)
			c0.Eval = "zero"
			e := g.NewEngine(c0.MustResolve())
			res := e.Search(context.Background(), b, search.Limits{Depth: MaxDepth(b)}, nil)
			if v := res.Last().Score; math.Abs(v-exact) > 1e-9 || math.Abs(v-(2*c.PWin-1))/2 > 3e-5 {
				t.Fatalf("%s %s to depth %d: %v, exact %v, gnubg %v", c.Position, a, MaxDepth(b), v, exact, 2*c.PWin-1)
			}
		}
		n++
	}
	t.Logf("%d bear-offs searched to the end", n)
	// The longest races for their pips, every checker on the 1 point
	// (two borne off a roll, four with a double), and others: MaxDepth
	// reaches the end of the longest game from them.
	long := map[uint64]int{}
	for k := int8(1); k <= 15; k++ {
		for _, p := range []int{1, 2, 6} {
			if p == 2 && k > 6 || p == 6 && k > 3 { // the tree grows fast
				continue
			}
			var side rules.Points
			side[p], side[rules.Off] = k, 15-k
			for _, dice := range [][2]int{{0, 0}, {6, 5}, {1, 1}} {
				b, err := rules.NewBoard(rules.OnePoint, 0, side, side, dice[0], dice[1])
				if err != nil {
					t.Fatal(err)
				}
				if l := longest(b, long); MaxDepth(b) < l {
					t.Fatalf("%s: MaxDepth %d, the longest game lasts %d plies", b, MaxDepth(b), l)
				}
			}
		}
	}

}

// longest returns the most plies (chance nodes and decisions) a game
// from b can last, b having no contact, remembering chance nodes' by key.
func longest(b *rules.Board, memo map[uint64]int) int {
	if b.Over() {
		return 0
	}
	if b.Rolled() {
		var codes [rules.MaxPlays]int16
		n := b.Moves(&codes)
		most := 0
		for _, c := range codes[:n] {
			var u rules.Undo
			b.MakeSaving(int(c), &u)
			most = max(most, 1+longest(b, memo))
			b.UnmakeRestoring(int(c), &u)
		}
		return most
	}
	if l, ok := memo[b.Key()]; ok {
		return l
	}
	most := 0
	for r := 0; r < rules.Rolls; r++ {
		hi, lo := rules.RollDice(r)
		b.Roll(hi, lo)
		most = max(most, 1+longest(b, memo))
		b.ClearRoll()
	}
	memo[b.Key()] = most
	return most
}

// TestMoveFilter: the move filter (filter=N) searches only the plays a
// depth-1 look keeps: with room for every play it finds the unfiltered
// search's value and play; keeping one, the depth-1 search's play; and at
// depth 3 from the suite's rolled positions it searches fewer nodes.
func TestMoveFilter(t *testing.T) {
	ps, err := search.ReadSuite(Game(), "../../backgammon/suites/backgammon.suite")
	if err != nil {
		t.Fatal(err)
	}
	engine := func(filter int, width float64) *Engine {
		c := search.DefaultConfig(search.StarETC)
		c.Eval, c.Filter, c.FilterWidth = "contact", filter, width
		return New(c.MustResolve())
	}
	full, all, one := engine(0, 0), engine(search.MaxFilter, 2), engine(1, 0)
	var fullNodes, filteredNodes int64
	filtered := engine(4, 0)
	for i, p := range ps[:10] {
		for _, e := range []*Engine{full, all, one, filtered} {
			e.ClearTT()
		}
		want := full.Search(context.Background(), p.Pos, search.Limits{Depth: 3}, nil).Last()
		got := all.Search(context.Background(), p.Pos, search.Limits{Depth: 3}, nil).Last()
		if n := moveCount(boardOf(p.Pos)); n <= search.MaxFilter && (got.Score != want.Score || got.BestMove != want.BestMove) {
			t.Errorf("position %d: every play kept: %v %d, unfiltered %v %d", i, got.Score, got.BestMove, want.Score, want.BestMove)
		}
		d1 := full.Search(context.Background(), p.Pos, search.Limits{Depth: 1}, nil).Last()
		if got := one.Search(context.Background(), p.Pos, search.Limits{Depth: 3}, nil).Last(); got.BestMove != d1.BestMove {
			t.Errorf("position %d: one play kept: %d, the depth-1 play %d", i, got.BestMove, d1.BestMove)
		}
		fullNodes += want.Nodes
		filteredNodes += filtered.Search(context.Background(), p.Pos, search.Limits{Depth: 3}, nil).Last().Nodes
	}
	t.Logf("depth 3, 10 positions: %d nodes unfiltered, %d with filter=4", fullNodes, filteredNodes)
	if filteredNodes >= fullNodes {
		t.Errorf("filter=4 searched %d nodes, unfiltered %d", filteredNodes, fullNodes)
	}
}

// TestFeatureNetConforms: the sound algorithms with a net of the input
// set "features" (its features added at each leaf, the bear-off databases
// where both sides bear off) agree with the exact depth-limited values of
// the same evaluation, on the small positions (bear-offs and races among
// them) and on positions of random play, to 1e-9; and so with a net that
// has a race net, which values the races. That the evaluation is the
// net's own along the plays, TestFeatureNetIsFull holds.
func TestFeatureNetConforms(t *testing.T) {
	for _, raceHidden := range []int{0, 7} {
		file := featureNetFile(t, 12, raceHidden, rand.New(rand.NewPCG(38, 1)), 0.2)
		for _, states := range [][]game.State{smallPositions(t, rules.OnePoint), nil} {
			enginetest.Check(t, Game(), enginetest.Options{
				Variant:  rules.OnePoint.String(),
				Net:      file,
				States:   states,
				Evals:    []string{"mlp"},
				Leaves:   20000,
				MaxDepth: 3,
			})
		}
	}
}

// featureNetFile writes a 1pt net of the input set "features" with
// hidden units, and a race net of raceHidden units unless 0, their
// weights drawn by nn.New from rng and scale, to a file of tb's and
// returns its path.
func featureNetFile(tb testing.TB, hidden, raceHidden int, rng *rand.Rand, scale float64) string {
	tb.Helper()
	newNet := func(h int) *nn.Net {
		net, err := nn.New(rules.FeatureInputSize, h, rng, scale)
		if err != nil {
			tb.Fatal(err)
		}
		net.Game, net.Variant, net.VariantKey = rules.NetGame, rules.OnePoint.String(), []int{int(rules.OnePoint)}
		return net
	}
	net := newNet(hidden)
	if raceHidden > 0 {
		race := newNet(raceHidden)
		race.Phase = rules.RacePhase
		net.Phases = []*nn.Net{race}
	}
	file := filepath.Join(tb.TempDir(), "features.json")
	if err := runs.WriteFileAtomic(file, net.Write); err != nil {
		tb.Fatal(err)
	}
	return file
}
