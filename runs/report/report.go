// Package report is the report stage: one self-contained HTML page for a
// run directory of any stage, or a directory of stage directories (a
// pipeline run). The page needs no network: images are inline PNG data,
// there are no scripts, and the style sheet is in the page.
//
// What a section shows depends on the stage that made the directory (its
// manifest's command): the settings and the build always; the learning
// curve of train (an unfinished run's, from its state file); the fit table
// and the scatter plots of fit; the t table of each engine with the
// chapter's figures on our scale, and its plot, of tune (a tune of an
// older format is named, not shown); the rows per depth pair of collect; the node table and a
// nodes-against-depth plot (thesis figure 5.1) of bench; the variants, the
// statistics of each pairing as a table and a plot of its scores with
// their intervals, and the ranking of match. A pipeline run's section
// comes first, with the summary it printed and its matches with the
// recipe's reason for each; each match's section is headed by its name.
//
// Run differs from the other stages' shape (Run(ctx, settings, run,
// progress)) on purpose: it owns no run directory of its own. The page is
// a pure function of the finished records of the run it reports, rewritten
// whole in seconds (atomically, into that run's directory), so there is
// nothing to lock, journal or resume; its settings are that directory.
//
// Damaged files: a file the page is made from (a manifest, a summary, a
// state or curve file, a part file, a plot) that does not read whole
// fails the report of a single run, in one line naming the file and the
// problem: there is nothing else to show, and the file is one starlab
// wrote into the run, so it is a failure (exit 1), not a usage error.
// Among several runs (a pipeline's), that run's section says it cannot
// be shown and why, the page is made from the other runs, and Result's
// Warnings hold the line. The files of a run that the page is not made
// from but that hold its results (a match's journal and games.parquet, a
// bench's bench.parquet, a tune's tune.parquet) are read whole as well:
// a damaged one is named in its run's section and in a line of Warnings,
// and the page is made. The command prints each warning on stderr.
//
// Figures are printed as the terminal prints them (runs.Num.Format: "-"
// where undefined, "inf" where unbounded). Variant specs are shown under
// short names, paths replaced by base names or by the pipeline's {net} and
// {probcut}, with the full spec on hover and in the terminal's text.
package report

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"starlab/runs"
	"starlab/search"
	"starlab/selfplay"
)

// File is the page's name in the run directory.
const File = "report.html"

// Result is what the report stage wrote.
type Result struct {
	Path     string `json:"path"`
	Sections int    `json:"sections"`
	Images   int    `json:"images"`
	// Warnings are the damaged files the page was made without, one line
	// each naming the file and the problem (package doc).
	Warnings []string `json:"warnings,omitempty"`
}

// Games looks a game up by its name: the registry's Lookup, which the
// command hands to Run (the report imports no game).
type Games func(name string) (search.Kit, error)

// PipelineSummary is the file in a pipeline run's directory that holds
// the summary starlab run prints at its end; the page shows it at the top.
const PipelineSummary = "summary.txt"

