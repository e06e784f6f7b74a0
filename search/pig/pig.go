// Package pig is the dice game Pig (Neller and Presser 2004, "Optimal play
// of the dice game Pig", The UMAP Journal 25(1)), a game in which a side
// decides again and again and chance decides who moves next: what the
// fixed signs of the game contract cannot say and values that follow the
// mover can (package search/game).
//
// Two sides race to a goal (100 in the classic game). On its turn a side
// rolls a die as often as it likes: a roll of 2 to 6 adds to its turn
// total and it decides again, roll or hold; a roll of 1 loses the turn
// total and the turn passes. Holding banks the turn total and passes the
// turn. A side whose banked score and turn total reach the goal has won at
// once. Holding with a turn total of 0 is allowed, as in Neller and
// Presser's equations; it never helps.
//
// The bag variant draws tiles from a bag of two of each face, 1 to 6,
// instead of rolling, without putting them back until the turn ends: the
// chance weights depend on the state (a face drawn twice this turn has
// weight 0 and is not an event). A 1 ends the turn as the die's does.
//
// Roll (move 0) leads to a chance node whose Mover is the roller; a roll
// of 2 to 6 leads to the roller's decision, a roll of 1 to the opponent's,
// whose value is negated on the way up. Hold (move 1) leads to the
// opponent's decision. A search's depth counts decisions only. Positions
// recur at other depths (hold with nothing, or two turns that bank the
// same), so the table can answer a search from another depth.
//
// Variants: the goal, "100" (the classic, the default), "12" and so on
// from MinGoal to MaxGoal, and "bagG" for the bag to goal G.
//
// Notation: "V a b t S": the variant, the banked scores of side 0 and side
// 1, the turn (the turn total of the die; with the bag, the faces drawn
// this turn in order, as "2 3 3" written "233", or "-" for none) and S
// the state: "0" or "1" for the side to decide, "r0" or "r1" for the
// chance node after a roll by side 0 or 1. The start of the classic game
// is "100 0 0 0 0".
package pig

import (
	"fmt"
	"strconv"
	"strings"
)

// Moves.
const (
	Roll = 0
	Hold = 1
)

// MinGoal and MaxGoal bound the goal.
const (
	MinGoal = 2
	MaxGoal = 100
)

// Faces is the number of a die's faces, and BagCopies how many tiles of
// each face the bag holds.
const (
	Faces     = 6
	BagCopies = 2
)

// Board is a Pig position.
type Board struct {
	goal    int16
	score   [2]int16
	turn    int16    // the turn total
	drawn   [7]uint8 // the bag's tiles of each face drawn this turn (drawn[f] for face f)
	stm     int8     // the side to decide; at a chance node the roller
	rolling bool     // a roll was chosen: the position is a chance node
	bag     bool     // the bag variant
}

// New returns the start of the game to goal, with the bag or the die.
func New(goal int, bag bool) (*Board, error) {
	if goal < MinGoal || goal > MaxGoal {
		return nil, fmt.Errorf("goal %d out of range [%d, %d]", goal, MinGoal, MaxGoal)
	}
	return &Board{goal: int16(goal), bag: bag}, nil
}

// Goal returns the goal.
func (b *Board) Goal() int { return int(b.goal) }

// Bag reports whether the position is of the bag variant.
func (b *Board) Bag() bool { return b.bag }

// Score returns side c's banked score.
func (b *Board) Score(c int) int { return int(b.score[c]) }

// TurnTotal returns the turn total of the side to decide (or the roller).
func (b *Board) TurnTotal() int { return int(b.turn) }

// SideToMove returns the side to decide, or at a chance node the roller.
func (b *Board) SideToMove() int { return int(b.stm) }

// Rolling reports whether the position is a chance node.
func (b *Board) Rolling() bool { return b.rolling }

// Over reports whether a side has reached the goal.
func (b *Board) Over() bool { return b.score[0] >= b.goal || b.score[1] >= b.goal }

