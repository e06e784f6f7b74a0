package selfplay

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"starlab/search"
	"starlab/search/dice"
)

// MatchConfig describes a match between two variants, played in pairs of
// games with the same dice and the colours swapped (duplicate dice).
type MatchConfig struct {
	A, B   Variant
	Starts []*dice.Board // pre-roll start positions; pair i starts from Starts[i % len]
	Pairs  int           // number of game pairs
	Seed   uint64
	// Workers is the number of goroutines playing pairs; each owns its
	// engines. Results do not depend on it when the variants' limits are
	// depth or nodes.
	Workers int
	// LuckRef, if set, is the reference search that values every roll
	// (see Luck); it must have a depth or node limit.
	LuckRef *Variant
}

// GameRecord is one finished game of a match.
type GameRecord struct {
	Pair    int    // pair index
	Round   int    // 0: A plays blue; 1: B plays blue
	Seed    uint64 // dice seed, shared by the two games of the pair
	Start   int    // index of the start position
	AIsBlue bool
	Game    Game
}

// ScoreA returns the game's score for variant A: 1 win, 0.5 draw, 0 loss.
func (g GameRecord) ScoreA() float64 {
	r := float64(g.Game.Result) // blue's view
	if !g.AIsBlue {
		r = -r
	}
	return (r + 1) / 2
}

// LuckA returns the luck of the game's rolls for A, in score units.
func (g GameRecord) LuckA() float64 {
	l := g.Game.Luck
	if !g.AIsBlue {
		l = -l
	}
	return l / 2
}

// PairRecord is the two games of one pair.
type PairRecord struct {
	Index int
	Games [2]GameRecord
}

// Score returns A's pair score: 0, 0.5, 1, 1.5 or 2.
func (p PairRecord) Score() float64 { return p.Games[0].ScoreA() + p.Games[1].ScoreA() }

// Category returns the pair's index in a Pentanomial: twice its score.
func (p PairRecord) Category() int { return int(2*p.Score() + 0.5) }

// PairSeed returns the dice seed of pair i of a match seeded with seed
// (splitmix64 of the two, so neighbouring pairs share nothing).
func PairSeed(seed uint64, i int) uint64 {
	z := seed*0x9e3779b97f4a7c15 + uint64(i+1)*0xbf58476d1ce4e5b9
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Validate checks the configuration.
func (c *MatchConfig) Validate() error {
	if c.Pairs < 1 {
		return fmt.Errorf("a match needs at least one pair of games")
	}
	if len(c.Starts) == 0 {
		return fmt.Errorf("a match needs at least one start position")
	}
	for i, s := range c.Starts {
		if s.Roll() != dice.NoRoll || s.Over() {
			return fmt.Errorf("start position %d (%s) must be before the roll and not over", i+1, s.DPN())
		}
	}
	if c.LuckRef != nil && c.LuckRef.Limits.MoveTime != 0 {
		return fmt.Errorf("luck reference %q: a time limit would make the reference depend on the machine; give depth= or nodes=", c.LuckRef.Spec)
	}
	return nil
}

type worker struct {
	a, b *EnginePlayer
	luck *Luck
}

func newWorker(c *MatchConfig) *worker {
	w := &worker{a: c.A.NewPlayer(), b: c.B.NewPlayer()}
	if c.LuckRef != nil {
		w.luck = NewLuck(search.NewEngine(c.LuckRef.Options), c.LuckRef.Limits)
	}
	return w
}

// playPair plays pair i: game 0 with A as blue, game 1 with B as blue, the
// same dice seed for both. Every engine starts each game with an empty
// table, so a game depends only on its seed and players.
func (w *worker) playPair(c *MatchConfig, i int) (PairRecord, error) {
	seed := PairSeed(c.Seed, i)
	si := i % len(c.Starts)
	pr := PairRecord{Index: i}
	for g := 0; g < 2; g++ {
		w.a.Engine().ClearTT()
		w.b.Engine().ClearTT()
		players := [2]Player{w.a, w.b}
		if g == 1 {
			players = [2]Player{w.b, w.a}
		}
		game, err := Play(c.Starts[si], players, seed, w.luck)
		if err != nil {
			return pr, fmt.Errorf("pair %d game %d: %v", i, g, err)
		}
		pr.Games[g] = GameRecord{Pair: i, Round: g, Seed: seed, Start: si, AIsBlue: g == 0, Game: game}
	}
	return pr, nil
}

// PlayPairs plays the pairs whose indexes are in todo, on cfg.Workers
// goroutines, and calls done from a single goroutine as each pair finishes,
// in the order they finish. It returns when all are done, when done returns
// true (stop; done is not called again), or when ctx is cancelled; pairs in
// flight then are dropped.
func PlayPairs(ctx context.Context, cfg *MatchConfig, todo []int, done func(PairRecord) (stop bool)) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	workers := max(1, cfg.Workers)
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan int)
	type result struct {
		pr  PairRecord
		err error
	}
	results := make(chan result)
	var wg sync.WaitGroup
	for k := 0; k < workers; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := newWorker(cfg)
			for i := range jobs {
				pr, err := w.playPair(cfg, i)
				select {
				case results <- result{pr, err}:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for _, i := range todo {
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()
	var firstErr error
	stopped := false
	for r := range results {
		if firstErr != nil || stopped {
			continue // drain: pairs finishing after a stop are dropped
		}
		if r.err != nil {
			firstErr = r.err
			cancel()
			continue
		}
		if done(r.pr) {
			stopped = true
			cancel()
		}
	}
	if firstErr != nil {
		return firstErr
	}
	return parent.Err()
}

// MovesString returns a game's moves separated by spaces.
func (g Game) MovesString() string { return strings.Join(g.Moves, " ") }
