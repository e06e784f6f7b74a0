package dice

import (
	"os"

	"starlab/search"
	"starlab/search/dice"
)

func writeFile(path, text string) error { return os.WriteFile(path, []byte(text), 0o644) }

// newEngine returns an engine of algo with evaluator eval (a name) and a
// table of ttMiB, other options at their defaults but as set by opts.
func newEngine(algo search.Algorithm, eval string, ttMiB int, opts ...func(*search.Config)) *Engine {
	c := search.DefaultConfig(algo)
	c.Eval, c.TTMiB = eval, ttMiB
	for _, o := range opts {
		o(&c)
	}
	return New(c.MustResolve())
}

// evalName returns the configuration name of a built-in evaluator.
func evalName(ev Evaluator) string {
	if _, ok := ev.(zeroEval); ok {
		return "zero"
	}
	return "pairs"
}

// zeroEval scores every leaf 0, as eval=zero does.
type zeroEval struct{}

func (zeroEval) Evaluate(*dice.Board) float64 { return 0 }
