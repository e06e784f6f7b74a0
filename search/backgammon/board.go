package backgammon

import (
	"fmt"
	"math/rand/v2"
)

// Variant is the scoring of a game: OnePoint (a win is 1) or Money
// (cubeless money play: a single game, a gammon and a backgammon are 1, 2
// and 3 points, divided by 3 so that every value lies in [-1, 1]).
type Variant int8

const (
	OnePoint Variant = 1 // "1pt": the value is 2·P(win) - 1
	Money    Variant = 2 // "money": points per game over 3
)

// String returns the variant's name: "1pt" or "money".
func (v Variant) String() string {
	switch v {
	case OnePoint:
		return "1pt"
	case Money:
		return "money"
	}
	return fmt.Sprintf("variant(%d)", int8(v))
}

// ParseVariant reads "1pt" or "money".
func ParseVariant(s string) (Variant, error) {
	switch s {
	case "1pt":
		return OnePoint, nil
	case "money":
		return Money, nil
	}
	return 0, fmt.Errorf("backgammon variant %q is unknown; the variants are 1pt (a single game, win or lose) and money (cubeless money play: gammons 2, backgammons 3, over 3)", s)
}

// isMoney reports whether variant is money play, the variant played for
// points (search.Description.ForPoints).
func isMoney(variant string) bool { v, err := ParseVariant(variant); return err == nil && v == Money }

// valueScale is the points a value stands for (search.Description's
// ValueScale): 3 in money play, where a single game's win is 1/3; 1 in a
// one-point game.
func valueScale(variant string) float64 {
	if isMoney(variant) {
		return 3
	}
	return 1
}

// The rolls, each an event of a chance node, in a fixed order (the second
// die, then the first): 11 21 31 41 51 61 22 32 ... 66. A double has
// weight 1 and any other roll 2, out of 36.
const Rolls = 21

var (
	rollDice [Rolls][2]int8 // the roll's dice, the larger first
	rollOf   [7][7]int8     // the roll of two dice in either order
)

func init() {
	i := 0
	for lo := int8(1); lo <= 6; lo++ {
		for hi := lo; hi <= 6; hi++ {
			rollDice[i] = [2]int8{hi, lo}
			rollOf[hi][lo], rollOf[lo][hi] = int8(i), int8(i)
			i++
		}
	}
}

// RollDice returns the dice of roll r (0 to 20), the larger first.
func RollDice(r int) (hi, lo int) { return int(rollDice[r][0]), int(rollDice[r][1]) }

// RollOf returns the roll of dice a and b (1 to 6, either order).
func RollOf(a, b int) int { return int(rollOf[a][b]) }

// RollWeight returns roll r's weight out of 36: 1 for a double, else 2.
func RollWeight(r int) int {
	if rollDice[r][0] == rollDice[r][1] {
		return 1
	}
	return 2
}

// Zobrist keys: one per side, point (1 to 25) and count (1 to 15; count 0
// is the zero key, so a point's key is toggled out and in as its count
// changes), one for the side to move and one per roll. Borne-off checkers
// need no key: they are what the others leave.
var (
	zPoint [2][26][Checkers + 1]uint64
	zSide  uint64
	zRoll  [Rolls]uint64
)

func init() {
	rng := rand.New(rand.NewPCG(0x6261636b67616d6d, 0x6f6e2d7a6f627269)) // "backgammon-zobri"
	for s := range zPoint {
		for p := 1; p <= Bar; p++ {
			for c := 1; c <= Checkers; c++ {
				zPoint[s][p][c] = rng.Uint64()
			}
		}
	}
	zSide = rng.Uint64()
	for r := range zRoll {
		zRoll[r] = rng.Uint64()
	}
}

