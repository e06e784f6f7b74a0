package main

import (
	"path/filepath"
	"reflect"
	"testing"

	"starlab/runs"
	"starlab/selfplay"
)

// TestRolloutKilledAndResumed kills a rollout process with SIGKILL part
// way, resumes it, and checks that its rows equal an uninterrupted run's
// bit for bit, each trial journalled once.
func TestRolloutKilledAndResumed(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 2,000 trials twice")
	}
	args := []string{"rollout", "-trials", "2000", "-player", "staretc:depth=3", "-seed", "3", "-workers", "2"}
	ref := filepath.Join(t.TempDir(), "ref")
	if code, _, stderr := runCmd(t, append(args, "-out", ref)...); code != 0 {
		t.Fatalf("reference run: exit %d: %s", code, stderr)
	}
	dir := filepath.Join(t.TempDir(), "killed")
	journal := filepath.Join(dir, selfplay.RolloutJournal)
	killWhen(t, append(args, "-out", dir), "200 journalled trials", func() bool {
		return countLines(journal)-1 >= 200 // the first line is the header
	})
	done := countLines(journal) - 1
	if done >= 2000 {
		t.Skip("the child finished before it was killed; nothing to resume")
	}
	if code, _, stderr := runCmd(t, "rollout", "-resume", dir); code != 0 {
		t.Fatalf("resume: exit %d: %s", code, stderr)
	}
	want, err := runs.ReadParquet[selfplay.RolloutRow](filepath.Join(ref, selfplay.RolloutFile), selfplay.RolloutFormat)
	if err != nil {
		t.Fatal(err)
	}
	got, err := runs.ReadParquet[selfplay.RolloutRow](filepath.Join(dir, selfplay.RolloutFile), selfplay.RolloutFormat)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("killed after %d trials and resumed: %+v (%v)\nuninterrupted: %+v", done, got, err, want)
	}
	if n := countLines(journal) - 1; n != 2000 {
		t.Fatalf("journal has %d trials after the resume, want 2000 (none twice)", n)
	}
}
