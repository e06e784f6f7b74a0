package selfplay

import (
	"fmt"
	"math"
	"sort"

	"starlab/runs"
	"starlab/search/game"
)

// Summary is the statistics of a match from variant A's view.
type Summary struct {
	A      string `json:"a"`
	B      string `json:"b"`
	Pairs  int    `json:"pairs"`
	Games  int    `json:"games"`
	Wins   int    `json:"wins"`
	Draws  int    `json:"draws"`
	Losses int    `json:"losses"`
	// Score and its 95% half-width over games (trinomial model).
	Score     float64  `json:"score"`
	ScoreCI95 float64  `json:"score_ci95"`
	Elo       runs.Num `json:"elo"`
	EloCI95   runs.Num `json:"elo_ci95"`
	// LOSGames is cutechess-cli's likelihood of superiority from the
	// decisive games, ½(1 + erf((W − L)/√(2(W + L)))); LOSPairs is the
	// normal form Φ((μ − ½)/SE) over pairs.
	LOSGames float64 `json:"los_games"`
	// Pentanomial counts of pair scores 0, 0.5, 1, 1.5, 2 and the
	// half-width of the score over pairs.
	Pentanomial    [5]int   `json:"pentanomial"`
	ScoreCI95Pairs float64  `json:"score_ci95_pairs"`
	EloCI95Pairs   runs.Num `json:"elo_ci95_pairs"`
	LOSPairs       float64  `json:"los_pairs"`
	// VarRatioPairs is the variance of the score estimate over games
	// divided by that over pairs: how much pairing narrowed the interval,
	// squared. Every variance here divides by the sample size n, as
	// cutechess-cli, fastchess and fishtest do.
	VarRatioPairs runs.Num `json:"var_ratio_pairs"`
	// Luck-adjusted score (result minus the luck of the rolls), its 95%
	// half-width over pairs, its Elo, and the variance ratios plain pairs
	// / adjusted pairs and games / adjusted pairs. Null without a luck
	// reference. The adjusted score is not bounded by 0 and 1: outside
	// them LuckElo is null and LuckEloNote says why (LuckElo).
	Luck          bool     `json:"luck"`
	LuckScore     runs.Num `json:"luck_score"`
	LuckCI95      runs.Num `json:"luck_ci95"`
	LuckElo       runs.Num `json:"luck_elo"`
	LuckEloNote   string   `json:"luck_elo_note,omitempty"`
	VarRatioLuck  runs.Num `json:"var_ratio_luck"`
	VarRatioTotal runs.Num `json:"var_ratio_luck_vs_games"`
	// SPRT, when one runs: the log-likelihood ratio of the pentanomial
	// counts, its bounds and the decision.
	SPRT      *SPRT     `json:"sprt,omitempty"`
	LLR       *runs.Num `json:"llr,omitempty"`
	LLRLower  float64   `json:"llr_lower,omitempty"`
	LLRUpper  float64   `json:"llr_upper,omitempty"`
	Decision  string    `json:"decision,omitempty"`
	MeanPlies float64   `json:"mean_plies"`
	// The games' shape, as the chapter reports its self-play games:
	// decisions (moves and, where chance is a choice, rolls) per game,
	// legal moves per decision (the branching factor), chance nodes per
	// game and events per chance node; NaN without games (or without
	// chance nodes).
	DecisionsPerGame runs.Num `json:"decisions_per_game"`
	Branching        runs.Num `json:"branching"`
	ChancePerGame    runs.Num `json:"chance_nodes_per_game"`
	EventsPerChance  runs.Num `json:"events_per_chance"`
	// Mean completed depth per move and nodes per move, for A and B;
	// NaN (null) for a side that reported none: an outside
	// engine that gives no search figures, as gnubg, or an ext: engine
	// without info lines (or whose lines all say 0). They are summed in
	// float64, which no node count overflows.
	DepthA runs.Num `json:"mean_depth_a"`
	DepthB runs.Num `json:"mean_depth_b"`
	NodesA runs.Num `json:"nodes_per_move_a"`
	NodesB runs.Num `json:"nodes_per_move_b"`
	// Mean time per move of A and B in milliseconds, as the referee
	// measured it (for an outside engine, the protocol's round trip too).
	MsPerMoveA  float64 `json:"ms_per_move_a"`
	MsPerMoveB  float64 `json:"ms_per_move_b"`
	Seconds     float64 `json:"seconds"`
	GamesPerSec float64 `json:"games_per_s"`
	// Points, where the games are played for points (backgammon's money
	// play), are A's points per game with their intervals and how many
	// games each side won of each worth.
	Points *PointStats `json:"points,omitempty"`
	// Forfeits are the games A and B lost by forfeit (an outside
	// engine's illegal, malformed or missing reply), by reason.
	Forfeits *ForfeitStats `json:"forfeits,omitempty"`
}

