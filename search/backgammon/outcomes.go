package backgammon

import (
	"fmt"
	"slices"

	"starlab/nn"
	"starlab/search"
	"starlab/search/game"
)

// The outputs of a money net of outcomes (nn.Head; starlab train
// -outcomes), gnubg's five, each from the side to move's view: the
// probability of winning, of winning a gammon or a backgammon, of winning
// a backgammon, of losing a gammon or a backgammon, and of losing a
// backgammon. The net's value is the cubeless equity over 3 (a money
// value's scale), (2·win - 1 + gammons won + backgammons won - gammons
// lost - backgammons lost) / 3: OutcomeValue.
const (
	OutWin = iota
	OutWinGammon
	OutWinBackgammon
	OutLoseGammon
	OutLoseBackgammon
	OutcomeCount
)

// OutcomeValue is the Head.Value of a money net of outcomes.
var OutcomeValue = []float64{-1.0 / 3, 2.0 / 3, 1.0 / 3, 1.0 / 3, -1.0 / 3, -1.0 / 3}

// moneyOutcomes is the search.Outcomes of money play.
var moneyOutcomes = search.Outcomes{
	Value: OutcomeValue,
	Flip: func(p []float64) {
		p[OutWin] = 1 - p[OutWin]
		p[OutWinGammon], p[OutLoseGammon] = p[OutLoseGammon], p[OutWinGammon]
		p[OutWinBackgammon], p[OutLoseBackgammon] = p[OutLoseBackgammon], p[OutWinBackgammon]
	},
	Over: func(pos game.State, p []float64) {
		b := pos.(*Board)
		w, pts := b.Winning()
		clear(p[:OutcomeCount])
		g, bg := OutLoseGammon, OutLoseBackgammon
		if w == int(b.stm) {
			p[OutWin], g, bg = 1, OutWinGammon, OutWinBackgammon
		}
		if pts >= 2 {
			p[g] = 1
		}
		if pts == 3 {
			p[bg] = 1
		}
	},
	// Where the bear-off databases value a money position, both sides
	// have borne off a checker: no gammon is left to win or lose.
	Exact: func(pos game.State, p []float64) bool {
		w, ok := bearoffWin(pos.(*Board))
		if ok {
			clear(p[:OutcomeCount])
			p[OutWin] = w
		}
		return ok
	},
}

// outcomesOf returns the outcomes of variant v's nets: money's; a
// one-point game has only a win or a loss.
func outcomesOf(v Variant) (*search.Outcomes, error) {
	if v != Money {
		return nil, fmt.Errorf("a %s game is won or lost, with no gammons: its nets have one value", v)
	}
	return &moneyOutcomes, nil
}

// checkHead reports whether net's outputs are a backgammon net's of
// variant v: one value, or money's outcomes.
func checkHead(net *nn.Net, v Variant) error {
	if net.Head == nil {
		return nil
	}
	if _, err := outcomesOf(v); err != nil {
		return fmt.Errorf("outputs of probabilities in a net for %s: %v", v, err)
	}
	if !slices.Equal(net.Head.Value, OutcomeValue) {
		return fmt.Errorf("outputs of probabilities valued by %v, not money's outcomes %v", net.Head.Value, OutcomeValue)
	}
	return nil
}
