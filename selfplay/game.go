package selfplay

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"time"

	"starlab/outside"
	"starlab/search"
	"starlab/search/game"
)

// Player chooses the move of the mover of a decision.
type Player interface {
	// Name identifies the player in records and tables.
	Name() string
	// Choose returns a legal move of s, a decision. It must not change
	// s. A cancelled ctx may cut a search short; the move is then still
	// legal, and Play returns ctx's error after it.
	Choose(ctx context.Context, s game.State) Choice
}

// Choice is a player's move with what its search learned, for the records.
type Choice struct {
	Move  game.Move // the move played
	Score float64   // the player's value of the position for its mover (0 if none)
	Depth int       // the depth of the last completed search (0 if none)
	Nodes int64     // nodes searched for this move
	// Forfeit, if set, is an outside engine's reply that could not be
	// played (outside.Player): the mover loses the game, and Move is not
	// read.
	Forfeit *Forfeit
}

// ChanceStream is the source of a game's chance events. Each side has its
// own seeded stream of uniform numbers, one per chance node whose Mover it
// is, so two games with the same seed give both sides the same luck turn by
// turn even when the positions (and so the events that can happen) differ:
// this is what makes a pair of games with the sides swapped a duplicate-dice
// pair. An event is drawn by its weight: u uniform in [0, total), the first
// event whose cumulative weight exceeds u. With every weight 1 that is the
// u-th event, so a Dice roll is the u-th of the mover's non-full lines.
type ChanceStream struct {
	rng    [2]*rand.Rand
	events []game.Event
	// strata, if set, draw the first chance events: event k falls at
	// fraction strata[k] of the total weight (a rollout's stratified
	// rolls); later events come from the streams.
	strata []float64
	drawn  int
}

// NewChanceStream returns the chance events of a game from its seed.
func NewChanceStream(seed uint64) *ChanceStream {
	return &ChanceStream{rng: [2]*rand.Rand{
		rand.New(rand.NewPCG(seed, 0xb1)),
		rand.New(rand.NewPCG(seed, 0x2ed)),
	}}
}

// Draw returns the event that happens at the chance node s, drawn from the
// stream of s's Mover. A chance node without events is an error of the
// game, returned in one line.
func (c *ChanceStream) Draw(s game.State) (game.Event, error) {
	var total int
	c.events, total = s.Outcomes(c.events)
	if len(c.events) == 0 || total <= 0 {
		return game.Event{}, fmt.Errorf("chance node %q has no events", s)
	}
	var u int
	if c.drawn < len(c.strata) {
		u = min(int(c.strata[c.drawn]*float64(total)), total-1)
		c.drawn++
	} else {
		u = c.rng[s.Mover()].IntN(total)
	}
	if e, ok := game.EventAt(c.events, u); ok {
		return e, nil
	}
	return game.Event{}, fmt.Errorf("chance node %q: its events weigh less than its total %d", s, total)
}

// Action is one step of a game record: at a decision the move played, at a
// chance node the ID of the event that happened. Which of the two it is
// follows from the state it is taken in, so a record is its start and its
// actions.
type Action uint16

// Record is the record of one finished game: its start and its actions in
// order (moves and chance events), with what the players' searches cost.
// Notation is produced only by the writers (Notation).
type Record struct {
	Name    string   `json:"game"`    // the game's name ("dice")
	Variant string   `json:"variant"` // the start's variant ("5x5-4")
	Start   string   `json:"start"`   // the start position in the game's notation
	Actions []Action `json:"actions"` // every move and chance event, in order
	Result  int      `json:"result"`  // side 0's view: +1 won, 0 drawn, -1 lost
	// Points is what the winner won where the game is played for points
	// (game.Pointer: backgammon's money play, 1, 2 or 3); 0 otherwise.
	Points int `json:"points,omitempty"`
	Plies  int `json:"plies"` // number of moves played (decisions, not chance events)
	// Nodes, Depth, Turns and Time are by side: nodes searched (at most
	// math.MaxInt64: addNodes), sum of completed depths, moves made, time
	// spent choosing.
	Nodes [2]int64         `json:"nodes"`
	Depth [2]int           `json:"depth"`
	Turns [2]int           `json:"turns"`
	Time  [2]time.Duration `json:"time_ns"`
	// Luck is the sum, from side 0's view, of the luck of every chance
	// event as a reference search values it (see Luck); 0 without a
	// reference.
	Luck float64 `json:"luck"`
	// Forfeit, if set, ended the game before its end: the side to move
	// after the last action lost by forfeit (an outside engine's illegal,
	// malformed or missing reply). Result is that side's loss, worth one
	// point where the game is played for points.
	Forfeit *Forfeit `json:"forfeit,omitempty"`
}

