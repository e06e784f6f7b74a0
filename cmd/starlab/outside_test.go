package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"starlab/selfplay"
)

// buildEngine builds the protocol's Go reference engine, cmd/starlab-engine.
func buildEngine(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "starlab-engine")
	if out, err := exec.Command("go", "build", "-o", bin, "../starlab-engine").CombinedOutput(); err != nil {
		t.Fatalf("go build ../starlab-engine: %v\n%s", err, out)
	}
	return bin
}

// TestProtocolLosesNothing: the protocol's Go reference engine, played
// through ext: against the same search in process, plays the same games
// from both seats, so every duplicate pair splits 1-1 and both sides
// search the same nodes to the same depths: the protocol carries the
// position, the game's seed, the limit and the move without loss, in
// Dice and in Backgammon.
func TestProtocolLosesNothing(t *testing.T) {
	engine := buildEngine(t)
	for _, c := range []struct{ game, depth string }{{"dice", "3"}, {"backgammon", "1"}} {
		dir := filepath.Join(t.TempDir(), c.game)
		code, _, stderr := runMatch(t, "-game", c.game, "-games", "6", "-concurrency", "2", "-luck", "none", "-out", dir,
			"ext:cmd="+engine+",depth="+c.depth, "staretc:depth="+c.depth)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.game, code, stderr)
		}
		var rep selfplay.MatchReport
		readJSONFile(t, filepath.Join(dir, selfplay.SummaryFile), &rep)
		s := rep.Pairings[0]
		if s.Pentanomial != [5]int{0, 0, 3, 0, 0} || s.Forfeits != nil || s.NodesA != s.NodesB || s.DepthA != s.DepthB || s.NodesA == 0 {
			t.Errorf("%s: pentanomial %v, forfeits %+v, nodes per move %v vs %v, depth %v vs %v; want every pair 1-1 and the same search on both sides",
				c.game, s.Pentanomial, s.Forfeits, s.NodesA, s.NodesB, s.DepthA, s.DepthB)
		}
	}
}

// TestOutsideKilledAndResumed kills a match against an outside engine
// with SIGKILL half-way: the engines die with it (none is left running),
// and the match resumed ends with the statistics of an uninterrupted run.
func TestOutsideKilledAndResumed(t *testing.T) {
	engine := buildEngine(t)
	args := []string{"ext:cmd=" + engine + ",depth=3", "staretc:depth=1", "-games", "400", "-seed", "3", "-json", "-concurrency", "2"}
	code, want, stderr := runMatch(t, append(args, "-out", filepath.Join(t.TempDir(), "ref"))...)
	if code != 0 {
		t.Fatalf("reference run: exit %d: %s", code, stderr)
	}
	dir := filepath.Join(t.TempDir(), "killed")
	journal := filepath.Join(dir, "pairs.jsonl")
	killWhen(t, append([]string{"match"}, append(args, "-out", dir)...), "20 journalled pairs", func() bool {
		return countLines(journal)-1 >= 20
	})
	done := countLines(journal) - 1
	if done >= 200 {
		t.Skip("the child finished before it was killed; nothing to resume")
	}
	deadline := time.Now().Add(5 * time.Second)
	for running(engine) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d engines still run 5 s after their match was killed", running(engine))
		}
		time.Sleep(10 * time.Millisecond)
	}
	code, got, stderr := runMatch(t, "-resume", dir, "-json")
	if code != 0 {
		t.Fatalf("resume: exit %d: %s", code, stderr)
	}
	if g, w := decodeMatch(t, got), decodeMatch(t, want); g != w {
		t.Fatalf("killed after %d pairs and resumed: %+v\nuninterrupted: %+v", done, g, w)
	}
}

// running counts the processes whose program is path (from /proc).
func running(path string) int {
	n := 0
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		if exe, err := os.Readlink(filepath.Join("/proc", d.Name(), "exe")); err == nil && exe == path {
			n++
		}
	}
	return n
}

// TestOutsideRefusedBeforeRun: an outside engine that cannot play is
// refused in one line, exit 2, before any run directory: a program that
// is missing, a directory, not executable, or ends before the handshake
// (its last line on standard error named), an option it did not declare,
// gnubg's path naming another program, a noisy gnubg luck reference, a
// control character in a spec.
func TestOutsideRefusedBeforeRun(t *testing.T) {
	engine, err := filepath.Abs("../../examples/ext/random_engine.py")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	t.Chdir(dir)
	for name, text := range map[string]string{"plain": "", "says": "#!/bin/sh\necho 'cannot open the book' >&2\nexit 3\n"} {
		mode := os.FileMode(0o644)
		if text != "" {
			mode = 0o755
		}
		if err := os.WriteFile(name, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir("adir", 0o755); err != nil {
		t.Fatal(err)
	}
	dice := func(spec string) []string {
		return []string{"match", "-game", "dice", "-games", "2", spec, "staretc:depth=1"}
	}
	cases := []badInput{
		{dice("ext:cmd=/nonexistent/engine"), 2, "/nonexistent/engine: no such file"},
		{dice("ext:cmd=./adir"), 2, "adir: a directory, not a program"},
		{dice("ext:cmd=./plain"), 2, "plain: not executable"},
		{dice("ext:cmd=no-such-engine-here"), 2, "no-such-engine-here: not found on PATH"},
		{dice("ext:cmd=./says"), 2, `before protocolok; its last line on standard error: "cannot open the book"`},
		{dice("ext:cmd=/bin/true"), 2, "the program ended (exit status 0) before protocolok"},
		{dice("ext:cmd=x,name=a\x1b[31mb"), 2, "holds a control character"},
	}
	if _, err := exec.LookPath("python3"); err == nil {
		cases = append(cases, badInput{dice("ext:cmd=python3,args=" + engine + ",opt.hash=8"), 2, `opt.hash: the engine has no option "hash"`})
	}
	bg := func(args ...string) []string {
		return append([]string{"match", "-game", "backgammon", "-games", "2"}, args...)
	}
	cases = append(cases,
		badInput{bg("gnubg:path=./plain", "staretc:depth=1"), 2, "plain: not executable"},
		badInput{bg("-luck", "gnubg:plies=0,noise=0.1,path=/bin/true", "staretc:depth=1", "staretc:depth=1,eval=race"), 2, "has no noise"},
		badInput{bg("gnubg:path=/bin/true", "staretc:depth=1"), 2, "gnubg ended (exit status 0) before it listened"},
	)
	checkNothingLeft(t, dir, cases)
}

// TestShardsOfProgramsMerge: the shards of a match against an outside
// engine, each played from a directory of its own (as on the machines of
// a cluster), merge: where each found its program changes no result.
func TestShardsOfProgramsMerge(t *testing.T) {
	engine := buildEngine(t)
	root := t.TempDir()
	var shards []string
	for i := range 2 {
		dir := filepath.Join(root, fmt.Sprint("machine", i))
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(engine, filepath.Join(dir, "eng")); err != nil {
			t.Fatal(err)
		}
		t.Chdir(dir)
		out := filepath.Join(root, fmt.Sprint("s", i))
		if code, _, stderr := runMatch(t, "-game", "dice", "-games", "4", "-luck", "none", "-shard", fmt.Sprintf("%d/2", i), "-out", out,
			"ext:cmd=./eng,depth=1", "staretc:depth=1"); code != 0 {
			t.Fatalf("shard %d: exit %d: %s", i, code, stderr)
		}
		shards = append(shards, out)
	}
	if code, _, stderr := runCmd(t, append([]string{"merge", "-out", filepath.Join(root, "m")}, shards...)...); code != 0 {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}
}
