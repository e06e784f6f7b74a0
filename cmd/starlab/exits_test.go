package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"starlab/runs"
)

// treeOf lists every path under dir, for a check that a command made
// nothing there.
func treeOf(t *testing.T, dir string) []string {
	t.Helper()
	var paths []string
	err := filepath.WalkDir(dir, func(p string, _ fs.DirEntry, err error) error {
		paths = append(paths, p)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return paths
}

// oneCommandPrefix reports whether stderr is one line that starts with
// "starlab CMD: " once: the message after it does not start with the
// command's name again ("starlab merge: merge: ...").
func oneCommandPrefix(stderr, cmd string) bool {
	msg, ok := strings.CutPrefix(strings.TrimSpace(stderr), "starlab "+cmd+": ")
	return ok && !strings.Contains(msg, "\n") && !strings.HasPrefix(msg, cmd+": ") && !strings.HasPrefix(msg, "starlab")
}

// TestExitCodes: every bad argument or input file exits 2 and every
// failure while working 1, with one line on stderr under one
// "starlab CMD:" prefix, and a refused command leaves nothing behind: no
// run directory under out/ or -out, no file, no games played first.
func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	write := func(name, text string) string {
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return name
	}
	must := func(args ...string) {
		t.Helper()
		if code, _, stderr := runCmd(t, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
	}
	// C is a finished collect of two games.
	must("collect", "-count", "2", "-min", "5", "-max", "10", "-pairs", "1:3", "-engine", "staretc:eval=pairs,tt=1", "-out", "C")
	// M3 is a round robin of three engines, which export and analyze refuse.
	must("match", "-games", "2", "-luck", "none", "-out", "M3", "staretc:depth=1", "star1:depth=1", "star2:depth=1")
	badSuite := write("bad.suite", "garbage\n")
	emptySuite := write("empty.suite", "")
	if err := os.Mkdir("suitedir", 0o755); err != nil {
		t.Fatal(err)
	}
	// T is a finished run of a stage that has no shards.
	train, err := runs.CreateAt("T", "train", nil, struct{}{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := train.Finish(nil); err != nil {
		t.Fatal(err)
	}
	// Cd is C with a damaged part file.
	copyTree(t, "C", "Cd")
	damagedPart := write(filepath.Join("Cd", "rows", "part-00000.parquet"), "garbage\n")
	match := []string{"match", "staretc:depth=1,eval=pairs", "staretc:depth=3,eval=pairs", "-games", "2"}

	cases := []badInput{
		// match -suite: a file the user named, as for the other commands.
		{append(match, "-suite", badSuite), 2, "bad.suite: line 1"},
		{append(match, "-suite", emptySuite), 2, "empty.suite: no positions"},
		{append(match, "-suite", "none.suite"), 2, "none.suite"},
		{append(match, "-suite", "suitedir"), 2, "suitedir"},
	}
	// merge's shards are arguments: the wrong set is a usage error, named
	// once.
	cases = append(cases,
		badInput{[]string{"merge", "-out", "M"}, 2, "give the shard run directories"},
		badInput{[]string{"merge", "-out", "M", "nowhere"}, 2, "nowhere does not exist"},
		badInput{[]string{"export"}, 2, "give one match run directory"},
		badInput{[]string{"analyze"}, 2, "give one match run directory"},
		badInput{[]string{"analyze", "-out", "E", "C"}, 2, "C is a collect run, not a match"},
		badInput{[]string{"analyze", "-out", "E", "nowhere"}, 2, "nowhere does not exist"},
		badInput{[]string{"export", "-out", "E", "nowhere"}, 2, "nowhere does not exist"},
		badInput{[]string{"export", "-out", "E", "C"}, 2, "C is a collect run, not a match"},
		badInput{[]string{"export", "-out", "E", "suitedir"}, 2, "suitedir"},
		badInput{[]string{"export", "-out", "E", "M3"}, 2, "match of 3 engines"},
		badInput{[]string{"merge", "-out", "M", "suitedir"}, 2, "not a run directory"},
		badInput{[]string{"merge", "-out", "M", "C", "C"}, 2, "shard 0/1 given twice"},
		badInput{[]string{"merge", "-out", "M", "C", "T"}, 2, "T is a train run, C a collect run"},
		badInput{[]string{"merge", "-out", "M", "T"}, 2, "train runs are not sharded"},
	)
	// fit: two games are too few for five folds, found before a run
	// directory is made.
	cases = append(cases,
		badInput{[]string{"fit", "C"}, 2, "pair 1:3: 2 games: want at least 5, one per fold"},
		badInput{[]string{"fit", "C", "-out", "F"}, 2, "pair 1:3: 2 games"},
	)
	// A phase no position of the variant has (ChanceBreakthrough 8x8 has
	// at most 32 pieces) is refused before a game is played.
	cases = append(cases,
		badInput{[]string{"collect", "-game", "breakthrough", "-min", "40", "-max", "50", "-count", "2", "-pairs", "1:3"}, 2, "-min 40 -max 50: no breakthrough 8x8 position that is not over has such a phase; theirs are 2 to 32"},
		badInput{[]string{"gen", "-game", "breakthrough", "-min", "40", "-max", "50", "-count", "2"}, 2, "theirs are 2 to 32"},
		badInput{[]string{"gen", "-game", "breakthrough", "-variant", "4x5", "-min", "17", "-max", "20"}, 2, "breakthrough 4x5 position"},
		badInput{[]string{"gen", "-n", "3", "-m", "3", "-min", "9", "-max", "9"}, 2, "theirs are 0 to 8"},
	)
	// A finished game is no position to play or measure, as search and
	// show refuse it.
	overDice := "5 4 r -1 b b b b - r r r - - - - - - - - - - - - - - - - -"
	overBreakthrough := "4 4 b ..../..../.w../w..."
	overDiceSuite := write("over.suite", overDice+"\n")
	overBreakthroughSuite := write("overbt.suite", "4 4 w ..../.b../..../w...\n"+overBreakthrough+"\n")
	cases = append(cases,
		badInput{[]string{"play", "-start", overDice}, 2, `-start: position "` + overDice + `" is a finished game, not one to play (-1 for red, the side to move)`},
		badInput{[]string{"play", "-game", "breakthrough", "-start", overBreakthrough}, 2, "black has no piece (-1 for black, the side to move)"},
		badInput{[]string{"bench", "-depths", "1", overDiceSuite}, 2, `over.suite line 1: position "` + overDice + `" is a finished game`},
		badInput{[]string{"bench", "-game", "breakthrough", "-depths", "1", "-eval", "material", overBreakthroughSuite}, 2, "overbt.suite line 2: position"},
	)
	// gen -o names the user's path, and is checked before a game is
	// played.
	cases = append(cases,
		badInput{[]string{"gen", "-count", "2", "-o", "suitedir"}, 2, "-o suitedir is a directory; give a file"},
		badInput{[]string{"gen", "-count", "2", "-o", filepath.Join("nodir", "x.suite")}, 2, "-o " + filepath.Join("nodir", "x.suite") + ": there is no directory nodir to hold it"},
	)
	// A file starlab wrote into a run, found damaged: a failure (exit 1).
	cases = append(cases, badInput{[]string{"report", "Cd"}, 1, damagedPart})
	// -resume of what is not an unfinished run of the command: a path
	// that is not what the command reads.
	for _, cmd := range []string{"match", "train", "collect", "tune", "bench"} {
		cases = append(cases,
			badInput{[]string{cmd, "-resume", "nowhere"}, 2, "nowhere does not exist"},
			badInput{[]string{cmd, "-resume", emptySuite}, 2, "empty.suite is not a directory"},
			badInput{[]string{cmd, "-resume", "suitedir"}, 2, "not a run directory"},
			badInput{[]string{cmd, "-resume", "latest"}, 2, "no unfinished " + cmd + " run"},
		)
		if cmd == "collect" {
			cases = append(cases, badInput{[]string{cmd, "-resume", "C"}, 2, "run already finished"})
		} else {
			cases = append(cases, badInput{[]string{cmd, "-resume", "C"}, 2, "run C is a collect run, not a " + cmd + " run"})
		}
	}

	checkNothingLeft(t, dir, cases)
}

// checkNothingLeft runs each bad command line as checkBadInput does, and
// checks that it leaves nothing behind under dir: no run directory, no
// file. What one leaves is removed, so that the next starts clean.
func checkNothingLeft(t *testing.T, dir string, cases []badInput) {
	t.Helper()
	for _, c := range cases {
		before := treeOf(t, dir)
		checkBadInput(t, []badInput{c})
		if after := treeOf(t, dir); !slices.Equal(after, before) {
			t.Errorf("%q left behind %q", c.args, slices.DeleteFunc(after, func(p string) bool { return slices.Contains(before, p) }))
			for _, p := range after {
				if !slices.Contains(before, p) {
					os.RemoveAll(p)
				}
			}
		}
	}
}

// TestTuneProbCutPathWithComma: tune's -probcut takes any path, a comma
// (the spec grammar's separator) included, as search's -probcut does.
func TestTuneProbCutPathWithComma(t *testing.T) {
	fit, err := os.ReadFile("../../search/dice/fits/5x5-4.json")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "a,b.json")
	if err := os.WriteFile(path, fit, 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCmd(t, "tune", "-depths", "3", "-t", "1.6", "-limit", "2", "-cpc", "cpc:tt=1", "-probcut", path, "-suite", benchTestSuite, "-out", filepath.Join(dir, "tune"))
	if code != 0 || !strings.Contains(stdout, "probcut="+path) || !strings.Contains(stdout, path+": starlab fit") {
		t.Errorf("tune -probcut %s: exit %d, %q, %q", path, code, stdout, stderr)
	}
}
