package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"

	"starlab/runs"
	"starlab/search"
	"starlab/search/dice"
	"starlab/selfplay"
)

func init() {
	var (
		n, m, count int
		minC, maxC  int
		seed        uint64
		rolled      float64
		exact       bool
		out         string
		depth       int
	)
	register(&Command{
		Name:      "gen",
		UsageLine: "gen [-n N] [-m M] [-count C] [-min K] [-max K] [-seed S] [-o FILE]",
		Short:     "make a test suite of positions sampled from self-play games",
		Long: `Gen plays self-play games from the empty board, with dice from the seed,
between players that search each move to -depth (staretc, pairs evaluator)
and play the move of greatest value, the lowest cell among equal values. It
samples one position from each game whose number of checkers lies in [-min,
-max], before the roll or, with probability -rolled, after it; a position
already drawn is skipped. It writes one DPN per line, to stdout or
atomically to -o FILE. With -exact it solves each position to the end of the
game with the zero evaluator and appends "; exact=V", the game-theoretic
value: use it only for endgames.

The same flags and seed give the same suite, and since the players' choices
depend only on search values, later, faster builds give it too.`,
		SetFlags: func(fs *flag.FlagSet) {
			fs.IntVar(&n, "n", 5, "board size (3..17)")
			fs.IntVar(&m, "m", 4, "win length (2..n)")
			fs.IntVar(&count, "count", 100, "number of positions")
			fs.IntVar(&minC, "min", 2, "fewest checkers on the board")
			fs.IntVar(&maxC, "max", 16, "most checkers on the board")
			fs.Uint64Var(&seed, "seed", 1, "seed of the games and the sampling")
			fs.Float64Var(&rolled, "rolled", 0.5, "fraction of positions after the roll")
			fs.BoolVar(&exact, "exact", false, "append the exact value (endgames only)")
			fs.StringVar(&out, "o", "", "output file (default stdout)")
			fs.IntVar(&depth, "depth", 3, "search depth of the self-play players")
		},
		Run: func(ctx context.Context, env *Env, args []string) error {
			if len(args) != 0 {
				return usagef("unexpected arguments %q", strings.Join(args, " "))
			}
			if _, err := dice.New(n, m); err != nil {
				return usageError{err.Error()}
			}
			if count < 1 {
				return usagef("-count %d: want at least 1", count)
			}
			if minC < 0 || maxC < minC || maxC >= n*n {
				return usagef("-min %d -max %d: want 0 <= min <= max < %d", minC, maxC, n*n)
			}
			if rolled < 0 || rolled > 1 {
				return usagef("-rolled %v: want a fraction in [0, 1]", rolled)
			}
			if depth < 1 {
				return usagef("-depth %d: want at least 1", depth)
			}
			lines, err := genSuite(ctx, n, m, count, minC, maxC, seed, rolled, exact, depth)
			if err != nil {
				return err
			}
			text := strings.Join(lines, "\n") + "\n"
			if out == "" {
				_, err := io.WriteString(env.Stdout, text)
				return err
			}
			return runs.WriteBytesAtomic(out, []byte(text))
		},
	})
}

func genSuite(ctx context.Context, n, m, count, minC, maxC int, seed uint64, rolled float64, exact bool, depth int) ([]string, error) {
	rng := rand.New(rand.NewPCG(seed, 0x9e4))
	// A value player: its games depend on search values only, not on the
	// engine's move ordering, so a suite stays reproducible across builds.
	player := selfplay.NewValuePlayer(search.NewEngine(search.Options{Algorithm: search.StarETC, Eval: search.Pairs{}, TTMiB: 4}), depth)
	solver := search.NewEngine(search.Options{Algorithm: search.StarETC, Eval: search.Zero{}, TTMiB: 64})
	start, _ := dice.New(n, m)
	var lines []string
	seen := map[string]bool{}
	for game := uint64(0); len(lines) < count; game++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if game > uint64(100*count) {
			return nil, fmt.Errorf("found only %d positions with %d..%d checkers in %d games", len(lines), minC, maxC, game)
		}
		g, err := selfplay.Play(start, [2]selfplay.Player{player, player}, seed*1_000_003+game, nil)
		if err != nil {
			return nil, err
		}
		// Candidate plies: positions before move i have i checkers.
		var cands []int
		for i := 0; i < g.Plies; i++ {
			if i >= minC && i <= maxC {
				cands = append(cands, i)
			}
		}
		if len(cands) == 0 {
			continue
		}
		ply := cands[rng.IntN(len(cands))]
		b, err := g.Replay(func(i int, _ *dice.Board) bool { return i < ply })
		if err != nil {
			return nil, err
		}
		if rng.Float64() >= rolled {
			b.ClearRoll()
		}
		line := b.DPN()
		if seen[line] {
			continue
		}
		seen[line] = true
		if exact {
			solver.ClearTT()
			res := solver.Search(ctx, &b, search.Limits{}, nil)
			if res.Stopped {
				return nil, ctx.Err()
			}
			line += fmt.Sprintf(" ; exact=%.12f", res.Last().Score)
		}
		lines = append(lines, line)
	}
	return lines, nil
}
