package selfplay

import (
	"fmt"
	"math"

	"starlab/search"
)

// GameRow is one row of games.parquet: one game of a match. Blue is side
// 0, who moves first in Dice, and red side 1; rolls are the game's chance
// events and moves its moves, each in the game's notation (Record.Notation).
//
// A side's mean depth is NaN where its engine reported no depth in the
// game (an outside engine that gives no search figures, as gnubg, or an
// ext: engine without info lines), and 0 where the side made no move; its
// nodes are 0 in both cases (starlab's searches count at least one a
// move), and math.MaxInt64 where the count would exceed it.
type GameRow struct {
	MatchSeed     uint64  `parquet:"match_seed"`
	Pairing       int32   `parquet:"pairing"`
	Pair          int32   `parquet:"pair"`
	Round         int32   `parquet:"round"` // 0: variant_a is blue, 1: variant_b is blue
	DiceSeed      uint64  `parquet:"dice_seed"`
	VariantA      string  `parquet:"variant_a"`
	VariantB      string  `parquet:"variant_b"`
	Blue          string  `parquet:"blue"`
	Red           string  `parquet:"red"`
	AIsBlue       bool    `parquet:"a_is_blue"`
	Start         string  `parquet:"start"`
	Result        int32   `parquet:"result"` // blue's (side 0's) view: 1 won, 0 drawn, -1 lost; in games played for points (backgammon's money), the points won (+) or lost (-)
	ScoreA        float64 `parquet:"score_a"`
	Plies         int32   `parquet:"plies"`
	Rolls         string  `parquet:"rolls"`
	Moves         string  `parquet:"moves"`
	MeanDepthBlue float64 `parquet:"mean_depth_blue"` // NaN: no depth reported
	MeanDepthRed  float64 `parquet:"mean_depth_red"`
	NodesBlue     int64   `parquet:"nodes_blue"` // 0: none reported
	NodesRed      int64   `parquet:"nodes_red"`
	TimeMSBlue    float64 `parquet:"time_ms_blue"`
	TimeMSRed     float64 `parquet:"time_ms_red"`
	Luck          float64 `parquet:"luck"` // sum of the chance events' luck, blue's view, value units
	LuckScoreA    float64 `parquet:"luck_adjusted_score_a"`
	// Forfeit is empty, or the side that lost by forfeit and why
	// ("red: timeout: no move within 1s; ..."), the game's last word.
	Forfeit string `parquet:"forfeit"`
}

// GameRows returns the rows of games.parquet for the records the report
// counts (with an SPRT, those before its stop), by pairing, pair and round.
func GameRows(m *Match, recs []MatchRecord) ([]GameRow, error) {
	set := m.Settings
	counted, _ := m.counted(recs)
	var rows []GameRow
	for pi, pg := range set.Pairings() {
		for _, pr := range counted[pi] {
			for _, g := range pr.Games {
				row, err := newGameRow(set.Kit, set.Seed, pi, set.Engines[pg.A], set.Engines[pg.B], g)
				if err != nil {
					return nil, err
				}
				rows = append(rows, row)
			}
		}
	}
	return rows, nil
}

func newGameRow(gg search.Kit, seed uint64, pairing int, a, b string, g PairGame) (GameRow, error) {
	blue, red := a, b
	if !g.AIsBlue {
		blue, red = b, a
	}
	gm := &g.Game
	rolls, moves, err := gm.Notation(gg)
	if err != nil {
		return GameRow{}, fmt.Errorf("pairing %d pair %d round %d: %v", pairing, g.Pair, g.Round, err)
	}
	mean := func(d, t int) float64 {
		switch {
		case t == 0:
			return 0
		case d == 0:
			return math.NaN() // no depth reported
		}
		return float64(d) / float64(t)
	}
	row := GameRow{
		MatchSeed: seed, Pairing: int32(pairing), Pair: int32(g.Pair), Round: int32(g.Round), DiceSeed: g.Seed,
		VariantA: a, VariantB: b, Blue: blue, Red: red, AIsBlue: g.AIsBlue, Start: gm.Start,
		Result: int32(gm.Result), ScoreA: g.ScoreA(), Plies: int32(gm.Plies),
		Rolls: rolls, Moves: moves,
		MeanDepthBlue: mean(gm.Depth[0], gm.Turns[0]), MeanDepthRed: mean(gm.Depth[1], gm.Turns[1]),
		NodesBlue: gm.Nodes[0], NodesRed: gm.Nodes[1],
		TimeMSBlue: float64(gm.Time[0].Microseconds()) / 1000, TimeMSRed: float64(gm.Time[1].Microseconds()) / 1000,
		Luck: gm.Luck, LuckScoreA: g.ScoreA() - g.LuckA(),
	}
	if f := gm.Forfeit; f != nil {
		row.Forfeit = gg.SideName(f.Side) + ": " + f.String()
	}
	if gm.Points > 0 {
		// Played for points: the result is the points, and the luck
		// (on the value scale, points over the most a game can be
		// worth) does not subtract from the score.
		row.Result = int32(gm.Result * gm.Points)
		row.LuckScoreA = math.NaN()
	}
	return row, nil
}
