// Package dice is the Dice engine: the *-minimax algorithms (Expectimax,
// Star1, Star2, StarETC, ChanceProbCut), the table's use, move ordering and
// iterative deepening over the Dice board (package search/dice). It is
// also the engine source: every non-test file here but this one is copied
// into each other game's engine by go generate (package search/engine),
// and this file is all the source knows of Dice: the board and its undo,
// the move and event types, the constants that fold away what Dice does
// not need (a move always leads to the roll, every roll is equally likely,
// depth counts chance plies, no evaluator reads the roll) and the small
// functions the engine calls per node, each of the names demands.go
// declares. See package search for the algorithms, their conventions and
// the table.
package dice

import (
	"fmt"
	"math/rand/v2"
	"starlab/nn"
	"starlab/search"
	rules "starlab/search/dice"
	"starlab/search/game"
)

// gameName names the game in messages, and handName its hand evaluator
// (eval=pairs: Hauk's pair count).
const (
	gameName = "dice"
	handName = "pairs"
)

// Board is the position the engine searches.
type Board = rules.Board

type (
	undo      = rules.Undo // what a move changes that its take-back restores
	eventUndo = struct{}   // a roll changes nothing that must be restored
	netEval   = rules.NetEvaluator
	move      = int16 // a cell
	event     = int8  // a rolled line
)

const (
	maxMoves  = rules.MaxN     // moves of a rolled position: the empty cells of a line
	maxEvents = rules.MaxN     // events of a roll: the mover's lines with an empty cell
	moveIDs   = rules.MaxCells // moves are cells, numbered below this
	// maxPly bounds the distance from the root: a move ply and a chance
	// ply per checker on the largest board.
	maxPly = 2*rules.MaxCells + 4
	// maxDepth is the deepest search: a move and a roll per empty cell of
	// the largest board (MaxDepth).
	maxDepth = 2 * rules.MaxCells
	// alternating: every move leads to a chance node (the next roll), so
	// a move node never asks what its child is.
	alternating = true
	// uniformChance: every roll is equally likely, so the chance windows
	// are sums over the events and no weight is read.
	uniformChance = true
	// countsChance: depth counts chance plies, as the thesis does.
	countsChance = true
	// eventsTouchEval: no evaluator reads the roll.
	eventsTouchEval = false
	// evalNoise: Dice has no evaluation noise: the chapter adds none.
	evalNoise = false
)

// variantKey is what the evaluator and the ChanceProbCut models depend
// on: the board size and the win length.
type variantKey = [2]int

func isChance(b *Board) bool { return b.Roll() == rules.NoRoll }

// chanceEvents writes the rolls of the side to move, each of weight 1.
func chanceEvents(b *Board, ev *[maxEvents]event, _ *[maxEvents]float64) (n, total int) {
	n = b.Rolls(ev)
	return n, n
}

func happen(b *Board, ev event, _ *eventUndo)         { b.SetRoll(int(ev)) }
func unhappen(b *Board, _ event, _ *eventUndo)        { b.ClearRoll() }
func keyAfterEvent(b *Board, ev event) uint64         { return b.KeyAfterRoll(int(ev)) }
func netHappen(*netEval, *Board, event, *eventUndo)   {}
func netUnhappen(*netEval, *Board, event, *eventUndo) {}
func moveCount(b *Board) int                          { return b.LineEmpty(b.Roll()) }
func mover(b *Board) int                              { return int(b.SideToMove()) }
func handEval(b *Board, _ int8) float64               { return rules.Pairs{}.Evaluate(b) }

// handOf numbers the hand evaluators: the game has one.
func handOf(string) int8                           { return 0 }
func endsOnChance(chanceRoot bool, depth int) bool { return search.EndsOnChance(!chanceRoot, depth) }

// MaxDepth returns the depth after which searching root deeper changes
// nothing: every path has reached the end of the game.
func MaxDepth(root *Board) int {
	d := 2 * root.Empties()
	if root.Roll() != rules.NoRoll {
		d--
	}
	return max(d, 1)
}

// setBoard makes the engine's evaluator and ChanceProbCut models those of
// b's board size and win length: the built-in net and the built-in fit
// differ by board (search.Resolved.Net, search.Resolved.ProbCutFor).
func (e *Engine) setBoard(b *Board) {
	v := variantKey{b.N(), b.M()}
	if e.variant == v {
		return
	}
	e.variant = v
	if e.kind == evalNet {
		net, err := rules.NewNetEvaluator(netFor(e.res, v[0], v[1]))
		if err != nil {
			panic(err) // CheckBoard checked the net
		}
		e.net = net
	}
	if e.cpcOn {
		e.setModels(probCutFor(e.res, v[0], v[1]))
	}
}

