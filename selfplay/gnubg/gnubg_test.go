package gnubg

import (
	"strings"
	"testing"

	"starlab/search/games"
	"starlab/selfplay"
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
		e, err := selfplay.ParseEngine(bg, in)
		if err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		if e.Name() != want || !e.Deterministic() {
			t.Errorf("%s: name %s (deterministic %v), want %s", in, e.Name(), e.Deterministic(), want)
		}
	}
	for _, bad := range []string{"gnubg:plies=5", "gnubg:plies=-1", "gnubg:noise=2", "gnubg:noise=x", "gnubg:ply=1", "gnubg:plies=1,plies=2", "gnubg:timeout=0", "gnubg:path="} {
		if _, err := selfplay.ParseEngine(bg, bad); err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line", bad, err)
		}
	}
	dice, _ := games.Lookup("dice")
	if _, err := selfplay.ParseEngine(dice, "gnubg:plies=0"); err == nil || !strings.Contains(err.Error(), "plays backgammon") {
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
