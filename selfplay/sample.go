package selfplay

import (
	"context"
	"fmt"
	"math/rand/v2"

	"starlab/runs"
	"starlab/search"
	"starlab/search/dice"
	diceengine "starlab/search/engine/dice"
)

// SampleSettings configure suite sampling: positions drawn from self-play
// games between value players (ValuePlayer, staretc with the pairs
// evaluator) that search each move to Depth.
type SampleSettings struct {
	N, M  int    // board size and win length
	Count int    // positions wanted
	Min   int    // fewest checkers on the board
	Max   int    // most checkers on the board
	Seed  uint64 // seed of the games and the sampling
	// Rolled is the fraction of positions taken after the roll.
	Rolled float64
	// Exact appends each position's game value, solved to the end of the
	// game with the zero evaluator: for endgames only.
	Exact bool
	Depth int // search depth of the self-play players
}

// DefaultSampleSettings returns 100 positions of 5x5/4 with 2 to 16
// checkers, half of them after the roll, from players searching to depth 3.
func DefaultSampleSettings() SampleSettings {
	return SampleSettings{N: 5, M: 4, Count: 100, Min: 2, Max: 16, Seed: 1, Rolled: 0.5, Depth: 3}
}

// Check checks the settings; errors are runs.UsageError.
func (s *SampleSettings) Check() error {
	if _, err := dice.New(s.N, s.M); err != nil {
		return runs.Usagef("-n %d -m %d: %v", s.N, s.M, err)
	}
	if s.Count < 1 {
		return runs.Usagef("-count %d: want at least 1", s.Count)
	}
	if s.Min < 0 || s.Max < s.Min || s.Max >= s.N*s.N {
		return runs.Usagef("-min %d -max %d: want 0 <= min <= max < %d", s.Min, s.Max, s.N*s.N)
	}
	if !(s.Rolled >= 0 && s.Rolled <= 1) {
		return runs.Usagef("-rolled %v: want a fraction in [0, 1]", s.Rolled)
	}
	if s.Depth < 1 || s.Depth > search.MaxDepthLimit {
		return runs.Usagef("-depth %d: want 1 to %d", s.Depth, search.MaxDepthLimit)
	}
	return nil
}

// SampleSuite plays self-play games from the empty board, with dice from
// the seed, and samples one position from each game whose number of
// checkers lies in [Min, Max], before the roll or, with probability Rolled,
// after it; a position already drawn is skipped. It returns the suite's
// lines, DPN with "; exact=V" appended when Exact is set. The same settings
// give the same suite, and since the players' choices depend only on search
// values, later, faster builds give it too.
func SampleSuite(ctx context.Context, s SampleSettings, progress runs.Progress) ([]string, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(s.Seed, 0x9e4))
	playerCfg := search.DefaultConfig(search.StarETC)
	playerCfg.Eval, playerCfg.TTMiB = "pairs", 4 // any board size, and the committed suites
	player := NewValuePlayer(diceengine.New(playerCfg.MustResolve()), s.Depth)
	solverCfg := search.DefaultConfig(search.StarETC)
	solverCfg.Eval, solverCfg.TTMiB = "zero", 64
	var solver *diceengine.Engine
	if s.Exact {
		solver = diceengine.New(solverCfg.MustResolve())
	}
	start, _ := dice.New(s.N, s.M)
	var lines []string
	seen := map[string]bool{}
	progress(0, int64(s.Count), "")
	for game := uint64(0); len(lines) < s.Count; game++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if game > uint64(100*s.Count) {
			return nil, fmt.Errorf("found only %d positions with %d..%d checkers in %d games", len(lines), s.Min, s.Max, game)
		}
		g, err := Play(ctx, start, [2]Player{player, player}, NewDiceStream(s.Seed*1_000_003+game), nil)
		if err != nil {
			return nil, err
		}
		// Candidate plies: positions before move i have i checkers.
		var cands []int
		for i := 0; i < g.Plies; i++ {
			if i >= s.Min && i <= s.Max {
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
		if rng.Float64() >= s.Rolled {
			b.ClearRoll()
		}
		line := b.DPN()
		if seen[line] {
			continue
		}
		seen[line] = true
		if s.Exact {
			solver.ClearTT()
			res := solver.Search(ctx, &b, search.Limits{}, nil)
			if res.Stopped {
				return nil, ctx.Err()
			}
			line += fmt.Sprintf(" ; exact=%.12f", res.Last().Score)
		}
		lines = append(lines, line)
		progress(int64(len(lines)), int64(s.Count), "")
	}
	return lines, nil
}
