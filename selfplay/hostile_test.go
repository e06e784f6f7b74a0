package selfplay

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"starlab/outside"
	"starlab/runs"
)

// The engines of these tests are written from docs/protocol.md, each with
// one fault of a hostile or careless author: the fake engine of
// outside_test.go with a fault given as its option fault (at the moves of
// games whose seed is a multiple of 3) or as its second argument (at its
// start).

// hostileStart does the faults of a start, given as the fake engine's
// second argument: "options" declares three million options; "failstart"
// ends its third start (counted in the file its third argument names)
// before the handshake.
func hostileStart() (code int, done bool) {
	if len(os.Args) < 3 {
		return 0, false
	}
	switch os.Args[2] {
	case "options":
		w := bufio.NewWriterSize(os.Stdout, 1<<16)
		for i := range 3_000_000 {
			fmt.Fprintf(w, "option o%d 0\n", i)
		}
		w.WriteString("protocolok\n")
		w.Flush()
		bufio.NewScanner(os.Stdin).Scan()
		return 0, true
	case "failstart":
		b, _ := os.ReadFile(os.Args[3])
		n, _ := strconv.Atoi(string(b))
		os.WriteFile(os.Args[3], []byte(strconv.Itoa(n+1)), 0o644)
		if n+1 == 3 {
			fmt.Fprintln(os.Stderr, "fake: cannot start this time")
			return 4, true
		}
	}
	return 0, false
}

// hostileGo does the faults of a go, reporting whether it answered:
// "twice" answers every go of the game with its move and then another;
// "bigillegal" answers its first with a move line of 1 MiB;
// "longillegal" with an illegal move of 60 KiB; "flood" writes 200 MiB
// to standard error before its first move; "exitchild" starts a program
// in a session of its own that holds its output open, and exits;
// "exitmove" leaves such a program to write info lines and then a move
// after it exits; "noeol" writes its move without "\n" and exits.
func hostileGo(fault string, first bool, legal []string, say func(string)) bool {
	switch {
	case fault == "twice":
		say("move " + legal[0])
		say("move " + legal[len(legal)-1])
		return true
	case fault == "bigillegal" && first:
		say("move " + strings.Repeat("z", 1<<20))
		return true
	case fault == "longillegal" && first:
		say("move " + strings.Repeat("z", 60<<10))
		return true
	case fault == "flood" && first:
		chunk := []byte(strings.Repeat("e", 1<<20-1) + "\n")
		for range 200 {
			os.Stderr.Write(chunk)
		}
	case fault == "exitchild" && first:
		c := exec.Command("sleep", "20")
		c.Stdout = os.Stdout
		c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		c.Start()
		os.Exit(3)
	case fault == "exitmove" && first: // a helper answers for it after it ended
		c := exec.Command("sh", "-c", "for i in 1 2 3 4 5 6 7 8; do echo info depth 1; sleep 0.1; done; echo move "+legal[0])
		c.Stdout = os.Stdout
		c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		c.Start()
		os.Exit(3)
	case fault == "noeol" && first: // dies while writing its move
		os.Stdout.WriteString("move " + legal[0])
		os.Exit(3)
	}
	return false
}

// hostileMatch plays a 12-game match of the fake engine with fault
// against staretc:depth=1 in Dice, seed 5, as B.
func hostileMatch(t *testing.T, fault string) (*MatchReport, *runs.Run, error) {
	t.Helper()
	set := matchSettings("staretc:depth=1", fakeSpec(t, fault))
	return playIn(t, t.TempDir(), set)
}

// playIn plays set as 12 games, seed 5, in a new run under dir.
func playIn(t *testing.T, dir string, set MatchSettings) (*MatchReport, *runs.Run, error) {
	t.Helper()
	set.Games, set.Seed = 12, 5
	run, err := runs.CreateAt(filepath.Join(dir, "m"), "match", nil, nil, 5)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { run.Close() })
	rep, err := RunMatch(context.Background(), set, run, runs.NoProgress)
	return rep, run, err
}

// gamesOf returns the match's games by pair and round.
func gamesOf(t *testing.T, run *runs.Run) map[[2]int32]GameRow {
	t.Helper()
	rows, err := runs.ReadParquet[GameRow](run.Path(GamesFile), MatchFormat)
	if err != nil {
		t.Fatal(err)
	}
	m := map[[2]int32]GameRow{}
	for _, r := range rows {
		m[[2]int32{r.Pair, r.Round}] = r
	}
	return m
}

