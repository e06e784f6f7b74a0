//go:build integration

package main

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

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
		d := math.Abs(float64(r.Value) - exact[i])
		if d > 2*float64(r.SE) && d > 1e-9 {
			t.Errorf("%s: rollout %.5f ± %.5f, exact %.5f", r.Position, r.Value, r.SE, exact[i])
		}
		if r.SE > 0 {
			worst = max(worst, d/float64(r.SE))
		}
	}
	t.Logf("%d bear-offs, the largest error %.2f standard errors", len(res.Rows), worst)
}

// TestRolloutAgreesWithGnubg rolls out the positions of gnubg's own
// rollouts (search/backgammon/testdata/gnubg-rollouts.jsonl, made by
// gnubg-rollouts.py: gnubg 0-ply in a 1-point match, cubeless, variance
// reduction on, 1,296 trials) with gnubg 0-ply as starlab's player and
// reference, 324 trials each: starlab's P(win) (its score) must agree with
// gnubg's within 2.5 combined standard errors on every position, and the
// squared errors in those units must sum to no more than the 99th
// percentile of chi-square on as many degrees of freedom as positions: two
// estimates of one policy's value, from other dice.
func TestRolloutAgreesWithGnubg(t *testing.T) {
	f, err := os.Open("../../search/backgammon/testdata/gnubg-rollouts.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type gnubgRollout struct {
		Position string  `json:"position"`
		Side     string  `json:"side"`
		PWin     float64 `json:"pwin"`
		SE       float64 `json:"pwin_se"`
	}
	var cases []gnubgRollout
	var lines []byte
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var c gnubgRollout
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, c)
		lines = append(lines, c.Position+" "+c.Side+" -\n"...)
	}
	if len(cases) < 10 {
		t.Fatalf("%d positions in the fixture, want at least 10", len(cases))
	}
	suite := filepath.Join(t.TempDir(), "positions.suite")
	if err := os.WriteFile(suite, lines, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "rollout")
	if code, _, stderr := runCmd(t, "rollout", "-game", "backgammon", "-player", "gnubg:plies=0", "-luck", "gnubg:plies=0",
		"-trials", "324", "-seed", "11", "-suite", suite, "-out", out); code != 0 {
		t.Fatalf("rollout: exit %d: %s", code, stderr)
	}
	var res selfplay.RolloutResult
	readJSONFile(t, filepath.Join(out, selfplay.SummaryFile), &res)
	chi2 := 0.0
	for i, r := range res.Rows {
		c := cases[i]
		se := math.Hypot(float64(r.SE)/2, c.SE) // P(win) = (1 + value) / 2
		z := 0.0
		if se > 0 {
			z = (float64(r.Score) - c.PWin) / se
		}
		chi2 += z * z
		t.Logf("%s %s: starlab %.4f ± %.4f, gnubg %.4f ± %.4f, %+.2f combined standard errors", c.Position, c.Side, float64(r.Score), float64(r.SE)/2, c.PWin, c.SE, z)
		if math.Abs(z) > 2.5 {
			t.Errorf("%s %s: starlab's P(win) %.4f, gnubg's %.4f: %+.2f combined standard errors", c.Position, c.Side, float64(r.Score), c.PWin, z)
		}
	}
	if q := (distuv.ChiSquared{K: float64(len(cases))}).Quantile(0.99); chi2 > q {
		t.Errorf("chi-square %.1f on %d positions, above its 99th percentile %.1f", chi2, len(cases), q)
	}
}