// Replay plays the game's record again from its start through g, the game
// it names. Before each action i it calls visit, if not nil, with the state
// the action is taken in (Replay's own: visit must not change or keep it;
// Clone it to keep it); replay stops there, returning that state, when
// visit returns false. Otherwise it returns the final state. An error, in
// one line, means the record is not a game of g.
func (r *Record) Replay(g game.Game, visit func(i int, s game.State) bool) (game.State, error) {
	if r.Name != g.Name() {
		return nil, fmt.Errorf("the record is a game of %q, not %q", r.Name, g.Name())
	}
	s, err := g.Parse(r.Start)
	if err != nil {
		return nil, fmt.Errorf("start: %v", err)
	}
	if v := g.Variant(s); v != r.Variant {
		return nil, fmt.Errorf("start %q is of variant %q, the record says %q", r.Start, v, r.Variant)
	}
	var moves []game.Move
	var events []game.Event
	for i, a := range r.Actions {
		switch s.Kind() {
		case game.Over:
			return s, fmt.Errorf("action %d: the game is over in %q", i+1, s)
		case game.Chance:
			events, _ = s.Outcomes(events)
			k := 0
			for k < len(events) && events[k].ID != uint16(a) {
				k++
			}
			if k == len(events) {
				return s, fmt.Errorf("action %d: event %d is impossible in %q", i+1, a, s)
			}
			if visit != nil && !visit(i, s) {
				return s, nil
			}
			s.Happen(events[k])
		case game.Decision:
			moves = s.Legal(moves)
			if !hasMove(moves, game.Move(a)) {
				return s, fmt.Errorf("action %d: move %d is not legal in %q", i+1, a, s)
			}
			if visit != nil && !visit(i, s) {
				return s, nil
			}
			s.Play(game.Move(a))
		default:
			return s, fmt.Errorf("action %d: state %q is of kind %v", i+1, s, s.Kind())
		}
	}
	return s, nil
}

func hasMove(moves []game.Move, m game.Move) bool {
	for _, x := range moves {
		if x == m {
			return true
		}
	}
	return false
}

// Notation returns the game's chance events and its moves in the game's
// notation, the events space-separated and the moves separated by
// the game's MoveSep (a space, or ", " where a move is several words), from one replay through g. An event is
// written as the last word of the game's text for it (g.FormatEvent), so
// that it is one word: a Dice roll is the rolled line's label, the row
// number for blue and the column letter for red.
func (r *Record) Notation(g search.Kit) (events, moves string, err error) {
	var es, ms []string
	var evs []game.Event
	_, err = r.Replay(g, func(i int, s game.State) bool {
		if s.Kind() == game.Chance {
			evs, _ = s.Outcomes(evs)
			for _, e := range evs {
				if e.ID == uint16(r.Actions[i]) {
					text := strings.Fields(g.FormatEvent(s, e))
					if len(text) == 0 {
						text = []string{fmt.Sprint(e.ID)}
					}
					es = append(es, text[len(text)-1])
					break
				}
			}
		} else {
			ms = append(ms, g.FormatMove(s, game.Move(r.Actions[i])))
		}
		return true
	})
	return strings.Join(es, " "), strings.Join(ms, g.MoveSep), err
}

// sideZero returns the value v, from the view of side, from side 0's view.
func sideZero(v float64, side int) float64 {
	if side != 0 {
		return -v
	}
	return v
}

// Step is what an Observer sees of one action, before it is taken: the
// state it is taken in and the event drawn or the player's choice.
type Step struct {
	Index  int        // the action's index in the record: 0 for the first
	State  game.State // the state the action is taken in: a chance node or a decision
	Event  game.Event // at a chance node, the event that happens
	Choice Choice     // at a decision, the move and what the player's search found
}

// Observer is called by Play before every action is taken. The state it is
// given is Play's own: an observer reads it and must neither change nor
// keep it. An error stops the game.
type Observer func(ctx context.Context, st *Step) error

