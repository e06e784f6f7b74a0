package backgammon

import (
	"fmt"

	"starlab/search/game"
)

// Game describes backgammon to the game contract. Its variants are 1pt
// (the default) and money.
type Game struct{}

// Name implements game.Game.
func (Game) Name() string { return "backgammon" }

// DefaultVariant implements game.Game: a one-point game.
func (Game) DefaultVariant() string { return OnePoint.String() }

// New implements game.Game: the start, O to roll the opening roll.
func (Game) New(variant string) (game.State, error) {
	v, err := ParseVariant(variant)
	if err != nil {
		return nil, err
	}
	return StartBoard(v), nil
}

// Parse implements game.Game (see Parse).
func (Game) Parse(text string) (game.State, error) {
	b, err := Parse(text)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// Variant implements game.Game.
func (Game) Variant(s game.State) string { return s.(*Board).variant.String() }

// Phase implements game.Game: both sides' pip counts together, in tens
// (33 at the start, falling as the game goes on and rising with hits).
func (Game) Phase(s game.State) int {
	b := s.(*Board)
	return (b.Pips(0) + b.Pips(1)) / 10
}

// PhaseRange implements game.Game: from 0 (a checker a side on its 1
// point) to 75 (every checker on the bar).
func (Game) PhaseRange(game.State) (lo, hi int) { return 0, 2 * Checkers * Bar / 10 }

// FormatMove implements game.Game: the play in gnubg's notation.
func (Game) FormatMove(s game.State, m game.Move) string { return s.(*Board).FormatPlay(int(m)) }

// ParseMove implements game.Game (see Board.ParsePlay).
func (Game) ParseMove(s game.State, text string) (game.Move, error) {
	m, err := s.(*Board).ParsePlay(text)
	return game.Move(m), err
}

// FormatEvent implements game.Game: "roll 31".
func (Game) FormatEvent(_ game.State, e game.Event) string {
	hi, lo := RollDice(int(e.ID))
	return fmt.Sprintf("roll %d%d", hi, lo)
}

// CountsChance implements game.Game: depth counts chance plies, as Hauk
// does ("a ply consists of a min, max, or chance node"), so gnubg's 0-ply
// (every play of the roll evaluated) is depth 1, its 1-ply depth 3 and its
// 2-ply depth 5.
func (Game) CountsChance() bool { return true }