// ForfeitStats count the games each side lost by forfeit, by reason
// ("illegal", "malformed", "timeout", "exited").
type ForfeitStats struct {
	A       int            `json:"a"`
	B       int            `json:"b"`
	ReasonA map[string]int `json:"reasons_a"`
	ReasonB map[string]int `json:"reasons_b"`
}

// PointStats are A's points per game: the mean of +points for a win and
// -points for a loss, its 95% half-width over games and over pairs, and
// the wins of A and of B by their points (1, 2, 3: single games, gammons,
// backgammons).
type PointStats struct {
	PerGame   float64 `json:"per_game"`
	CI95      float64 `json:"ci95"`
	CI95Pairs float64 `json:"ci95_pairs"`
	WinsA     [3]int  `json:"wins_a_by_points"`
	WinsB     [3]int  `json:"wins_b_by_points"`
}

// pointStats returns the points statistics of pairs, nil when no game was
// played for points.
func pointStats(ps []PairRecord) *PointStats {
	var st PointStats
	var games, pairs []float64
	scored := false
	for _, p := range ps {
		sum := 0.0
		for _, g := range p.Games {
			pts := g.Game.Points
			if pts == 0 {
				pts = 1 // a game not played for points is worth one
			} else {
				scored = true
			}
			won := g.ScoreA() == 1
			lost := g.ScoreA() == 0
			v := 0.0
			switch {
			case won:
				v = float64(pts)
				if pts <= 3 {
					st.WinsA[pts-1]++
				}
			case lost:
				v = -float64(pts)
				if pts <= 3 {
					st.WinsB[pts-1]++
				}
			}
			games = append(games, v)
			sum += v
		}
		pairs = append(pairs, sum/2)
	}
	if !scored {
		return nil
	}
	mg, mp := PopMeanCI95(games), PopMeanCI95(pairs)
	st.PerGame, st.CI95, st.CI95Pairs = mg.Mean, mg.CI95, mp.CI95
	return &st
}

