//go:build integration

package backgammon

import (
	"bytes"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestFixturesRemade runs the scripts that made the gnubg fixtures with
// the gnubg installed here (Debian's, /usr/games/gnubg) and holds their
// output to the committed files: the fixtures the play tests compare
// against are what gnubg answers, not a copy that drifted. The bear-off
// and board fixtures are held byte for byte. gnubg's self-play, which
// chose some of the plays fixture's positions, and its order of plays of
// equal value were seen to differ from one machine to another with the
// same gnubg, so the plays script is given the fixture's own positions
// (STARLAB_GNUBG_POSITIONS) and each position's plays are held to the
// fixture's as a set.
func TestFixturesRemade(t *testing.T) {
	gnubg, err := exec.LookPath("gnubg")
	if err != nil {
		gnubg = "/usr/games/gnubg"
		if _, err := os.Stat(gnubg); err != nil {
			t.Fatal("gnubg is not installed (apt-get install -y gnubg): the fixtures cannot be remade")
		}
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"gnubg-plays", "gnubg-bearoff", "gnubg-boards"} {
		out := filepath.Join(t.TempDir(), name+".jsonl")
		cmd := exec.Command(gnubg, "-t", "-q", "-r", "-p", "search/backgammon/testdata/"+name+".py")
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "STARLAB_GNUBG_OUT="+out)
		if name == "gnubg-plays" {
			cmd.Env = append(cmd.Env, "STARLAB_GNUBG_POSITIONS=search/backgammon/testdata/"+name+".jsonl")
		}
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", name, err, msg)
		}
		if name == "gnubg-plays" {
			samePlays(t, readAll[gnubgPlays](t, out), readAll[gnubgPlays](t, "testdata/"+name+".jsonl"))
			continue
		}
		got, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile("testdata/" + name + ".jsonl")
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: gnubg's answers differ from testdata/%s.jsonl", name, name)
		}
	}
}

// samePlays reports every line of got whose case, position or set of
// plays (text and resulting position) differs from want's.
func samePlays(t *testing.T, got, want []gnubgPlays) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("gnubg-plays: gnubg listed %d positions, the fixture has %d", len(got), len(want))
	}
	for i := range got {
		set := func(c gnubgPlays) map[string]bool {
			m := map[string]bool{}
			for _, p := range c.Plays {
				m[p.Move+" -> "+p.After] = true
			}
			return m
		}
		g, w := set(got[i]), set(want[i])
		if got[i].Case != want[i].Case || got[i].Position != want[i].Position || !maps.Equal(g, w) {
			t.Errorf("gnubg-plays line %d: gnubg answers %s %s with %d plays, the fixture has %s %s with %d",
				i+1, got[i].Case, got[i].Position, len(g), want[i].Case, want[i].Position, len(w))
		}
	}
}