// Game is Dice as the stages use it: the contract, this engine, and the
// depths a search of a Dice position can take.
func Game() search.Kit {
	return search.Kit{
		Game:     rules.Game{},
		HandEval: handName,
		Chapter:  rules.Chapter,
		// The thesis's bench (depths 9, 11, 13 on the committed 5x5/4
		// suite), the chapter's tune depths (tables 5.6 to 5.8) and its
		// collect (pairs 3:7 and 5:9 over positions of 5 to 12 checkers).
		Defaults: search.Defaults{
			Suite:         "search/testdata/dice5x5-4.suite",
			BenchDepths:   []int{9, 11, 13},
			TuneDepths:    []int{9, 11, 13},
			CollectPairs:  [][2]int{{3, 7}, {5, 9}},
			CollectPhases: [2]int{5, 12},
		},
		Notation: "DPN",
		SizedVariant: func(n, m int) (string, error) {
			if _, err := rules.New(n, m); err != nil {
				return "", err
			}
			return rules.Variant(n, m), nil
		},
		NewEngine: func(r *search.Resolved) search.Engine { return New(r) },
		MaxDepth:  func(root game.State) int { return searchDepth(boardOf(root)) },
		EndsOnChance: func(root game.State, depth int) bool {
			return endsOnChance(isChance(boardOf(root)), depth)
		},
		Check: func(r *search.Resolved, pos game.State) error {
			if err := search.CheckNoise(r.Config(), gameName, evalNoise); err != nil {
				return err
			}
			b := boardOf(pos)
			return CheckBoard(r, b.N(), b.M())
		},
		NetID: func(r *search.Resolved, pos game.State) string {
			b := boardOf(pos)
			return netID(r, b.N(), b.M())
		},
		ProbCutSource: func(r *search.Resolved, pos game.State) string {
			b := boardOf(pos)
			v := rules.Variant(b.N(), b.M())
			return r.ProbCutSource(rules.BuiltinFit(v), gameName, v, netID(r, b.N(), b.M()))
		},
		ChanceNode: func(pos game.State) (game.State, bool) {
			b := *boardOf(pos)
			if b.Kind() != game.Decision {
				return nil, false
			}
			b.ClearRoll() // the chance node before the roll
			return &b, true
		},
		Net: &search.NetKit{
			New: func(variant string, rng *rand.Rand, scale float64) (*nn.Net, error) {
				n, m, err := rules.ParseVariant(variant)
				if err != nil {
					return nil, err
				}
				return rules.NewNet(n, m, rng, scale)
			},
			Check: func(net *nn.Net, variant string) error {
				n, m, err := rules.ParseVariant(variant)
				if err != nil {
					return err
				}
				return rules.CheckNet(net, n, m)
			},
			Features: func(pos game.State, x []float64) { rules.Features(boardOf(pos), x) },
			Evaluator: func(net *nn.Net) (search.NetValue, error) {
				ev, err := rules.NewNetEvaluator(net)
				if err != nil {
					return nil, err
				}
				return netValue{ev}, nil
			},
			Rate: func(variant string) float64 {
				n, _, err := rules.ParseVariant(variant)
				if err != nil {
					return 0
				}
				return DefaultRate(n)
			},
			Inputs: func(variant, set string) (int, error) {
				n, _, err := rules.ParseVariant(variant)
				if err != nil {
					return 0, err
				}
				return rules.SetInputs(n, set)
			},
		},
	}
}

// DefaultRate is the TD learning rate of an n x n board: 2.5/n^2, 0.1 at
// 5x5. Every checker on the board is an active input, so the step a TD
// update makes on the output grows with the number of cells; at 11x11
// rate 0.1 oscillates (mean |TD error| 0.063 against 0.018 with rate 0.03
// after 40,000 games, and 54.1% against 59.7% over pairs).
func DefaultRate(n int) float64 { return 2.5 / float64(n*n) }

// netValue is the engine's net evaluator as a search.NetValue: the value
// of a board computed from scratch.
type netValue struct{ ev *netEval }

func (v netValue) Value(pos game.State) float64 { return v.ev.Value(boardOf(pos)) }
func (v netValue) Clone() search.NetValue       { return netValue{v.ev.Clone()} }

// CheckBoard reports whether engines of r can search positions of an n x n
// board with win length m: a network is made for one board size (a
// net=FILE must be a Dice net of it), without net=FILE the built-in net of
// the size must exist, and a probcut=FILE must be a fit for the board and
// net.
func CheckBoard(r *search.Resolved, n, m int) error {
	c := r.Config()
	if err := search.CheckHandEval(c, gameName, handName); err != nil {
		return err
	}
	if net := r.NetFile(); net != nil {
		if _, _, err := rules.NetSize(net); err != nil { // a Dice net, of a legal board
			return fmt.Errorf("net file %s: %v", c.Net, err)
		}
		if err := rules.CheckNet(net, n, m); err != nil {
			return fmt.Errorf("net %s: %v", c.Net, err)
		}
	} else if c.Eval == "mlp" {
		if _, err := rules.EmbeddedNet(n, m); err != nil {
			return fmt.Errorf("eval=mlp: %v", err)
		}
	}
	return r.CheckProbCut(gameName, rules.Variant(n, m), netID(r, n, m))
}

// probCutFor returns the ChanceProbCut parameters of engines of r on n x n
// boards with win length m: the probcut=FILE, else the built-in fit of the
// board when it was made for r's evaluator and net, else the defaults.
func probCutFor(r *search.Resolved, n, m int) *search.ProbCutParams {
	v := rules.Variant(n, m)
	return r.ProbCutFor(rules.BuiltinFit(v), gameName, v, netID(r, n, m))
}

// netID returns the id of the network engines of r evaluate n x n boards
// with win length m with: the net=FILE's, or the built-in net's of the
// size; "" when the evaluator is not a network or there is none.
func netID(r *search.Resolved, n, m int) string {
	if r.Config().Eval != "mlp" {
		return ""
	}
	if net := r.NetFile(); net != nil {
		return net.ID()
	}
	if net, err := rules.EmbeddedNet(n, m); err == nil {
		return net.ID()
	}
	return ""
}

// netFor returns the network of n x n boards with win length m: the
// net=FILE's, else the built-in net of the size. It panics when there is
// none: CheckBoard says so first.
func netFor(r *search.Resolved, n, m int) *nn.Net {
	if net := r.NetFile(); net != nil {
		return net
	}
	net, err := rules.EmbeddedNet(n, m)
	if err != nil {
		panic(err) // the caller's check (CheckBoard) was skipped
	}
	return net
}
