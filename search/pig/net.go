package pig

import (
	"fmt"
	"math/rand/v2"

	"starlab/nn"
	"starlab/search"
	"starlab/search/game"
)

// NetGame is the game a Pig net's weight file names.
const NetGame = "pig"

// NetHidden is the number of hidden units of a Pig net, and NetInputs its
// number of inputs: the mover's banked score, the opponent's and the turn
// total, each over the goal, and 1 at a chance node (a roll pending).
const (
	NetHidden = 8
	NetInputs = 4
)

// variant is a variant as its nets know it.
type variant struct {
	goal int
	bag  bool
}

func (v variant) String() string { return (&Board{goal: int16(v.goal), bag: v.bag}).Variant() }

func parseVariant(name string) (variant, error) {
	goal, bag, err := ParseVariant(name)
	return variant{goal, bag}, err
}

// newNet returns a net of variant v, its weights drawn by nn.New from rng
// and scale. Pig has no built-in net: a net is what starlab train -game
// pig makes, given to engines as net=FILE.
func newNet(v variant, rng *rand.Rand, scale float64) (*nn.Net, error) {
	net, err := nn.New(NetInputs, NetHidden, rng, scale)
	if err != nil {
		return nil, err
	}
	bag := 0
	if v.bag {
		bag = 1
	}
	net.Game, net.Variant, net.VariantKey = NetGame, v.String(), []int{v.goal, bag}
	return net, nil
}

// checkNet reports whether net is a Pig net of variant v.
func checkNet(net *nn.Net, v variant) error {
	if net.Game != NetGame {
		return fmt.Errorf("a net for the game %q, not %q", net.Game, NetGame)
	}
	if net.Variant != v.String() {
		return fmt.Errorf("made for variant %q, not %q", net.Variant, v)
	}
	if net.In != NetInputs {
		return fmt.Errorf("%d inputs, want %d", net.In, NetInputs)
	}
	return nil
}

// Features writes the net's inputs for b, a position that is not over,
// from its mover's view, into x (len NetInputs).
func Features(b *Board, x []float64) {
	g := float64(b.goal)
	x[0], x[1], x[2], x[3] = float64(b.score[b.stm])/g, float64(b.score[1-b.stm])/g, float64(b.turn)/g, 0
	if b.rolling {
		x[3] = 1
	}
}

// netKit is the Pig network as the stages and training use it, by
// variant name (search.NetKit; the engine adds its evaluator).
var netKit = search.VariantNets[variant]{
	Parse:    parseVariant,
	New:      newNet,
	Check:    checkNet,
	Features: func(pos game.State, x []float64) { Features(pos.(*Board), x) },
	Rate:     func(variant) float64 { return 0.1 },
}.Kit()
