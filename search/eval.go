package search

// Score bounds: every evaluator returns values inside [L, U], which the Star
// algorithms rely on to bound the chance events they have not searched yet.
const (
	L = -1.0 // lowest possible score: the side to move has lost
	U = +1.0 // highest possible score: the side to move has won
)

// EvaluatorNames returns the evaluators a Config can name, in a new slice.
func EvaluatorNames() []string { return []string{"zero", "pairs", "mlp"} }
