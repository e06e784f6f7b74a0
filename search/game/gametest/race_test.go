package gametest

import (
	"fmt"
	"strconv"
	"strings"

	"starlab/search/game"
)

// race is a toy game that keeps the contract, with weights other than 1 and
// the chance node on the far side of a move, as in ChanceBreakthrough: the
// side whose turn it is adds 1 or 2 to its score (a decision), then a die
// adds a bonus of 0 (weight 1) or 1 (weight 2) to it (a chance node whose
// mover is the opponent, who moves after it), and the turn passes. The
// first score to reach the target wins; the game is over as soon as one
// does, with the loser to move.
type race struct {
	target  int
	score   [2]int
	turn    int  // 0 or 1
	rolling bool // the turn's move is made; its die is to be rolled
}

func (r *race) Kind() game.Kind {
	switch {
	case r.score[0] >= r.target || r.score[1] >= r.target:
		return game.Over
	case r.rolling:
		return game.Chance
	}
	return game.Decision
}

func (r *race) Mover() int {
	if r.rolling {
		return 1 - r.turn
	}
	return r.turn
}

func (r *race) Legal(dst []game.Move) []game.Move {
	dst = dst[:0]
	if r.Kind() == game.Decision {
		dst = append(dst, 1, 2)
	}
	return dst
}

func (r *race) Outcomes(dst []game.Event) ([]game.Event, int) {
	dst = dst[:0]
	if r.Kind() != game.Chance {
		return dst, 0
	}
	return append(dst, game.Event{ID: 0, Weight: 1}, game.Event{ID: 1, Weight: 2}), 3
}

func (r *race) Play(m game.Move) {
	r.score[r.turn] += int(m)
	r.rolling = true
	if r.score[r.turn] >= r.target {
		r.rolling = false
		r.turn = 1 - r.turn
	}
}

func (r *race) Happen(e game.Event) {
	r.score[r.turn] += int(e.ID)
	r.rolling = false
	r.turn = 1 - r.turn
}

// Result is -1: the game ends with the loser to move.
func (r *race) Result() float64 { return -1 }

func (r *race) Key() uint64 {
	k := uint64(r.target)<<40 | uint64(r.score[0])<<24 | uint64(r.score[1])<<8 | uint64(r.turn)<<1
	if r.rolling {
		k |= 1
	}
	return k
}

func (r *race) CopyFrom(src game.State) { *r = *src.(*race) }

func (r *race) Clone() game.State {
	c := *r
	return &c
}

// String is "race <target> <score 0> <score 1> <turn> <d or c>".
func (r *race) String() string {
	phase := "d"
	if r.rolling {
		phase = "c"
	}
	return fmt.Sprintf("race %d %d %d %d %s", r.target, r.score[0], r.score[1], r.turn, phase)
}

// raceGame describes race; its variants are "to<target>".
type raceGame struct{}

func (raceGame) Name() string           { return "race" }
func (raceGame) DefaultVariant() string { return "to10" }

func (raceGame) New(variant string) (game.State, error) {
	t, err := strconv.Atoi(strings.TrimPrefix(variant, "to"))
	if err != nil || !strings.HasPrefix(variant, "to") || t < 1 || t > 100 {
		return nil, fmt.Errorf("race variant %q is not to<1..100>", variant)
	}
	return &race{target: t}, nil
}

func (raceGame) Parse(text string) (game.State, error) {
	var r race
	var phase string
	if _, err := fmt.Sscanf(text, "race %d %d %d %d %s", &r.target, &r.score[0], &r.score[1], &r.turn, &phase); err != nil {
		return nil, fmt.Errorf("race position %q: %v", text, err)
	}
	r.rolling = phase == "c"
	return &r, nil
}

func (raceGame) Variant(s game.State) string { return "to" + strconv.Itoa(raceOf(s).target) }
func (raceGame) Phase(s game.State) int      { r := raceOf(s); return r.score[0] + r.score[1] }
func (raceGame) PhaseRange(s game.State) (lo, hi int) {
	return 0, 2 * (raceOf(s).target - 1)
}

func (raceGame) FormatMove(_ game.State, m game.Move) string { return "+" + strconv.Itoa(int(m)) }

func (raceGame) ParseMove(s game.State, text string) (game.Move, error) {
	switch text {
	case "+1":
		return 1, nil
	case "+2":
		return 2, nil
	}
	return 0, fmt.Errorf("race move %q is not +1 or +2", text)
}

func (raceGame) FormatEvent(_ game.State, e game.Event) string {
	return "bonus " + strconv.Itoa(int(e.ID))
}
func (raceGame) CountsChance() bool { return false }

// raceOf returns the race behind a state of race or of a broken race.
func raceOf(s game.State) *race {
	switch v := s.(type) {
	case *race:
		return v
	case *broken:
		return v.race
	}
	panic(fmt.Sprintf("not a race: %T", s))
}
