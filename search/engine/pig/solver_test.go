package pig

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// solver is Pig written again from its rules, apart from the board and
// the engine: the states of one variant as arrays over the mover's score
// i, the opponent's score j and the turn state t (the die's turn total,
// or the bag's tiles drawn this turn), with the exact value by value
// iteration (Neller and Presser 2004, section 3) and the depth-limited
// values the searches must reproduce, layer by layer.
type solver struct {
	goal  int
	bag   bool
	index map[[7]int]int // the turn state of the tiles drawn (the die: of [0]: the total)
	turns []turnState    // by index t; t = 0 is the turn's start
	order []int          // the turn states by decreasing turn total
}

// turnState is a turn under way: its total and, for each face that can
// come, its weight and the turn state it leads to (-1 for a 1).
type turnState struct {
	total  int
	weight int // the events' total weight
	faces  []face
}

type face struct{ n, w, next int }

// newSolver returns the solver of the die (bag false) or the bag of two
// tiles of each face to goal.
func newSolver(goal int, bag bool) *solver {
	s := &solver{goal: goal, bag: bag, index: map[[7]int]int{}}
	index := s.index
	var add func(drawn [7]int, total int) int
	add = func(drawn [7]int, total int) int {
		if !bag {
			drawn = [7]int{0: total} // the die's turn is its total alone
		}
		if t, ok := index[drawn]; ok {
			return t
		}
		t := len(s.turns)
		index[drawn] = t
		s.turns = append(s.turns, turnState{total: total})
		var fs []face
		for n := 1; n <= 6; n++ {
			w := 1
			if bag {
				w = 2 - drawn[n] // a 1 drawn ends the turn: both stay
			}
			if w == 0 {
				continue
			}
			next := -1
			if n > 1 && total+n < goal { // a turn that reaches the goal wins and ends
				d := drawn
				d[n]++
				next = add(d, total+n)
			}
			fs = append(fs, face{n, w, next})
			s.turns[t].weight += w
		}
		s.turns[t].faces = fs
		return t
	}
	add([7]int{}, 0)
	s.order = make([]int, len(s.turns))
	for t := range s.order {
		s.order[t] = t
	}
	slices.SortFunc(s.order, func(a, b int) int { return s.turns[b].total - s.turns[a].total })
	return s
}

// values is a value per state: v[(i*goal+j)*len(turns)+t]; a state
// whose score and turn reach the goal is never asked for.
type values []float64

func (s *solver) at(i, j, t int) int { return (i*s.goal+j)*len(s.turns) + t }

// chance is the value of the chance node after a roll at (i, j, t), its
// children's values read from v: a 1 hands the move over (negated), a
// face that reaches the goal wins.
func (s *solver) chance(v values, i, j, t int) float64 {
	ts := &s.turns[t]
	sum := 0.0
	for _, f := range ts.faces {
		var c float64
		switch {
		case f.n == 1:
			c = -v[s.at(j, i, 0)]
		case i+ts.total+f.n >= s.goal:
			c = 1
		default:
			c = v[s.at(i, j, f.next)]
		}
		sum += float64(f.w) * c
	}
	return sum / float64(ts.weight)
}

// hold is the value of holding at (i, j, t), read from v.
func (s *solver) hold(v values, i, j, t int) float64 {
	return -v[s.at(j, i+s.turns[t].total, 0)]
}

// exact returns the value of every state under optimal play, by value
// iteration to a fixed point: the scores' sum from the highest down, each
// sum's states swept (turn totals from the highest) until no value moves
// by more than 1e-15, since a state reads states of a higher sum, its own
// turn's later states, and the states of the same sum after a 1 or a hold
// with nothing.
func (s *solver) exact() values {
	g := s.goal
	v := make(values, g*g*len(s.turns))
	for sum := 2*g - 2; sum >= 0; sum-- {
		for moved := 1.0; moved > 1e-15; {
			moved = 0
			for i := max(0, sum-g+1); i <= min(sum, g-1); i++ {
				j := sum - i
				for _, t := range s.order {
					if i+s.turns[t].total >= g {
						continue
					}
					x := max(s.chance(v, i, j, t), s.hold(v, i, j, t))
					moved = max(moved, math.Abs(x-v[s.at(i, j, t)]))
					v[s.at(i, j, t)] = x
				}
			}
		}
	}
	return v
}

// limited returns the depth-limited values of every decision, depth 0 to
// depth, with eval the value of depth 0: a decision of depth d is the
// better of its roll's chance node at depth d-1 (whose events' decisions
// are at d-1 too: depth counts decisions) and its hold's decision at d-1.
func (s *solver) limited(depth int, eval func(i, j, total int) float64) []values {
	g := s.goal
	layers := make([]values, depth+1)
	for d := range layers {
		v := make(values, g*g*len(s.turns))
		for i := range g {
			for j := range g {
				for _, t := range s.order {
					if i+s.turns[t].total >= g {
						continue
					}
					if d == 0 {
						v[s.at(i, j, t)] = eval(i, j, s.turns[t].total)
						continue
					}
					// The chance node of depth d-1 reads its decisions
					// of depth d-1: the layer below, complete.
					v[s.at(i, j, t)] = max(s.chance(layers[d-1], i, j, t), s.hold(layers[d-1], i, j, t))
				}
			}
		}
		layers[d] = v
	}
	return layers
}

// state returns the solver's state of b, read from its notation: the
// mover's score, the opponent's, and the turn state.
func (s *solver) state(b *Board) (i, j, t int) {
	f := strings.Fields(b.String())
	score := func(c int) int { n, _ := strconv.Atoi(f[1+c]); return n }
	side := b.SideToMove()
	var drawn [7]int
	if s.bag {
		for _, r := range strings.TrimPrefix(f[3], "-") {
			drawn[r-'0']++
		}
	} else {
		drawn[0], _ = strconv.Atoi(f[3])
	}
	return score(side), score(1 - side), s.index[drawn]
}

// value is the value of b in layer v: at a chance node the roll's value.
func (s *solver) value(v values, b *Board) float64 {
	i, j, t := s.state(b)
	if b.Rolling() {
		return s.chance(v, i, j, t)
	}
	return v[s.at(i, j, t)]
}
