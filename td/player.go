package td

import (
	"context"
	"math"
	"math/rand/v2"

	"starlab/runs"
	"starlab/search"
	"starlab/search/game"
	"starlab/selfplay"
)

// The positions TD values are the afterstates of the 1-ply search: the
// start, every position a move leads to (in Dice the chance node before
// the opponent's roll; in a game whose chance is optional a decision of
// the opponent, or the chance node a roll leads to) and a position an
// event ends the game in. The net's value of one is from its mover's
// view.

// player is a worker's self-play state: the net's value function over a
// frozen copy of the weights, and the exploration of the game in play.
type player struct {
	val     search.NetValue
	rng     *rand.Rand
	explore float64
	moves   []game.Move
	values  []playValue // playValues's buffer
	work    game.State  // the scratch state playValues plays each move on
}

// valueFor returns the value of s for side: the rules' value when the game
// is over, otherwise the net's.
func (p *player) valueFor(s game.State, side int) float64 {
	return game.ValueFor(s, side, p.val.Value)
}

// playValue is a play of a decision and its 1-ply value for the mover.
type playValue struct {
	m game.Move
	v float64
}

// playValues returns every play of the decision s with its 1-ply value
// for the mover, in the game's order, in p's buffer (valid until the next
// call).
func (p *player) playValues(s game.State) []playValue {
	p.moves = s.Legal(p.moves)
	p.values = p.values[:0]
	for _, m := range p.moves {
		w := scratch(&p.work, s)
		w.Play(m)
		p.values = append(p.values, playValue{m, p.valueFor(w, s.Mover())})
	}
	return p.values
}

// best returns the 1-ply best move of the decision s and its value for
// the mover: a win in one is valued by its result (so always found
// where a win is worth 1, not always in backgammon's money play, where a
// single game's is 1/3); of equal values the first
// move in the game's order is kept.
func (p *player) best(s game.State) (game.Move, float64) {
	vs := p.playValues(s)
	bestMove, bestV := vs[0].m, math.Inf(-1)
	for _, pv := range vs {
		if pv.v > bestV {
			bestMove, bestV = pv.m, pv.v
		}
	}
	return bestMove, bestV
}

// scratch makes *work a copy of s, cloning s the first time, and returns
// it.
func scratch(work *game.State, s game.State) game.State {
	if *work == nil {
		*work = s.Clone()
	} else {
		(*work).CopyFrom(s)
	}
	return *work
}

// Name returns "td".
func (*player) Name() string { return "td" }

// Choose returns the 1-ply best move of the decision s, or with
// probability Explore a random one (the rng is the game's, so a game is a
// function of its index).
func (p *player) Choose(_ context.Context, s game.State) selfplay.Choice {
	m, _ := p.best(s)
	if p.explore > 0 && p.rng.Float64() < p.explore {
		moves := s.Legal(p.moves)
		m = moves[p.rng.IntN(len(moves))]
	}
	return selfplay.Choice{Move: m}
}

// play plays game g by self-play with 1-ply searches.
func (p *player) play(ctx context.Context, s *Settings, g int64) (selfplay.Record, error) {
	p.rng, p.explore = runs.Stream(s.Seed, "train/explore", uint64(g)), s.Explore
	return selfplay.Play(ctx, s.Kit, s.gameStart(g), [2]selfplay.Player{p, p}, selfplay.NewChanceStream(runs.StreamSeed(s.Seed, "train/dice", uint64(g))), nil)
}
