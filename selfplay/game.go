package selfplay

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"starlab/search"
	"starlab/search/dice"
)

// Player chooses the move of the side to move in a rolled position.
type Player interface {
	// Name identifies the player in records and tables.
	Name() string
	// Choose returns the move for b, which is rolled and not over. It must
	// not change b.
	Choose(b *dice.Board) Choice
}

// Choice is a player's move with what its search learned, for the records.
type Choice struct {
	Cell  int     // the cell played
	Score float64 // the player's value of the position for the side to move (0 if none)
	Depth int     // the depth of the last completed search (0 if none)
	Nodes int64   // nodes searched for this move
}

// DiceStream is the source of a game's rolls. Each colour has its own seeded
// stream of uniform numbers, one per turn, so two games with the same seed
// give both colours the same luck turn by turn even when the positions (and
// so the number of non-full lines) differ: this is what makes a pair of games
// with the colours swapped a duplicate-dice pair.
type DiceStream struct {
	rng [2]*rand.Rand
}

// NewDiceStream returns the dice of a game from its seed.
func NewDiceStream(seed uint64) *DiceStream {
	return &DiceStream{rng: [2]*rand.Rand{
		rand.New(rand.NewPCG(seed, 0xb1)),
		rand.New(rand.NewPCG(seed, 0x2ed)),
	}}
}

// Roll returns the line rolled for the side to move of b: the u-th of its
// non-full lines, u drawn uniformly from the mover's own stream.
func (d *DiceStream) Roll(b *dice.Board) int {
	var lines [dice.MaxN]int8
	k := b.Rolls(&lines)
	return int(lines[d.rng[b.SideToMove()].IntN(k)])
}

// Game is the record of one finished game.
type Game struct {
	Start  string           // the start position in DPN
	Rolls  []int            // the line rolled before each move
	Moves  []string         // the moves in notation
	Result int              // +1 blue won, 0 drawn, -1 red won
	Plies  int              // number of moves played
	Nodes  [2]int64         // nodes searched by blue and by red
	Depth  [2]int           // sum of completed depths by blue and by red
	Turns  [2]int           // moves made by blue and by red
	Time   [2]time.Duration // thinking time of blue and of red
	// Luck is the sum, from blue's view, of the luck of every roll as a
	// reference search values it (see Luck); 0 without a reference.
	Luck float64
}

// Replay plays the game's record again from its start. Before each move i
// it calls visit, if not nil, with the position after the roll; replay stops
// there, returning that position, when visit returns false. Otherwise it
// returns the final position. An error means the record is not a game.
func (g Game) Replay(visit func(i int, b *dice.Board) bool) (dice.Board, error) {
	start, err := dice.ParseDPN(g.Start)
	if err != nil {
		return dice.Board{}, err
	}
	b := *start
	if len(g.Rolls) != len(g.Moves) {
		return b, fmt.Errorf("game record has %d rolls for %d moves", len(g.Rolls), len(g.Moves))
	}
	for i, mv := range g.Moves {
		if r := g.Rolls[i]; b.Over() || r < 0 || r >= b.N() || b.LineEmpty(r) == 0 {
			return b, fmt.Errorf("move %d: roll %d is impossible in %q", i+1, r, b.DPN())
		}
		b.SetRoll(g.Rolls[i])
		if visit != nil && !visit(i, &b) {
			return b, nil
		}
		cell, err := dice.ParseMove(mv, b.N())
		if err != nil || !b.IsLegal(cell) {
			return b, fmt.Errorf("move %d: %q is not legal in %q", i+1, mv, b.DPN())
		}
		b.Make(cell)
	}
	return b, nil
}

// Luck values rolls with a fixed reference search: the luck of a roll is the
// value of the rolled position for the mover minus the mean of that value
// over all the rolls that could have come. Its expectation over the dice is
// zero whatever the reference, so subtracting the luck of a game's rolls
// from its result leaves an unbiased estimate of the result with less
// variance the better the reference (gnubg's luck-adjusted results; Zinkevich
// et al. 2017, AIVAT). The reference must be fixed before the games, and not
// be one of the players under test.
type Luck struct {
	engine *search.Engine
	limits search.Limits
}

