package main

import (
	"encoding/json"
	"os"
	"path/filepath"
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
		{[]string{"train", "-resume", filepath.Join(dir, "none")}, 1, "does not exist"},
		{[]string{"train", "-resume", dir, "-games", "5"}, 2, "cannot change"},
	})
}
