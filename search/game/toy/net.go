package toy

import (
	"fmt"
	"math/rand/v2"
	"strconv"

	"starlab/nn"
	"starlab/search"
	"starlab/search/game"
)

// NetGame is the game a toy net's weight file names.
const NetGame = "toy"

// NetHidden is the number of hidden units of a toy net.
const NetHidden = 8

// InputSize returns the number of inputs of the net of a race to target:
// one per value below the target of the mover's counter, one per value of
// the opponent's, and one for a chance node (a roll pending).
func InputSize(target int) int { return 2*target + 1 }

// NewNet returns a net of a race to target, its weights drawn by nn.New
// from rng and scale. The toy game has no built-in net: a net is what
// starlab train -game toy makes, given to engines as net=FILE.
func NewNet(target int, rng *rand.Rand, scale float64) (*nn.Net, error) {
	if _, err := New(target); err != nil {
		return nil, err
	}
	net, err := nn.New(InputSize(target), NetHidden, rng, scale)
	if err != nil {
		return nil, err
	}
	net.Game, net.Variant, net.VariantKey = NetGame, strconv.Itoa(target), []int{target}
	return net, nil
}

// CheckNet reports whether net is a toy net of a race to target.
func CheckNet(net *nn.Net, target int) error {
	if net.Game != NetGame {
		return fmt.Errorf("a net for the game %q, not %q", net.Game, NetGame)
	}
	if len(net.VariantKey) != 1 || net.Variant != strconv.Itoa(net.VariantKey[0]) {
		return fmt.Errorf("variant %q with key %v is no toy target", net.Variant, net.VariantKey)
	}
	if t := net.VariantKey[0]; t != target {
		return fmt.Errorf("made for target %d, not %d", t, target)
	}
	if net.In != InputSize(target) {
		return fmt.Errorf("%d inputs, want %d for target %d", net.In, InputSize(target), target)
	}
	return nil
}

// Features writes the net's inputs for b, a position that is not over,
// from its mover's view, into x (len InputSize(target)).
func Features(b *Board, x []float64) {
	t := int(b.target)
	clear(x[:InputSize(t)])
	me, them := b.pos[b.stm], b.pos[1-b.stm]
	x[me] = 1
	x[t+int(them)] = 1
	if b.pending {
		x[2*t] = 1
	}
}

// netKit is the toy network as the stages and training use it, by variant
// name (search.NetKit; the engine adds its evaluator). The toy has no
// built-in net.
var netKit = search.VariantNets[int]{
	Parse:    ParseVariant,
	New:      NewNet,
	Check:    CheckNet,
	Features: func(pos game.State, x []float64) { Features(pos.(*Board), x) },
	Rate:     func(int) float64 { return 0.1 },
}.Kit()
