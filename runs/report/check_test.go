package report

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"starlab/runs"
	"starlab/search/games"
	"starlab/selfplay"
)

// finishedMatch plays a finished 4-game match in dir, as a stage of a
// pipeline run would.
func finishedMatch(t *testing.T, dir string, seed uint64) {
	t.Helper()
	ms := selfplay.DefaultMatchSettings(diceGame, "staretc:depth=1,eval=pairs", "staretc:depth=1,eval=zero")
	ms.Games, ms.Seed, ms.Luck = 4, seed, "none"
	run, err := runs.CreateAt(dir, "match", []string{"starlab", "match"}, ms, seed)
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	if _, err := selfplay.RunMatch(context.Background(), ms, run, runs.NoProgress); err != nil {
		t.Fatal(err)
	}
	if err := run.Finish(nil); err != nil {
		t.Fatal(err)
	}
}

// TestDamagedRunAmongOthers: among several runs, one whose summary, which
// its section is made from, is damaged is shown as a run that cannot be
// shown, with the file and the problem; the page is made from the others,
// and the warning names the file. Alone, the same run fails the report
// in one error naming the file.
func TestDamagedRunAmongOthers(t *testing.T) {
	root := t.TempDir()
	finishedMatch(t, filepath.Join(root, "1-good"), 1)
	finishedMatch(t, filepath.Join(root, "2-bad"), 2)
	bad := filepath.Join(root, "2-bad", selfplay.SummaryFile)
	if err := os.WriteFile(bad, []byte(`{"format": `), 0o644); err != nil {
		t.Fatal(err)
	}
	res, html := reportPage(t, root)
	if res.Sections != 2 || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], bad) {
		t.Fatalf("report %+v: want 2 sections and one warning naming %s", res, bad)
	}
	for _, want := range []string{"2-bad: a run that cannot be shown", "This run cannot be shown: report of " + filepath.Join(root, "2-bad") + ": " + bad, "staretc:depth=1,eval=zero"} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %q:\n%s", want, visible(html))
		}
	}
	if _, err := Run(context.Background(), filepath.Join(root, "2-bad"), games.Lookup, runs.NoProgress); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("report of the damaged run alone: %v, want an error naming %s", err, bad)
	}
}

// TestFinishedJournalWhole: a finished match's journal cut at a line
// boundary, which a journal of a killed run may be, holds fewer pairs than
// its summary counts, and the report says so; the page is still made.
func TestFinishedJournalWhole(t *testing.T) {
	dir := t.TempDir()
	finishedMatch(t, dir, 3)
	path := filepath.Join(dir, selfplay.MatchJournal)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	if len(lines) != 4 { // the header, two pairs, and the empty rest
		t.Fatalf("the journal has %d lines, want the header and two pairs", len(lines)-1)
	}
	if err := os.WriteFile(path, bytes.Join(lines[:2], nil), 0o644); err != nil {
		t.Fatal(err)
	}
	res, html := reportPage(t, dir)
	want := path + ": 2 games in its records, where the summary counts 4"
	if len(res.Warnings) != 1 || !strings.HasPrefix(res.Warnings[0], want) {
		t.Errorf("warnings %q, want one starting %q", res.Warnings, want)
	}
	if !strings.Contains(html, "A file of this run is damaged: "+want) {
		t.Errorf("the page does not say the journal is damaged:\n%s", visible(html))
	}
}
