package gametest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"starlab/search/game"
)

// broken is a race with one bug, named by bug ("" for none).
type broken struct {
	*race
	bug string
	// calls counts Key calls, for a Key that changes by itself.
	calls *int
}

func (b *broken) Kind() game.Kind {
	switch b.bug {
	case "kind-out-of-range":
		return 7
	case "decision-without-moves":
		if b.race.Kind() == game.Chance {
			return game.Decision
		}
	}
	return b.race.Kind()
}

func (b *broken) Mover() int {
	switch b.bug {
	case "mover-2":
		return 2
	case "chance-mover-is-roller":
		if b.race.rolling {
			return b.race.turn // the side that moved before the event
		}
	}
	return b.race.Mover()
}

func (b *broken) Legal(dst []game.Move) []game.Move {
	switch b.bug {
	case "legal-appends":
		return append(dst, b.race.Legal(nil)...)
	case "repeated-move":
		if b.race.Kind() == game.Decision {
			return append(dst[:0], 1, 1)
		}
	case "moves-at-chance":
		return append(dst[:0], 1)
	}
	return b.race.Legal(dst)
}

func (b *broken) Outcomes(dst []game.Event) ([]game.Event, int) {
	evs, total := b.race.Outcomes(dst)
	switch b.bug {
	case "zero-weight":
		if len(evs) > 0 {
			evs[0].Weight = 0
		}
	case "wrong-total":
		if total > 0 {
			total++
		}
	}
	return evs, total
}

func (b *broken) Result() float64 {
	if b.bug == "result-2" {
		return 2
	}
	return b.race.Result()
}

func (b *broken) Key() uint64 {
	switch b.bug {
	case "key-ignores-roll":
		return b.race.Key() &^ 1
	case "key-drifts":
		*b.calls++
		return b.race.Key() ^ uint64(*b.calls)<<50
	}
	return b.race.Key()
}

func (b *broken) CopyFrom(src game.State) {
	c := src.(*broken)
	b.race.CopyFrom(c.race)
	b.bug, b.calls = c.bug, c.calls
}

func (b *broken) Clone() game.State {
	if b.bug == "shared-clone" {
		return b
	}
	return &broken{b.race.Clone().(*race), b.bug, b.calls}
}

func (b *broken) String() string {
	if b.bug == "string-drops-turn" {
		s := b.race.String()
		return s[:strings.LastIndexByte(s[:len(s)-2], ' ')] + " 0" + s[len(s)-2:]
	}
	return b.race.String()
}

func (b *broken) Play(m game.Move) {
	r := b.race
	switch {
	case b.bug == "never-ends":
		r.rolling = true // no score, then a roll that adds none (Happen)
		return
	case b.bug == "winner-to-move" && r.score[r.turn]+int(m) >= r.target:
		r.score[r.turn] += int(m) // over, with the winner as Mover
		return
	}
	r.Play(m)
}

func (b *broken) Happen(e game.Event) {
	r := b.race
	if b.bug == "never-ends" {
		r.rolling, r.turn = false, 1-r.turn
		return
	}
	if b.bug == "roll-again" && e.ID == 1 {
		// As in Pig: the roller moves again after a bonus, and the
		// chance node's Mover, the opponent, does not move next.
		r.score[r.turn]++
		r.rolling = false
		return
	}
	b.race.Happen(e)
}

// brokenGame is raceGame whose states are broken by bug, with bugs of its
// own in the text of moves and events.
type brokenGame struct {
	raceGame
	bug string
}

func (g brokenGame) wrap(s game.State, err error) (game.State, error) {
	if err != nil {
		return nil, err
	}
	return &broken{s.(*race), g.bug, new(int)}, nil
}

func (g brokenGame) New(variant string) (game.State, error) { return g.wrap(g.raceGame.New(variant)) }
func (g brokenGame) Parse(text string) (game.State, error)  { return g.wrap(g.raceGame.Parse(text)) }

func (g brokenGame) FormatMove(s game.State, m game.Move) string {
	if g.bug == "move-text" {
		return "plus " + g.raceGame.FormatMove(s, m)
	}
	return g.raceGame.FormatMove(s, m)
}

func (g brokenGame) ParseMove(s game.State, text string) (game.Move, error) {
	m, err := g.raceGame.ParseMove(s, text)
	if g.bug == "parse-move-off" && err == nil {
		m = 3 - m
	}
	return m, err
}

func (g brokenGame) FormatEvent(s game.State, e game.Event) string {
	if g.bug == "event-text-same" {
		return "bonus"
	}
	if g.bug == "event-last-word-same" {
		return fmt.Sprintf("event %d of the roll", e.ID)
	}
	return g.raceGame.FormatEvent(s, e)
}

