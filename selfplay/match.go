package selfplay

import (
	"context"
	"fmt"
	"io"

	"starlab/outside"
	"starlab/runs"
	"starlab/search"
	"starlab/search/game"
)

// MatchConfig describes one head-to-head between two variants, played in
// pairs of games with the same dice and the colours swapped (duplicate
// dice).
type MatchConfig struct {
	Kit    search.Kit   // the game the variants play
	A, B   Engine       // variants of Game
	Starts []game.State // start positions, not over; pair i starts from Starts[i % len]
	Pairs  int          // number of game pairs
	Seed   uint64
	// Pairing is the head-to-head's index in a tournament; each pairing
	// has dice of its own (PairSeed), so that a variant's results against
	// different opponents are independent samples.
	Pairing int
	// Workers is the number of goroutines playing pairs; each owns its
	// engines. Results do not depend on it when the variants' limits are
	// depth or nodes.
	Workers int
	// LuckRef, if set, is the reference search that values every chance
	// event (see Luck); it must have a depth or node limit.
	LuckRef *Engine
	// EngineLog, if set, gets the outside engines' standard error.
	EngineLog io.Writer
}

// PairGame is one finished game of a match.
type PairGame struct {
	Pair    int    `json:"pair"`      // pair index
	Round   int    `json:"round"`     // 0: A plays blue (side 0, who moves first in Dice); 1: B plays blue
	Seed    uint64 `json:"seed"`      // chance seed, shared by the two games of the pair
	Start   int    `json:"start"`     // index of the start position
	AIsBlue bool   `json:"a_is_blue"` // A plays side 0
	Game    Record `json:"game"`
}

// ScoreA returns the game's score for variant A: 1 win, 0.5 draw, 0 loss.
func (g PairGame) ScoreA() float64 {
	r := float64(g.Game.Result) // side 0's view
	if !g.AIsBlue {
		r = -r
	}
	return (r + 1) / 2
}

// LuckA returns the luck of the game's chance events for A, in score units.
func (g PairGame) LuckA() float64 {
	l := g.Game.Luck
	if !g.AIsBlue {
		l = -l
	}
	return l / 2
}

// PairRecord is the two games of one pair.
type PairRecord struct {
	Index int         `json:"index"`
	Games [2]PairGame `json:"games"`
}

// Score returns A's pair score: 0, 0.5, 1, 1.5 or 2.
func (p PairRecord) Score() float64 { return p.Games[0].ScoreA() + p.Games[1].ScoreA() }

// Category returns the pair's index in a Pentanomial: twice its score.
func (p PairRecord) Category() int { return int(2*p.Score() + 0.5) }

