package game

// AppendMoves appends a board's own move numbers to dst[:0] as Moves and
// returns it: the body of a State's Legal over a board that lists its
// moves into an array, as every game here does.
func AppendMoves[M ~int8 | ~int16 | ~int32 | ~int](dst []Move, moves []M) []Move {
	dst = dst[:0]
	for _, m := range moves {
		dst = append(dst, Move(m))
	}
	return dst
}

// AppendEvents appends a board's own event numbers to dst[:0] as Events,
// each with its weight (1 where weights is nil), and returns it: the body
// of a State's Outcomes over a board that lists its events into arrays.
func AppendEvents[E ~int8 | ~int16 | ~int32 | ~int, W ~int | ~float64](dst []Event, events []E, weights []W) []Event {
	dst = dst[:0]
	for i, e := range events {
		w := uint16(1)
		if weights != nil {
			w = uint16(weights[i])
		}
		dst = append(dst, Event{ID: uint16(e), Weight: w})
	}
	return dst
}

// SplitMix64 returns the generator splitmix64 (Steele, Lea, Flood 2014)
// started at seed: a fixed, well-mixed sequence, from which a game builds
// its Zobrist keys (Zobrist 1970) once, the same in every process and run.
func SplitMix64(seed uint64) func() uint64 {
	s := seed
	return func() uint64 {
		s += 0x9e3779b97f4a7c15
		z := s
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		return z ^ (z >> 31)
	}
}

// KindOf is a State's Kind from what a board knows: over, then a chance
// node where the chance event is due, else a decision.
func KindOf(over, chance bool) Kind {
	switch {
	case over:
		return Over
	case chance:
		return Chance
	}
	return Decision
}