// Run writes report.html into dir: one section for dir if it is a run
// directory, and one for each run directory below it (in name order), so
// that a pipeline run's report covers its stages. A pipeline run's own
// section comes first: its summary and each of its matches with the
// recipe's reason for it.
//
// games looks up the games the runs name, for the facts a game owns (the
// chapter's tables of a tune's board); nil shows none of them.
func Run(ctx context.Context, dir string, games Games, progress runs.Progress) (Result, error) {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		if err == nil {
			return Result{}, runs.Usagef("%s is a file, not a run directory", dir)
		}
		if errors.Is(err, fs.ErrNotExist) {
			return Result{}, runs.Usagef("%s is not a run directory (no such directory)", dir)
		}
		return Result{}, runs.Usagef("%s: %v", dir, err)
	}
	var dirs []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if _, err := os.Stat(filepath.Join(p, "manifest.json")); err == nil {
				dirs = append(dirs, p)
			}
		}
		return nil
	})
	if err != nil {
		return Result{}, err
	}
	if len(dirs) == 0 {
		return Result{}, runs.Usagef("%s holds no run directory (no manifest.json)", dir)
	}
	slices.Sort(dirs)
	names := newNamer(dirs)
	var secs []Section
	var warnings []string
	images := 0
	for i, d := range dirs {
		if err := ctx.Err(); err != nil {
			return Result{}, err
		}
		progress(int64(i), int64(len(dirs)), filepath.Base(d))
		s, err := section(d, names, games)
		switch {
		case err != nil && len(dirs) == 1:
			return Result{}, err
		case err != nil:
			s = unshown(d, err)
			warnings = append(warnings, err.Error()+" (the page is made without this run)")
		default:
			warnings = append(warnings, checkFiles(&s)...)
		}
		if rel, err := filepath.Rel(dir, d); err == nil && rel != "." {
			s.Dir = rel
		}
		images += len(s.Images)
		secs = append(secs, s)
	}
	progress(int64(len(dirs)), int64(len(dirs)), "")
	if err := pipeline(secs, names); err != nil {
		return Result{}, err
	}
	var buf bytes.Buffer
	title := "starlab report: " + filepath.Base(filepath.Clean(dir))
	if err := page.Execute(&buf, map[string]any{"Title": title, "Sections": secs, "Made": time.Now().UTC().Format(time.RFC3339), "Build": runs.BuildVersion()}); err != nil {
		return Result{}, fmt.Errorf("page of %s: %v", dir, err)
	}
	path := filepath.Join(dir, File)
	if err := runs.WriteBytesAtomic(path, buf.Bytes()); err != nil {
		return Result{}, err
	}
	return Result{Path: path, Sections: len(secs), Images: images, Warnings: warnings}, nil
}

// recipe is what the page reads of a pipeline's recipe (the settings of
// its run, format starlab-recipe/1): its name and what its matches are
// for.
type recipe struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Matches     []struct {
		Name  string `json:"name"`
		Why   string `json:"why"`
		Paper string `json:"paper"`
	} `json:"matches"`
	stages int // the stages the recipe asks for
}

func readRecipe(m runs.Manifest) (*recipe, bool) {
	if m.Command != "run" {
		return nil, false
	}
	var r recipe
	var present map[string]json.RawMessage
	if json.Unmarshal(m.Settings, &r) != nil || json.Unmarshal(m.Settings, &present) != nil {
		return nil, false
	}
	for _, k := range []string{"train", "collect", "fit", "bench", "tune"} {
		if v, ok := present[k]; ok && string(v) != "null" {
			r.stages++
		}
	}
	r.stages += len(r.Matches)
	return &r, true
}

