package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"starlab/runs"
	"starlab/search/games"
)

const exampleDPN = "5 4 b 1 - - - - - b - - r - r b - - - r - b - - - - - - -"

// runCmd runs the starlab command line args and returns the exit code,
// stdout and stderr.
func runCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return runCtx(t, context.Background(), args...)
}

// badInput is a command line that must fail with one line on stderr.
type badInput struct {
	args []string
	code int    // exit code
	want string // in the line
}

// checkBadInput runs each command line and checks its exit code, an empty
// stdout and one line on stderr holding the expected words, under the
// command's prefix once.
func checkBadInput(t *testing.T, cases []badInput) {
	t.Helper()
	for _, c := range cases {
		code, stdout, stderr := runCmd(t, c.args...)
		if code != c.code || stdout != "" || !strings.Contains(stderr, c.want) || !oneCommandPrefix(stderr, c.args[0]) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d, one line \"starlab %s: ...\" with %q", c.args, code, stdout, stderr, c.code, c.args[0], c.want)
		}
	}
}

func runCtx(t *testing.T, ctx context.Context, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(ctx, args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestSearchJSON(t *testing.T) {
	code, stdout, stderr := runCmd(t, "search", "-depth", "5", "-json", exampleDPN)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 5 {
		t.Fatalf("%d JSON lines, want one per iteration (5)", len(lines))
	}
	var prev int64
	for i, l := range lines {
		var it struct {
			Depth    int     `json:"depth"`
			Score    float64 `json:"score"`
			Nodes    int64   `json:"nodes"`
			TimeMS   float64 `json:"time_ms"`
			BestMove string  `json:"best_move"`
		}
		if err := json.Unmarshal([]byte(l), &it); err != nil {
			t.Fatal(err)
		}
		if it.Depth != i+1 || it.Nodes < prev || it.BestMove == "" || it.Score < -1 || it.Score > 1 {
			t.Fatalf("iteration %d: %+v", i+1, it)
		}
		prev = it.Nodes
	}
	// Before the roll there is no best move.
	code, stdout, _ = runCmd(t, "search", "-depth", "3", "-json", "5 4 b -1 - - - - - b - - r - r b - - - r - b - - - - - - -")
	if code != 0 || !strings.Contains(stdout, `"best_move":""`) {
		t.Fatalf("chance-node root: exit %d, %s", code, stdout)
	}
}

func TestSearchTable(t *testing.T) {
	code, stdout, stderr := runCmd(t, "search", "-algo", "star2", "-depth", "4", exampleDPN)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"Depth", "Score", "Nodes", "Time", "Best move", "nodes/s", "cut-offs"} {
		if !strings.Contains(stdout, want) {
			t.Fatalf("table lacks %q:\n%s", want, stdout)
		}
	}
}

func TestSearchBadInput(t *testing.T) {
	dir := t.TempDir()
	badJSON := filepath.Join(dir, "bad.json")
	os.WriteFile(badJSON, []byte("{"), 0o644)
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"search"}, 2, "missing the position"},
		{[]string{"search", "5 4 b 1 - -"}, 2, "cells"},
		{[]string{"search", "-algo", "star9", exampleDPN}, 2, "star9"},
		{[]string{"search", "-eval", "nn", exampleDPN}, 2, "nn"},
		{[]string{"search", "-eval", "mlp", "6 4 b -1" + strings.Repeat(" -", 36)}, 2, "no network is built in for 6x6"},
		{[]string{"search", "-eval", "pairs", "-net", "w.bin", exampleDPN}, 2, "net=w.bin needs eval=mlp"},
		{[]string{"search", "-depth", "-3", exampleDPN}, 2, "-depth"},
		{[]string{"search", "-nodes", "-1", exampleDPN}, 2, "-nodes"},
		{[]string{"search", "-algo", "cpc", "-probcut", filepath.Join(dir, "none.json"), exampleDPN}, 2, "probcut"},
		{[]string{"search", "-algo", "cpc", "-probcut", badJSON, exampleDPN}, 2, "bad JSON"},
		{[]string{"search", "-tt", "-1", exampleDPN}, 2, "-tt"},
		{[]string{"search", "-tt", "8796093022208", exampleDPN}, 2, "-tt"},
		{[]string{"search", "-t", "1", exampleDPN}, 2, "does not read"},
		{[]string{"search", "-algo", "cpc", "-cpcmin", "9", "-cpcmax", "3", exampleDPN}, 2, "above cpcmax"},
		{[]string{"search", "-noise", "0.1", exampleDPN}, 2, "dice has no evaluation noise"},
		{[]string{"search", "-noise", "2", exampleDPN}, 2, "want a number from 0 to 0.5"},
		{[]string{"search", "-algo", "cpc", "-r", "4", exampleDPN}, 2, "-r: read only with -multi 0: multi=1 (the default) tries every depth pair of the parameters, and r is the single pair's reduction under multi=0 (want -multi 0 -r 4)"},
		{[]string{"show", "5 4 b 1 - - - - - b - - r - r b - - - r - b - - - - - - x"}, 2, "cell"},
		{[]string{"show", "2 2 b -1 - - - -"}, 2, "board size"},
		{[]string{"show", "4 3 r -1 b b b - r r r - b - - - - - - -"}, 2, "both blue and red"},
		{[]string{"show", "-game", "breakthrough", "8 8 w bbbbbbbb/bbbbbbbb/......../......../......../wwwwwwww/wwwwwwww"}, 2, "7 rows, want 8"},
		{[]string{"show", "-game", "breakthrough", "4 4 w ..../.b../..x./w..."}, 2, "'x' is not ., w or b"},
		{[]string{"show", "-game", "breakthrough", "4 4 rb w.../.b../..../...."}, 2, "the game is over, so no roll can be pending"},
		{[]string{"show", "-game", "breakthrough", "4 4 w ..../..../..../...."}, 2, "neither side has a piece"},
		{[]string{"search", "-game", "breakthrough", "-eval", "pairs", "4 4 w bbbb/..../..../wwww"}, 2, "eval=pairs is not an evaluator of breakthrough"},
		{[]string{"search", "-eval", "material", exampleDPN}, 2, "eval=material is not an evaluator of dice"},
		// A flag given twice, and flags that contradict each other.
		{[]string{"search", "-depth", "3", "-depth", "5", exampleDPN}, 2, "-depth is given twice"},
		{[]string{"search", "-json", "-json", exampleDPN}, 2, "-json is given twice"},
		{[]string{"eval", "-eval", "pairs", "-net", "F", exampleDPN}, 2, "-net is the mlp evaluator's"},
		{[]string{"eval", "-eval", "pairs", "5 4 b"}, 2, "DPN"},
		{[]string{"play", "-n", "-5"}, 2, "board size -5"},
		{[]string{"play", "-n", "7", "-m", "5", "-start", "5 4 b -1" + strings.Repeat(" -", 25)}, 2, "-start gives the board"},
		{[]string{"play", "-start", "5 4 b -1 -"}, 2, "-start: "},
		{[]string{"play", "-start", "5 4 b 1" + strings.Repeat(" -", 25)}, 2, "a position before the roll"},
		{[]string{"play", "-game", "chess"}, 2, `-game: game "chess" is unknown; the games are backgammon, breakthrough, dice`},
		{[]string{"play", "-variant", "5x5-4", "-n", "7"}, 2, "-variant gives the board; -n cannot change it"},
		{[]string{"play", "-variant", "5x5"}, 2, `-variant: dice variant "5x5"`},
		{[]string{"gen", "-game", "chess"}, 2, `-game: game "chess" is unknown`},
		{[]string{"gen", "-variant", "4x4-5"}, 2, "win length 5 out of range"},
		{[]string{"merge", "-out", filepath.Join(dir, "mm"), "-game", "chess", dir}, 2, `-game: game "chess" is unknown`},
		{[]string{"report", "search_test.go"}, 2, "is a file, not a run directory"},
		{[]string{"search", "-depth", "3", "5 4 r -1 b b b b - r r r - - - - - - - - - - - - - - - - -"}, 2, "over"},
		{[]string{"match", "staretc:depth=1,net=" + filepath.Join(dir, "none.json"), "staretc:depth=1", "-games", "2", "-out", filepath.Join(dir, "m")}, 2, "none.json"},
		{[]string{"match", "staretc:depth=1", "staretc:depth=3", "-concurrency", "0", "-out", filepath.Join(dir, "m")}, 2, "-concurrency 0"},
		{[]string{"bench", "-workers", "0", "-out", filepath.Join(dir, "b"), "../../search/dice/suites/dice5x5-4.suite"}, 2, "-workers 0"},
		{[]string{"nosuch"}, 2, "unknown command"},
	}
	for _, c := range cases {
		code, stdout, stderr := runCmd(t, c.args...)
		if code != c.code || stdout != "" || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d mentioning %q", c.args, code, stdout, stderr, c.code, c.want)
		}
		if strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%v: stderr is not one line: %q", c.args, stderr)
		}
	}
}

