package search

import (
	"fmt"
	"slices"
	"strings"
)

// Algorithm is the procedure used at chance nodes. Every algorithm searches
// move nodes with the same enhanced alpha-beta (negamax, fail-soft,
// transposition table, killer moves, history heuristic).
type Algorithm int

// The *-minimax family.
const (
	// Expectimax searches every chance event with the full window
	// (Michie 1966; Veness 2006, section 2.4.1).
	Expectimax Algorithm = iota
	// Star1 narrows each event's window from the bounds of the others and
	// cuts off when the weighted bounds leave the window (Ballard 1983;
	// Veness 2006, section 2.4.3).
	Star1
	// Star2 adds a probing phase that searches the first ProbingFactor moves
	// of each event for lower bounds before Star1 (Ballard 1983; Veness 2006,
	// section 2.4.4).
	Star2
	// StarETC adds transposition-table cut-offs at chance nodes and the
	// successor-probing phase (Veness and Blair 2007, figure 4.1; Veness
	// 2006, chapter 3).
	StarETC
	// CPC is ChanceProbCut on top of StarETC: a shallow search per event
	// predicts bounds that may cut the chance node off (Schadd, Winands and
	// Uiterwijk 2009, algorithm 5.2). It is the one unsound algorithm.
	CPC
)

var algoNames = [...]string{"expectimax", "star1", "star2", "staretc", "cpc"}

// AlgorithmNames returns the algorithms' names, in order, in a new slice.
func AlgorithmNames() []string { return slices.Clone(algoNames[:]) }

// String returns the algorithm's name.
func (a Algorithm) String() string {
	if a < 0 || int(a) >= len(algoNames) {
		return fmt.Sprintf("Algorithm(%d)", int(a))
	}
	return algoNames[a]
}

// Sound reports whether the algorithm returns the expectimax value.
func (a Algorithm) Sound() bool { return a != CPC }

// ParseAlgorithm returns the algorithm with the given name.
func ParseAlgorithm(s string) (Algorithm, error) {
	for i, n := range algoNames {
		if s == n {
			return Algorithm(i), nil
		}
	}
	return 0, fmt.Errorf("unknown algorithm %q (want %s)", s, strings.Join(algoNames[:], ", "))
}

// MarshalText encodes the algorithm by its name.
func (a Algorithm) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// UnmarshalText decodes an algorithm name.
func (a *Algorithm) UnmarshalText(b []byte) error {
	x, err := ParseAlgorithm(string(b))
	if err != nil {
		return err
	}
	*a = x
	return nil
}
