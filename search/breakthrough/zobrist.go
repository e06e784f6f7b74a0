package breakthrough

import "starlab/search/game"

// Zobrist keys (Zobrist 1970): one per (square, side), one for Black to
// move, one for a pending roll, and one per board size, so that equal
// pieces on boards of two sizes have different keys in a table an engine
// keeps across them. They are built once from a fixed seed and never
// change, so keys are the same in every process and every run.
var (
	zPiece   [MaxSquares][2]uint64
	zSide    uint64
	zPending uint64
	zSize    [MaxW + 1][MaxH + 1]uint64
)

func init() {
	next := game.SplitMix64(0xb7ea_c407_0000_0001)
	for i := range zPiece {
		zPiece[i][White] = next()
		zPiece[i][Black] = next()
	}
	zSide = next()
	zPending = next()
	for w := range zSize {
		for h := range zSize[w] {
			zSize[w][h] = next()
		}
	}
}
