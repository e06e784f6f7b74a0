package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"starlab/regression"
	"starlab/runs"
	"starlab/search/bench"
	"starlab/selfplay"
)

// checkFiles reads whole the files of s's run that the page is not made
// from but that hold the run's results (dataFiles), notes each damaged
// one in the section, and returns one line for each, naming the file and
// the problem.
func checkFiles(s *Section) []string {
	var lines []string
	for _, err := range dataFiles(s.path, s.Manifest) {
		s.Notes = append(s.Notes, fmt.Sprintf("A file of this run is damaged: %v. The page does not show that file, and is made without it.", err))
		lines = append(lines, err.Error()+" (the page does not show this file)")
	}
	return lines
}

// unshown is the section of a run among others that cannot be shown: a
// file its section is made from is damaged (err names it).
func unshown(dir string, err error) Section {
	id := filepath.Base(filepath.Clean(dir))
	return Section{ID: id, Title: id + ": a run that cannot be shown", Dir: dir, Status: "damaged",
		Notes: []string{fmt.Sprintf("This run cannot be shown: %v. The other runs' sections are made without it.", err)}, path: dir}
}

// dataFiles returns the problem of each damaged data file of a stage's run:
// a match's journal and games.parquet, a bench's bench.parquet and a
// tune's tune.parquet, each read whole as the stage's format. A file the
// run has not written yet is not damaged.
func dataFiles(dir string, m runs.Manifest) []error {
	var errs []error
	add := func(err error) {
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	switch m.Command {
	case "match":
		add(matchJournal(dir, m.Status == runs.StatusDone))
		_, err := runs.ReadParquet[selfplay.GameRow](filepath.Join(dir, selfplay.GamesFile), selfplay.MatchFormat)
		add(err)
	case "bench":
		_, err := runs.ReadParquet[bench.Row](filepath.Join(dir, bench.RowsFile), bench.Format)
		add(err)
	case "tune":
		_, err := runs.ReadParquet[regression.TuneRecord](filepath.Join(dir, regression.TuneRowsFile), regression.TuneFormat)
		add(err)
	}
	return errs
}

// matchJournal reads a match's journal whole: its header names the
// match's format and every record is one MatchRecord with no field of
// another name or type. A finished run's journal also ends with a whole
// record (a torn last line is what a killed run leaves, and this one's
// last append completed) and holds a record for every pair its summary
// counts. What a record says (its pairing, its games replayed) is checked
// by the stages that read the journal, resume and merge.
func matchJournal(dir string, done bool) error {
	path := filepath.Join(dir, selfplay.MatchJournal)
	pairs := 0
	err := runs.LoadJournal(dir, selfplay.MatchJournal, selfplay.MatchFormat, func(line []byte) error {
		var r selfplay.MatchRecord
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&r); err != nil {
			return fmt.Errorf("not a match record: %v", err)
		}
		if dec.More() {
			return fmt.Errorf("more than one JSON value on the line")
		}
		pairs++
		return nil
	})
	if err != nil || !done {
		return err
	}
	whole, err := runs.JournalEndsWhole(dir, selfplay.MatchJournal)
	if err != nil {
		return err
	}
	if !whole {
		return fmt.Errorf("%s: the last record is cut short, in a finished run", path)
	}
	var rep selfplay.MatchReport
	if ok, err := readJSON(filepath.Join(dir, selfplay.SummaryFile), &rep); err != nil || !ok {
		return nil // the page says what is wrong with the summary
	}
	games := 0
	for _, p := range rep.Pairings {
		games += p.Games
	}
	if 2*pairs < games {
		return fmt.Errorf("%s: %d games in its records, where the summary counts %d", path, 2*pairs, games)
	}
	return nil
}
