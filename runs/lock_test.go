package runs

import (
	"path/filepath"
	"testing"
)

// TestStateOf: a run is done, failed, stopped (running by its manifest,
// held by no one) or being worked on (held), whatever its manifest says
// of an unfinished run.
func TestStateOf(t *testing.T) {
	dir := t.TempDir()
	for i, c := range []struct {
		status Status
		held   bool
		want   State
	}{
		{StatusDone, false, Done},
		{StatusDone, true, Done},
		{StatusRunning, true, Working},
		{StatusRunning, false, Stopped},
		{StatusFailed, false, Failed},
		{StatusFailed, true, Working},
	} {
		d := filepath.Join(dir, string(rune('a'+i)))
		r, err := CreateAt(d, "match", nil, struct{}{}, 0)
		if err != nil {
			t.Fatal(err)
		}
		if !c.held {
			r.Close()
		}
		m := r.Manifest()
		m.Status = c.status
		if got := StateOf(d, m); got != c.want {
			t.Errorf("status %s, held %v: state %d, want %d", c.status, c.held, got, c.want)
		}
		r.Close()
	}
}
