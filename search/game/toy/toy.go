// Package toy is a small game of weighted, optional chance, for checking
// the engine source and the stages against an exact solver: what Dice
// cannot check, since its rolls are compulsory and equally likely and
// its positions never recur at another depth.
//
// Two sides race their counters from 0 to a target T (3 <= T <= 15). A
// turn is one of: step (move 0, the counter goes up 1), jump (move 1, up
// 2), or roll (move 2): a chance node whose events move the roller's
// counter by -1 (event 0, weight 1), +1 (event 1, weight 2) or +3 (event
// 2, weight 3), out of a total of 6, clamped to [0, T]. The turn then
// passes. A side whose counter reaches T has won at once. A roll is a move
// whose child is a chance node, and the side that moves after its event
// is the roller's opponent, as in ChanceBreakthrough; a search's depth
// counts decisions only. Positions recur at other depths (two steps and a
// jump reach the same counter), so the table can answer a search from
// another depth.
//
// Notation: "T a b S", the target, the counters of side 0 and side 1, and
// S the state: "0" or "1" for the side to move, "r0" or "r1" for a chance
// node after a roll by side 1 or 0 (the digit is the side that moves
// after the event). The start of target 6 is "6 0 0 0".
package toy

import (
	"fmt"
	"strconv"
	"strings"
)

// Moves and events.
const (
	Step = 0
	Jump = 1
	Roll = 2
)

// MinTarget and MaxTarget bound the target.
const (
	MinTarget = 3
	MaxTarget = 15
)

// deltas and weights are the roll's events.
var (
	deltas  = [3]int8{-1, 1, 3}
	weights = [3]int{1, 2, 3}
)

// TotalWeight is the sum of the roll's weights.
const TotalWeight = 6

// Board is a toy position.
type Board struct {
	target  int8
	pos     [2]int8
	stm     int8 // the side to move; at a chance node, the side that moves after the event
	pending bool // a roll was chosen: the position is a chance node
}

// New returns the start of a race to target.
func New(target int) (*Board, error) {
	if target < MinTarget || target > MaxTarget {
		return nil, fmt.Errorf("target %d out of range [%d, %d]", target, MinTarget, MaxTarget)
	}
	return &Board{target: int8(target)}, nil
}

// Target returns the target.
func (b *Board) Target() int { return int(b.target) }

// Pos returns side c's counter.
func (b *Board) Pos(c int) int { return int(b.pos[c]) }

// SideToMove returns the side to move (at a chance node, the side that
// moves after the event).
func (b *Board) SideToMove() int { return int(b.stm) }

// Pending reports whether the position is a chance node.
func (b *Board) Pending() bool { return b.pending }

// Over reports whether a side has reached the target.
func (b *Board) Over() bool { return b.pos[0] >= b.target || b.pos[1] >= b.target }

// Result returns the value of a finished game for the side to move: the
// side that reached the target moved last, so it is -1.
func (b *Board) Result() float64 {
	if b.pos[b.stm] >= b.target {
		return 1 // not reachable in play: a position given so
	}
	return -1
}

// Key returns the position's hash.
func (b *Board) Key() uint64 { return key(b.target, b.pos, b.stm, b.pending) }

