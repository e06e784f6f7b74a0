package selfplay

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"starlab/runs"
)

// fakeEngineArg, as the test binary's first argument, makes it the fake
// engine below instead of running the tests.
const fakeEngineArg = "starlab-fake-engine"

func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == fakeEngineArg {
		os.Exit(fakeEngine())
	}
	os.Exit(m.Run())
}

// fakeEngine speaks the protocol as docs/protocol.md says, asks for the
// legal moves and plays the first, except at its first move of a game
// whose seed is a multiple of 3, where it does what its option fault
// says: "illegal" replies a move that is no move, "malformed" a line that
// is not a move line, "hang" nothing, "exit" ends the program; the faults
// of hostile_test.go are there too.
func fakeEngine() int {
	if code, done := hostileStart(); done {
		return code
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	out := bufio.NewWriter(os.Stdout)
	say := func(s string) { out.WriteString(s + "\n"); out.Flush() }
	fault, faulty, moved := "none", false, false
	var legal []string
	for in.Scan() {
		w, rest, _ := strings.Cut(in.Text(), " ")
		switch w {
		case "protocol":
			say("id name fake")
			say("option fault none")
			say("option state none")
			say("feature legal")
			say("protocolok")
		case "ping":
			say("pong " + rest)
		case "setoption":
			if k, v, _ := strings.Cut(rest, " "); k == "fault" {
				fault = v
			}
		case "game":
			say("gameok")
		case "newgame":
			seed, _ := strconv.ParseUint(rest, 10, 64)
			faulty, moved = seed%3 == 0, false
			if faulty && fault == "early" { // a move before any go of the game
				say("move " + strings.Join(legal, " "))
			}
		case "legal":
			legal = strings.Split(rest, "\t")
		case "go":
			first := !moved
			moved = true
			if faulty && hostileGo(fault, first, legal, say) {
				continue
			}
			if faulty && first {
				switch fault {
				case "illegal":
					say("move z99")
					continue
				case "malformed":
					say("hello")
					continue
				case "chatty": // a stray line, then the move it was asked for
					say("hello")
					say("move " + legal[0])
					continue
				case "hang":
					time.Sleep(time.Hour)
				case "spam": // info lines and never a move
					for {
						say("info depth 1")
					}
				case "exit":
					return 3
				}
			}
			say("info depth 1 score 0.25 nodes 7")
			say("move " + legal[0])
		case "quit":
			return 0
		}
	}
	return 0
}

// fakeSpec is the ext: spec of the fake engine with the given fault.
func fakeSpec(t *testing.T, fault string) string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("ext:cmd=%s,args=%s,timeout=400ms,opt.fault=%s", exe, fakeEngineArg, fault)
}

// TestOutsideForfeits: an outside engine that replies with an illegal
// move, a malformed line, nothing within its time limit, or exits, loses
// those games by forfeit, each recorded with its reason in the journal,
// the summary and games.parquet; it is started again for the next game,
// and the match finishes with the rest.
func TestOutsideForfeits(t *testing.T) {
	for _, fault := range []string{"illegal", "malformed", "chatty", "hang", "spam", "exit"} {
		t.Run(fault, func(t *testing.T) {
			set := matchSettings("staretc:depth=1", fakeSpec(t, fault))
			set.Games, set.Seed = 12, 5
			run, err := runs.CreateAt(filepath.Join(t.TempDir(), "m"), "match", nil, nil, 5)
			if err != nil {
				t.Fatal(err)
			}
			defer run.Close()
			rep, err := RunMatch(context.Background(), set, run, runs.NoProgress)
			if err != nil {
				t.Fatal(err)
			}
			want := 0 // games whose seed is a multiple of 3: the fake engine faults at its first move
			for i := 0; i < set.Games/2; i++ {
				if PairSeed(set.Seed, 0, i)%3 == 0 {
					want += 2
				}
			}
			if want == 0 || want == set.Games {
				t.Fatalf("seed %d: %d of %d games fault; the test wants some of each", set.Seed, want, set.Games)
			}
			s := rep.Pairings[0]
			reason := map[string]string{"illegal": "illegal", "malformed": "malformed", "chatty": "malformed", "hang": "timeout", "spam": "timeout", "exit": "exited"}[fault]
			if s.Games != set.Games || s.Forfeits == nil || s.Forfeits.A != 0 || s.Forfeits.B != want || s.Forfeits.ReasonB[reason] != want {
				t.Fatalf("%d games, forfeits %+v; want %d games, %d forfeits by B for %s", s.Games, s.Forfeits, set.Games, want, reason)
			}
			rows, err := runs.ReadParquet[GameRow](run.Path(GamesFile), MatchFormat)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, r := range rows {
				if r.Forfeit != "" {
					n++
					if !strings.Contains(r.Forfeit, reason+": ") || r.ScoreA != 1 {
						t.Errorf("games.parquet: forfeit %q with score_a %v", r.Forfeit, r.ScoreA)
					}
				}
			}
			if n != want {
				t.Errorf("games.parquet has %d forfeits, want %d", n, want)
			}
			journal, err := os.ReadFile(run.Path(MatchJournal))
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Count(string(journal), `"reason":"`+reason+`"`); got != want {
				t.Errorf("the journal records %d forfeits for %s, want %d", got, reason, want)
			}
			if fault == "illegal" && !strings.Contains(string(journal), `"reply":"move z99"`) {
				t.Error("the journal does not keep the illegal reply")
			}
		})
	}
}

