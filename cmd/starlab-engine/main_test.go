package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"starlab/search"
	"starlab/search/game"
	"starlab/search/games"
	"starlab/selfplay"
)

// The positions of docs/protocol.md.
const (
	dicePos         = "5 4 b 3 r b - r - b b - - - r r - - - - - - - - b - - - -"
	backgammonPos   = "4HPwATDgc/ABMA O 31"
	breakthroughPos = "8 8 w ...bb.bb/bw.....b/.b...b../.w....../.w....../...ww.../.....www/.......w"
)

// TestConversation plays a scripted conversation through run: the
// handshake, a move of each game, and the games it refuses.
func TestConversation(t *testing.T) {
	script := []string{
		"protocol 1",
		"protocol 2",
		"setoption spec staretc:eval=pairs",
		"game dice 5x5-4 1",
		"ping 7",
		"newgame 1",
		"position " + dicePos,
		"legal a4\tb4\tc4\td4\te4", // not asked for: ignored
		"go depth 3",
		"setoption spec staretc",
		"game backgammon 1pt 1",
		"newgame 18446744073709551615",
		"position " + backgammonPos + "\r",
		"go depth 1",
		"game breakthrough 8x8 1",
		"newgame 2",
		"position " + breakthroughPos,
		"go nodes 500 depth 3",
		"game chess x 1",
		"game dice 5x5-4 2",
		"game dice 5x5 1",
		"setoption spec staretc:depth=3",
		"game dice 5x5-4 1",
		"position " + dicePos,
		"go depth 1",
		"quit",
		"go depth 1", // after quit: never read
	}
	var out strings.Builder
	if err := run(strings.NewReader(strings.Join(script, "\n")+"\n"), &out); err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	want := []string{"error", "id name starlab-engine", "id author starlab", "option spec staretc", "protocolok",
		"gameok", "pong 7", "info", "move", "gameok", "info", "move", "gameok", "info", "move",
		"error", "error", "error", "error", "error", "error"}
	if len(got) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(got), len(want), out.String())
	}
	for i, w := range want {
		if got[i] != w && !strings.HasPrefix(got[i], w+" ") {
			t.Errorf("line %d is %q, want %q", i+1, got[i], w)
		}
	}
	checkMove(t, "dice", dicePos, got[8])
	checkMove(t, "backgammon", backgammonPos, got[11])
	checkMove(t, "breakthrough", breakthroughPos, got[14])
	for i, want := range map[int]string{0: "speaks version 2", 15: `"chess" is unknown`, 16: "rules version 2", 17: `"5x5"`, 18: "a limit comes with each go", 20: "go without a position"} {
		if !strings.Contains(got[i], want) {
			t.Errorf("line %d is %q, want it to say %s", i+1, got[i], want)
		}
	}
}

// checkMove checks that line is "move M" with M a legal move of pos.
func checkMove(t *testing.T, name, pos, line string) {
	t.Helper()
	kit, err := games.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	s, err := kit.Parse(pos)
	if err != nil {
		t.Fatal(err)
	}
	text, ok := strings.CutPrefix(line, "move ")
	if !ok {
		t.Fatalf("%s: %q is not a move line", name, line)
	}
	m, err := kit.ParseMove(s, text)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if !slices.Contains(s.Legal(nil), m) {
		t.Errorf("%s: %q is not a legal move of %s", name, text, pos)
	}
}