// Board is a backgammon position, searched in place: both sides' checkers,
// the side to move, the roll (none before it: a chance node) and the
// variant. Side 0 is O, who moves first; side 1 is X. A Board holds no
// pointers, so copying it copies the position.
type Board struct {
	pts     [2]Points
	stm     int8
	d1, d2  int8 // the roll, d1 >= d2; 0 before the roll
	variant Variant
	key     uint64
}

// NewBoard returns the position with mover's and opp's checkers, mover to
// move (side 0 or 1), the roll d1, d2 (0, 0 before it), after checking it:
// fifteen checkers a side, no point held by both, dice from 1 to 6, and
// not both sides borne off.
func NewBoard(v Variant, mover int, me, opp Points, d1, d2 int) (*Board, error) {
	if v != OnePoint && v != Money {
		return nil, fmt.Errorf("backgammon variant %d is unknown", v)
	}
	if mover != 0 && mover != 1 {
		return nil, fmt.Errorf("side %d: want 0 (O) or 1 (X)", mover)
	}
	if err := checkSides(&me, &opp); err != nil {
		return nil, err
	}
	if (d1 == 0) != (d2 == 0) || d1 < 0 || d1 > 6 || d2 < 0 || d2 > 6 {
		return nil, fmt.Errorf("dice %d%d: want two dice from 1 to 6, or none before the roll", d1, d2)
	}
	if d1 < d2 {
		d1, d2 = d2, d1
	}
	b := &Board{variant: v, stm: int8(mover), d1: int8(d1), d2: int8(d2)}
	b.pts[mover], b.pts[1-mover] = me, opp
	if b.pts[0][Off] == Checkers && b.pts[1][Off] == Checkers {
		return nil, fmt.Errorf("both sides have borne off all fifteen checkers")
	}
	if b.Over() && d1 != 0 {
		return nil, fmt.Errorf("the game is over (a side has borne off all fifteen checkers): no roll to play")
	}
	b.key = b.computeKey()
	return b, nil
}

// checkSides reports the first problem of a pair of sides: a count out of
// range, a side without fifteen checkers, or a point held by both.
func checkSides(me, opp *Points) error {
	for s, side := range [2]*Points{me, opp} {
		who := [2]string{"the side on roll", "the side not on roll"}[s]
		total := 0
		for p, c := range side {
			if c < 0 {
				return fmt.Errorf("%s has %d checkers on point %d", who, c, p)
			}
			total += int(c)
		}
		if total != Checkers {
			return fmt.Errorf("%s has %d checkers, not %d", who, total, Checkers)
		}
	}
	for p := 1; p <= 24; p++ {
		if me[p] > 0 && opp[25-p] > 0 {
			return fmt.Errorf("point %d of the side on roll is held by both sides (%d and %d checkers)", p, me[p], opp[25-p])
		}
	}
	return nil
}

// Start returns the standard starting position of variant v, O to roll.
func StartBoard(v Variant) *Board {
	b, err := NewBoard(v, 0, Start, Start, 0, 0)
	if err != nil {
		panic(err)
	}
	return b
}

func (b *Board) computeKey() uint64 {
	var k uint64
	for s := range b.pts {
		for p := 1; p <= Bar; p++ {
			k ^= zPoint[s][p][b.pts[s][p]]
		}
	}
	if b.stm == 1 {
		k ^= zSide
	}
	if b.d1 != 0 {
		k ^= zRoll[rollOf[b.d1][b.d2]]
	}
	return k
}

// Variant returns the board's scoring.
func (b *Board) Variant() Variant { return b.variant }

// SideToMove returns the side to move (at a chance node, the side that
// rolls): 0 for O, 1 for X.
func (b *Board) SideToMove() int { return int(b.stm) }

// Dice returns the roll, the larger die first; 0, 0 before the roll.
func (b *Board) Dice() (d1, d2 int) { return int(b.d1), int(b.d2) }

// Rolled reports whether the side to move has rolled (a decision) rather
// than being about to (a chance node).
func (b *Board) Rolled() bool { return b.d1 != 0 }