// Result returns the value of a finished game for the side to move: the
// side that reached the goal did so by its own roll, and keeps the move.
func (b *Board) Result() float64 {
	if b.score[b.stm] >= b.goal {
		return 1
	}
	return -1
}

// Variant returns the variant's name: the goal, prefixed "bag" for the bag.
func (b *Board) Variant() string {
	if b.bag {
		return "bag" + strconv.Itoa(int(b.goal))
	}
	return strconv.Itoa(int(b.goal))
}

// Key returns the position's hash.
func (b *Board) Key() uint64 {
	x := uint64(b.goal) | uint64(b.score[0])<<7 | uint64(b.score[1])<<14 | uint64(b.turn)<<21 | uint64(b.stm)<<28
	if b.rolling {
		x |= 1 << 29
	}
	if b.bag {
		x |= 1 << 30
		for f := 2; f <= Faces; f++ {
			x |= uint64(b.drawn[f]) << (31 + 2*f)
		}
	}
	// splitmix64's finaliser: every input bit moves every output bit.
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// Moves writes the moves of a decision (roll, hold) into dst.
func (b *Board) Moves(dst *[2]int8) int {
	dst[0], dst[1] = Roll, Hold
	return 2
}

// Undo is what a move or an event changes.
type Undo struct {
	score [2]int16
	turn  int16
	drawn [7]uint8
	stm   int8
}

func (b *Board) save(u *Undo) {
	u.score, u.turn, u.drawn, u.stm = b.score, b.turn, b.drawn, b.stm
}

func (b *Board) restore(u *Undo) {
	b.score, b.turn, b.drawn, b.stm = u.score, u.turn, u.drawn, u.stm
}

// endTurn passes the turn: the turn total and the bag start afresh.
func (b *Board) endTurn() {
	b.turn = 0
	b.drawn = [7]uint8{}
	b.stm = 1 - b.stm
}

// MakeSaving plays move m of a decision, saving what it changes into u.
func (b *Board) MakeSaving(m int, u *Undo) {
	b.save(u)
	if m == Roll {
		b.rolling = true
		return
	}
	b.score[b.stm] += b.turn
	b.endTurn()
}

// UnmakeRestoring takes back move m made by MakeSaving(m, u).
func (b *Board) UnmakeRestoring(m int, u *Undo) {
	b.restore(u)
	b.rolling = false
}

// KeyAfter returns the key after move m, without playing it.
func (b *Board) KeyAfter(m int) uint64 {
	c := *b
	var u Undo
	c.MakeSaving(m, &u)
	return c.Key()
}

// Events writes the events of a chance node, a face's number less 1, and
// their weights, and returns their count and total weight: every face
// weighs 1 with the die; with the bag a face weighs the tiles of it left.
func (b *Board) Events(ev *[Faces]int8, w *[Faces]float64) (n, total int) {
	for f := 1; f <= Faces; f++ {
		wf := 1
		if b.bag {
			wf = BagCopies - int(b.drawn[f])
		}
		if wf > 0 {
			ev[n], w[n] = int8(f-1), float64(wf)
			n++
			total += wf
		}
	}
	return n, total
}

// HappenSaving makes event ev (face ev+1) of a chance node happen,
// saving what it changes into u.
func (b *Board) HappenSaving(ev int, u *Undo) {
	b.save(u)
	b.rolling = false
	face := int16(ev + 1)
	if face == 1 {
		b.endTurn()
		return
	}
	b.turn += face
	if b.bag {
		b.drawn[face]++
	}
	if b.score[b.stm]+b.turn >= b.goal {
		b.score[b.stm] += b.turn // the goal reached: the roller has won
		b.turn, b.drawn = 0, [7]uint8{}
	}
}

// UnhappenRestoring takes back HappenSaving(ev, u).
func (b *Board) UnhappenRestoring(ev int, u *Undo) {
	b.restore(u)
	b.rolling = true
}

// KeyAfterEvent returns the key after event ev, without it happening.
func (b *Board) KeyAfterEvent(ev int) uint64 {
	c := *b
	var u Undo
	c.HappenSaving(ev, &u)
	return c.Key()
}

// Evaluate is Pig's hand evaluator, the lead: the mover's banked score and
// turn total less the opponent's score, over twice the goal, strictly
// inside (-1, 1).
func (b *Board) Evaluate() float64 {
	return float64(b.score[b.stm]+b.turn-b.score[1-b.stm]) / float64(2*b.goal)
}

// String returns the position's notation.
func (b *Board) String() string {
	s := strconv.Itoa(int(b.stm))
	if b.rolling {
		s = "r" + s
	}
	return fmt.Sprintf("%s %d %d %s %s", b.Variant(), b.score[0], b.score[1], b.turnText(), s)
}

// turnText is the turn field of the notation.
func (b *Board) turnText() string {
	if !b.bag {
		return strconv.Itoa(int(b.turn))
	}
	var t []byte
	for f := 2; f <= Faces; f++ {
		for range b.drawn[f] {
			t = append(t, byte('0'+f))
		}
	}
	if len(t) == 0 {
		return "-"
	}
	return string(t)
}

// ParseVariant reads a variant: the goal, "bag" before it for the bag.
func ParseVariant(variant string) (goal int, bag bool, err error) {
	g, bag := strings.CutPrefix(variant, "bag")
	goal, err = strconv.Atoi(g)
	if err != nil || goal < MinGoal || goal > MaxGoal {
		return 0, false, fmt.Errorf("pig variant %q: want a goal from %d to %d, \"bag\" before it for the bag (\"100\", \"bag40\")", variant, MinGoal, MaxGoal)
	}
	return goal, bag, nil
}

// Parse reads a position's notation, or says in one line what is wrong.
func Parse(text string) (*Board, error) {
	f := strings.Fields(text)
	if len(f) != 5 {
		return nil, fmt.Errorf("pig position %q: want 5 fields \"V a b t S\", got %d", text, len(f))
	}
	goal, bag, err := ParseVariant(f[0])
	if err != nil {
		return nil, fmt.Errorf("pig position %q: %v", text, err)
	}
	b, _ := New(goal, bag)
	for c := range 2 {
		v, err := strconv.Atoi(f[c+1])
		if err != nil || v < 0 || v > goal+Faces {
			return nil, fmt.Errorf("pig position %q: score %q, want a number from 0 to %d", text, f[c+1], goal+Faces)
		}
		b.score[c] = int16(v)
	}
	if bag {
		if f[3] != "-" {
			for _, r := range f[3] {
				face := int(r - '0')
				if face < 2 || face > Faces || b.drawn[face] == BagCopies {
					return nil, fmt.Errorf("pig position %q: bag draws %q: want faces 2 to %d, at most %d of each, or \"-\"", text, f[3], Faces, BagCopies)
				}
				b.drawn[face]++
				b.turn += int16(face)
			}
		}
	} else {
		v, err := strconv.Atoi(f[3])
		if err != nil || v < 0 || v == 1 || v >= goal {
			return nil, fmt.Errorf("pig position %q: turn total %q, want 0 or 2 to %d", text, f[3], goal-1)
		}
		b.turn = int16(v)
	}
	st, rolling := strings.CutPrefix(f[4], "r")
	if st != "0" && st != "1" {
		return nil, fmt.Errorf("pig position %q: state %q, want 0, 1, r0 or r1", text, f[4])
	}
	b.stm, b.rolling = int8(st[0]-'0'), rolling
	switch {
	case b.score[0] >= b.goal && b.score[1] >= b.goal:
		return nil, fmt.Errorf("pig position %q: both sides at the goal", text)
	case b.Over() && (b.rolling || b.turn != 0):
		return nil, fmt.Errorf("pig position %q: the game is over, yet a turn is under way", text)
	case b.Over() && b.score[b.stm] < b.goal:
		return nil, fmt.Errorf("pig position %q: the game is over and side %d, which reached the goal by its roll, is not to move", text, 1-b.stm)
	case !b.Over() && b.score[b.stm]+b.turn >= b.goal:
		return nil, fmt.Errorf("pig position %q: score and turn total reach the goal, which ends the game", text)
	}
	return b, nil
}
