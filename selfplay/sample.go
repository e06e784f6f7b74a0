package selfplay

import (
	"context"
	"fmt"
	"math/rand/v2"

	"starlab/runs"
	"starlab/search"
	gamepkg "starlab/search/game"
)

// SampleSettings configure suite sampling: positions drawn from self-play
// games of a game between value players (ValuePlayer, staretc with the
// game's hand evaluator, eval=pairs, or the engine of Player) that search
// each move to Depth.
type SampleSettings struct {
	Kit     search.Kit // the game played
	Variant string     // the variant played; "" is the game's default
	Count   int        // positions wanted
	Min     int        // lowest phase (g.Phase: checkers on the board in Dice)
	Max     int        // highest phase
	Seed    uint64     // seed of the games and the sampling
	// Rolled is the fraction of positions taken at a move's decision
	// rather than at the chance node before it (in Dice, after the roll
	// rather than before it).
	Rolled float64
	// Exact appends each position's game value, solved to the end of the
	// game with the zero evaluator: for endgames only.
	Exact bool
	// ExactNodes bounds each solve of Exact: a position whose solve
	// searches more nodes is refused (a usage error naming it), since a
	// solve's cost grows with the plies to the end of the game, and one
	// from the middle of a game (a backgammon position with contact, a
	// Dice board with most cells empty) would not finish. The bound is
	// in nodes, not time, so that the same settings give the same suite
	// or the same refusal on any machine.
	ExactNodes int64
	Depth      int // search depth of the self-play players
	// Player, when not "", is the engine spec of the self-play players in
	// place of staretc with the hand evaluator (such as a trained net's,
	// so that the positions are those its own games reach): a search with
	// a depth, which becomes Depth, and no other limit, so that the same
	// settings give the same suite on any machine.
	Player string
	player *search.Resolved // Player's engine, resolved by Check
}

// DefaultExactNodes is the default ExactNodes: 10^8 nodes, a minute or
// less (the 5x5/4 positions of 10 checkers take up to about 7*10^7, those
// of 12 or more a few million).
const DefaultExactNodes = 100_000_000

// DefaultSampleSettings returns 100 positions of g's default variant (Dice
// 5x5/4) with phases 2 to 16, half of them at a decision, from players
// searching to depth 3.
func DefaultSampleSettings(g search.Kit) SampleSettings {
	s := SampleSettings{Kit: g, Count: 100, Min: 2, Max: 16, Seed: 1, Rolled: 0.5, ExactNodes: DefaultExactNodes, Depth: 3}
	if n := g.Defaults.SampleCount; n > 0 {
		s.Count = n
	}
	if p := g.Defaults.GenPhases; p != [2]int{} {
		s.Min, s.Max = p[0], p[1]
	}
	return s
}

// Check checks the settings, filling in the variant; errors are
// runs.UsageError.
func (s *SampleSettings) Check() error {
	if s.Kit.Game == nil {
		return fmt.Errorf("sample settings without a game")
	}
	if s.Variant == "" {
		s.Variant = s.Kit.DefaultVariant()
	}
	start, err := s.Kit.New(s.Variant)
	if err != nil {
		return runs.Usagef("-variant %s: %v", s.Variant, err)
	}
	if s.Count < 1 {
		return runs.Usagef("-count %d: want at least 1", s.Count)
	}
	if s.Min < 0 || s.Max < s.Min {
		return runs.Usagef("-min %d -max %d: want 0 <= min <= max", s.Min, s.Max)
	}
	// Refused now, not after the games played to look for them.
	if lo, hi := s.Kit.PhaseRange(start); s.Min > hi || s.Max < lo {
		return runs.Usagef("-min %d -max %d: no %s %s position that is not over has such a phase; theirs are %d to %d", s.Min, s.Max, s.Kit.Name(), s.Variant, lo, hi)
	}
	if !(s.Rolled >= 0 && s.Rolled <= 1) {
		return runs.Usagef("-rolled %v: want a fraction in [0, 1]", s.Rolled)
	}
	if s.Depth < 1 || s.Depth > search.MaxDepthLimit {
		return runs.Usagef("-depth %d: want 1 to %d", s.Depth, search.MaxDepthLimit)
	}
	if s.Exact && s.ExactNodes < 1 {
		return runs.Usagef("-exact-nodes %d: want at least 1", s.ExactNodes)
	}
	s.player = nil
	if s.Player != "" {
		spec, err := ParseEngineSpec(s.Kit, s.Player)
		if err != nil {
			return runs.Usagef("-player: %v", err)
		}
		if !spec.Limits.DepthOnly() {
			return runs.Usagef("-player %s: give a depth and no other limit, so that the suite is the same on any machine", s.Player)
		}
		if s.player, err = spec.Config.Resolve(); err != nil {
			return runs.Usagef("-player %s: %v", s.Player, err)
		}
		if err := s.Kit.Check(s.player, start); err != nil {
			return runs.Usagef("-player %s: %v", s.Player, err)
		}
		s.Depth = spec.Limits.Depth
	}
	return nil
}