// Summarize computes the statistics of the given pairs (in any order; they
// are sorted by index). luck says whether the games carry luck values.
func Summarize(a, b string, pairs []PairRecord, luck bool, sprt *SPRT) Summary {
	ps := append([]PairRecord(nil), pairs...)
	sort.Slice(ps, func(i, j int) bool { return ps[i].Index < ps[j].Index })
	s := Summary{A: a, B: b, Pairs: len(ps), Games: 2 * len(ps), Luck: luck, SPRT: sprt}
	var tri Trinomial
	var pen Pentanomial
	adjusted := make([]float64, 0, len(ps))
	var plies int
	// A's and B's moves, depths and nodes, in float64: exact below 2⁵³,
	// and no sum of node counts (each up to math.MaxInt64) wraps.
	var turns, depth, nodes [2]float64
	for _, p := range ps {
		for _, g := range p.Games {
			switch g.ScoreA() {
			case 1:
				tri.Wins++
			case 0:
				tri.Losses++
			default:
				tri.Draws++
			}
			plies += g.Game.Plies
			ca, cb := 0, 1 // colour index of A and B in this game
			if !g.AIsBlue {
				ca, cb = 1, 0
			}
			for k, c := range [2]int{ca, cb} {
				turns[k] += float64(g.Game.Turns[c])
				depth[k] += float64(g.Game.Depth[c])
				nodes[k] += float64(g.Game.Nodes[c])
			}
			if f := g.Game.Forfeit; f != nil {
				s.addForfeit(f, ca)
			}
		}
		pen[p.Category()]++
		adjusted = append(adjusted, (p.Games[0].ScoreA()-p.Games[0].LuckA()+p.Games[1].ScoreA()-p.Games[1].LuckA())/2)
	}
	s.Wins, s.Draws, s.Losses = tri.Wins, tri.Draws, tri.Losses
	s.Score, s.ScoreCI95 = tri.Score(), tri.ScoreCI95()
	s.Elo, s.EloCI95, s.LOSGames = runs.Num(tri.Elo()), runs.Num(tri.EloCI95HalfWidth()), tri.LOS()
	s.Pentanomial = pen
	s.ScoreCI95Pairs, s.EloCI95Pairs, s.LOSPairs = pen.ScoreCI95(), runs.Num(pen.EloCI95HalfWidth()), pen.LOS()
	s.VarRatioPairs = varRatio(s.ScoreCI95*s.ScoreCI95, s.ScoreCI95Pairs*s.ScoreCI95Pairs)
	nan := runs.Num(math.NaN())
	s.LuckScore, s.LuckCI95, s.LuckElo, s.VarRatioLuck, s.VarRatioTotal = nan, nan, nan, nan, nan
	if luck && len(adjusted) > 0 {
		m := PopMeanCI95(adjusted)
		s.LuckScore, s.LuckCI95 = runs.Num(m.Mean), runs.Num(m.CI95)
		elo, why := LuckElo(m.Mean)
		s.LuckElo, s.LuckEloNote = runs.Num(elo), why
		s.VarRatioLuck = varRatio(s.ScoreCI95Pairs*s.ScoreCI95Pairs, m.CI95*m.CI95)
		s.VarRatioTotal = varRatio(s.ScoreCI95*s.ScoreCI95, m.CI95*m.CI95)
	}
	if sprt != nil {
		llr := sprt.LLRPentanomial(pen)
		x := runs.Num(llr)
		s.LLR = &x
		s.LLRLower, s.LLRUpper = sprt.Bounds()
		s.Decision = sprt.Decision(llr).String()
	}
	if s.Games > 0 {
		s.MeanPlies = float64(plies) / float64(s.Games)
	}
	s.Points = pointStats(ps)
	if s.Points != nil {
		// The luck of the rolls is valued on the games' value scale
		// (backgammon's money: points over 3), not on the win-or-loss
		// score's: the two do not subtract, so no luck-adjusted score is
		// reported for games played for points.
		s.Luck = false
		s.LuckScore, s.LuckCI95, s.LuckElo, s.VarRatioLuck, s.VarRatioTotal = nan, nan, nan, nan, nan
	}
	s.DepthA, s.DepthB = perMove(depth[0], turns[0]), perMove(depth[1], turns[1])
	s.NodesA, s.NodesB = perMove(nodes[0], turns[0]), perMove(nodes[1], turns[1])
	return s
}

// addForfeit counts the forfeit f of a game in which A had colour ca.
func (s *Summary) addForfeit(f *Forfeit, ca int) {
	if s.Forfeits == nil {
		s.Forfeits = &ForfeitStats{ReasonA: map[string]int{}, ReasonB: map[string]int{}}
	}
	if f.Side == ca {
		s.Forfeits.A++
		s.Forfeits.ReasonA[f.Reason]++
	} else {
		s.Forfeits.B++
		s.Forfeits.ReasonB[f.Reason]++
	}
}

// perMove returns a side's search figure per move, sum over its moves, or
// NaN when the side reported none (sum 0): starlab's searches report at
// least one ply and one node a move, so a zero sum is a player that gives
// no such figures (an outside engine, or a player without a search) or a
// side that made no move, not a search of depth 0.
func perMove(sum, moves float64) runs.Num {
	if sum == 0 {
		return runs.Num(math.NaN())
	}
	return runs.Num(sum / moves)
}

// SearchNote returns " (-: the engine reports none)" when a side's mean depth or
// nodes per move is undefined (perMove), for the line that prints them
// as "-", and "" otherwise.
func (s *Summary) SearchNote() string {
	for _, x := range []runs.Num{s.DepthA, s.DepthB, s.NodesA, s.NodesB} {
		if math.IsNaN(float64(x)) {
			return " (-: the engine reports none)"
		}
	}
	return ""
}