// pipeline fills in a pipeline run's own section (the first), when dir is
// one: its status, the recipe's matches with why each is played, linked
// to their sections, and the summary the run printed; and it heads each
// match section with its recipe name and reason.
//
// A pipeline writes its page as its last step, before it marks its run
// done: a run whose stages are all done is shown done.
func pipeline(secs []Section, names *namer) error {
	top := &secs[0]
	r, ok := readRecipe(top.Manifest)
	if !ok {
		return nil
	}
	top.Title = "run " + r.Name
	if r.Description != "" {
		top.Title += ": " + r.Description
	}
	done := 0
	for _, s := range secs[1:] {
		if s.Manifest.Status == runs.StatusDone {
			done++
		}
	}
	m := top.Manifest
	switch {
	case m.Status == runs.StatusDone:
	case done >= r.stages && m.Status == runs.StatusRunning:
		top.Status = runs.StatusDone
	case runs.StateOf(top.Dir, m) == runs.Stopped:
		top.Status = stopped
		top.Notes = append(top.Notes, fmt.Sprintf("This pipeline run was stopped before it finished (no process holds it): %d of its %d stages are done, and this page shows what its stages had written; run the same recipe again with -out %s to finish it.",
			done, r.stages, top.Dir))
	default:
		top.Notes = append(top.Notes, fmt.Sprintf("This pipeline run is %s%s: %d of its %d stages are done, and this page shows what its stages had written.",
			m.Status, errText(m.Error), done, r.stages))
	}

	// The match stages are named k-name, numbered in the order they ran.
	byName := map[string]*Section{}
	for i := range secs[1:] {
		s := &secs[1+i]
		if s.Manifest.Command == "match" {
			if _, name, ok := strings.Cut(s.ID, "-"); ok {
				byName[name] = s
			}
		}
	}
	t := Table{Caption: "The recipe's matches, and why each is played", Head: []string{"match", "why", "the paper's result", "status"}}
	for _, rm := range r.Matches {
		s := byName[rm.Name]
		status, link := "not started", Cell{Text: rm.Name, Left: true}
		if s != nil {
			s.Title, s.Why, s.Paper = "match "+rm.Name, rm.Why, rm.Paper
			status, link.Href = string(s.Status), "#"+s.ID
		}
		paper := rm.Paper
		if paper == "" {
			paper = "-"
		}
		t.Rows = append(t.Rows, []Cell{link, {Text: rm.Why, Left: true}, {Text: paper, Left: true}, {Text: status}})
	}
	if len(r.Matches) > 0 {
		top.Tables = append(top.Tables, t)
	}
	data, err := os.ReadFile(filepath.Join(top.path, PipelineSummary))
	switch {
	case err == nil:
		top.Text, top.WrapText = names.text(strings.TrimRight(string(data), "\n")), true
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	return nil
}

// section reads one run directory.
func section(dir string, names *namer, games Games) (Section, error) {
	run, err := runs.Open(dir)
	if err != nil {
		return Section{}, err
	}
	m := run.Manifest()
	s := Section{ID: filepath.Base(filepath.Clean(dir)), Title: m.Command, Dir: dir, Manifest: m, Status: m.Status,
		Command: strings.Join(m.Args, " "), path: dir, names: names, games: games}
	if len(m.Args) == 0 || m.Args[0] != "starlab" {
		s.Command = strings.TrimSpace("starlab " + s.Command)
	}
	var pretty bytes.Buffer
	if len(m.Settings) > 0 && json.Indent(&pretty, m.Settings, "", "  ") == nil {
		s.Settings = pretty.String()
	}
	var add func(*Section, *runs.Run) error
	switch m.Command {
	case "train":
		add = addTrain
	case "fit":
		add = addFit
	case "tune":
		add = addTune
	case "collect":
		add = addCollect
	case "bench":
		add = addBench
	case "match":
		add = addMatch
	case "analyze":
		add = withResult(selfplay.SummaryFile, addAnalyze)
	case "rollout":
		add = withResult(selfplay.SummaryFile, addRollout)
	}
	if add != nil {
		if err := add(&s, run); err != nil {
			return Section{}, fmt.Errorf("report of %s: %v", dir, err)
		}
	}
	if m.Command == "run" {
		s.Title = "run: the pipeline's settings (its stages follow)"
	} else if runs.StateOf(dir, m) == runs.Stopped {
		s.Status = stopped
		how := fmt.Sprintf("continue it with starlab %s -resume %s", m.Command, dir)
		if !slices.Contains([]string{"train", "collect", "bench", "tune", "match", "analyze", "rollout"}, m.Command) {
			how = fmt.Sprintf("starlab %s has no resume: run it again", m.Command)
		}
		if len(m.Args) > 1 && m.Args[1] == "run" {
			parent := filepath.Dir(filepath.Clean(dir))
			how = fmt.Sprintf("it is a stage of the pipeline run %s: run its recipe again with -out %s to finish it", parent, parent)
		}
		s.Notes = append(s.Notes, fmt.Sprintf("This run was stopped before it finished (no process holds it: killed, or its machine stopped): what follows is what it had written; %s.", how))
	} else if m.Status != runs.StatusDone {
		s.Notes = append(s.Notes, fmt.Sprintf("This run is %s%s: what follows is what it had written.", m.Status, errText(m.Error)))
	}
	return s, nil
}

// stopped is the status shown for a run whose manifest says running but
// that no process holds.
const stopped runs.Status = "stopped (not finished)"

func errText(e string) string {
	if e == "" {
		return ""
	}
	return " (" + e + ")"
}
