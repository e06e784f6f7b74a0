package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"starlab/search/games"
)

// TestEveryGameEveryCommand runs every command once on every registered
// game, from a working directory outside the module, with nothing the
// game gives by default on the command line: no -eval, -suite, -depths,
// -pairs, -min or -max, and the game's default variant. Only sizes are
// made small (games, positions, the deepest depth). What a new game's
// description lacks or gets wrong (an evaluator that does not exist, a
// suite that reads only from the module root) fails here, naming the game
// and the command.
func TestEveryGameEveryCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every command on every game")
	}
	for _, name := range games.Names() {
		t.Run(name, func(t *testing.T) {
			g, err := games.Lookup(name)
			if err != nil {
				t.Fatal(err)
			}
			start, err := g.New(g.DefaultVariant())
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			t.Chdir(dir) // not the module root: every default must read from anywhere
			ok := func(args ...string) {
				t.Helper()
				args = append([]string{args[0], "-game", name}, args[1:]...)
				if code, _, stderr := runCmd(t, args...); code != 0 {
					t.Fatalf("%q: exit %d, %s", args, code, stderr)
				}
			}
			shallow := fmt.Sprint(g.Defaults.BenchDepths[0])
			ok("show", start.String())
			ok("play", "-seed", "1")
			ok("search", "-depth", shallow, start.String())
			ok("eval", start.String())
			ok("gen", "-count", "3")
			ok("bench", "-limit", "1", "-depths", shallow, "-out", "bench")
			ok("tune", "-limit", "1", "-depths", fmt.Sprint(g.Defaults.CollectPairs[0][1]), "-out", "tune")
			for i, shard := range []string{"0/2", "1/2"} {
				ok("match", "-games", "4", "-shard", shard, "-out", fmt.Sprint("shard", i), "staretc:depth=1", "staretc:depth=1,eval="+g.HandEval)
			}
			if code, _, stderr := runCmd(t, "merge", "-out", "match", "shard0", "shard1"); code != 0 {
				t.Fatalf("merge: exit %d, %s", code, stderr)
			}
			if code, stdout, stderr := runCmd(t, "analyze", "-judge", "staretc:depth=1", "-out", "analyze", "match"); code != 0 || !strings.Contains(stdout, "mean loss") {
				t.Fatalf("analyze: exit %d, %s%s", code, stdout, stderr)
			}
			if code, stdout, stderr := runCmd(t, "rollout", "-game", name, "-trials", "4", "-out", "rollout"); code != 0 || !strings.Contains(stdout, "trials a second") {
				t.Fatalf("rollout: exit %d, %s%s", code, stdout, stderr)
			}
			// export writes the games in another program's format where
			// the game has one, and refuses in one line where it has none.
			code, _, stderr := runCmd(t, "export", "-out", "export", "match")
			if want := map[bool]int{true: 0, false: 2}[g.Export != nil]; code != want || (code == 2 && !strings.Contains(stderr, "no other program's format")) {
				t.Fatalf("export: exit %d, %s", code, stderr)
			}
			ok("train", "-games", "20", "-measure-every", "20", "-measure-games", "2", "-out", "train")
			ok("collect", "-count", "6", "-pairs", fmt.Sprintf("%d:%d", g.Defaults.CollectPairs[0][0], g.Defaults.CollectPairs[0][1]), "-out", "collect")
			if code, _, stderr := runCmd(t, "fit", "-out", "fit", "collect"); code != 0 {
				t.Fatalf("fit: exit %d, %s", code, stderr)
			}
			for _, run := range []string{"match", "tune", "train", "fit", "analyze"} {
				if code, _, stderr := runCmd(t, "report", run); code != 0 {
					t.Fatalf("report %s: exit %d, %s", run, code, stderr)
				}
			}
			recipe := fmt.Sprintf(`{"format": "starlab-recipe/2", "name": "every-command", "description": "every stage once",
  "game": %q, "seed": 1,
  "train": {"games": 20, "measure_every": 20, "measure_games": 2},
  "collect": {"count": 6, "pairs": [{"shallow": 1, "deep": 2}], "chunk": 2},
  "fit": {},
  "matches": [{"name": "net-vs-hand", "games": 4, "variants": ["staretc:depth=1,net={net}", "staretc:depth=1,eval=%s"], "why": "the recipe's match"}]
}`, name, g.HandEval)
			if err := os.WriteFile(filepath.Join(dir, "recipe.json"), []byte(recipe), 0o644); err != nil {
				t.Fatal(err)
			}
			if code, stdout, stderr := runCmd(t, "run", "-out", "run", "recipe.json"); code != 0 || !strings.Contains(stdout, "net-vs-hand") {
				t.Fatalf("run: exit %d, %s%s", code, stdout, stderr)
			}
		})
	}
}