// varRatio divides two variances, treating anything below 1e-20 (rounding
// noise in a sum of identical values) as zero: +Inf when only the
// denominator vanishes, NaN when both do.
func varRatio(x, y float64) runs.Num {
	const tiny = 1e-20
	switch {
	case y > tiny:
		return runs.Num(x / y)
	case x > tiny:
		return runs.Num(math.Inf(1))
	}
	return runs.Num(math.NaN())
}

func ratio(x, y float64) float64 {
	if y == 0 {
		return 0
	}
	return x / y
}

// timePerMove fills s's mean time per move of A and B from its pairs'
// records. It is kept out of Summarize, whose figures are a function of
// the games alone, as Seconds and GamesPerSec are.
func timePerMove(s *Summary, pairs []PairRecord) {
	var turns, ns [2]float64
	for _, p := range pairs {
		for _, g := range p.Games {
			ca, cb := 0, 1
			if !g.AIsBlue {
				ca, cb = 1, 0
			}
			turns[0] += float64(g.Game.Turns[ca])
			turns[1] += float64(g.Game.Turns[cb])
			ns[0] += float64(g.Game.Time[ca])
			ns[1] += float64(g.Game.Time[cb])
		}
	}
	s.MsPerMoveA, s.MsPerMoveB = ratio(ns[0]/1e6, turns[0]), ratio(ns[1]/1e6, turns[1])
}

// gameShape fills s's decisions per game, branching factor and events per
// chance node from its pairs' games, each replayed through g; a record
// that does not replay (which Report's caller has checked) is left out.
func gameShape(g game.Game, s *Summary, pairs []PairRecord) {
	nan := runs.Num(math.NaN())
	s.DecisionsPerGame, s.Branching, s.ChancePerGame, s.EventsPerChance = nan, nan, nan, nan
	if g == nil {
		return
	}
	var games, decisions, moves, chances, events int
	var ms []game.Move
	var es []game.Event
	for _, p := range pairs {
		for _, r := range p.Games {
			_, err := r.Game.Replay(g, func(_ int, st game.State) bool {
				switch st.Kind() {
				case game.Decision:
					ms = st.Legal(ms)
					decisions++
					moves += len(ms)
				case game.Chance:
					es, _ = st.Outcomes(es)
					chances++
					events += len(es)
				}
				return true
			})
			if err == nil {
				games++
			}
		}
	}
	mean := func(x, n int) runs.Num {
		if n == 0 {
			return nan
		}
		return runs.Num(float64(x) / float64(n))
	}
	s.DecisionsPerGame, s.Branching = mean(decisions, games), mean(moves, decisions)
	s.ChancePerGame, s.EventsPerChance = mean(chances, games), mean(events, chances)
}

// Interval formats the 95% half-width ci of the score over "games",
// "pairs" or "luck" (the luck-adjusted score, over pairs) as a percentage,
// as the match's text prints it ("3.1%"), or "-" when it is undefined. An
// interval of no width (to rounding) is no certainty but a sample without
// spread, whose width the normal interval cannot measure (every pair
// split 1-1, every game won): it says so, and why where the counts show
// it.
func (s *Summary) Interval(ci float64, over string) string {
	text := runs.Num(100 * ci).Format("%.1f%%")
	if !(math.Abs(ci) < 1e-9) || s.Games == 0 {
		return text
	}
	why := ""
	switch over {
	case "games":
		for _, c := range []struct {
			n    int
			what string
		}{{s.Wins, "won"}, {s.Draws, "drawn"}, {s.Losses, "lost"}} {
			if c.n == s.Games {
				why = "every game " + c.what
			}
		}
	case "pairs":
		for k, n := range s.Pentanomial {
			switch {
			case n != s.Pairs:
			case k == 2 && s.Draws == 0:
				why = "every pair split 1-1"
			default:
				why = fmt.Sprintf("every pair scored %g of 2", float64(k)/2)
			}
		}
	}
	if why == "" {
		return text + " (no spread to measure)"
	}
	return text + " (" + why + ": no spread to measure)"
}
