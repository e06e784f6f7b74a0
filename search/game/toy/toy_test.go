package toy

import (
	"testing"

	"starlab/search/game/gametest"
)

func TestContract(t *testing.T) {
	for _, v := range []string{"3", "6", "10"} {
		gametest.Check(t, Game{}, Description().MoveSep, v, 1, 200)
	}
}

func TestParseErrors(t *testing.T) {
	for _, bad := range []string{"", "6 0 0", "6 0 0 2", "6 7 0 0", "2 0 0 0", "6 6 6 0", "x 0 0 0", "6 0 0 rr"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