// TestLateLinesNeverPlayed: an engine that answers every go with two
// move lines, or writes a move before any go of a game, never has a move
// played that it did not send for that position: each game is the
// well-behaved engine's game move for move, or a forfeit of the engine in
// that game with no move of it before the forfeit that the well-behaved
// engine did not play.
func TestLateLinesNeverPlayed(t *testing.T) {
	_, clean, err := hostileMatch(t, "none")
	if err != nil {
		t.Fatal(err)
	}
	want := gamesOf(t, clean)
	for _, fault := range []string{"twice", "early"} {
		t.Run(fault, func(t *testing.T) {
			_, run, err := hostileMatch(t, fault)
			if err != nil {
				t.Fatal(err)
			}
			forfeits := 0
			for k, g := range gamesOf(t, run) {
				w := want[k]
				if g.Forfeit == "" {
					if g.Moves != w.Moves || g.Rolls != w.Rolls || g.Result != w.Result {
						t.Errorf("pair %d round %d: moves %q, the well-behaved engine's %q", k[0], k[1], g.Moves, w.Moves)
					}
					continue
				}
				forfeits++
				if !strings.HasPrefix(w.Moves, g.Moves) || !strings.Contains(g.Forfeit, "malformed: a line after the move") {
					t.Errorf("pair %d round %d: forfeit %q after moves %q; the well-behaved game's moves %q", k[0], k[1], g.Forfeit, g.Moves, w.Moves)
				}
				if PairSeed(5, 0, int(k[0]))%3 != 0 {
					t.Errorf("pair %d round %d: forfeit %q in a game where the engine did no wrong", k[0], k[1], g.Forfeit)
				}
			}
			if (fault == "twice") != (forfeits > 0) {
				t.Errorf("%d forfeits", forfeits)
			}
			if fault == "early" {
				log, _ := os.ReadFile(run.Path(EnginesLog))
				if !strings.Contains(string(log), "dropped a line that came between games") {
					t.Error("engines.log does not say it dropped the early line")
				}
			}
		})
	}
}

// TestOutsideBounds: what an engine writes does not grow what starlab
// keeps: a 1 MiB reply is a forfeit storing a clipped prefix, a 60 KiB
// illegal reply is stored clipped, 200 MiB on standard error leave
// engines.log within its bound, three million options fail the start.
func TestOutsideBounds(t *testing.T) {
	for _, fault := range []string{"bigillegal", "longillegal"} {
		_, run, err := hostileMatch(t, fault)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, g := range gamesOf(t, run) {
			if g.Forfeit != "" {
				n++
				if len(g.Forfeit) > 4*outside.MaxReplyBytes || !strings.Contains(g.Forfeit, "zzz") {
					t.Errorf("%s: forfeit of %d bytes: %.300q", fault, len(g.Forfeit), g.Forfeit)
				}
			}
		}
		fi, err := os.Stat(run.Path(MatchJournal))
		if n == 0 || err != nil || fi.Size() > 64<<10 {
			t.Errorf("%s: %d forfeits, journal %v bytes (%v)", fault, n, fi.Size(), err)
		}
	}
	_, run, err := hostileMatch(t, "flood")
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(run.Path(EnginesLog)); err != nil || fi.Size() > outside.EnginesLogBytes {
		t.Errorf("engines.log: %v bytes (%v), bound %d", fi.Size(), err, outside.EnginesLogBytes)
	}
	log, _ := os.ReadFile(run.Path(EnginesLog))
	if !strings.Contains(string(log), "reached its bound") {
		t.Error("engines.log does not say it reached its bound")
	}
	set := matchSettings("staretc:depth=1", strings.Replace(fakeSpec(t, "none"), fakeEngineArg, fakeEngineArg+" options", 1))
	if _, err := set.Prepare(context.Background()); err == nil || !runs.IsUsage(err) || !strings.Contains(err.Error(), "more than 1000 lines before protocolok") {
		t.Errorf("three million options: %v", err)
	}
}

// TestOutsideExitsAtOnce: an engine that exits while a program it started
// in a session of its own holds its output open forfeits as exited, not
// after its 20 s timeout, and a move that program writes for it after a
// while, or a move line cut short by its end, is not played: each game
// where it faults is a forfeit (exited) at its first move.
func TestOutsideExitsAtOnce(t *testing.T) {
	for _, fault := range []string{"exitchild", "exitmove", "noeol"} {
		spec := strings.Replace(fakeSpec(t, fault), "timeout=400ms", "timeout=20s", 1)
		t0 := time.Now()
		_, run, err := playIn(t, t.TempDir(), matchSettings("staretc:depth=1", spec))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, g := range gamesOf(t, run) {
			if g.Forfeit != "" {
				n++
				// Dice alternates: before the engine's first move, at most its opponent's.
				if !strings.Contains(g.Forfeit, ": exited: ") || len(strings.Fields(g.Moves)) > 1 {
					t.Errorf("%s: forfeit %q after moves %q", fault, g.Forfeit, g.Moves)
				}
			}
		}
		if el := time.Since(t0); n == 0 || el > time.Duration(n)*5*time.Second {
			t.Errorf("%s: %d exits took %v", fault, n, el)
		}
	}
}

