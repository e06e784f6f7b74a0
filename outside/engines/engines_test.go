package engines

import (
	"slices"
	"strings"
	"testing"

	"starlab/search/games"
)

// TestKinds: the table knows ext: and gnubg:, parses each kind's spec
// into its canonical name, and refuses an unknown kind in one line.
func TestKinds(t *testing.T) {
	if got := Kinds(); !slices.Equal(got, []string{"ext", "gnubg"}) {
		t.Errorf("kinds %v", got)
	}
	bg, err := games.Lookup("backgammon")
	if err != nil {
		t.Fatal(err)
	}
	for spec, want := range map[string]string{"ext:cmd=x,depth=2": "ext:cmd=x,depth=2", "gnubg:": "gnubg:plies=0,noise=0"} {
		e, err := Parse(bg, spec)
		if err != nil || e.Name() != want || !IsOutside(spec) {
			t.Errorf("%s: %v, %v", spec, e, err)
		}
	}
	for _, spec := range []string{"staretc:depth=1", "uci:cmd=x", "ext"} {
		if IsOutside(spec) {
			t.Errorf("%s is no outside engine", spec)
		}
	}
	if _, err := Parse(bg, "uci:cmd=x"); err == nil || !strings.Contains(err.Error(), "want ext, gnubg") {
		t.Errorf("an unknown kind: %v", err)
	}
}
