package main

import (
	"os/exec"
	"path/filepath"
	"testing"

	"starlab/selfplay"
)

// buildEngine builds the protocol's Go reference engine, cmd/starlab-engine.
func buildEngine(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "starlab-engine")
	if out, err := exec.Command("go", "build", "-o", bin, "../starlab-engine").CombinedOutput(); err != nil {
		t.Fatalf("go build ../starlab-engine: %v\n%s", err, out)
	}
	return bin
}

// TestProtocolLosesNothing: the protocol's Go reference engine, played
// through ext: against the same search in process, plays the same games
// from both seats, so every duplicate pair splits 1-1 and both sides
// search the same nodes to the same depths: the protocol carries the
// position, the game's seed, the limit and the move without loss, in
// Dice and in Backgammon.
func TestProtocolLosesNothing(t *testing.T) {
	engine := buildEngine(t)
	for _, c := range []struct{ game, depth string }{{"dice", "3"}, {"backgammon", "1"}} {
		dir := filepath.Join(t.TempDir(), c.game)
		code, _, stderr := runMatch(t, "-game", c.game, "-games", "6", "-concurrency", "2", "-luck", "none", "-out", dir,
			"ext:cmd="+engine+",depth="+c.depth, "staretc:depth="+c.depth)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.game, code, stderr)
		}
		var rep selfplay.MatchReport
		readJSONFile(t, filepath.Join(dir, selfplay.SummaryFile), &rep)
		s := rep.Pairings[0]
		if s.Pentanomial != [5]int{0, 0, 3, 0, 0} || s.Forfeits != nil || s.NodesA != s.NodesB || s.DepthA != s.DepthB || s.NodesA == 0 {
			t.Errorf("%s: pentanomial %v, forfeits %+v, nodes per move %v vs %v, depth %v vs %v; want every pair 1-1 and the same search on both sides",
				c.game, s.Pentanomial, s.Forfeits, s.NodesA, s.NodesB, s.DepthA, s.DepthB)
		}
	}
}
