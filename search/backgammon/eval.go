package backgammon

import "math"

// The hand evaluators, each from the side to move's view, inside (-1, 1):
// eval=race counts pips only; eval=contact, the default, is race when the
// sides have passed each other and adds contact terms while they have not.
// In money play both are divided by 3, a single game's share of the
// range (they do not estimate gammons).

// raceScale is the race's slope: a lead of 10% of the pips for the side on
// roll before its roll is worth about tanh(0.68), 0.59 (a win in about 80%
// of races, as the rule of thumb of the 8-9-12 counts has it), and an even
// race 0.2 (about 60% for the side on roll).
const raceScale = 0.7

// onRollPips is what being on roll is worth in pips (the mean roll is 8.17;
// the usual count gives the side on roll about 4).
const onRollPips = 4

// rollPips returns the pips of the side to move's roll, 0 before it.
func (b *Board) rollPips() int {
	if b.d1 == 0 {
		return 0
	}
	if b.d1 == b.d2 {
		return 4 * int(b.d1)
	}
	return int(b.d1 + b.d2)
}

// raceTerm is the race's lead for the side to move, before the tanh: the
// pips it is ahead by, with being on roll worth onRollPips (or, after the
// roll, the roll's pips counted as played and the opponent on roll), over
// the square root of the pips left, the spread of the race.
func (b *Board) raceTerm() float64 {
	me, them := b.Pips(int(b.stm)), b.Pips(int(1-b.stm))
	lead := float64(them - me + onRollPips)
	if r := b.rollPips(); r != 0 {
		me = max(me-r, 0)
		lead = float64(them-me) - onRollPips
	}
	return raceScale * lead / math.Sqrt(float64(me+them)+1)
}

func (b *Board) scale(v float64) float64 {
	if b.variant == Money {
		return v / 3
	}
	return v
}

// Race returns eval=race: tanh of the race term.
func (b *Board) Race() float64 { return b.scale(math.Tanh(b.raceTerm())) }

// Contact reports whether a checker of one side still has to pass one of
// the other's: the side's rearmost checker is behind the other's.
func (b *Board) Contact() bool {
	back0, back1 := b.rearmost(0), b.rearmost(1)
	// Side 0's point p is side 1's 25-p: contact while side 0's rearmost
	// checker is above side 1's rearmost seen from side 0.
	return back0 > 0 && back1 > 0 && back0+back1 > 25
}

// rearmost returns side s's highest occupied point (25 for the bar), 0
// when none is left on the board.
func (b *Board) rearmost(s int) int { return rear(&b.pts[s]) }

// Contact weights, in the units of the race term.
const (
	wPoint     = 0.06 // a made point in the home board or the bar point, by its value
	wPrime     = 0.12 // each point of a run of three or more made points, in front of the other's checkers
	wBlot      = 0.10 // a blot within direct reach of the other's checkers, for the side not on roll
	wShot      = 0.05 // the same for the side on roll (its blots are the other's targets after its move)
	wBack      = 0.04 // a checker in the other's home board
	wBar       = 0.25 // a checker on the bar, by the other's home points made
	wClosedBar = 0.05
)

// pointValue weights made points by where they stand: the 4, 5, 6 and bar
// points most.
var pointValue = [26]float64{0, 0.3, 0.5, 0.7, 1.0, 1.2, 1.2, 1.0, 0.5, 0.3}

// sideTerm is side s's contact terms, for good: its made points and
// primes, and against: its blots the other can hit directly and its
// checkers back and on the bar. onRoll is set for the side to move.
func (b *Board) sideTerm(s int, onRoll bool) float64 {
	me, op := &b.pts[s], &b.pts[1-s]
	v := 0.0
	run := 0
	// The other's rearmost checker, in s's points: a prime only holds what
	// is behind it.
	theirBack := Bar - b.rearmost(1-s)
	for p := 1; p <= 24; p++ {
		if me[p] >= 2 {
			v += wPoint * pointValue[p]
			run++
			if run >= 3 && p > theirBack {
				v += wPrime * float64(run-2)
			}
		} else {
			run = 0
		}
	}
	// Blots in direct reach (1 to 6 pips) of the other's checkers, which
	// move from s's low points up (their bar enters at s's 1 to 6 points
	// seen from them... at s's point 0 seen from s).
	w := wBlot
	if onRoll {
		w = wShot
	}
	for p := 1; p <= 24; p++ {
		if me[p] != 1 {
			continue
		}
		shooters := 0
		for d := 1; d <= 6 && p-d >= 0; d++ {
			q := p - d // s's point q is the other's 25-q; q = 0 is their bar
			if q == 0 {
				shooters += int(op[Bar])
			} else {
				shooters += int(op[Bar-q])
			}
		}
		if shooters > 0 {
			v -= w * (1 + 0.2*float64(p)/6) * math.Min(float64(shooters), 3) / 3 * 2
		}
	}
	for p := 19; p <= 24; p++ {
		v -= wBack * float64(me[p])
	}
	if me[Bar] > 0 {
		closed := 0
		for p := 19; p <= 24; p++ {
			if op[Bar-p] >= 2 {
				closed++
			}
		}
		v -= float64(me[Bar]) * (wBar + wClosedBar*float64(closed*closed))
	}
	return v
}

// ContactEval returns eval=contact: the race term plus, while the sides
// are in contact, each side's contact terms, the side to move's less the
// other's.
func (b *Board) ContactEval() float64 {
	t := b.raceTerm()
	if b.Contact() {
		s := int(b.stm)
		t += b.sideTerm(s, true) - b.sideTerm(1-s, false)
	}
	return b.scale(math.Tanh(t))
}

// The hand evaluators by number, as the engine calls them (HandOf).
const (
	HandContact = 0
	HandRace    = 1
)

// HandNames are the hand evaluators' eval= names, by number.
var HandNames = [2]string{"contact", "race"}

// HandOf returns the number of the hand evaluator named name (contact for
// any other).
func HandOf(name string) int8 {
	if name == HandNames[HandRace] {
		return HandRace
	}
	return HandContact
}

// Hand returns hand evaluator h's value of b, from the side to move's
// view; a finished game's value is its result.
func (b *Board) Hand(h int8) float64 {
	if b.Over() {
		return b.Result()
	}
	if h == HandRace {
		return b.Race()
	}
	return b.ContactEval()
}
