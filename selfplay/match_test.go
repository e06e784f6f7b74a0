package selfplay

import (
	"context"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"starlab/search"
	"starlab/search/dice"
	diceengine "starlab/search/engine/dice"
	"starlab/search/game"
)

func TestParseEngine(t *testing.T) {
	good := []struct {
		spec, canonical string
		check           func(Engine) bool
	}{
		{"staretc:depth=9", "staretc:depth=9,eval=mlp", nil},
		{"cpc:t=1.6,movetime=100ms", "cpc:movetime=100ms,eval=mlp", func(v Engine) bool {
			return v.Spec.ProbCutT == 1.6 && v.Spec.Limits.MoveTime.Milliseconds() == 100 && !v.Deterministic()
		}},
		{"cpc:t=0,depth=5", "cpc:depth=5,eval=mlp,t=0", func(v Engine) bool { return v.Spec.ProbCutT == 0 }},
		{"star2:nodes=200000,eval=pairs", "star2:nodes=200000,eval=pairs", nil},
		{"star2:depth=3,eval=zero,tt=2,k=2", "star2:depth=3,eval=zero,tt=2,k=2", func(v Engine) bool {
			return v.Spec.Eval == "zero" && v.Spec.TTMiB == 2 && v.Spec.ProbingFactor == 2
		}},
		{"staretc:tt=1,depth=3,eval=pairs", "staretc:depth=3,eval=pairs,tt=1", nil},
		{"staretc:eval=pairs,tt=1,depth=3", "staretc:depth=3,eval=pairs,tt=1", nil},
	}
	for _, g := range good {
		v, err := ParseEngine(diceGame, g.spec)
		if err != nil {
			t.Fatalf("%s: %v", g.spec, err)
		}
		if v.Name() != g.canonical || (g.check != nil && !g.check(v)) {
			t.Fatalf("%s: parsed as %s %+v, want %s", g.spec, v.Name(), v.Spec, g.canonical)
		}
		again, err := ParseEngine(diceGame, v.Name())
		if err != nil || again.Name() != v.Name() || again.Spec != v.Spec {
			t.Fatalf("%s: the canonical spec %s parses to %s (%v)", g.spec, v.Name(), again.Name(), err)
		}
	}
	bad := map[string]string{
		"":                                      "unknown algorithm",
		"star3:depth=3":                         "unknown algorithm",
		"staretc":                               "no limit",
		"staretc:":                              "nothing after the colon",
		"staretc:depth=0":                       "depth",
		"staretc:depth=x":                       "depth",
		"staretc:depth=4":                       "ends on a chance ply",
		"staretc:nodes=-5":                      "nodes",
		"staretc:movetime=fast":                 "movetime",
		"staretc:depth=3,speed=9":               "unknown key \"speed\"",
		"staretc:depth=3,depth=5":               "twice",
		"staretc:depth":                         "not key=value",
		"staretc:depth=3,eval=nn":               "is not an evaluator of dice",
		"staretc:depth=3,eval=pairs,net=f":      "needs eval=mlp",
		"staretc:depth=3,tt=1000000":            "at most",
		"cpc:depth=3,t=-1":                      "t=",
		"cpc:depth=3,t=NaN":                     "t=",
		"staretc:depth=3,t=1":                   "does not read t",
		"staretc:depth=3,probcut=x.json":        "does not read probcut",
		"star1:depth=3,k=2":                     "does not read k",
		"star2:depth=3,etc=4":                   "does not read etc",
		"cpc:depth=3,cpcmin=9,cpcmax=3":         "above cpcmax",
		"cpc:depth=3,probcut=/nonexistent.json": "probcut file",
	}
	for spec, want := range bad {
		_, err := ParseEngine(diceGame, spec)
		if err == nil {
			t.Fatalf("%q accepted", spec)
		}
		if msg := err.Error(); !strings.Contains(msg, want) || strings.Contains(msg, "\n") {
			t.Fatalf("%q: error %q, want one line containing %q", spec, msg, want)
		}
	}
}

// TestRollLuckSumsToZero: the luck of the rolls of a position averages to
// zero over the rolls, whatever the reference: the estimate is unbiased.
// The luck of each roll is the rolled position's value minus the mean over
// the rolls, summed in roll order and divided by their number, as it was
// before luck took weights.
func TestRollLuckSumsToZero(t *testing.T) {
	c := search.DefaultConfig(search.StarETC)
	c.TTMiB = 0 // no table: a value is a function of the position alone
	l := NewLuck(diceGame.NewEngine(c.MustResolve()), search.Limits{Depth: 2})
	rng := rand.New(rand.NewPCG(1, 2))
	for p := 0; p < 50; p++ {
		b, _ := dice.New(5, 4)
		plies := rng.IntN(12)
		for i := 0; i < plies && !b.Over(); i++ {
			var lines [dice.MaxN]int8
			n := b.Rolls(&lines)
			b.SetRoll(int(lines[rng.IntN(n)]))
			var moves [dice.MaxN]int16
			k := b.Moves(&moves)
			b.Make(int(moves[rng.IntN(k)]))
		}
		if b.Over() {
			continue
		}
		var lines [dice.MaxN]int8
		k := b.Rolls(&lines)
		sum := 0.0
		values := make([]float64, k)
		mean := 0.0
		for i := 0; i < k; i++ {
			w := *b
			w.SetRoll(int(lines[i]))
			values[i] = l.engine.Search(context.Background(), &w, l.limits, nil).Last().Score
			mean += values[i]
		}
		mean /= float64(k)
		for i := 0; i < k; i++ {
			luck, err := l.eventLuck(context.Background(), b, game.Event{ID: uint16(lines[i]), Weight: 1})
			if err != nil {
				t.Fatal(err)
			}
			if luck != values[i]-mean {
				t.Fatalf("luck of roll %d of %q: %v, want %v exactly", lines[i], b.DPN(), luck, values[i]-mean)
			}
			sum += luck
		}
		if math.Abs(sum) > 1e-12 {
			t.Fatalf("luck over the rolls of %q sums to %g", b.DPN(), sum)
		}
	}
}

