//go:build integration

package backgammon

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestFixturesRemade runs the scripts that made the gnubg fixtures with
// the gnubg installed here (Debian's, /usr/games/gnubg) and holds their
// output to the committed files byte for byte: the fixtures the play
// tests compare against are what gnubg answers, not a copy that drifted.
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
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", name, err, msg)
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
