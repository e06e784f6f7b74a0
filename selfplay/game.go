package selfplay

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"starlab/search"
	"starlab/search/dice"
	diceengine "starlab/search/engine/dice"
)

// Player chooses the move of the side to move in a rolled position.
type Player interface {
	// Name identifies the player in records and tables.
	Name() string
	// Choose returns the move for b, which is rolled and not over. It must
	// not change b. A cancelled ctx may cut a search short; the move is
	// then still legal, and Play returns ctx's error after it.
	Choose(ctx context.Context, b *dice.Board) Choice
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

// Game is the record of one finished game. Plies are stored as cells and
// lines; notation is produced only by the writers (Notation).
type Game struct {
	Start  string           `json:"start"`  // the start position in DPN
	Rolls  []int8           `json:"rolls"`  // the line rolled before each move
	Cells  []int16          `json:"cells"`  // the cell played at each move
	Result int              `json:"result"` // +1 blue won, 0 drawn, -1 red won
	Plies  int              `json:"plies"`  // number of moves played
	Nodes  [2]int64         `json:"nodes"`  // nodes searched by blue and by red
	Depth  [2]int           `json:"depth"`  // sum of completed depths by blue and by red
	Turns  [2]int           `json:"turns"`  // moves made by blue and by red
	Time   [2]time.Duration `json:"time_ns"`
	// Luck is the sum, from blue's view, of the luck of every roll as a
	// reference search values it (see Luck); 0 without a reference.
	Luck float64 `json:"luck"`
}

// Replay plays the game's record again from its start. Before each move i
// it calls visit, if not nil, with the position after the roll; replay stops
// there, returning that position, when visit returns false. Otherwise it
// returns the final position. An error means the record is not a game.
func (g *Game) Replay(visit func(i int, b *dice.Board) bool) (dice.Board, error) {
	start, err := dice.ParseDPN(g.Start)
	if err != nil {
		return dice.Board{}, err
	}
	b := *start
	if len(g.Rolls) != len(g.Cells) {
		return b, fmt.Errorf("game record has %d rolls for %d moves", len(g.Rolls), len(g.Cells))
	}
	for i, cell := range g.Cells {
		if r := int(g.Rolls[i]); b.Over() || r < 0 || r >= b.N() || b.LineEmpty(r) == 0 {
			return b, fmt.Errorf("move %d: roll %d is impossible in %q", i+1, r, b.DPN())
		}
		b.SetRoll(int(g.Rolls[i]))
		if visit != nil && !visit(i, &b) {
			return b, nil
		}
		if !b.IsLegal(int(cell)) {
			return b, fmt.Errorf("move %d: cell %d is not legal in %q", i+1, cell, b.DPN())
		}
		b.Make(int(cell))
	}
	return b, nil
}

// Notation returns the lines rolled before each move (row number for
// blue, column letter for red) and the moves in notation, each
// space-separated, from one replay of the game.
func (g *Game) Notation() (rolls, moves string, err error) {
	var rs, ms []string
	_, err = g.Replay(func(i int, b *dice.Board) bool {
		rs = append(rs, b.LineLabel(b.Roll()))
		ms = append(ms, dice.FormatMove(int(g.Cells[i]), b.N()))
		return true
	})
	return strings.Join(rs, " "), strings.Join(ms, " "), err
}

// Ply is what an Observer sees of one move: the position before the roll,
// the roll, the player's choice, and the position after the move.
type Ply struct {
	Index  int         // 0 for the first move of the game
	Mover  dice.Color  // the side that moved
	Before *dice.Board // the position before the roll
	Roll   int         // the line rolled
	Choice Choice      // the move and what the player's search found
	After  *dice.Board // the position after the move
}

// Observer is called by Play after every move. The boards it is given are
// Play's own: an observer reads them and must not keep them. An error stops
// the game.
type Observer func(ctx context.Context, p *Ply) error

// Play plays a game from start between players[Blue] and players[Red] with
// the dice ds, calling observe (if not nil) after every move. start must be
// a pre-roll position. A cancelled ctx stops the game after the move in
// progress (whose search it cuts short) with ctx's error.
func Play(ctx context.Context, start *dice.Board, players [2]Player, ds *DiceStream, observe Observer) (Game, error) {
	if start.Roll() != dice.NoRoll {
		return Game{}, fmt.Errorf("start position %q is rolled; a game starts before the roll", start.DPN())
	}
	b := *start
	var before dice.Board
	g := Game{Start: start.DPN()}
	for !b.Over() {
		stm := b.SideToMove()
		if observe != nil { // a board is a kilobyte: copied only for an observer
			before = b
		}
		roll := ds.Roll(&b)
		b.SetRoll(roll)
		t0 := time.Now()
		ch := players[stm].Choose(ctx, &b)
		g.Time[stm] += time.Since(t0)
		if err := ctx.Err(); err != nil {
			return g, err
		}
		if !b.IsLegal(ch.Cell) {
			return g, fmt.Errorf("player %s chose illegal move %d in %q", players[stm].Name(), ch.Cell, b.DPN())
		}
		g.Rolls = append(g.Rolls, int8(roll))
		g.Cells = append(g.Cells, int16(ch.Cell))
		g.Nodes[stm] += ch.Nodes
		g.Depth[stm] += ch.Depth
		g.Turns[stm]++
		b.Make(ch.Cell)
		if observe != nil {
			p := Ply{Index: len(g.Cells) - 1, Mover: stm, Before: &before, Roll: roll, Choice: ch, After: &b}
			if err := observe(ctx, &p); err != nil {
				return g, err
			}
		}
	}
	g.Plies = len(g.Cells)
	if w, ok := b.Winner(); ok {
		g.Result = 1
		if w == dice.Red {
			g.Result = -1
		}
	}
	return g, nil
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
	engine *diceengine.Engine
	limits search.Limits
}

// NewLuck returns a luck reference that values rolled positions with a
// search of engine under limits, which must be depth or node limits so that
// the values are a function of the position.
func NewLuck(engine *diceengine.Engine, limits search.Limits) *Luck {
	limits.PlayDepths = true
	return &Luck{engine: engine, limits: limits}
}

// rollLuck returns the luck, for the side to move of the pre-roll position
// b, of rolling line actual.
func (l *Luck) rollLuck(ctx context.Context, b *dice.Board, actual int) float64 {
	var lines [dice.MaxN]int8
	k := b.Rolls(&lines)
	w := *b
	sum, got := 0.0, 0.0
	for i := 0; i < k; i++ {
		w.SetRoll(int(lines[i]))
		v := l.engine.Search(ctx, &w, l.limits, nil).Last().Score
		w.ClearRoll()
		sum += v
		if int(lines[i]) == actual {
			got = v
		}
	}
	return got - sum/float64(k)
}

// Observer returns an observer that adds the luck of every roll, from
// blue's view, to *sum. It clears the reference's table first, so that the
// values depend on nothing before the game.
func (l *Luck) Observer(sum *float64) Observer {
	l.engine.ClearTT()
	return func(ctx context.Context, p *Ply) error {
		v := l.rollLuck(ctx, p.Before, p.Roll)
		if p.Mover == dice.Red {
			v = -v
		}
		*sum += v
		return nil
	}
}

// Random plays a uniformly random legal move.
type Random struct{ rng *rand.Rand }

// NewRandom returns a random player drawing from seed.
func NewRandom(seed uint64) *Random { return &Random{rand.New(rand.NewPCG(seed, 0x7a9d))} }

// Name returns "random".
func (*Random) Name() string { return "random" }

// Choose returns a uniformly random empty cell of the rolled line.
func (p *Random) Choose(_ context.Context, b *dice.Board) Choice {
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
func (p *Greedy) Choose(_ context.Context, b *dice.Board) Choice {
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