// PairSeed returns the dice seed of pair i of pairing p of a match seeded
// with seed (splitmix64, so neighbouring pairs share nothing). Pairing 0 has
// the seeds two-variant matches always had.
func PairSeed(seed uint64, pairing, i int) uint64 {
	seed += uint64(pairing) * 0xd1b54a32d192ed03
	z := seed*0x9e3779b97f4a7c15 + uint64(i+1)*0xbf58476d1ce4e5b9
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Validate checks the configuration.
func (c *MatchConfig) Validate() error {
	if c.Kit.Game == nil {
		return fmt.Errorf("a match needs a game")
	}
	if c.Pairs < 1 {
		return fmt.Errorf("a match needs at least one pair of games")
	}
	if len(c.Starts) == 0 {
		return fmt.Errorf("a match needs at least one start position")
	}
	for i, s := range c.Starts {
		if s.Kind() == game.Over {
			return fmt.Errorf("start position %d (%s) is over", i+1, s)
		}
	}
	if c.LuckRef != nil && !c.LuckRef.Deterministic() {
		return runs.Usagef("luck reference %q: a time limit would make the reference depend on the machine; give depth= or nodes=", c.LuckRef.Name())
	}
	return nil
}

// matchPlayer is a match worker's player of one variant: a search
// engine's or an outside engine's, told of every game before it starts.
type matchPlayer interface {
	Player
	newGame(ctx context.Context, seed uint64) error
}

// newGame empties the engine's table and sets its evaluation noise from
// the game's seed, so that a game depends only on its seed and players.
func (p *EnginePlayer) newGame(_ context.Context, seed uint64) error {
	p.engine.ClearTT()
	if s, ok := p.engine.(search.Salter); ok {
		s.SetSalt(seed) // the game's evaluation noise, where there is any
	}
	return nil
}

// matchWorker is one goroutine's players: its own engines and tables, or
// its own instances of the outside engines.
type matchWorker struct {
	a, b   matchPlayer
	luck   *Luck
	valuer Valuer // the outside luck reference's program, if any
}

func newMatchWorker(c *MatchConfig) *matchWorker {
	w := &matchWorker{a: c.player(c.A), b: c.player(c.B)}
	if c.LuckRef != nil && c.LuckRef.Outside == nil {
		w.luck = NewLuck(c.LuckRef.Kit.NewEngine(c.LuckRef.Resolved), c.LuckRef.Spec.Limits)
	}
	return w
}

// startLuck starts the worker's outside luck reference (gnubg's
// evaluation) before its first game, or again after it failed.
func (w *matchWorker) startLuck(ctx context.Context, c *MatchConfig) error {
	if c.LuckRef == nil || c.LuckRef.Outside == nil || w.luck != nil {
		return nil
	}
	ov, ok := c.LuckRef.Outside.(outside.ValuerEngine)
	if !ok {
		return fmt.Errorf("luck reference %s cannot value positions", c.LuckRef.Name())
	}
	v, err := ov.StartValuer(ctx, c.Kit, c.Kit.Variant(c.Starts[0]), c.log())
	if err != nil {
		return err
	}
	w.valuer, w.luck = v, NewLuckValuer(v)
	return nil
}

// player returns a new player of variant v.
func (c *MatchConfig) player(v Engine) matchPlayer { return c.playerOf(v, c.Kit.Variant(c.Starts[0])) }

// playerOf returns a new player of engine v in the game's variant.
func (c *MatchConfig) playerOf(v Engine, variant string) matchPlayer {
	if v.Outside != nil {
		return &outsidePlayer{o: v.Outside, g: c.Kit, variant: variant, log: c.log()}
	}
	return v.NewPlayer()
}

// log is where the outside engines' standard error goes.
func (c *MatchConfig) log() io.Writer {
	if c.EngineLog == nil {
		return io.Discard
	}
	return c.EngineLog
}

// close stops the worker's outside engines.
func (w *matchWorker) close() {
	for _, p := range []matchPlayer{w.a, w.b} {
		if o, ok := p.(*outsidePlayer); ok {
			o.close()
		}
	}
	if w.valuer != nil {
		w.valuer.Close()
		w.valuer, w.luck = nil, nil
	}
}

// playPair plays pair i: game 0 with A as blue, game 1 with B as blue, the
// same dice seed for both. Every player starts each game afresh (newGame:
// an engine with an empty table), so a game depends only on its seed and
// players.
func (w *matchWorker) playPair(ctx context.Context, c *MatchConfig, i int) (PairRecord, error) {
	seed := PairSeed(c.Seed, c.Pairing, i)
	si := i % len(c.Starts)
	pr := PairRecord{Index: i}
	if err := w.startLuck(ctx, c); err != nil {
		if ctx.Err() != nil {
			return pr, ctx.Err()
		}
		return pr, fmt.Errorf("pair %d: %v", i, err)
	}
	for g := 0; g < 2; g++ {
		for _, p := range []matchPlayer{w.a, w.b} {
			if err := p.newGame(ctx, seed); err != nil {
				if ctx.Err() != nil {
					return pr, ctx.Err()
				}
				return pr, fmt.Errorf("pair %d game %d: %v", i, g, err)
			}
		}
		players := [2]Player{w.a, w.b}
		if g == 1 {
			players = [2]Player{w.b, w.a}
		}
		var luck float64
		var observe Observer
		if w.luck != nil {
			observe = w.luck.Observer(&luck)
		}
		rec, err := Play(ctx, c.Kit, c.Starts[si], players, NewChanceStream(seed), observe)
		if err != nil {
			if ctx.Err() != nil {
				return pr, ctx.Err()
			}
			return pr, fmt.Errorf("pair %d game %d: %v", i, g, err)
		}
		rec.Luck = luck
		pr.Games[g] = PairGame{Pair: i, Round: g, Seed: seed, Start: si, AIsBlue: g == 0, Game: rec}
	}
	return pr, nil
}

// PlayPairs plays the pairs whose indexes are in todo on cfg.Workers
// goroutines (the runs worker pool) and calls done from the calling
// goroutine as each pair finishes, in the order they finish. It returns
// when all are done, when done returns stop or an error, or when ctx is
// cancelled, which reaches the searches in progress; pairs in flight then
// are dropped.
func PlayPairs(ctx context.Context, cfg *MatchConfig, todo []int, done func(PairRecord) (stop bool, err error)) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	var ws workers[*matchWorker]
	defer ws.close()
	return runs.Pool(ctx, cfg.Workers, todo,
		func() *matchWorker { return ws.keep(newMatchWorker(cfg)) },
		func(ctx context.Context, w *matchWorker, i int) (PairRecord, error) { return w.playPair(ctx, cfg, i) },
		done)
}
