//go:build integration

package main

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"starlab/search/backgammon"
	"starlab/selfplay"
)

// TestRolloutBearoffExact rolls out the two-sided bear-offs of gnubg's
// database fixture (search/backgammon/testdata/gnubg-bearoff.jsonl) with
// gnubg 0-ply as the player, which plays them by its database, perfectly,
// and starlab's net as the luck reference: on every position the
// rollout's value is within 2 standard errors of the exact value (solved
// here by backgammon.RaceValue, which the fixture holds to gnubg's).
func TestRolloutBearoffExact(t *testing.T) {
	f, err := os.Open("../../search/backgammon/testdata/gnubg-bearoff.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	suite := filepath.Join(t.TempDir(), "bearoff.suite")
	var lines []byte
	var exact []float64
	memo := map[uint64]float64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var c struct {
			Position string `json:"position"`
		}
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		text := c.Position + " O -"
		b, err := backgammon.Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		exact = append(exact, backgammon.RaceValue(b, memo))
		lines = append(lines, text+"\n"...)
	}
	if err := os.WriteFile(suite, lines, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "rollout")
	if code, _, stderr := runCmd(t, "rollout", "-game", "backgammon", "-player", "gnubg:plies=0", "-trials", "144", "-suite", suite, "-out", out); code != 0 {
		t.Fatalf("rollout: exit %d: %s", code, stderr)
	}
	var res selfplay.RolloutResult
	readJSONFile(t, filepath.Join(out, selfplay.SummaryFile), &res)
	if len(res.Rows) != len(exact) {
		t.Fatalf("%d rows for %d positions", len(res.Rows), len(exact))
	}
	worst := 0.0
	for i, r := range res.Rows {
		d := math.Abs(r.Value - exact[i])
		if d > 2*r.SE && d > 1e-9 {
			t.Errorf("%s: rollout %.5f ± %.5f, exact %.5f", r.Position, r.Value, r.SE, exact[i])
		}
		if r.SE > 0 {
			worst = max(worst, d/r.SE)
		}
	}
	t.Logf("%d bear-offs, the largest error %.2f standard errors", len(res.Rows), worst)
}
