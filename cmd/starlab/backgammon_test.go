package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestBackgammonEveryCommand drives every command through backgammon with
// small sizes: show (text and JSON, the play counts gnubg gives), play,
// search with each algorithm, eval, gen, bench, tune, match in both
// variants (money reporting points), train, collect, fit, merge and
// report.
func TestBackgammonEveryCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("plays backgammon through every command")
	}
	dir := t.TempDir()
	t.Chdir("../..")
	at := func(name string) string { return filepath.Join(dir, name) }
	ok := func(want string, args ...string) string {
		t.Helper()
		code, stdout, stderr := runCmd(t, args...)
		if code != 0 {
			t.Fatalf("%q: exit %d, %s", args, code, stderr)
		}
		if !strings.Contains(stdout, want) {
			t.Fatalf("%q: stdout %q lacks %q", args, stdout, want)
		}
		return stdout
	}
	start := "4HPwATDgc/ABMA O 31"
	ok("+13-14-15-16-17-18", "show", "-game", "backgammon", start)
	for roll, n := range map[string]int{"31": 16, "66": 11, "11": 42} {
		var shown struct {
			Plays []struct{ Move, Position string }
		}
		out := ok(`"plays"`, "show", "-game", "backgammon", "-json", "4HPwATDgc/ABMA O "+roll)
		if err := json.Unmarshal([]byte(out), &shown); err != nil || len(shown.Plays) != n {
			t.Errorf("show -json of %s: %d plays (%v), want %d", roll, len(shown.Plays), err, n)
		}
	}
	for _, bad := range []string{"4HPwATDgc/ABMA O 71", "4HPwATDgc/ABMA Q 31", "4HPwATDgc/ABM O 31", "AAAAAAAAAAAAAA O -"} {
		if code, _, stderr := runCmd(t, "show", "-game", "backgammon", bad); code != 2 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("show %q: exit %d, %q", bad, code, stderr)
		}
	}
	ok("result", "play", "-game", "backgammon", "-seed", "2")
	for _, algo := range []string{"expectimax", "star1", "star2", "staretc", "cpc"} {
		ok(algo+":eval=contact", "search", "-game", "backgammon", "-algo", algo, "-eval", "contact", "-depth", "3", start)
	}
	ok("race", "eval", "-game", "backgammon", "-eval", "contact,race", start)
	ok(" O ", "gen", "-game", "backgammon", "-count", "5")
	ok("within [-1, 1] on all 3 positions", "bench", "-game", "backgammon", "-eval", "contact", "-depths", "1,3", "-limit", "3", "-out", at("bench"))
	ok("agree on all 3 positions", "bench", "-game", "backgammon", "-eval", "contact", "-depths", "1,3", "-limit", "3", "-tt", "0", "-out", at("bench0"))
	ok("tune over 3 positions of backgammon 1pt", "tune", "-game", "backgammon", "-cpc", "cpc:eval=contact", "-depths", "3", "-limit", "3", "-out", at("tune"))
	ok("backgammon", "match", "-game", "backgammon", "-games", "10", "-luck", "none", "staretc:depth=1,eval=contact", "staretc:depth=1,eval=race", "-out", at("match"))
	ok("points", "match", "-game", "backgammon", "-variant", "money", "-games", "10", "-luck", "none", "staretc:depth=1,eval=contact", "staretc:depth=1,eval=race", "-out", at("money"))
	ok("net", "train", "-game", "backgammon", "-games", "100", "-measure-every", "100", "-measure-games", "4", "-out", at("train"))
	ok("4 positions", "collect", "-game", "backgammon", "-count", "4", "-pairs", "1:3", "-engine", "staretc:eval=contact", "-out", at("collect"))
	ok("fit: backgammon 1pt, eval=contact", "fit", at("collect"), "-folds", "2", "-out", at("fit"))
	for i := range 2 {
		ok("backgammon", "match", "-game", "backgammon", "-games", "8", "-luck", "none", "-shard", []string{"0/2", "1/2"}[i], "staretc:depth=1,eval=contact", "staretc:depth=1,eval=race", "-out", at("shard"+string(rune('0'+i))))
	}
	ok("2 shards", "merge", "-out", at("merged"), at("shard0"), at("shard1"))
	ok("report", "report", at("money"))
}