func TestHelp(t *testing.T) {
	code, stdout, _ := runCmd(t, "help")
	if code != 0 {
		t.Fatalf("help: exit %d", code)
	}
	for _, name := range []string{"show", "play", "search", "gen", "bench", "match"} {
		if !strings.Contains(stdout, name) {
			t.Fatalf("help lacks %s", name)
		}
		if code, out, _ := runCmd(t, name, "-h"); code != 0 || !strings.Contains(out, "usage: starlab "+name) {
			t.Fatalf("%s -h: exit %d, %q", name, code, out)
		}
	}
}

func TestGenDeterministic(t *testing.T) {
	_, a, _ := runCmd(t, "gen", "-count", "5", "-seed", "9")
	_, b, _ := runCmd(t, "gen", "-count", "5", "-seed", "9")
	if a != b || strings.Count(a, "\n") != 5 {
		t.Fatalf("gen differs or has the wrong length:\n%s\n%s", a, b)
	}
}

// TestShowBreakthrough: show draws a ChanceBreakthrough position with its
// 22 piece moves and the roll, the events of a chance node with their
// weights, and a finished game's result.
func TestShowBreakthrough(t *testing.T) {
	code, stdout, stderr := runCmd(t, "show", "-game", "breakthrough", "8 8 w bbbbbbbb/bbbbbbbb/......../......../......../......../wwwwwwww/wwwwwwww")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{" 8  b b b b b b b b", " 1  w w w w w w w w", "    a b c d e f g h", "white to move: 22 moves: b2-a3 ", " h2-h3\nand 1 leading to chance: roll"} {
		if !strings.Contains(stdout, want) {
			t.Fatalf("show lacks %q:\n%s", want, stdout)
		}
	}
	if code, stdout, _ = runCmd(t, "show", "-game", "breakthrough", "4 4 rw ..../.b../..../w..."); code != 0 || !strings.Contains(stdout, "nothing        14/16") || !strings.Contains(stdout, "b3             1/16") {
		t.Errorf("chance node: exit %d:\n%s", code, stdout)
	}
	// A finished game, either end condition, is refused in one line that
	// says why and gives the result.
	for pos, want := range map[string]string{
		"4 4 b ..../..../.w../w...": "black has no piece (-1 for black, the side to move)",
		"4 4 b .w../bb../..../ww..": "white stands on its far row (-1 for black, the side to move)",
		"4 4 w ..../..../.w../b...": "black stands on its far row (-1 for white, the side to move)",
	} {
		code, stdout, stderr := runCmd(t, "show", "-game", "breakthrough", pos)
		if code != 2 || stdout != "" || !strings.Contains(stderr, want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("finished game %q: exit %d, stdout %q, stderr %q, want 2 and one line with %q", pos, code, stdout, stderr, want)
		}
	}
}

