package selfplay

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"starlab/search"
	"starlab/search/dice"
)

func TestParseVariant(t *testing.T) {
	good := []struct {
		spec  string
		algo  search.Algorithm
		depth int
		nodes int64
		check func(Variant) bool
	}{
		{"staretc:depth=9", search.StarETC, 9, 0, nil},
		{"cpc:t=1.6,movetime=100ms", search.CPC, 0, 0, func(v Variant) bool {
			return v.Options.ProbCut.T == 1.6 && v.Limits.MoveTime.Milliseconds() == 100 && !v.Deterministic()
		}},
		{"star2:nodes=200000,eval=pairs", search.Star2, 0, 200000, func(v Variant) bool { return v.Options.Eval.Name() == "pairs" }},
		{"expectimax:depth=3,eval=zero,tt=2,k=2,etc=3", search.Expectimax, 3, 0, func(v Variant) bool {
			return v.Options.Eval.Name() == "zero" && v.Options.TTMiB == 2 && v.Options.ProbingFactor == 2 && v.Options.ETCMinDepth == 3
		}},
	}
	for _, g := range good {
		v, err := ParseVariant(g.spec)
		if err != nil {
			t.Fatalf("%s: %v", g.spec, err)
		}
		if v.Options.Algorithm != g.algo || v.Limits.Depth != g.depth || v.Limits.Nodes != g.nodes || (g.check != nil && !g.check(v)) {
			t.Fatalf("%s: parsed as %+v", g.spec, v)
		}
	}
	bad := map[string]string{
		"":                                      "unknown algorithm",
		"star3:depth=2":                         "unknown algorithm",
		"staretc":                               "no limit",
		"staretc:depth=0":                       "depth",
		"staretc:depth=x":                       "depth",
		"staretc:nodes=-5":                      "nodes",
		"staretc:movetime=fast":                 "movetime",
		"staretc:depth=3,speed=9":               "unknown key \"speed\"",
		"staretc:depth=3,depth=4":               "twice",
		"staretc:depth":                         "not key=value",
		"staretc:depth=3,eval=nn":               "unknown evaluator",
		"staretc:depth=3,net=f":                 "needs eval=mlp",
		"staretc:depth=3,t=-1":                  "t=",
		"staretc:depth=3,probcut=x.json":        "needs the cpc algorithm",
		"cpc:depth=3,probcut=/nonexistent.json": "probcut file",
	}
	for spec, want := range bad {
		_, err := ParseVariant(spec)
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
func TestRollLuckSumsToZero(t *testing.T) {
	l := NewLuck(search.NewEngine(search.Options{Algorithm: search.StarETC, TTMiB: 1}), search.Limits{Depth: 2})
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
		for i := 0; i < k; i++ {
			sum += l.rollLuck(b, int(lines[i]))
		}
		if math.Abs(sum) > 1e-12 {
			t.Fatalf("luck over the rolls of %q sums to %g", b.DPN(), sum)
		}
	}
}

func testConfig(t *testing.T, a, b string, pairs, workers int) *MatchConfig {
	t.Helper()
	va, err := ParseVariant(a)
	if err != nil {
		t.Fatal(err)
	}
	vb, err := ParseVariant(b)
	if err != nil {
		t.Fatal(err)
	}
	ref, _ := ParseVariant("staretc:depth=1,eval=pairs,tt=1")
	start, _ := dice.New(5, 4)
	return &MatchConfig{A: va, B: vb, Starts: []*dice.Board{start}, Pairs: pairs, Seed: 42, Workers: workers, LuckRef: &ref}
}

func playAll(t *testing.T, cfg *MatchConfig) []PairRecord {
	t.Helper()
	todo := make([]int, cfg.Pairs)
	for i := range todo {
		todo[i] = i
	}
	var out []PairRecord
	if err := PlayPairs(context.Background(), cfg, todo, func(pr PairRecord) bool { out = append(out, pr); return false }); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestMatchIndependentOfWorkers: with depth limits a match's games are the
// same whatever the number of workers.
func TestMatchIndependentOfWorkers(t *testing.T) {
	one := Summarize("a", "b", playAll(t, testConfig(t, "staretc:depth=3", "star1:depth=1", 30, 1)), true, nil)
	two := Summarize("a", "b", playAll(t, testConfig(t, "staretc:depth=3", "star1:depth=1", 30, 2)), true, nil)
	if one != two {
		t.Fatalf("1 worker: %+v\n2 workers: %+v", one, two)
	}
}

// TestDuplicateDice: a deterministic variant against itself plays the same
// game from both seats, so every pair scores exactly 1 and the match 50%.
func TestDuplicateDice(t *testing.T) {
	prs := playAll(t, testConfig(t, "staretc:depth=2", "staretc:depth=2", 20, 2))
	for _, pr := range prs {
		if pr.Score() != 1 {
			t.Fatalf("pair %d of a variant against itself scored %v", pr.Index, pr.Score())
		}
		if strings.Join(pr.Games[0].Game.Moves, " ") != strings.Join(pr.Games[1].Game.Moves, " ") {
			t.Fatalf("pair %d: the two games differ", pr.Index)
		}
	}
	s := Summarize("a", "a", prs, true, nil)
	if s.Score != 0.5 || s.Pentanomial != [5]int{0, 0, 20, 0, 0} {
		t.Fatalf("self match: score %v, pentanomial %v", s.Score, s.Pentanomial)
	}
}

// TestStrongerWins: depth 4 beats depth 1 over a few hundred games, and the
// luck-adjusted interval is narrower than the plain ones.
func TestStrongerWins(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 400 games")
	}
	s := Summarize("d4", "d1", playAll(t, testConfig(t, "staretc:depth=4", "staretc:depth=1", 200, 2)), true, nil)
	if s.Score-s.ScoreCI95Pairs <= 0.5 {
		t.Fatalf("depth 4 vs depth 1: %.3f ± %.3f, not clearly ahead", s.Score, s.ScoreCI95Pairs)
	}
	if !(s.LuckCI95 < s.ScoreCI95Pairs && s.ScoreCI95Pairs < s.ScoreCI95) {
		t.Fatalf("intervals: games %.4f, pairs %.4f, luck %.4f; want luck < pairs < games", s.ScoreCI95, s.ScoreCI95Pairs, s.LuckCI95)
	}
}

func FuzzParseVariant(f *testing.F) {
	for _, s := range []string{"staretc:depth=9", "cpc:t=1.6,movetime=100ms", "star2:nodes=200000,eval=pairs", "x", ":", "staretc:depth=1,,", "cpc:r=0,depth=2", "star1:depth=99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		v, err := ParseVariant(spec)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error for %q", spec)
			}
			return
		}
		if v.Limits == (search.Limits{}) || v.Options.Eval == nil {
			t.Fatalf("%q accepted without a limit or evaluator", spec)
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
			p := NewValuePlayer(search.NewEngine(search.Options{Algorithm: a, Eval: search.Pairs{}, TTMiB: 1}), 3)
			g, err := Play(start, [2]Player{p, p}, seed, nil)
			if err != nil {
				t.Fatal(err)
			}
			if first == "" {
				first = g.MovesString()
			} else if g.MovesString() != first {
				t.Fatalf("seed %d: %s plays %s, staretc %s", seed, a, g.MovesString(), first)
			}
		}
	}
}