func testConfig(t *testing.T, a, b string, pairs, workers int) *MatchConfig {
	t.Helper()
	va, err := ParseEngine(diceGame, a)
	if err != nil {
		t.Fatal(err)
	}
	vb, err := ParseEngine(diceGame, b)
	if err != nil {
		t.Fatal(err)
	}
	ref, _ := ParseEngine(diceGame, "staretc:depth=1,eval=pairs,tt=1")
	start, _ := dice.New(5, 4)
	return &MatchConfig{Kit: diceGame, A: va, B: vb, Starts: []game.State{start}, Pairs: pairs, Seed: 42, Workers: workers, LuckRef: &ref}
}

func playAll(t *testing.T, cfg *MatchConfig) []PairRecord {
	t.Helper()
	todo := make([]int, cfg.Pairs)
	for i := range todo {
		todo[i] = i
	}
	var out []PairRecord
	if err := PlayPairs(context.Background(), cfg, todo, func(pr PairRecord) (bool, error) { out = append(out, pr); return false, nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestMatchIndependentOfWorkers: with depth limits a match's games are the
// same whatever the number of workers.
func TestMatchIndependentOfWorkers(t *testing.T) {
	one := Summarize("a", "b", playAll(t, testConfig(t, "staretc:depth=3", "star1:depth=1", 30, 1)), true, nil)
	two := Summarize("a", "b", playAll(t, testConfig(t, "staretc:depth=3", "star1:depth=1", 30, 2)), true, nil)
	if !reflect.DeepEqual(one, two) {
		t.Fatalf("1 worker: %+v\n2 workers: %+v", one, two)
	}
}

// TestDuplicateDice: a deterministic variant against itself plays the same
// game from both seats, so every pair scores exactly 1 and the match 50%.
func TestDuplicateDice(t *testing.T) {
	prs := playAll(t, testConfig(t, "staretc:depth=3", "staretc:depth=3", 20, 2))
	for _, pr := range prs {
		if pr.Score() != 1 {
			t.Fatalf("pair %d of a variant against itself scored %v", pr.Index, pr.Score())
		}
		if !slices.Equal(pr.Games[0].Game.Actions, pr.Games[1].Game.Actions) {
			t.Fatalf("pair %d: the two games differ", pr.Index)
		}
	}
	s := Summarize("a", "a", prs, true, nil)
	if s.Score != 0.5 || s.Pentanomial != [5]int{0, 0, 20, 0, 0} {
		t.Fatalf("self match: score %v, pentanomial %v", s.Score, s.Pentanomial)
	}
}

// TestStrongerWins: depth 5 beats depth 1 over a few hundred games, and the
// luck-adjusted interval is narrower than the plain ones.
func TestStrongerWins(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 400 games")
	}
	s := Summarize("d5", "d1", playAll(t, testConfig(t, "staretc:depth=5,eval=pairs", "staretc:depth=1,eval=pairs", 200, 2)), true, nil)
	if s.Score-s.ScoreCI95Pairs <= 0.5 {
		t.Fatalf("depth 5 vs depth 1: %.3f ± %.3f, not clearly ahead", s.Score, s.ScoreCI95Pairs)
	}
	if !(float64(s.LuckCI95) < s.ScoreCI95Pairs && s.ScoreCI95Pairs < s.ScoreCI95) {
		t.Fatalf("intervals: games %.4f, pairs %.4f, luck %.4f; want luck < pairs < games", s.ScoreCI95, s.ScoreCI95Pairs, s.LuckCI95)
	}
}

func FuzzParseEngine(f *testing.F) {
	for _, s := range []string{"staretc:depth=9", "cpc:t=1.6,movetime=100ms", "star2:nodes=200000,eval=pairs", "x", ":", "staretc:depth=1,,", "cpc:r=0,depth=2", "star1:depth=99999999999999999999", "staretc:tt=1,depth=3,eval=pairs"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		v, err := ParseEngine(diceGame, spec)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error for %q", spec)
			}
			return
		}
		if v.Spec.Limits == (search.Limits{}) || v.Resolved == nil {
			t.Fatalf("%q accepted without a limit or resolved configuration", spec)
		}
		again, err := ParseEngine(diceGame, v.Name())
		if err != nil || again.Name() != v.Name() {
			t.Fatalf("%q: canonical %q does not parse to itself: %v", spec, v.Name(), err)
		}
	})
}

// TestValuePlayerIndependentOfAlgorithm: a value player's games depend on
// search values only, so every sound algorithm plays the same games.
func TestValuePlayerIndependentOfAlgorithm(t *testing.T) {
	start, _ := dice.New(5, 4)
	for seed := uint64(1); seed <= 10; seed++ {
		var first string
		for _, a := range []search.Algorithm{search.StarETC, search.Star1, search.Expectimax} {
			c := search.DefaultConfig(a)
			c.TTMiB = 1
			p := NewValuePlayer(diceengine.New(c.MustResolve()), 3)
			g, err := Play(context.Background(), diceGame, start, [2]Player{p, p}, NewChanceStream(seed), nil)
			if err != nil {
				t.Fatal(err)
			}
			_, moves, err := g.Notation(diceGame)
			if err != nil {
				t.Fatal(err)
			}
			if first == "" {
				first = moves
			} else if moves != first {
				t.Fatalf("seed %d: %s plays %s, staretc %s", seed, a, moves, first)
			}
		}
	}
}
