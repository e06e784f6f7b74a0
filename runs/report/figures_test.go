package report

import (
	"path/filepath"
	"strings"
	"testing"

	"starlab/runs"
	"starlab/selfplay"
)

// matchOf writes into dir a finished match run whose summary.json holds
// the pairings given.
func matchOf(t *testing.T, dir string, pairings ...selfplay.Summary) {
	t.Helper()
	set := selfplay.DefaultMatchSettings(diceGame, "ext:cmd=engine", "staretc:depth=1")
	set.GameName, set.Variant, set.Luck = "dice", "5x5-4", "staretc:depth=3,eval=pairs,tt=1"
	finishedRun(t, dir, "match", set, func(run *runs.Run) error {
		return runs.WriteJSON(run, selfplay.SummaryFile, &selfplay.MatchReport{Format: selfplay.MatchFormat, Run: dir, Settings: set, Pairings: pairings})
	})
}

// pairOf returns pair i whose games A scores a and b (1 or 0), A blue in
// the first, with the luck luckA for A in each, and A's engine reporting
// no search figures where B's searched depth 1 with 10 nodes a move.
func pairOf(i int, a, b, luckA float64) selfplay.PairRecord {
	game := func(s float64, aBlue bool) selfplay.PairGame {
		r, l, side := int(2*s)-1, 2*luckA, 1 // blue's view; B is red
		if !aBlue {
			r, l, side = -r, -l, 0
		}
		g := selfplay.PairGame{Pair: i, AIsBlue: aBlue, Game: selfplay.Record{Result: r, Plies: 8, Turns: [2]int{4, 4}, Luck: l}}
		g.Game.Depth[side], g.Game.Nodes[side] = 4, 40
		if !aBlue {
			g.Round = 1
		}
		return g
	}
	return selfplay.PairRecord{Index: i, Games: [2]selfplay.PairGame{game(a, true), game(b, false)}}
}

// TestReportMatchUnreportedAndLuckElo: the match page shows - for the
// depth and nodes of an engine that reports none (an outside engine), not
// 0.00 and 0, and says why a luck-adjusted score below 0% has no Elo, as
// the terminal's text and summary.json do.
func TestReportMatchUnreportedAndLuckElo(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "m")
	s := selfplay.Summarize("ext:cmd=engine", "staretc:depth=1", []selfplay.PairRecord{pairOf(0, 0, 0, 0.3), pairOf(1, 0, 1, 0.3)}, true, nil)
	if s.LuckEloNote == "" {
		t.Fatalf("luck-adjusted score %v: no note on its Elo", s.LuckScore)
	}
	matchOf(t, dir, s)
	_, html := reportPage(t, dir)
	for _, want := range []string{
		"<td>- vs 1.00</td><td>- vs 10</td>",
		"- where the engine reports no depth or nodes",
		"Pairing 1 vs 2, luck-adjusted score -5.0%: the luck-adjusted score is below 0%, where no Elo is defined (its Elo is printed as -).",
		"Elo - (the luck-adjusted score is below 0%, where no Elo is defined)",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %q:\n%s", want, html)
		}
	}
	for _, bad := range []string{"0.00 vs 1.00", "-inf"} {
		if strings.Contains(html, bad) {
			t.Errorf("the page says %q", bad)
		}
	}
}