// TestOutsideRestartFails: an engine that cannot be started again after
// a forfeit forfeits its next game and is started again before the one
// after; the match finishes.
func TestOutsideRestartFails(t *testing.T) {
	state := filepath.Join(t.TempDir(), "starts")
	set := matchSettings("staretc:depth=1", strings.Replace(fakeSpec(t, "illegal"), fakeEngineArg, fakeEngineArg+" failstart "+state, 1))
	set.Concurrency = 1
	rep, run, err := playIn(t, t.TempDir(), set)
	if err != nil {
		t.Fatal(err)
	}
	f := rep.Pairings[0].Forfeits
	if f == nil || f.ReasonB["exited"] != 1 || rep.Pairings[0].Games != 12 {
		t.Fatalf("%d games, forfeits %+v; want one game lost to the failed start", rep.Pairings[0].Games, f)
	}
	log, _ := os.ReadFile(run.Path(EnginesLog))
	if !strings.Contains(string(log), "it forfeits this game and is started again") || !strings.Contains(string(log), "fake: cannot start this time") {
		t.Errorf("engines.log:\n%s", log)
	}
}

// TestNoProcessLeft: a wrapper script's background child is gone when
// the start-up check and the match are over.
func TestNoProcessLeft(t *testing.T) {
	dir := t.TempDir()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	pids := filepath.Join(dir, "pids")
	script := filepath.Join(dir, "engine.sh")
	text := fmt.Sprintf("#!/bin/sh\nsleep 3600 &\necho $! >> %s\nexec %s %s\n", pids, exe, fakeEngineArg)
	if err := os.WriteFile(script, []byte(text), 0o755); err != nil {
		t.Fatal(err)
	}
	set := matchSettings("staretc:depth=1", "ext:cmd="+script+",opt.fault=illegal")
	if _, err := set.Prepare(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, _, err := playIn(t, dir, set); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(pids)
	if err != nil {
		t.Fatal(err)
	}
	ids := strings.Fields(string(b))
	if len(ids) < 3 { // the check, and a start per worker and after each forfeit
		t.Fatalf("%d starts", len(ids))
	}
	deadline := time.Now().Add(5 * time.Second)
	for _, id := range ids {
		pid, _ := strconv.Atoi(id)
		for outside.ProcessAlive(pid) && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if outside.ProcessAlive(pid) {
			t.Errorf("the wrapper's child %d still runs", pid)
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// TestResumeRunsTheSameProgram: a run records where it found its
// engine's program; resumed from another directory it runs that program
// in the first directory, and refuses in one line when it is gone.
func TestResumeRunsTheSameProgram(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	a, b := t.TempDir(), t.TempDir()
	if err := os.Symlink(exe, filepath.Join(a, "eng")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(a)
	set := matchSettings("staretc:depth=1", "ext:cmd=./eng,args="+fakeEngineArg)
	set.Games, set.Seed = 4, 5
	if _, err := set.Prepare(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(set.Programs) != 1 || set.Programs[0].Path != filepath.Join(a, "eng") || set.Programs[0].Dir != a {
		t.Fatalf("programs %+v", set.Programs)
	}
	t.Chdir(b) // no ./eng here
	run, err := runs.CreateAt(filepath.Join(b, "m"), "match", nil, nil, 5)
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	if _, err := RunMatch(context.Background(), set, run, runs.NoProgress); err != nil {
		t.Fatalf("resumed from another directory: %v", err)
	}
	os.Remove(filepath.Join(a, "eng"))
	set.started = false
	if _, err := set.Resolve(); err != nil {
		t.Fatal(err)
	}
	run2, err := runs.CreateAt(filepath.Join(b, "m2"), "match", nil, nil, 5)
	if err != nil {
		t.Fatal(err)
	}
	defer run2.Close()
	_, err = RunMatch(context.Background(), set, run2, runs.NoProgress)
	if err == nil || !runs.IsUsage(err) || !strings.Contains(err.Error(), filepath.Join(a, "eng")) {
		t.Errorf("the program gone: %v", err)
	}
}
