package search

import "fmt"

// Score bounds: every evaluator returns values inside [L, U], which the Star
// algorithms rely on to bound the chance events they have not searched yet.
const (
	L = -1.0 // lowest possible score: the side to move has lost
	U = +1.0 // highest possible score: the side to move has won
)

// EvaluatorNames returns the evaluators a Config can name, in a new slice:
// zero and mlp, which every game has, and the games' hand evaluators,
// pairs (Dice's) and material (ChanceBreakthrough's). A game's Check
// refuses another game's hand evaluator (search.Game.HandEval names its
// own).
func EvaluatorNames() []string { return []string{"zero", "pairs", "material", "mlp"} }

// CheckHandEval refuses, in one line, a configuration whose evaluator is
// a hand evaluator other than hand, game's own.
func CheckHandEval(c Config, game, hand string) error {
	if c.Eval == "zero" || c.Eval == "mlp" || c.Eval == hand {
		return nil
	}
	return fmt.Errorf("eval=%s is not an evaluator of %s: its hand evaluator is eval=%s (or eval=zero, eval=mlp)", c.Eval, game, hand)
}
