package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestToyEveryCommand drives every command through the toy game, a game
// registered by one entry in the registry and its own packages, with no
// -eval, -suite, -depths or -pairs: the defaults come from the game (its
// hand evaluator race, as it has no built-in net; its suite, depths and
// collect pairs). The net train makes is then searched, matched and run
// in a recipe with net=FILE.
func TestToyEveryCommand(t *testing.T) {
	dir := t.TempDir()
	t.Chdir("../..") // the default suites are paths from the module root
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
		if strings.Contains(stdout, "eval=pairs") || strings.Contains(stdout, "against pairs") {
			t.Errorf("%q: another game's evaluator in %q", args, stdout)
		}
		return stdout
	}
	ok("side 0 to move: 2 moves: step jump", "show", "-game", "toy", "6 1 2 0")
	// The flags' defaults are the game's the command line names, so -h
	// shows them.
	for _, c := range []struct {
		want string
		args []string
	}{
		{`positions to sample (the game's number by default) (default 20)`, []string{"collect", "-game", "toy", "-h"}},
		{`(default "6")`, []string{"tune", "--game=toy", "-h"}},
		{`(default "9,11,13")`, []string{"tune", "-h"}},
	} {
		if code, stdout, _ := runCmd(t, c.args...); code != 0 || !strings.Contains(stdout, c.want) {
			t.Errorf("%q: exit %d, help lacks %q", c.args, code, c.want)
		}
	}
	ok("result", "play", "-game", "toy", "-seed", "2")
	if code, _, stderr := runCmd(t, "play", "-game", "toy", "-blue", "random"); code != 2 || !strings.Contains(stderr, "-blue is Dice's name for -first") {
		t.Errorf("play -game toy -blue: exit %d, %s", code, stderr)
	}
	ok("staretc:eval=race", "search", "-game", "toy", "-depth", "5", "6 1 2 0")
	ok("race", "eval", "-game", "toy", "6 1 2 0")
	ok("6 ", "gen", "-game", "toy")
	ok("within [-1, 1]", "bench", "-game", "toy", "-limit", "10", "-out", at("bench"))
	ok("agree on all 10 positions", "bench", "-game", "toy", "-limit", "10", "-tt", "0", "-out", at("bench0"))
	ok("tune over 10 positions of toy 6", "tune", "-game", "toy", "-limit", "10", "-out", at("tune"))
	ok("toy", "match", "-game", "toy", "-games", "20", "staretc:depth=3", "staretc:depth=1", "-out", at("match"))
	ok("net", "train", "-game", "toy", "-games", "400", "-out", at("train"))
	net := filepath.Join(at("train"), "net.json")
	ok("staretc:eval=mlp,net=", "search", "-game", "toy", "-depth", "4", "-net", net, "6 1 2 0")
	ok("20 positions", "collect", "-game", "toy", "-out", at("collect"))
	ok("fit: toy 6, eval=race", "fit", at("collect"), "-out", at("fit"))
	for i := range 2 {
		ok("toy", "match", "-game", "toy", "-games", "20", "-shard", []string{"0/2", "1/2"}[i], "staretc:depth=3", "staretc:depth=1", "-out", at("shard"+string(rune('0'+i))))
	}
	ok("2 shards", "merge", "-out", at("merged"), at("shard0"), at("shard1"))
	ok("report", "report", at("tune"))
	recipe := at("toy.json")
	if err := os.WriteFile(recipe, []byte(`{"format": "starlab-recipe/2", "name": "toy", "description": "the toy game end to end",
  "game": "toy", "variant": "6", "seed": 1,
  "train": {"games": 400, "measure_every": 200, "measure_games": 20},
  "collect": {"count": 10, "min": 1, "max": 8, "pairs": [{"shallow": 1, "deep": 3}], "engine": "staretc:net={net}", "chunk": 5},
  "fit": {},
  "matches": [{"name": "net-vs-race", "games": 20, "variants": ["staretc:depth=2,net={net}", "staretc:depth=2"], "why": "the trained net against the hand evaluator"}]
}`), 0o644); err != nil {
		t.Fatal(err)
	}
	ok("net-vs-race", "run", "-out", at("run"), recipe)
}