// SampleSuite plays self-play games from the start of the variant, with
// chance events from the seed, and samples one position from each game
// among its moves whose decision has a phase in [Min, Max]: the chance
// node before the decision, if an event led to it, or with probability
// Rolled (or when none did) the decision itself; a position already drawn
// is skipped. It returns the suite's lines, the positions in the game's
// notation (Dice: DPN) with "; exact=V" appended when Exact is set. The
// same settings give the same suite, and since the players' choices depend
// only on search values, later, faster builds give it too.
func SampleSuite(ctx context.Context, s SampleSettings, progress runs.Progress) ([]string, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	g := s.Kit
	rng := rand.New(rand.NewPCG(s.Seed, 0x9e4))
	res := s.player // Player's, resolved by Check
	if res == nil {
		playerCfg := search.DefaultConfig(search.StarETC)
		playerCfg.Eval, playerCfg.TTMiB = g.HandEval, 4 // any board size, and the committed suites
		res = playerCfg.MustResolve()
	}
	player := NewValuePlayer(g.NewEngine(res), s.Depth)
	solverCfg := search.DefaultConfig(search.StarETC)
	solverCfg.Eval, solverCfg.TTMiB = "zero", 64
	var solver search.Engine
	if s.Exact {
		solver = g.NewEngine(solverCfg.MustResolve())
	}
	start, _ := g.New(s.Variant)
	var lines []string
	seen := map[string]bool{}
	progress(0, int64(s.Count), "")
	for game := uint64(0); len(lines) < s.Count; game++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if game > uint64(100*s.Count) {
			return nil, fmt.Errorf("found only %d positions with phase %d..%d in %d games", len(lines), s.Min, s.Max, game)
		}
		rec, err := Play(ctx, g, start, [2]Player{player, player}, NewChanceStream(s.Seed*1_000_003+game), nil)
		if err != nil {
			return nil, err
		}
		cands, err := phaseMoves(g, &rec, s.Min, s.Max)
		if err != nil {
			return nil, err
		}
		if len(cands) == 0 {
			continue
		}
		ply := cands[rng.IntN(len(cands))]
		chance, pos, err := positionAt(g, &rec, ply)
		if err != nil {
			return nil, err
		}
		if rng.Float64() >= s.Rolled && chance != nil {
			pos = chance
		}
		line := pos.String()
		if seen[line] {
			continue
		}
		seen[line] = true
		if s.Exact {
			solver.ClearTT()
			res := solver.Search(ctx, pos, search.Limits{Nodes: s.ExactNodes}, nil)
			if res.Stopped {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				return nil, runs.Usagef("-exact: position %q (phase %d) is not solved within %d nodes (-exact-nodes), having searched to depth %d of the %d its solve goes to; -exact is for endgames: raise -min, or -exact-nodes", line, g.Phase(pos), s.ExactNodes, res.Last().Depth, g.MaxDepth(pos))
			}
			line += fmt.Sprintf(" ; exact=%.12f", res.Last().Score)
		}
		lines = append(lines, line)
		progress(int64(len(lines)), int64(s.Count), "")
	}
	return lines, nil
}

// phaseMoves returns the moves of game rec, counted from 0, whose
// decision's phase is in [lo, hi]: the candidates to sample.
func phaseMoves(g search.Kit, rec *Record, lo, hi int) ([]int, error) {
	var cands []int
	move := 0
	if _, err := rec.Replay(g, func(_ int, st gamepkg.State) bool {
		if st.Kind() == gamepkg.Decision {
			if p := g.Phase(st); p >= lo && p <= hi {
				cands = append(cands, move)
			}
			move++
		}
		return true
	}); err != nil {
		return nil, err
	}
	return cands, nil
}

// positionAt returns the decision of move ply of game rec and the chance
// node before it, nil if no event led to it.
func positionAt(g search.Kit, rec *Record, ply int) (chance, pos gamepkg.State, err error) {
	move := 0
	if _, err := rec.Replay(g, func(_ int, st gamepkg.State) bool {
		switch st.Kind() {
		case gamepkg.Chance:
			if move == ply {
				chance = st.Clone()
			}
		case gamepkg.Decision:
			if move == ply {
				pos = st
				return false
			}
			move++
		}
		return true
	}); err != nil {
		return nil, nil, err
	}
	return chance, pos, nil
}