func (g brokenGame) Variant(s game.State) string {
	if g.bug == "variant-wrong" {
		return "to11"
	}
	return g.raceGame.Variant(s)
}

func TestCheckPassesRace(t *testing.T) {
	for _, v := range []string{"to1", "to2", "to10", "to40"} {
		Check(t, raceGame{}, " ", v, 1, 200)
		Check(t, brokenGame{}, " ", v, 2, 50) // the wrapper without a bug
	}
}

func TestCheckFindsBugs(t *testing.T) {
	tests := []struct{ bug, want string }{
		{"kind-out-of-range", "Kind is 7"},
		{"decision-without-moves", "a decision without legal moves"},
		{"mover-2", "Mover is 2"},
		{"legal-appends", "Legal must append to dst[:0]"},
		{"repeated-move", "move 1 is legal twice"},
		{"moves-at-chance", "a chance node with legal moves [1]"},
		{"zero-weight", "event 0 has weight 0"},
		{"wrong-total", "event weights sum to 3, Outcomes says the total is 4"},
		{"result-2", "Result is 2, not in [-1, 1]"},
		{"key-ignores-roll", "two states with different Strings share a Key"},
		{"key-drifts", "the calls that only read changed the state"},
		{"shared-clone", "playing on a Clone changed the original"},
		{"string-drops-turn", "Parse of String gives a"},
		{"never-ends", "not over after 500 plies"},
		{"move-text", `FormatMove(1) is "plus +1", not one word`},
		{"parse-move-off", `ParseMove("+1"), the text of move 1, gives move 2`},
		{"event-text-same", `FormatEvent gives events 0 and 1 the same last word "bonus"`},
		{"event-last-word-same", `FormatEvent gives events 0 and 1 the same last word "roll"`},
		{"variant-wrong", `Variant is "to11" in a game of "to10"`},
	}
	for _, tc := range tests {
		err := check(brokenGame{bug: tc.bug}, " ", "to10", 1, 20, 500, false)
		if err == nil {
			t.Errorf("%s: check passes", tc.bug)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: check says\n%v\nwant %q", tc.bug, err, tc.want)
		}
	}
}

// TestCheckFixedSignsFindsBugs: games whose moves or events change the
// mover otherwise than the fixed signs say pass Check, where values follow
// the mover (a side that rolls again decides again, as in Pig), and fail
// CheckFixedSigns, which the engines that assume the fixed signs rely on.
func TestCheckFixedSignsFindsBugs(t *testing.T) {
	for _, tc := range []struct{ bug, want string }{
		{"roll-again", `event "bonus 1": its child (decision) has mover 0, the chance node's is 1`},
		{"winner-to-move", "(over) has mover 1, the decision's own"},
		{"chance-mover-is-roller", "move +1: its child (chance) has mover 0, the decision's own"},
	} {
		if err := check(brokenGame{bug: tc.bug}, " ", "to10", 1, 20, 500, false); err != nil && tc.bug != "winner-to-move" {
			t.Errorf("%s: check without fixed signs says %v", tc.bug, err)
		}
		err := check(brokenGame{bug: tc.bug}, " ", "to10", 1, 20, 500, true)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: check with fixed signs says\n%v\nwant %q", tc.bug, err, tc.want)
		}
	}
	CheckFixedSigns(t, raceGame{}, " ", "to10", 1, 50)
}

func TestCheckRefusesBadArguments(t *testing.T) {
	for _, tc := range []struct {
		variant string
		games   int
		want    string
	}{
		{"to10", 0, "0 games checks nothing"},
		{"to0", 1, `race: New("to0"): race variant "to0" is not to<1..100>`},
	} {
		if err := check(raceGame{}, " ", tc.variant, 1, tc.games, maxPlies, false); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("check(%q, %d games) = %v, want %q", tc.variant, tc.games, err, tc.want)
		}
	}
}

// TestCheckFailsTheTest runs Check on a broken game in a child process and
// checks that the child's test fails, naming the bug: Check itself, not
// only check, fails a test.
func TestCheckFailsTheTest(t *testing.T) {
	if os.Getenv("GAMETEST_CHILD") == "1" {
		Check(t, brokenGame{bug: "shared-clone"}, " ", "to10", 1, 5)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestCheckFailsTheTest$", "-test.count=1")
	cmd.Env = append(os.Environ(), "GAMETEST_CHILD=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); !ok {
		t.Fatalf("the child running Check on a broken game: %v, want a failing exit; output:\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "--- FAIL: TestCheckFailsTheTest") || !strings.Contains(out.String(), "playing on a Clone changed the original") {
		t.Fatalf("the child's output does not fail the test for the bug:\n%s", out.String())
	}
}