// TestOutsideResumes: a match against an outside engine, stopped after a
// few pairs and resumed, ends with the uninterrupted match's report, its
// forfeits included.
func TestOutsideResumes(t *testing.T) {
	variants := []string{"staretc:depth=1", fakeSpec(t, "illegal")}
	root := t.TempDir()
	_, want := wholeMatch(t, matchSettings(variants...), root)
	_, got := interruptedMatch(t, matchSettings(variants...), root, 10)
	if want.Pairings[0].Forfeits == nil {
		t.Fatal("no forfeits in the uninterrupted match")
	}
	sameReport(t, want, got)
}

// TestOutsideSpecs: ext: specs in canonical form, and bad ones refused in
// one line naming the problem.
func TestOutsideSpecs(t *testing.T) {
	for in, want := range map[string]string{
		"ext:cmd=python3,args=a.py  b,movetime=100ms":         "ext:cmd=python3,args=a.py b,movetime=100ms",
		"ext:opt.b=2,cmd=x,opt.a=1,timeout=30s":               "ext:cmd=x,opt.a=1,opt.b=2",
		"ext:cmd=x,depth=3,timeout=2s,name=mine":              "ext:cmd=x,depth=3,timeout=2s,name=mine",
		"ext:cmd=x,movetime=100ms,timeout=1.1s":               "ext:cmd=x,movetime=100ms",
		"ext:cmd=/usr/local/bin/engine,nodes=1000,opt.hash=8": "ext:cmd=/usr/local/bin/engine,nodes=1000,opt.hash=8",
	} {
		e, err := ParseEngine(diceGame, in)
		if err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		if e.Name() != want {
			t.Errorf("%s: name %s, want %s", in, e.Name(), want)
		}
		if e.Deterministic() != !strings.Contains(in, "movetime") {
			t.Errorf("%s: deterministic %v", in, e.Deterministic())
		}
	}
	for _, bad := range []string{"ext:", "ext:args=x", "ext:cmd=x,depth=0", "ext:cmd=x,depth=2,nodes=5", "ext:cmd=x,movetime=1s,timeout=1s",
		"ext:cmd=x,colour=red", "ext:cmd=x,cmd=y", "ext:cmd=x,opt.=1", "ext:cmd=x,movetime=fast"} {
		if _, err := ParseEngine(diceGame, bad); err == nil || !runs.IsUsage(err) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want a one-line usage error", bad, err)
		}
	}
	set := matchSettings("staretc:depth=1", "ext:cmd=x")
	set.Luck = "ext:cmd=y"
	if _, err := set.Resolve(); err == nil || !strings.Contains(err.Error(), "outside engine") {
		t.Errorf("an outside engine as the luck reference: %v", err)
	}
}

// TestLuckReference: gnubg may value the rolls of a match it does not
// play, without noise; not one it plays, and no ext: engine can.
func TestLuckReference(t *testing.T) {
	bg := lookupGame("backgammon")
	for luck, want := range map[string]string{
		"gnubg:plies=0": "",
		"ext:cmd=x":     "cannot value positions",
	} {
		set := DefaultMatchSettings(bg, "staretc:depth=3", "staretc:depth=1")
		set.Luck = luck
		_, err := set.Resolve()
		if (err == nil) != (want == "") || (err != nil && !strings.Contains(err.Error(), want)) {
			t.Errorf("-luck %s: %v, want %q", luck, err, want)
		}
	}
	set := DefaultMatchSettings(bg, "staretc:depth=1", "gnubg:plies=2")
	set.Luck = "gnubg:plies=0"
	if _, err := set.Resolve(); err == nil || !strings.Contains(err.Error(), "under test") {
		t.Errorf("gnubg valuing its own games: %v", err)
	}
}
