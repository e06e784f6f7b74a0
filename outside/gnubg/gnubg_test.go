package gnubg

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"starlab/outside"
	"starlab/search/backgammon"
	"starlab/search/games"
)

// TestSpecs: gnubg: specs in canonical form, bad ones and games other than
// backgammon refused in one line, and the settings gnubg is given.
func TestSpecs(t *testing.T) {
	bg, err := games.Lookup("backgammon")
	if err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{
		"gnubg:":                          "gnubg:plies=0,noise=0",
		"gnubg:noise=0.060,plies=0":       "gnubg:plies=0,noise=0.06",
		"gnubg:plies=2,timeout=30s":       "gnubg:plies=2,noise=0",
		"gnubg:plies=1,timeout=5s":        "gnubg:plies=1,noise=0,timeout=5s",
		"gnubg:path=/opt/gnubg,noise=.04": "gnubg:plies=0,noise=0.04,path=/opt/gnubg",
	} {
		e, err := Parse(bg, in)
		if err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		if e.Name() != want || !e.Deterministic() {
			t.Errorf("%s: name %s (deterministic %v), want %s", in, e.Name(), e.Deterministic(), want)
		}
	}
	for _, bad := range []string{"gnubg:plies=5", "gnubg:plies=-1", "gnubg:noise=2", "gnubg:noise=x", "gnubg:ply=1", "gnubg:plies=1,plies=2", "gnubg:timeout=0", "gnubg:path="} {
		if _, err := Parse(bg, bad); err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line", bad, err)
		}
	}
	dice, _ := games.Lookup("dice")
	if _, err := Parse(dice, "gnubg:plies=0"); err == nil || !strings.Contains(err.Error(), "plays backgammon") {
		t.Errorf("gnubg in dice: %v", err)
	}
	s := &Spec{Plies: 2, Noise: 0.015}
	got := strings.Join(s.settings("money", "/tmp/x/s"), "\n")
	for _, want := range []string{"set threads 1", "set jacoby off", "evaluation plies 2", "cubeful off", "prune on", "noise 0.015", "deterministic on", "external /tmp/x/s"} {
		if !strings.Contains(got, want) {
			t.Errorf("settings %q lack %q", got, want)
		}
	}
	if strings.Contains(strings.Join((&Spec{}).settings("1pt", "s"), "\n"), "jacoby") {
		t.Error("1pt settings set the Jacoby rule, which only money play has")
	}
	if _, err := (&Spec{Path: "/nonexistent/gnubg"}).Program(); err == nil {
		t.Error("a missing gnubg program was found")
	}
}

// TestEquity reads gnubg's evaluation line on both variants' scales and
// refuses lines that are not five cumulative probabilities and an equity.
func TestEquity(t *testing.T) {
	// gnubg 0-ply's evaluation of the start (a 1-point match, then money).
	const start = "0.521514 0.153921 0.007563 0.129847 0.007546 0.521514"
	if v, err := equity(start, backgammon.OnePoint); err != nil || math.Abs(v-0.043028) > 1e-9 {
		t.Errorf("1pt: %v, %v; want 2·0.521514 − 1", v, err)
	}
	want := (2*0.521514 - 1 + 0.153921 - 0.129847 + 0.007563 - 0.007546) / 3
	if v, err := equity(start, backgammon.Money); err != nil || math.Abs(v-want) > 1e-12 {
		t.Errorf("money: %v, %v; want %v", v, err, want)
	}
	for _, bad := range []string{"", "roll", "0.5 0.1 0.01 0.1 0.01", "0.5 0.6 0.01 0.1 0.01 0", "0.5 0.1 0.2 0.1 0.01 0", "1.5 0 0 0 0 0", "x 0 0 0 0 0"} {
		if _, err := equity(bad, backgammon.OnePoint); err == nil {
			t.Errorf("%q was read as an evaluation", bad)
		}
	}
}

// TestNoisyLuckReference: a luck reference has no noise.
func TestNoisyLuckReference(t *testing.T) {
	bg, _ := games.Lookup("backgammon")
	if _, err := (&Spec{Noise: 0.04}).StartValuer(t.Context(), bg, "1pt", nil); err == nil || !strings.Contains(err.Error(), "noise") {
		t.Errorf("a noisy reference: %v", err)
	}
}

// TestSweepSocketDirs: the socket folder a starlab killed with -9 left
// behind is removed by the next gnubg start, and the folders of starlab
// processes that still run, or that hold their lock (another PID
// namespace's), are kept.
func TestSweepSocketDirs(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	gone := filepath.Join(tmp, fmt.Sprintf("%s%d-123", socketDirs, dead.Process.Pid))
	mine := filepath.Join(tmp, fmt.Sprintf("%s%d-456", socketDirs, os.Getpid()))
	other := filepath.Join(tmp, socketDirs+"1-789") // init's: running
	locked := filepath.Join(tmp, fmt.Sprintf("%s%d-1", socketDirs, dead.Process.Pid))
	for _, d := range []string{gone, mine, other, locked} {
		if err := os.MkdirAll(filepath.Join(d, "x"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	lock, err := outside.LockDir(locked)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	sweepSocketDirs()
	dir, lock2, err := socketDir() // a folder being made is never seen without its lock
	if err != nil {
		t.Fatal(err)
	}
	defer lock2.Close()
	if !strings.HasPrefix(filepath.Base(dir), fmt.Sprintf("%s%d-", socketDirs, os.Getpid())) {
		t.Errorf("socket folder %s", dir)
	}
	for d, keep := range map[string]bool{gone: false, mine: true, other: true, locked: true, dir: true} {
		if _, err := os.Stat(d); (err == nil) != keep {
			t.Errorf("%s: kept %v, want %v", d, err == nil, keep)
		}
	}
}

// TestLocate: a gnubg path that is not an executable program is refused
// when the spec is located, before any run folder.
func TestLocate(t *testing.T) {
	bg, err := games.Lookup("backgammon")
	if err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(t.TempDir(), "gnubg")
	if err := os.WriteFile(plain, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/nonexistent/gnubg", t.TempDir(), plain} {
		o, err := Parse(bg, "gnubg:path="+path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := o.Locate(nil); err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("path %s: %v", path, err)
		}
	}
}