// Play plays a game of g from start between players[0] and players[1], the
// chance events drawn from cs, calling observe (if not nil) before every
// action. At a decision the mover's player chooses; at a chance node cs
// draws the event. start may be any state of g; it is not changed. A
// cancelled ctx stops the game after the move in progress (whose search it
// cuts short) with ctx's error. A player's illegal move is an error naming
// the player.
func Play(ctx context.Context, g game.Game, start game.State, players [2]Player, cs *ChanceStream, observe Observer) (Record, error) {
	s := start.Clone()
	rec := Record{Name: g.Name(), Variant: g.Variant(start), Start: start.String()}
	var moves []game.Move
	for {
		switch s.Kind() {
		case game.Over:
			v := sideZero(s.Result(), s.Mover())
			rec.Points = game.EndPoints(s)
			switch {
			case v == -1 || v == 0 || v == 1:
				rec.Result = int(v)
			case rec.Points > 0 && v > 0:
				rec.Result = 1
			case rec.Points > 0 && v < 0:
				rec.Result = -1
			default:
				return rec, fmt.Errorf("game %s ended with value %v in %q, not a win, draw or loss", g.Name(), v, s)
			}
			return rec, nil
		case game.Chance:
			e, err := cs.Draw(s)
			if err != nil {
				return rec, err
			}
			if observe != nil {
				st := Step{Index: len(rec.Actions), State: s, Event: e}
				if err := observe(ctx, &st); err != nil {
					return rec, err
				}
			}
			rec.Actions = append(rec.Actions, Action(e.ID))
			s.Happen(e)
		case game.Decision:
			side := s.Mover()
			t0 := time.Now()
			ch := players[side].Choose(ctx, s)
			rec.Time[side] += time.Since(t0)
			if err := ctx.Err(); err != nil {
				return rec, err
			}
			if f := ch.Forfeit; f != nil {
				f.Side = side
				rec.Forfeit = f
				rec.Result = int(sideZero(-1, side))
				return rec, nil
			}
			if moves = s.Legal(moves); !hasMove(moves, ch.Move) {
				return rec, fmt.Errorf("player %s chose illegal move %d in %q", players[side].Name(), ch.Move, s)
			}
			if observe != nil {
				st := Step{Index: len(rec.Actions), State: s, Choice: ch}
				if err := observe(ctx, &st); err != nil {
					return rec, err
				}
			}
			rec.Actions = append(rec.Actions, Action(ch.Move))
			rec.Nodes[side] = addNodes(rec.Nodes[side], ch.Nodes)
			rec.Depth[side] += ch.Depth
			rec.Turns[side]++
			rec.Plies++
			s.Play(ch.Move)
		default:
			return rec, fmt.Errorf("state %q is of kind %v", s, s.Kind())
		}
	}
}

// addNodes returns the node count a + b, at most math.MaxInt64: an
// outside engine may report any count, and a sum that wrapped would turn
// negative.
func addNodes(a, b int64) int64 {
	if b > math.MaxInt64-a {
		return math.MaxInt64
	}
	return a + b
}

// Luck values chance events with a fixed reference search: the luck of an
// event is the value of the state after it, for the chance node's mover,
// minus the mean of that value over all the events that could have
// happened, weighted by their probabilities. Its expectation over the
// chance events is zero whatever the reference, so subtracting the luck of
// a game's events from its result leaves an unbiased estimate of the
// result with less variance the better the reference (gnubg's
// luck-adjusted results; Zinkevich et al. 2017, AIVAT). The reference must
// be fixed before the games, and not be one of the players under test.
type Luck struct {
	engine search.Engine
	limits search.Limits
	valuer Valuer // an outside program's values, in place of the engine
	events []game.Event
}

// A Valuer values positions for a luck reference from outside starlab
// (gnubg's evaluation: outside.ValuerEngine): Value returns the value of s, not
// over, for its Mover, on the game's scale; an error (the program gone)
// stops the game.
type Valuer = outside.Valuer

// NewLuckValuer returns a luck reference that values the states after
// chance events with v.
func NewLuckValuer(v Valuer) *Luck { return &Luck{valuer: v} }

// NewLuck returns a luck reference that values the states after chance
// events with a search of engine under limits, which must be depth or node
// limits so that the values are a function of the position.
func NewLuck(engine search.Engine, limits search.Limits) *Luck {
	limits.PlayDepths = true
	return &Luck{engine: engine, limits: limits}
}

