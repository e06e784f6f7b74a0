package search

import "fmt"

// Score bounds: every evaluator returns values inside [L, U], which the Star
// algorithms rely on to bound the chance events they have not searched yet.
const (
	L = -1.0 // lowest possible score: the side to move has lost
	U = +1.0 // highest possible score: the side to move has won
)

// EvaluatorNames returns the evaluators every game has, in a new slice:
// zero (0 at every leaf that is not over) and mlp (the network). A game
// adds its own hand evaluator (search.Kit.HandEval: pairs in Dice,
// material in ChanceBreakthrough), whose name the grammar takes as any
// other (ValidEvalName) and the game's Check refuses for another game
// (CheckHandEval): no list of the games' evaluators lives here.
func EvaluatorNames() []string { return []string{"zero", "mlp"} }

// ValidEvalName reports whether name can name an evaluator: a lower-case
// letter, then lower-case letters, digits, '-' or '_'.
func ValidEvalName(name string) bool {
	for i, r := range name {
		switch {
		case r >= 'a' && r <= 'z':
		case i > 0 && (r >= '0' && r <= '9' || r == '-' || r == '_'):
		default:
			return false
		}
	}
	return name != ""
}

// CheckHandEval refuses, in one line, a configuration whose evaluator is
// not zero, mlp or hand, game's own hand evaluator.
func CheckHandEval(c Config, game, hand string) error {
	if c.Eval == "zero" || c.Eval == "mlp" || c.Eval == hand {
		return nil
	}
	return fmt.Errorf("eval=%s is not an evaluator of %s: its evaluators are eval=%s (its hand evaluator), eval=zero and eval=mlp", c.Eval, game, hand)
}

// CheckNoise refuses noise= for a game whose engines have no evaluation
// noise (has false): the game says whether its engines add one.
func CheckNoise(c Config, game string, has bool) error {
	if c.Noise != 0 && !has {
		return fmt.Errorf("noise=%g: %s has no evaluation noise: its engines add none", c.Noise, game)
	}
	return nil
}

// Salter is an engine whose evaluation noise (Config.Noise) depends on a
// salt besides the position: a match gives each game's dice seed, so
// that games from one start differ, and one game repeats.
type Salter interface {
	SetSalt(salt uint64)
}

// Noisy returns v plus the noise of key, uniform in [-x, x] and a
// function of key alone (SplitMix64's finaliser of it), clamped to
// [-1, 1], the evaluations' bounds, which Star1 and Star2 rely on.
func Noisy(v float64, key uint64, x float64) float64 {
	key ^= key >> 30
	key *= 0xbf58476d1ce4e5b9
	key ^= key >> 27
	key *= 0x94d049bb133111eb
	key ^= key >> 31
	u := float64(key>>11) / (1 << 53) // [0, 1)
	return min(max(v+x*(2*u-1), -1), 1)
}
