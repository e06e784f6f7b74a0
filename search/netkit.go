package search

import (
	"fmt"
	"math/rand/v2"

	"starlab/nn"
	"starlab/search/game"
)

// VariantNets is a game's network functions over its own variant type V
// (Dice's board size and win length, backgammon's scoring), from which
// Kit builds a NetKit's functions of variant names: each parses the name
// with Parse, then calls the game's function of the parsed variant, so
// that a game writes each function once, in its own terms.
type VariantNets[V any] struct {
	// Parse reads a variant name, or says in one line why it cannot.
	Parse func(variant string) (V, error)
	// Builtin is NetKit.Builtin of a parsed variant; nil for a game with
	// no built-in nets.
	Builtin func(V) (*nn.Net, error)
	// OfGame, New, Check, Features, Rate, Inputs and Phases are NetKit's;
	// Inputs is nil for a game with no input sets beside its own, Phases
	// for one whose nets have no phase nets.
	OfGame   func(*nn.Net) error
	New      func(V, *rand.Rand, float64) (*nn.Net, error)
	Check    func(*nn.Net, V) error
	Features func(game.State, []float64)
	Rate     func(V) float64
	Inputs   func(V, string) (int, error)
	Phases   map[string]func(game.State) bool
	// Outcomes is NetKit's of a parsed variant, nil for a game whose nets
	// have one value.
	Outcomes func(V) *Outcomes
}

// Kit returns the NetKit of the functions (the engine adds its Evaluator).
// A variant name that does not parse gives Parse's error, and a learning
// rate of 0.
func (v VariantNets[V]) Kit() *NetKit {
	k := &NetKit{
		OfGame:   v.OfGame,
		Features: v.Features,
		Phases:   v.Phases,
		New: func(name string, rng *rand.Rand, scale float64) (*nn.Net, error) {
			x, err := v.Parse(name)
			if err != nil {
				return nil, err
			}
			return v.New(x, rng, scale)
		},
		Check: func(net *nn.Net, name string) error {
			x, err := v.Parse(name)
			if err != nil {
				return err
			}
			if v.Outcomes == nil && net.Head != nil {
				return fmt.Errorf("a net with outputs of probabilities, which this game's nets do not have")
			}
			for _, p := range net.Phases {
				if v.Phases[p.Phase] == nil {
					return fmt.Errorf("a net with a net of the phase %q, which this game's nets do not have", p.Phase)
				}
			}
			return v.Check(net, x)
		},
		Rate: func(name string) float64 {
			x, err := v.Parse(name)
			if err != nil {
				return 0
			}
			return v.Rate(x)
		},
	}
	if v.Builtin != nil {
		k.Builtin = func(name string) (*nn.Net, error) {
			x, err := v.Parse(name)
			if err != nil {
				return nil, err
			}
			return v.Builtin(x)
		}
	}
	if v.Outcomes != nil {
		k.Outcomes = func(name string) (*Outcomes, error) {
			x, err := v.Parse(name)
			if err != nil {
				return nil, err
			}
			return v.Outcomes(x), nil
		}
	}
	if v.Inputs != nil {
		k.Inputs = func(name, set string) (int, error) {
			x, err := v.Parse(name)
			if err != nil {
				return 0, err
			}
			return v.Inputs(x, set)
		}
	}
	return k
}
