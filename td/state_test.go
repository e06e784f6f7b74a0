package td

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"starlab/runs"
)

// TestDamagedStateRefused: the state file train writes is read back, and
// each edit into one it never writes (more games than the run's, negative
// or non-finite numbers, an unknown field, a curve out of order, garbage)
// is refused, by Run in one line naming the file, before any game.
func TestDamagedStateRefused(t *testing.T) {
	s := small()
	s.Games, s.CheckpointEvery, s.MeasureEvery, s.MeasureGames = 40, 20, 20, 2
	dir := filepath.Join(t.TempDir(), "t")
	if _, err := train(t, s, dir, runs.NoProgress); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, StateFile))
	if err != nil {
		t.Fatal(err)
	}
	good := string(data)
	var st state
	if err := st.decode(data, &s); err != nil {
		t.Fatalf("the state train wrote: %v", err)
	}
	for name, d := range map[string][2]string{
		"games 1e12":         {`"games": 40`, `"games": 1000000000000`},
		"negative games":     {`"games": 40`, `"games": -20`},
		"games off a stop":   {`"games": 40`, `"games": 33`},
		"games as a float":   {`"games": 40`, `"games": 1e12`},
		"games as a string":  {`"games": 40`, `"games": "40"`},
		"negative seconds":   {`"seconds": `, `"seconds": -`},
		"huge seconds":       {`"seconds": `, `"seconds": 1e999, "x": `},
		"best above 1":       {`"best_score": `, `"best_score": 7, "x": `},
		"unknown field":      {`"format"`, `"formatt": 1, "format"`},
		"curve out of order": {`"games": 20`, `"games": 60`},
		"other format":       {`"` + Format + `"`, `"starlab-train/0"`},
		"truncated":          {`"curve"`, `"curve`},
		"binary garbage":     {`{`, "\x00\xff\xfe{"},
	} {
		bad := strings.Replace(good, d[0], d[1], 1)
		if bad == good {
			t.Fatalf("%s: the damage changes nothing in %s", name, good)
		}
		var st state
		if err := st.decode([]byte(bad), &s); err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: got %v, want a one-line error", name, err)
		}
	}
	// Through Run, as a resume reads it.
	cut := filepath.Join(t.TempDir(), "cut")
	run, err := runs.CreateAt(cut, "train", nil, s, s.Seed)
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	for _, f := range []string{NetFile} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(cut, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bad := strings.Replace(good, `"games": 40`, `"games": 1000000000000`, 1)
	if err := os.WriteFile(run.Path(StateFile), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Run(context.Background(), s, run, runs.NoProgress)
	if err == nil || !strings.Contains(err.Error(), run.Path(StateFile)) {
		t.Errorf("Run on a state of 1e12 games: %v, want an error naming %s", err, run.Path(StateFile))
	}
}
