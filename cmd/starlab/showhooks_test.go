package main

import (
	"strings"
	"testing"

	"starlab/search"
	"starlab/search/game"
	"starlab/search/game/toy"
)

// rollsOnly is a toy position whose every move leads to chance, as in a
// game whose roll comes before every move.
type rollsOnly struct{ *toy.Board }

func (rollsOnly) Legal(dst []game.Move) []game.Move { return append(dst[:0], toy.Roll) }

// rollsGame is the toy game of rollsOnly positions.
type rollsGame struct{ toy.Game }

func (rollsGame) Variant(s game.State) string { return toy.Game{}.Variant(s.(rollsOnly).Board) }

// TestShowEveryMoveToChance: where every move leads to a chance node, show
// lists them as the moves they are, not as "0 moves".
func TestShowEveryMoveToChance(t *testing.T) {
	b, err := toy.Parse("6 1 2 0")
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	showState(&out, search.NewKit(rollsGame{}, toy.Description(), search.EngineParts{}), rollsOnly{b})
	if got := out.String(); !strings.Contains(got, "side 0 to move: 1 moves, each followed by chance: roll") || strings.Contains(got, "0 moves") {
		t.Fatalf("show of a position whose moves all lead to chance:\n%s", got)
	}
}