// NewLuck returns a luck reference that values rolled positions with a
// search of engine under limits, which must be depth or node limits so that
// the values are a function of the position.
func NewLuck(engine *search.Engine, limits search.Limits) *Luck {
	return &Luck{engine: engine, limits: limits}
}

// rollLuck returns the luck, for the side to move of the pre-roll position
// b, of rolling line actual.
func (l *Luck) rollLuck(b *dice.Board, actual int) float64 {
	var lines [dice.MaxN]int8
	k := b.Rolls(&lines)
	w := *b
	sum, got := 0.0, 0.0
	for i := 0; i < k; i++ {
		w.SetRoll(int(lines[i]))
		v := l.engine.Search(context.Background(), &w, l.limits, nil).Last().Score
		w.ClearRoll()
		sum += v
		if int(lines[i]) == actual {
			got = v
		}
	}
	return got - sum/float64(k)
}

// Play plays a game from start between players[Blue] and players[Red] with
// the dice of seed, and values its rolls with luck if it is not nil. start
// must be a pre-roll position.
func Play(start *dice.Board, players [2]Player, seed uint64, luck *Luck) (Game, error) {
	if start.Roll() != dice.NoRoll {
		return Game{}, fmt.Errorf("start position %q is rolled; a game starts before the roll", start.DPN())
	}
	if luck != nil {
		luck.engine.ClearTT()
	}
	b := *start
	g := Game{Start: start.DPN()}
	ds := NewDiceStream(seed)
	for !b.Over() {
		stm := b.SideToMove()
		roll := ds.Roll(&b)
		if luck != nil {
			l := luck.rollLuck(&b, roll)
			if stm == dice.Red {
				l = -l
			}
			g.Luck += l
		}
		b.SetRoll(roll)
		t0 := time.Now()
		ch := players[stm].Choose(&b)
		g.Time[stm] += time.Since(t0)
		if !b.IsLegal(ch.Cell) {
			return g, fmt.Errorf("player %s chose illegal move %d in %q", players[stm].Name(), ch.Cell, b.DPN())
		}
		g.Rolls = append(g.Rolls, roll)
		g.Moves = append(g.Moves, dice.FormatMove(ch.Cell, b.N()))
		g.Nodes[stm] += ch.Nodes
		g.Depth[stm] += ch.Depth
		g.Turns[stm]++
		b.Make(ch.Cell)
	}
	g.Plies = len(g.Moves)
	if w, ok := b.Winner(); ok {
		g.Result = 1
		if w == dice.Red {
			g.Result = -1
		}
	}
	return g, nil
}

// Random plays a uniformly random legal move.
type Random struct{ rng *rand.Rand }

// NewRandom returns a random player drawing from seed.
func NewRandom(seed uint64) *Random { return &Random{rand.New(rand.NewPCG(seed, 0x7a9d))} }

// Name returns "random".
func (*Random) Name() string { return "random" }

// Choose returns a uniformly random empty cell of the rolled line.
func (p *Random) Choose(b *dice.Board) Choice {
	var moves [dice.MaxN]int16
	k := b.Moves(&moves)
	return Choice{Cell: int(moves[p.rng.IntN(k)])}
}

// Greedy wins at once if it can, otherwise plays the move that most raises
// its pair count minus the opponent's (Hauk's pair heuristic), ties broken
// at random.
type Greedy struct{ rng *rand.Rand }

// NewGreedy returns a greedy player breaking ties from seed.
func NewGreedy(seed uint64) *Greedy { return &Greedy{rand.New(rand.NewPCG(seed, 0x69ee))} }

// Name returns "greedy".
func (*Greedy) Name() string { return "greedy" }

// Choose returns the greedy move.
func (p *Greedy) Choose(b *dice.Board) Choice {
	var moves [dice.MaxN]int16
	k := b.Moves(&moves)
	me := b.SideToMove()
	w := *b
	best, bestScore, ties := 0, -1<<30, 0
	for i := 0; i < k; i++ {
		cell := int(moves[i])
		w.Make(cell)
		s := w.Pairs(me) - w.Pairs(me.Other())
		if _, won := w.Winner(); won {
			s = 1 << 20
		}
		w.Unmake(cell)
		switch {
		case s > bestScore:
			best, bestScore, ties = cell, s, 1
		case s == bestScore:
			ties++
			if p.rng.IntN(ties) == 0 {
				best = cell
			}
		}
	}
	return Choice{Cell: best}
}