func TestShow(t *testing.T) {
	code, stdout, stderr := runCmd(t, "show", exampleDPN)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{" a b c d e", "  2> b . . r .", "To move: blue (row player), rolled row 2", "Moves: b2 c2 e2", "blue  streaks (length:count) 2:0 3:1; pairs 2", "DPN: " + exampleDPN} {
		if !strings.Contains(stdout, want) {
			t.Fatalf("show lacks %q:\n%s", want, stdout)
		}
	}
	// The DPN may also come as separate arguments.
	code, stdout2, _ := runCmd(t, append([]string{"show"}, strings.Fields(exampleDPN)...)...)
	if code != 0 || stdout2 != stdout {
		t.Fatalf("separate arguments: exit %d, output differs", code)
	}
	code, stdout, _ = runCmd(t, "show", "5 4 r -1 - - - - - b - - r - r b - - - r - b - - - - - - b")
	if code != 0 || !strings.Contains(stdout, "Chance events: 5, each 1/5: column a b c d e") {
		t.Fatalf("pre-roll show: exit %d\n%s", code, stdout)
	}
	// The final position of a game, as play -board prints it, shows too.
	final := "5 4 b -1 b r b r b r r b b b - r r r r r b b b r b r b b r"
	code, stdout, stderr = runCmd(t, "show", final)
	if code != 0 || !strings.Contains(stdout, "Game over: red has won") {
		t.Fatalf("final position: exit %d, stderr %q\n%s", code, stderr, stdout)
	}
}