// eventLuck returns the luck, for the mover of the chance node s, of event
// actual: the reference value of the state after it minus the weighted
// mean over s's events, summed in event order and divided by the total
// weight (with every weight 1, the plain mean).
func (l *Luck) eventLuck(ctx context.Context, s game.State, actual game.Event) (float64, error) {
	mean, got, err := l.eventsMean(ctx, s, actual)
	return got - mean, err
}

// eventsMean returns the weighted mean over the events of the chance node
// s of the reference value of the state after each, for s's mover,
// summed in event order and divided by the total weight, and the value
// after event actual.
func (l *Luck) eventsMean(ctx context.Context, s game.State, actual game.Event) (mean, got float64, err error) {
	var total int
	l.events, total = s.Outcomes(l.events)
	sum := 0.0
	for _, e := range l.events {
		w := s.Clone()
		w.Happen(e)
		v, err := l.value(ctx, w, s.Mover())
		if err != nil {
			return 0, 0, err
		}
		sum += float64(e.Weight) * v
		if e.ID == actual.ID {
			got = v
		}
	}
	return sum / float64(total), got, nil
}

// value returns the reference value of s for side.
func (l *Luck) value(ctx context.Context, s game.State, side int) (float64, error) {
	var v float64
	switch {
	case s.Kind() == game.Over:
		v = s.Result()
	case l.valuer != nil:
		var err error
		if v, err = l.valuer.Value(ctx, s); err != nil {
			return 0, fmt.Errorf("luck reference: %v", err)
		}
	default:
		v = l.engine.Search(ctx, s, l.limits, nil).Last().Score
	}
	if s.Mover() != side {
		v = -v
	}
	return v, nil
}

// Observer returns an observer that adds the luck of every chance event,
// from side 0's view, to *sum. It clears the reference's table first, so
// that the values depend on nothing before the game.
func (l *Luck) Observer(sum *float64) Observer {
	if l.engine != nil {
		l.engine.ClearTT()
	}
	return func(ctx context.Context, st *Step) error {
		if st.State.Kind() != game.Chance {
			return nil
		}
		luck, err := l.eventLuck(ctx, st.State, st.Event)
		if err != nil {
			return err
		}
		*sum += sideZero(luck, st.State.Mover())
		return nil
	}
}

// Random plays a uniformly random legal move.
type Random struct {
	rng   *rand.Rand
	moves []game.Move
}

// NewRandom returns a random player drawing from seed.
func NewRandom(seed uint64) *Random { return &Random{rng: rand.New(rand.NewPCG(seed, 0x7a9d))} }

// Name returns "random".
func (*Random) Name() string { return "random" }

// Choose returns a uniformly random legal move of s.
func (p *Random) Choose(_ context.Context, s game.State) Choice {
	p.moves = s.Legal(p.moves)
	return Choice{Move: p.moves[p.rng.IntN(len(p.moves))]}
}

// Greedy wins at once if it can, otherwise plays the move after which the
// game's hand evaluator (eval=pairs: in Dice, Hauk's pair count, its own
// minus the opponent's, squashed) values the position best for it, ties
// broken at random. A move that ends the game is valued by its result.
type Greedy struct {
	engine search.Engine
	rng    *rand.Rand
	moves  []game.Move
}

// NewGreedy returns a greedy player of g breaking ties from seed.
func NewGreedy(g search.Kit, seed uint64) *Greedy {
	c := search.DefaultConfig(search.StarETC)
	c.Eval, c.TTMiB = g.HandEval, 1
	return &Greedy{engine: g.NewEngine(c.MustResolve()), rng: rand.New(rand.NewPCG(seed, 0x69ee))}
}

// Name returns "greedy".
func (*Greedy) Name() string { return "greedy" }

// Choose returns the greedy move: among the moves of greatest value for
// the mover (a win is its result, 1 in a game not played for points,
// above every evaluation, which lies in (-1, 1); backgammon's money play
// values a single game's win at 1/3),
// one drawn uniformly by reservoir sampling in the order of s's moves.
func (p *Greedy) Choose(_ context.Context, s game.State) Choice {
	p.moves = s.Legal(p.moves)
	me := s.Mover()
	var best game.Move
	bestV, ties := 0.0, 0
	for _, m := range p.moves {
		w := s.Clone()
		w.Play(m)
		v := game.ValueFor(w, me, p.engine.Evaluate)
		switch {
		case ties == 0 || v > bestV:
			best, bestV, ties = m, v, 1
		case v == bestV:
			ties++
			if p.rng.IntN(ties) == 0 {
				best = m
			}
		}
	}
	return Choice{Move: best}
}