// Side returns side s's checkers from its own view.
func (b *Board) Side(s int) *Points { return &b.pts[s] }

// Key returns the position's Zobrist key.
func (b *Board) Key() uint64 { return b.key }

// Over reports whether a side has borne off all its checkers.
func (b *Board) Over() bool { return b.pts[0][Off] == Checkers || b.pts[1][Off] == Checkers }

// Opening reports whether the board is the first roll of a game: the
// start position, O to roll (O moves first; the start with X to roll,
// which a pasted position can give, is an ordinary roll). Its roll is never a double (each player rolls
// one die and the higher moves first with both), so its chance node has
// the 15 other rolls, each of weight 2 out of 30.
func (b *Board) Opening() bool {
	return b.d1 == 0 && b.stm == 0 && b.pts[0] == Start && b.pts[1] == Start
}

// points returns the points a side that lost with loser's checkers loses:
// 1, or in money play 2 for a gammon (none borne off) and 3 for a
// backgammon (none borne off and a checker on the bar or in the winner's
// home board, the loser's points 19 to 24).
func (v Variant) points(loser *Points) int {
	if v != Money || loser[Off] > 0 {
		return 1
	}
	for p := 19; p <= Bar; p++ {
		if loser[p] > 0 {
			return 3
		}
	}
	return 2
}

// Winning returns the points won by the side that has borne off all its
// checkers, 0 if the game is not over: 1, or 2 and 3 for a gammon and a
// backgammon in money play.
func (b *Board) Winning() (winner, points int) {
	for s := range b.pts {
		if b.pts[s][Off] == Checkers {
			return s, b.variant.points(&b.pts[1-s])
		}
	}
	return 0, 0
}

// Result returns the value of a finished game from the side to move's
// view: 1 or -1 in a one-point game, the points over 3 in money play.
func (b *Board) Result() float64 {
	w, pts := b.Winning()
	v := 1.0
	if b.variant == Money {
		v = float64(pts) / 3
	}
	if w != int(b.stm) {
		v = -v
	}
	return v
}

// Pips returns side s's pip count: the pips its checkers must travel to
// bear off, 25 for a checker on the bar.
func (b *Board) Pips(s int) int {
	n := 0
	for p := 1; p <= Bar; p++ {
		n += p * int(b.pts[s][p])
	}
	return n
}

// Roll sets the roll of a chance node (d1, d2 from 1 to 6, either order).
func (b *Board) Roll(d1, d2 int) {
	if d1 < d2 {
		d1, d2 = d2, d1
	}
	b.d1, b.d2 = int8(d1), int8(d2)
	b.key ^= zRoll[rollOf[d1][d2]]
}

// ClearRoll takes the roll back: the board is the chance node before it.
func (b *Board) ClearRoll() {
	if b.d1 != 0 {
		b.key ^= zRoll[rollOf[b.d1][b.d2]]
	}
	b.d1, b.d2 = 0, 0
}

// KeyAfterRoll returns the key after roll r, without making it.
func (b *Board) KeyAfterRoll(r int) uint64 { return b.key ^ zRoll[r] }

// Events writes the rolls of a chance node and their weights; total is 36,
// or 30 at the opening.
func (b *Board) Events(ev *[Rolls]int8, w *[Rolls]float64) (n, total int) {
	if b.Opening() {
		for r := 0; r < Rolls; r++ {
			if rollDice[r][0] != rollDice[r][1] {
				ev[n], w[n] = int8(r), 2
				n++
			}
		}
		return n, 30
	}
	for r := 0; r < Rolls; r++ {
		ev[r], w[r] = int8(r), float64(RollWeight(r))
	}
	return Rolls, 36
}

// Points implements game.Pointer: in money play the winner's points of a
// finished game (1, 2 or 3), else 0.
func (b *Board) Points() int {
	if b.variant != Money {
		return 0
	}
	_, pts := b.Winning()
	return pts
}