func key(target int8, pos [2]int8, stm int8, pending bool) uint64 {
	x := uint64(target) | uint64(pos[0])<<8 | uint64(pos[1])<<16 | uint64(stm)<<24
	if pending {
		x |= 1 << 25
	}
	// splitmix64's finaliser: every input bit moves every output bit.
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// Moves writes the moves of a decision (step, jump, roll) into dst.
func (b *Board) Moves(dst *[3]int16) int {
	dst[0], dst[1], dst[2] = Step, Jump, Roll
	return 3
}

// Undo is what a move or an event changes: the mover's counter before it.
type Undo struct{ pos int8 }

// add moves side c's counter by d, clamped to [0, target].
func (b *Board) add(c int8, d int8) {
	b.pos[c] = min(max(b.pos[c]+d, 0), b.target)
}

// MakeSaving plays move m of a decision, saving what it changes into u.
func (b *Board) MakeSaving(m int, u *Undo) {
	u.pos = b.pos[b.stm]
	switch m {
	case Step:
		b.add(b.stm, 1)
	case Jump:
		b.add(b.stm, 2)
	default:
		b.pending = true
	}
	b.stm = 1 - b.stm
}

// UnmakeRestoring takes back move m made by MakeSaving(m, u).
func (b *Board) UnmakeRestoring(m int, u *Undo) {
	b.stm = 1 - b.stm
	b.pos[b.stm] = u.pos
	b.pending = false
}

// KeyAfter returns the key after move m, without playing it.
func (b *Board) KeyAfter(m int) uint64 {
	c := *b
	var u Undo
	c.MakeSaving(m, &u)
	return c.Key()
}

// Events writes the roll's events and weights and returns their count and
// total weight.
func (b *Board) Events(ev *[3]int8, w *[3]float64) (n, total int) {
	for i := range 3 {
		ev[i], w[i] = int8(i), float64(weights[i])
	}
	return 3, TotalWeight
}

// HappenSaving makes event ev of a chance node happen to the roller,
// saving its counter into u.
func (b *Board) HappenSaving(ev int, u *Undo) {
	roller := 1 - b.stm
	u.pos = b.pos[roller]
	b.add(roller, deltas[ev])
	b.pending = false
}

// UnhappenRestoring takes back HappenSaving(ev, u).
func (b *Board) UnhappenRestoring(ev int, u *Undo) {
	b.pos[1-b.stm] = u.pos
	b.pending = true
}

// KeyAfterEvent returns the key after event ev, without it happening.
func (b *Board) KeyAfterEvent(ev int) uint64 {
	c := *b
	var u Undo
	c.HappenSaving(ev, &u)
	return c.Key()
}

// Evaluate is the toy's hand evaluator: the counters' difference over the
// target, halved, from the side to move's view, strictly inside (-1, 1).
func (b *Board) Evaluate() float64 {
	return 0.5 * float64(b.pos[b.stm]-b.pos[1-b.stm]) / float64(b.target)
}

// String returns the position's notation.
func (b *Board) String() string {
	s := strconv.Itoa(int(b.stm))
	if b.pending {
		s = "r" + s
	}
	return fmt.Sprintf("%d %d %d %s", b.target, b.pos[0], b.pos[1], s)
}

// Parse reads a position's notation, or says in one line what is wrong.
func Parse(text string) (*Board, error) {
	f := strings.Fields(text)
	if len(f) != 4 {
		return nil, fmt.Errorf("toy position %q: want 4 fields \"T a b S\", got %d", text, len(f))
	}
	var n [3]int
	for i := range 3 {
		v, err := strconv.Atoi(f[i])
		if err != nil {
			return nil, fmt.Errorf("toy position %q: field %d, %q, is not a number", text, i+1, f[i])
		}
		n[i] = v
	}
	b, err := New(n[0])
	if err != nil {
		return nil, fmt.Errorf("toy position %q: %v", text, err)
	}
	for c := range 2 {
		if n[c+1] < 0 || n[c+1] > n[0] {
			return nil, fmt.Errorf("toy position %q: counter %d out of range [0, %d]", text, n[c+1], n[0])
		}
		b.pos[c] = int8(n[c+1])
	}
	if b.pos[0] >= b.target && b.pos[1] >= b.target {
		return nil, fmt.Errorf("toy position %q: both sides at the target", text)
	}
	st, pending := strings.CutPrefix(f[3], "r")
	if st != "0" && st != "1" {
		return nil, fmt.Errorf("toy position %q: state %q, want 0, 1, r0 or r1", text, f[3])
	}
	b.stm, b.pending = int8(st[0]-'0'), pending
	return b, nil
}