// TestSameAsInProcess plays a pair of games of each game from one seed,
// the sides swapped in the second as in a match, once with starlab's
// players in process and once with two engines through the protocol, and
// wants the same moves, scores, depths and nodes: the protocol changes
// nothing of the search. The second game checks that newgame clears what
// the first left, as a match does between games; ChanceBreakthrough's
// evaluation noise, that newgame's seed reaches it.
func TestSameAsInProcess(t *testing.T) {
	for _, c := range []struct {
		game, spec string
		depth      int
	}{
		{"dice", "staretc", 3},
		{"backgammon", "staretc:eval=contact", 1},
		{"breakthrough", "staretc:eval=material,noise=0.1", 3},
	} {
		t.Run(c.game, func(t *testing.T) {
			kit, err := games.Lookup(c.game)
			if err != nil {
				t.Fatal(err)
			}
			start, err := kit.New(kit.DefaultVariant())
			if err != nil {
				t.Fatal(err)
			}
			spec, err := kit.ParseSpec(c.spec)
			if err != nil {
				t.Fatal(err)
			}
			r, err := spec.Config.Resolve()
			if err != nil {
				t.Fatal(err)
			}
			const seed = 12345
			var inProcess [2]*selfplay.EnginePlayer
			var external [2]*engine
			for i := range inProcess {
				inProcess[i] = selfplay.NewEnginePlayer("in process", kit.NewEngine(r), search.Limits{Depth: c.depth})
				external[i] = startEngine(t, kit, c.spec, c.depth)
			}
			moves := 0
			for g := range 2 {
				for i := range inProcess { // as selfplay's playPair does before each game
					inProcess[i].Engine().ClearTT()
					if s, ok := inProcess[i].Engine().(search.Salter); ok {
						s.SetSalt(seed)
					}
					external[i].send("newgame " + strconv.Itoa(seed))
				}
				a, b := [2]selfplay.Player{inProcess[0], inProcess[1]}, [2]selfplay.Player{external[0], external[1]}
				if g == 1 {
					a, b = [2]selfplay.Player{inProcess[1], inProcess[0]}, [2]selfplay.Player{external[1], external[0]}
				}
				rec1, choices1 := play(t, kit, start, a, seed)
				rec2, choices2 := play(t, kit, start, b, seed)
				if !slices.Equal(rec1.Actions, rec2.Actions) {
					t.Fatalf("game %d differs:\nin process %v\nprotocol   %v", g, rec1.Actions, rec2.Actions)
				}
				if !slices.Equal(choices1, choices2) {
					t.Fatalf("the searches of game %d differ:\nin process %v\nprotocol   %v", g, choices1, choices2)
				}
				moves += len(choices1)
			}
			t.Logf("%d moves alike", moves)
		})
	}
}

// play plays a game from start with players and returns its record and
// every choice made.
func play(t *testing.T, kit search.Kit, start game.State, players [2]selfplay.Player, seed uint64) (selfplay.Record, []selfplay.Choice) {
	t.Helper()
	var choices []selfplay.Choice
	observe := func(_ context.Context, st *selfplay.Step) error {
		if st.State.Kind() == game.Decision {
			choices = append(choices, st.Choice)
		}
		return nil
	}
	rec, err := selfplay.Play(context.Background(), kit, start, players, selfplay.NewChanceStream(seed), observe)
	if err != nil {
		t.Fatal(err)
	}
	return rec, choices
}

// engine is run behind pipes, played as a selfplay.Player: a referee in
// miniature.
type engine struct {
	t     *testing.T
	kit   search.Kit
	in    *io.PipeWriter
	lines chan string
	goCmd string
}

// startEngine starts run, does the handshake, sets the spec and has the
// engine accept the default variant of kit; it stops when the test ends.
func startEngine(t *testing.T, kit search.Kit, spec string, depth int) *engine {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	e := &engine{t: t, kit: kit, in: inW, lines: make(chan string), goCmd: fmt.Sprintf("go depth %d", depth)}
	done := make(chan error, 1)
	go func() { done <- run(inR, outW); outW.Close() }()
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			e.lines <- sc.Text()
		}
		close(e.lines)
	}()
	t.Cleanup(func() {
		go func() {
			for range e.lines { // what a failed test left unread
			}
		}()
		io.WriteString(inW, "quit\n")
		inW.Close()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	e.send("protocol 2")
	e.until("protocolok")
	e.send("setoption spec " + spec)
	e.send(fmt.Sprintf("game %s %s 1", kit.Name(), kit.DefaultVariant()))
	if line := e.until("gameok"); line != "gameok" {
		t.Fatal(line)
	}
	return e
}

func (e *engine) send(line string) {
	if _, err := io.WriteString(e.in, line+"\n"); err != nil {
		e.t.Fatal(err)
	}
}

// until returns the first line that starts with word or is an error,
// having seen every line before it.
func (e *engine) until(word string) string {
	for {
		select {
		case line, ok := <-e.lines:
			if !ok {
				e.t.Fatalf("the engine stopped before %s", word)
			}
			if w, _, _ := strings.Cut(line, " "); w == word || w == "error" {
				return line
			}
		case <-time.After(10 * time.Second):
			e.t.Fatalf("no %s within 10 s", word)
		}
	}
}

func (e *engine) Name() string { return "protocol" }

// Choose sends s and go, and reads the last info line and the move.
func (e *engine) Choose(_ context.Context, s game.State) selfplay.Choice {
	e.send("position " + s.String())
	e.send(e.goCmd)
	var ch selfplay.Choice
	line := e.until("info")
	if _, err := fmt.Sscanf(line, "info depth %d score %g nodes %d", &ch.Depth, &ch.Score, &ch.Nodes); err != nil {
		e.t.Fatalf("%q: %v", line, err)
	}
	text, ok := strings.CutPrefix(e.until("move"), "move ")
	if !ok {
		e.t.Fatalf("no move for %s", s)
	}
	m, err := e.kit.ParseMove(s, text)
	if err != nil {
		e.t.Fatal(err)
	}
	ch.Move = m
	return ch
}