func TestPlayDeterministic(t *testing.T) {
	code, a, stderr := runCmd(t, "play", "-seed", "5", "-blue", "greedy", "-red", "greedy")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	_, b, _ := runCmd(t, "play", "-seed", "5", "-blue", "greedy", "-red", "greedy")
	_, c, _ := runCmd(t, "play", "-seed", "6", "-blue", "greedy", "-red", "greedy")
	if a != b || a == c || !strings.Contains(a, "result ") {
		t.Fatalf("play is not a function of its seed:\n%s\n%s", a, c)
	}
	if code, _, stderr := runCmd(t, "play", "-blue", "wizard"); code != 2 || !strings.Contains(stderr, "wizard") {
		t.Fatalf("bad player: exit %d, %q", code, stderr)
	}
}

// TestOutHoldsARun: -out naming a run a command may not write into is a
// bad argument (exit 2), with a hint that the command can follow: -resume
// for a stopped match, none for fit, which has no resume.
func TestOutHoldsARun(t *testing.T) {
	dir := t.TempDir()
	done := filepath.Join(dir, "done")
	r, err := runs.CreateAt(done, "match", nil, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Finish(nil); err != nil {
		t.Fatal(err)
	}
	stopped := filepath.Join(dir, "stopped")
	if r, err = runs.CreateAt(stopped, "fit", nil, nil, 1); err != nil {
		t.Fatal(err)
	}
	r.Close() // as if killed
	stoppedMatch := filepath.Join(dir, "stopped-match")
	if r, err = runs.CreateAt(stoppedMatch, "match", nil, nil, 1); err != nil {
		t.Fatal(err)
	}
	r.Close()
	checkBadInput(t, []badInput{
		{[]string{"match", "staretc:depth=1", "staretc:depth=3", "-games", "2", "-out", done}, 2, "run already finished"},
		{[]string{"match", "staretc:depth=1", "staretc:depth=3", "-games", "2", "-out", stoppedMatch}, 2, "starlab match -resume " + stoppedMatch},
	})
	c := filepath.Join(dir, "c")
	if code, _, stderr := runCmd(t, "collect", "-count", "2", "-pairs", "1:3", "-engine", "staretc:eval=pairs,tt=1", "-out", c); code != 0 {
		t.Fatalf("collect: %s", stderr)
	}
	checkBadInput(t, []badInput{{[]string{"fit", c, "-folds", "2", "-out", stopped}, 2, "fit has no resume"}})
}

// TestMergeAgain: merge has no resume, so a merge that was killed (its run
// left running, held by no one) is made again by the same command, while a
// finished merge is kept and -out naming it is a bad argument.
func TestMergeAgain(t *testing.T) {
	dir := t.TempDir()
	var shards []string
	for i := range 2 {
		s := filepath.Join(dir, fmt.Sprintf("s%d", i))
		if code, _, stderr := runCmd(t, "match", "staretc:depth=1,eval=pairs", "staretc:depth=3,eval=pairs", "-games", "4", "-shard", fmt.Sprintf("%d/2", i), "-out", s); code != 0 {
			t.Fatalf("shard %d: %s", i, stderr)
		}
		shards = append(shards, s)
	}
	out := filepath.Join(dir, "merged")
	merge := append([]string{"merge", "-out", out}, shards...)
	if code, _, stderr := runCmd(t, merge...); code != 0 {
		t.Fatalf("merge: %s", stderr)
	}
	checkBadInput(t, []badInput{{merge, 2, "run already finished"}})
	// What a kill leaves: the manifest says running and no process holds it.
	path := filepath.Join(out, runs.ManifestName)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	killed := strings.Replace(string(data), `"status": "done"`, `"status": "running"`, 1)
	if killed == string(data) {
		t.Fatal("no done status in the merged run's manifest")
	}
	if err := os.WriteFile(path, []byte(killed), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCmd(t, merge...); code != 0 {
		t.Fatalf("merge again after a kill: exit %d, %s", code, stderr)
	}
	if r, err := runs.Open(out); err != nil || r.Manifest().Status != runs.StatusDone {
		t.Errorf("the merge made again is not done (%v)", err)
	}
}

// TestSearchGameFlag: -game dice searches as the default does, iteration
// for iteration (times aside), and an unknown game is refused in one line.
func TestSearchGameFlag(t *testing.T) {
	strip := func(out string) string {
		var keep []string
		for _, line := range strings.Split(out, "\n") {
			var it map[string]any
			if json.Unmarshal([]byte(line), &it) == nil {
				delete(it, "time_ms")
				delete(it, "nodes_per_s")
				b, _ := json.Marshal(it)
				line = string(b)
			}
			keep = append(keep, line)
		}
		return strings.Join(keep, "\n")
	}
	for _, algo := range []string{"staretc", "cpc"} {
		code, plain, _ := runCmd(t, "search", "-algo", algo, "-depth", "7", "-json", exampleDPN)
		code2, dice, _ := runCmd(t, "search", "-game", "dice", "-algo", algo, "-depth", "7", "-json", exampleDPN)
		if code != 0 || code2 != 0 || strip(plain) != strip(dice) || strings.Count(plain, "\n") != 7 {
			t.Fatalf("%s: exit %d and %d:\n%s\n%s", algo, code, code2, plain, dice)
		}
	}
	checkBadInput(t, []badInput{
		{[]string{"search", "-game", "chess", exampleDPN}, 2, `game "chess" is unknown; the games are backgammon, breakthrough, dice`},
		{[]string{"search", "-game", "dice"}, 2, "missing the position"},
	})
}

// TestEvalBreakthrough: eval reads ChanceBreakthrough positions with
// -game, evaluates them with the built-in net and material by default,
// and refuses a board without a built-in net in one line.
func TestEvalBreakthrough(t *testing.T) {
	const start = "8 8 w bbbbbbbb/bbbbbbbb/......../......../......../......../wwwwwwww/wwwwwwww"
	code, stdout, stderr := runCmd(t, "eval", "-game", "breakthrough", "-depth", "1", start)
	if code != 0 || !strings.Contains(stdout, "mlp") || !strings.Contains(stdout, "material d1") || !strings.Contains(stdout, start) {
		t.Fatalf("exit %d: %s%s", code, stdout, stderr)
	}
	code, _, stderr = runCmd(t, "eval", "-game", "breakthrough", "4 5 w bbbb/.bbb/b.../wwww/wwww")
	if code != 2 || !strings.Contains(stderr, "no network is built in for breakthrough 4x5") {
		t.Errorf("4x5 without a net: exit %d, %s", code, stderr)
	}
}

// TestSearchHelpDepthPerGame checks that search -h says for each game how
// its depth counts, as the game does (game.CountsChance), and that the
// -depth flag does not claim one way for every game.
func TestSearchHelpDepthPerGame(t *testing.T) {
	_, help, _ := runCmd(t, "search", "-h")
	for _, name := range games.Names() {
		g, err := games.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		want := "-game " + name + ": decisions only"
		if g.CountsChance() {
			want = "-game " + name + ": chance plies and move plies alike"
		}
		if !strings.Contains(help, want) {
			t.Errorf("search -h lacks %q", want)
		}
	}
	if strings.Contains(help, "(chance and move plies alike)") {
		t.Error("search -h says -depth counts chance plies in every game")
	}
}
