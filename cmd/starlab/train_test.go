package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"starlab/nn"
)

var trainArgs = []string{"-games", "12000", "-checkpoint", "2000", "-measure-every", "6000", "-measure-games", "20", "-json"}

type trainJSON struct {
	Games int64  `json:"games"`
	Net   string `json:"net"`
	NetID string `json:"net_id"`
}

// TestTrainKilledAndResumed kills a training process with SIGKILL after
// its first checkpoint, resumes it, and checks that it finishes the games
// asked for with the net an uninterrupted run trains, bit for bit.
func TestTrainKilledAndResumed(t *testing.T) {
	code, stdout, stderr := runCmd(t, append([]string{"train", "-out", filepath.Join(t.TempDir(), "ref")}, trainArgs...)...)
	if code != 0 {
		t.Fatalf("reference run: exit %d: %s", code, stderr)
	}
	var want trainJSON
	if err := json.Unmarshal([]byte(stdout), &want); err != nil || want.Games != 12000 {
		t.Fatalf("reference result %q: %v", stdout, err)
	}
	dir := filepath.Join(t.TempDir(), "killed")
	killWhen(t, append([]string{"train", "-out", dir}, trainArgs...), "a checkpoint", func() bool {
		_, err := os.Stat(filepath.Join(dir, "state.json"))
		return err == nil
	})
	if _, err := os.Stat(filepath.Join(dir, "curve.parquet")); err == nil {
		t.Skip("the child finished before it was killed")
	}
	code, stdout, stderr = runCmd(t, "train", "-resume", dir, "-json")
	if code != 0 {
		t.Fatalf("resume: exit %d: %s", code, stderr)
	}
	var got trainJSON
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	net, err := nn.Load(got.Net)
	if err != nil {
		t.Fatal(err)
	}
	if got.Games != 12000 || net.Meta.Games != 12000 || got.NetID != want.NetID {
		t.Fatalf("resumed: %+v (net of %d games), uninterrupted %+v", got, net.Meta.Games, want)
	}
}

func TestTrainBadInput(t *testing.T) {
	dir := t.TempDir()
	checkBadInput(t, []badInput{
		{[]string{"train", "-n", "2"}, 2, "-n 2"},
		{[]string{"train", "-games", "0"}, 2, "-games"},
		{[]string{"train", "-lambda", "2"}, 2, "-lambda"},
		{[]string{"train", "-measure-games", "3"}, 2, "-measure-games"},
		{[]string{"train", "-resume", filepath.Join(dir, "none")}, 2, "does not exist"},
		{[]string{"train", "-resume", dir, "-games", "5"}, 2, "cannot change"},
	})
}

// TestTrainBreakthrough: train takes ChanceBreakthrough (-game, -variant)
// end to end, measurement against material included, and search plays
// with the net it wrote; the net on a board of another size, or eval=mlp
// without a net, is refused in one line.
func TestTrainBreakthrough(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bt")
	// Seed 3 trains a net whose depth-1 player never rolls from the start.
	code, stdout, stderr := runCmd(t, "train", "-game", "breakthrough", "-variant", "4x5", "-games", "400", "-seed", "3",
		"-measure-every", "200", "-measure-games", "20", "-out", dir, "-json")
	if code != 0 {
		t.Fatalf("train: exit %d: %s", code, stderr)
	}
	var res trainJSON
	if err := json.Unmarshal([]byte(stdout), &res); err != nil || res.Games != 400 {
		t.Fatalf("train result %q: %v", stdout, err)
	}
	// The opponent is material, named by the game; from the start every
	// measurement game is one game, which the result counts.
	for _, want := range []string{`"opponent":"material"`, `"score_vs_hand":`, `"measure_pairs":10,"distinct_pairs":1`} {
		if !strings.Contains(stdout, want) || strings.Contains(stdout, "score_vs_pairs") {
			t.Errorf("train -json lacks %s or names pairs: %s", want, stdout)
		}
	}
	code, text, stderr := runCmd(t, "train", "-game", "breakthrough", "-variant", "4x5", "-games", "400", "-seed", "3", "-measure-every", "200", "-measure-games", "20",
		"-out", filepath.Join(t.TempDir(), "text"))
	if code != 0 || !strings.Contains(text, "score against material at depth 1: ") || strings.Contains(text, "against pairs") ||
		!strings.Contains(text, "all 10 couples of games on shared dice are the same two games: the score is theirs, repeated, and its interval means nothing") {
		t.Errorf("train: exit %d, %q, %s", code, text, stderr)
	}
	net, err := nn.Load(res.Net)
	if err != nil || net.Game != "breakthrough" || net.Variant != "4x5" {
		t.Fatalf("net %s: %v, %v", res.Net, net, err)
	}
	code, stdout, stderr = runCmd(t, "search", "-game", "breakthrough", "-algo", "staretc", "-eval", "mlp", "-net", res.Net,
		"-depth", "3", "4 5 w bbbb/bbbb/..../wwww/wwww")
	if code != 0 || !strings.Contains(stdout, "eval=mlp") {
		t.Fatalf("search with the net: exit %d, %q, %s", code, stdout, stderr)
	}
	checkBadInput(t, []badInput{
		{[]string{"search", "-game", "breakthrough", "-eval", "mlp", "-net", res.Net, "-depth", "1", "5 5 w bbbbb/bbbbb/...../wwwww/wwwww"},
			2, "made for 4x5 boards, not 5x5"},
		{[]string{"search", "-game", "breakthrough", "-eval", "mlp", "-depth", "1", "4 5 w bbbb/bbbb/..../wwww/wwww"}, 2, "net=FILE"},
	})
}
