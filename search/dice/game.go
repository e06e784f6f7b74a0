package dice

import (
	"fmt"
	"strconv"
	"strings"

	"starlab/search/game"
)

// DefaultVariant is the variant played when none is given: the thesis's
// 5x5 board with win length 4.
const DefaultVariant = "5x5-4"

// Variant returns the name of the n x n variant with win length m,
// "<n>x<n>-<m>" ("5x5-4"): the name that keys nets, fits and checks.
func Variant(n, m int) string {
	return strconv.Itoa(n) + "x" + strconv.Itoa(n) + "-" + strconv.Itoa(m)
}

// ParseVariant reads a variant written as Variant writes it,
// "<n>x<n>-<m>", and checks the ranges New checks. It returns a one-line
// error naming the variant and the problem.
func ParseVariant(s string) (n, m int, err error) {
	size, win, ok := strings.Cut(s, "-")
	rows, cols, ok2 := strings.Cut(size, "x")
	if !ok || !ok2 || !isDigits(rows) || !isDigits(cols) || !isDigits(win) {
		return 0, 0, fmt.Errorf("dice variant %q is not <n>x<n>-<m>, like %q", s, DefaultVariant)
	}
	n, c, m := atoiDigits(rows), atoiDigits(cols), atoiDigits(win)
	switch {
	case n != c:
		return 0, 0, fmt.Errorf("dice variant %q has %s rows and %s columns: a Dice board is square", s, rows, cols)
	case n < MinN || n > MaxN:
		return 0, 0, fmt.Errorf("dice variant %q: board size %s out of range [%d, %d]", s, rows, MinN, MaxN)
	case m < 2 || m > n:
		return 0, 0, fmt.Errorf("dice variant %q: win length %s out of range [2, %d]", s, win, n)
	case Variant(n, m) != s:
		// Leading zeros: one variant has one name, since names key files.
		return 0, 0, fmt.Errorf("dice variant %q is written %q", s, Variant(n, m))
	}
	return n, m, nil
}

// isDigits reports whether s is a non-empty run of ASCII digits.
func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// atoiDigits returns the value of a run of digits, or a value out of every
// range when it does not fit an int.
func atoiDigits(s string) int {
	v, err := strconv.Atoi(s)
	if err != nil {
		return -1
	}
	return v
}

// Game is the Dice descriptor of the game contract: the game's name, its
// variants "<n>x<n>-<m>", and its text (DPN for positions, cell notation
// for moves, the rolled line in words for events). It holds no state; its
// methods take states made by New or Parse (a *Board) and panic on any
// other.
type Game struct{}

var _ game.Game = Game{}

// Name returns "dice".
func (Game) Name() string { return "dice" }

// DefaultVariant returns DefaultVariant, "5x5-4".
func (Game) DefaultVariant() string { return DefaultVariant }

// New returns the empty board of variant ("5x5-4"), blue to roll, or a
// one-line error naming the variant and the problem.
func (Game) New(variant string) (game.State, error) {
	n, m, err := ParseVariant(variant)
	if err != nil {
		return nil, err
	}
	b, err := New(n, m)
	if err != nil {
		return nil, fmt.Errorf("dice variant %q: %v", variant, err)
	}
	return b, nil
}

// Parse reads a position in DPN (ParseDPN).
func (Game) Parse(text string) (game.State, error) {
	b, err := ParseDPN(text)
	if err != nil {
		return nil, err // not b: a nil *Board in a State is not a nil State
	}
	return b, nil
}

// Variant returns the variant of s, "<n>x<n>-<m>".
func (Game) Variant(s game.State) string {
	b := board(s)
	return Variant(b.n, b.m)
}

// Phase returns the number of checkers on the board.
func (Game) Phase(s game.State) int { return board(s).Checkers() }

// PhaseRange returns 0 and n*n-1: a full board is over.
func (Game) PhaseRange(s game.State) (lo, hi int) { n := board(s).N(); return 0, n*n - 1 }

// FormatMove returns the cell m in move notation ("d3").
func (Game) FormatMove(s game.State, m game.Move) string {
	return FormatMove(int(m), board(s).n)
}

// ParseMove reads a move in notation ("d3") and returns it if it is legal
// in s, or a one-line error naming the move and why it is not.
func (Game) ParseMove(s game.State, text string) (game.Move, error) {
	b := board(s)
	cell, err := ParseMove(text, b.n)
	if err != nil {
		return 0, err
	}
	switch {
	case b.Over():
		return 0, fmt.Errorf("move %q: the game is over", text)
	case b.roll == NoRoll:
		return 0, fmt.Errorf("move %q: %s has not rolled the die yet", text, colorName(b.stm))
	case b.cells[cell] != Empty:
		return 0, fmt.Errorf("move %q: the cell is taken", text)
	case !b.IsLegal(cell):
		return 0, fmt.Errorf("move %q is not on the rolled %s", text, b.rolledLine())
	}
	return game.Move(cell), nil
}

// FormatEvent returns the line e rolls in words: "row 3" for blue,
// "column c" for red.
func (Game) FormatEvent(s game.State, e game.Event) string {
	b := board(s)
	return lineName(b.stm) + " " + b.LineLabel(int(e.ID))
}

// CountsChance returns true: a Dice search counts a roll as a ply, as the
// thesis does.
func (Game) CountsChance() bool { return true }

// rolledLine returns the rolled line in words, "row 3" or "column c".
func (b *Board) rolledLine() string {
	return lineName(b.stm) + " " + b.LineLabel(int(b.roll))
}

// board returns the *Board behind s; any other State is a program error.
func board(s game.State) *Board {
	b, ok := s.(*Board)
	if !ok {
		panic(fmt.Sprintf("dice: state is a %T, not a *dice.Board", s))
	}
	return b
}
