package search

import (
	"fmt"
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

	// numAlgorithms sizes the algorithms table: a constant added above
	// without its row has an empty name, which TestEveryAlgorithmHasARow
	// reports.
	numAlgorithms
)

// Techniques are the phases an algorithm runs at a chance node, each an
// A/B switch the engine reads once when it is built and the configuration
// grammar reads to know which options an algorithm uses. They are not
// implied by the order of the Algorithm constants: an algorithm added
// after CPC gets exactly the techniques of its row.
type Techniques struct {
	// Star1 searches each event in the window its siblings' bounds leave
	// it and cuts off when the weighted bounds leave the node's window;
	// without it every event is searched with the full window
	// (Expectimax).
	Star1 bool
	// Star2Probing is Star2's probing phase: the first ProbingFactor
	// moves of each event give lower bounds before the Star1 search
	// (option k).
	Star2Probing bool
	// ChanceTT is StarETC's use of the table at chance nodes: cut-offs
	// on the node's own entry, successor probing from ETCMinDepth (option
	// etc), and stores of the node's bounds; it also prefetches the
	// children's entries at move nodes.
	ChanceTT bool
	// ProbCut is ChanceProbCut, the one unsound technique (options t, r,
	// multi, probcut, cpcmin, cpcmax, cpcstep).
	ProbCut bool
}

// algorithms is the one table from an algorithm to its name and its
// techniques, indexed by the Algorithm constants.
var algorithms = [numAlgorithms]struct {
	name string
	tech Techniques
}{
	Expectimax: {"expectimax", Techniques{}},
	Star1:      {"star1", Techniques{Star1: true}},
	Star2:      {"star2", Techniques{Star1: true, Star2Probing: true}},
	StarETC:    {"staretc", Techniques{Star1: true, Star2Probing: true, ChanceTT: true}},
	CPC:        {"cpc", Techniques{Star1: true, Star2Probing: true, ChanceTT: true, ProbCut: true}},
}

// AlgorithmNames returns the algorithms' names, in order, in a new slice.
func AlgorithmNames() []string {
	names := make([]string, len(algorithms))
	for i, a := range algorithms {
		names[i] = a.name
	}
	return names
}

// valid reports whether a is one of the Algorithm constants.
func (a Algorithm) valid() bool { return a >= 0 && a < numAlgorithms }

// String returns the algorithm's name.
func (a Algorithm) String() string {
	if !a.valid() {
		return fmt.Sprintf("Algorithm(%d)", int(a))
	}
	return algorithms[a].name
}

// Techniques returns the techniques the algorithm uses; an Algorithm that
// is not one of the constants uses none.
func (a Algorithm) Techniques() Techniques {
	if !a.valid() {
		return Techniques{}
	}
	return algorithms[a].tech
}

// Sound reports whether the algorithm returns the expectimax value: it
// does unless it uses ChanceProbCut.
func (a Algorithm) Sound() bool { return !a.Techniques().ProbCut }

// ParseAlgorithm returns the algorithm with the given name.
func ParseAlgorithm(s string) (Algorithm, error) {
	for i, a := range algorithms {
		if s == a.name {
			return Algorithm(i), nil
		}
	}
	return 0, fmt.Errorf("unknown algorithm %q (want %s)", s, strings.Join(AlgorithmNames(), ", "))
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
