package dice

import "starlab/search/game"

// Zobrist keys (Zobrist 1970): one per (cell, colour), one for red to move,
// and one per roll state (index 0 for "must roll", k+1 for line k). They are
// built once from a fixed seed and never change, so keys are the same in
// every process and every run.
var (
	zCell [MaxCells][2]uint64
	zSide uint64
	zRoll [MaxN + 1]uint64
)

func init() {
	next := game.SplitMix64(0x5eed_d1ce_0000_0001)
	for i := range zCell {
		zCell[i][0] = next()
		zCell[i][1] = next()
	}
	zSide = next()
	for i := range zRoll {
		zRoll[i] = next()
	}
}
