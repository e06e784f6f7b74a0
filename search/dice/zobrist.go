package dice

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
	// splitmix64 (Steele, Lea, Flood 2014): a fixed, well-mixed sequence.
	s := uint64(0x5eed_d1ce_0000_0001)
	next := func() uint64 {
		s += 0x9e3779b97f4a7c15
		z := s
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		return z ^ (z >> 31)
	}
	for i := range zCell {
		zCell[i][0] = next()
		zCell[i][1] = next()
	}
	zSide = next()
	for i := range zRoll {
		zRoll[i] = next()
	}
}
