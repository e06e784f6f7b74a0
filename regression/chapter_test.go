package regression

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"starlab/runs"
	"starlab/search"
)

// Positions of boards the chapter did not measure, from starlab gen.
var (
	dice4x4Suite = []string{
		"4 3 r -1 - - r - b - - - b - - - - - - -",
		"4 3 b 1 - - - r b - r - - - - - b - - -",
	}
	breakthrough5x6Suite = []string{
		"5 6 b ..bbb/b..../w..../w..ww/...../...ww",
		"5 6 b ..bb./b..b./w..w./w..../..w../....w",
	}
)

// tuneOutputs runs a small tune of g over suite (a path, or the lines
// written to a file) and returns what it shows: the caption and the
// table, tune.json, the rows as -json prints them, and the plot's SVG.
func tuneOutputs(t *testing.T, g search.Kit, suite string, lines []string, depth int) (res *TuneResult, outputs map[string]string) {
	t.Helper()
	if lines != nil {
		suite = filepath.Join(t.TempDir(), "positions.suite")
		if err := os.WriteFile(suite, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := DefaultTuneSettings(g, suite)
	s.Kit, s.Limit, s.Depths, s.Ts, s.CPC = g, 2, []int{depth}, []float64{1.6}, SpecList{"cpc:eval=" + g.HandEval}
	res, run := checkAndTune(t, s)
	head, table := res.Table()
	text := res.Caption() + "\n" + strings.Join(head, " ")
	for _, l := range table {
		text += "\n" + strings.Join(l, " ")
	}
	rows, err := json.Marshal(res.Rows)
	if err != nil {
		t.Fatal(err)
	}
	outputs = map[string]string{"terminal": text, "-json": string(rows)}
	for _, f := range []string{TuneSummaryFile, TunePlot + ".svg"} {
		data, err := os.ReadFile(run.Path(f))
		if err != nil {
			t.Fatal(err)
		}
		outputs[f] = string(data)
	}
	return res, outputs
}

// checkAndTune checks s and tunes in a new run directory, which stays
// open until the test ends.
func checkAndTune(t *testing.T, s TuneSettings) (*TuneResult, *runs.Run) {
	t.Helper()
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	run, err := runs.CreateAt(filepath.Join(t.TempDir(), "t"), "tune", nil, s, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { run.Close() })
	res, err := Tune(context.Background(), s, run, runs.NoProgress)
	if err != nil {
		t.Fatal(err)
	}
	return res, run
}

// TestTuneChapterOnlyOnItsBoard: the chapter's figures are shown beside a
// tune of the boards it measured (Dice 5x5-4, ChanceBreakthrough 8x8) and
// beside no other, in the table, tune.json, the rows and the plot.
func TestTuneChapterOnlyOnItsBoard(t *testing.T) {
	for _, c := range []struct {
		g       search.Kit
		suite   string
		lines   []string
		chapter string // the tables named, "" for none
	}{
		{diceGame, "", dice4x4Suite, ""},
		{breakthroughGame, "", breakthrough5x6Suite, ""},
		{diceGame, "../search/dice/suites/dice5x5-4.suite", nil, "tables 5.6-5.8"},
		{breakthroughGame, "../search/breakthrough/suites/breakthrough8x8-measure.suite", nil, "table 5.10"},
	} {
		res, outputs := tuneOutputs(t, c.g, c.suite, c.lines, 3)
		board := res.Game + " " + res.Variant
		if c.chapter == "" {
			if ch := res.Chapter(); ch != nil {
				t.Errorf("%s: the chapter's %s", board, ch.Tables)
			}
			for name, out := range outputs {
				if strings.Contains(strings.ToLower(out), "chapter") {
					t.Errorf("%s: %s names the chapter:\n%s", board, name, out)
				}
			}
			continue
		}
		if !strings.Contains(outputs["terminal"], "its "+c.chapter) || !strings.Contains(outputs[TuneSummaryFile], `"chapter_engine"`) ||
			!strings.Contains(outputs["-json"], `"chapter_scale":"the chapter's points`) {
			t.Errorf("%s: no chapter's %s:\n%s\n%s", board, c.chapter, outputs["terminal"], outputs[TuneSummaryFile])
		}
	}
}

// TestTuneTableChapterOfTheBoard: the table of a result read back gives
// the chapter's line of its own board (ChanceBreakthrough 8x8: table 5.10
// at depth 5) and none for a board the chapter did not measure, even where
// a file of an earlier version wrote the 8x8 figures into the rows of a
// 5x6 tune.
func TestTuneTableChapterOfTheBoard(t *testing.T) {
	rows := summarize([]TuneRecord{{Depth: 5, T: 1.6, Nodes: 1, BaseNodes: 2, Error: 0.01}}, []int{5}, []float64{1.6}, []string{"cpc:eval=material"}, breakthroughGame.ChapterOf("8x8"))
	for _, c := range []struct {
		variant string
		want    string
	}{{"8x8", "5 1.6 chapter - - 53.9% - 0.021 - 0.122 - - -"}, {"5x6", ""}} {
		res := &TuneResult{Game: "breakthrough", Variant: c.variant, CPC: []string{"cpc:eval=material"}, Rows: rows}
		res.Bind(breakthroughGame)
		_, lines := res.Table()
		got := ""
		if len(lines) == 2 {
			got = strings.Join(lines[1], " ")
		}
		if got != c.want || len(lines) != 1+min(len(c.want), 1) {
			t.Errorf("%s: the chapter's line %q of %d lines, want %q", c.variant, got, len(lines), c.want)
		}
	}
}
