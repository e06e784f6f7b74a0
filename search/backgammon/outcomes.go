package backgammon

import (
	"fmt"
	"slices"

	"starlab/nn"
	"starlab/search"
	"starlab/search/game"
)

// The outputs of a net of outcomes (nn.Head; starlab train -outcomes),
// gnubg's five, each from the side to move's view: the probability of
// winning, of winning a gammon or a backgammon, of winning a backgammon,
// of losing a gammon or a backgammon, and of losing a backgammon, as the
// game would score them in money play. The net's value is, in money
// play, the cubeless equity over 3 (a money value's scale), (2·win - 1 +
// gammons won + backgammons won - gammons lost - backgammons lost) / 3;
// in a one-point game, where only the win counts, 2·win - 1, the gammons
// being outputs the net learns beside it: OutcomeValue.
const (
	OutWin = iota
	OutWinGammon
	OutWinBackgammon
	OutLoseGammon
	OutLoseBackgammon
	OutcomeCount
)

// OutcomeValue returns the Head.Value of a net of outcomes of variant v.
func OutcomeValue(v Variant) []float64 {
	if v == Money {
		return []float64{-1.0 / 3, 2.0 / 3, 1.0 / 3, 1.0 / 3, -1.0 / 3, -1.0 / 3}
	}
	return []float64{-1, 2, 0, 0, 0, 0}
}

// flipOutcomes turns outcomes from one side's view into the other's.
func flipOutcomes(p []float64) {
	p[OutWin] = 1 - p[OutWin]
	p[OutWinGammon], p[OutLoseGammon] = p[OutLoseGammon], p[OutWinGammon]
	p[OutWinBackgammon], p[OutLoseBackgammon] = p[OutLoseBackgammon], p[OutWinBackgammon]
}

// overOutcomes writes the outcomes of a finished game from the view of
// its side to move: a gammon or a backgammon as money play scores it,
// whatever the variant.
func overOutcomes(pos game.State, p []float64) {
	b := pos.(*Board)
	w, _ := b.Winning()
	pts := Money.points(&b.pts[1-w])
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
}

// exactOutcomes writes the outcomes the bear-off databases know where they
// value the position (BearoffValue) for net, a net of the input set
// "features", which gives way to them (a net of the raw inputs does not):
// the chance of winning, and, once both sides have borne off a checker
// (always, where they value a money position), no gammon to win or lose.
func exactOutcomes(net *nn.Net, pos game.State, p []float64) int {
	if net.In == InputSize {
		return 0
	}
	b := pos.(*Board)
	w, ok := bearoffWin(b)
	if !ok {
		return 0
	}
	p[OutWin] = min(max(w, 0), 1) // the databases' sums may pass 1 by a rounding
	if b.pts[0][Off] == 0 || b.pts[1][Off] == 0 {
		return 1
	}
	clear(p[OutWin+1 : OutcomeCount])
	return OutcomeCount
}

// outcomesOf returns the outcomes of variant v's nets.
func outcomesOf(v Variant) *search.Outcomes {
	return &search.Outcomes{Value: OutcomeValue(v), Flip: flipOutcomes, Over: overOutcomes, Exact: exactOutcomes}
}

// checkHead reports whether net's outputs are a backgammon net's of
// variant v: one value, or v's outcomes.
func checkHead(net *nn.Net, v Variant) error {
	if net.Head == nil {
		return nil
	}
	if want := OutcomeValue(v); !slices.Equal(net.Head.Value, want) {
		return fmt.Errorf("outputs of probabilities valued by %v, not %s's outcomes %v", net.Head.Value, v, want)
	}
	return nil
}
