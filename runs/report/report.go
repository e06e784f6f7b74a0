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
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"image/png"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"starlab/regression"
	"starlab/runs"
	"starlab/search"
	"starlab/search/bench"
	"starlab/selfplay"
	"starlab/td"
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

// Image is an inline picture.
type Image struct {
	Title string
	Data  template.URL // data:image/png;base64,...
}

// Cell is a table cell: its text, and a title (shown on hover) that holds
// what the text shortens, such as a variant's full spec.
type Cell struct {
	Text  string
	Title string
	Href  string // a link, such as to a section of the page
	Left  bool   // text, aligned left (numbers are aligned right)
}

// Table is a table of cells.
type Table struct {
	Caption string
	Head    []string
	Rows    [][]Cell
	Open    bool // folded, shown open: the section's main table, however long
}

// foldRows is the number of rows above which a table is folded, shown on
// demand under its caption, so that a long curve does not push the rest of
// the page down.
const foldRows = 12

// Fold reports whether the table is folded.
func (t Table) Fold() bool { return len(t.Rows) > foldRows }

// add appends a row of plain cells.
func (t *Table) add(texts ...string) {
	row := make([]Cell, len(texts))
	for i, x := range texts {
		row[i] = Cell{Text: x}
	}
	t.Rows = append(t.Rows, row)
}

// Details is text behind a disclosure, shown on demand.
type Details struct {
	Summary string
	Text    string
}

// Section is one run directory's part of the page.
type Section struct {
	ID       string // the anchor: the directory's name
	Title    string
	Why      string // what the stage is for (a recipe match's why)
	Paper    string // the paper's result, beside ours
	Dir      string
	Manifest runs.Manifest
	Status   runs.Status // as shown: a pipeline writing this page is done
	Command  string      // the command line
	Settings string      // indented JSON
	Notes    []string
	Tables   []Table
	Text     string // preformatted
	WrapText bool   // Text is prose lines, wrapped at the page's width
	Images   []Image
	Details  []Details

	path  string // the directory, as found
	names *namer // short names of variant specs
	games Games  // the games by name, for what a game owns (the chapter's tables)
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
		if !slices.Contains([]string{"train", "collect", "bench", "tune", "match"}, m.Command) {
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

// namer gives variant specs and texts short names in place of the paths
// they hold: a pipeline's products by their names in the recipe ({net},
// {probcut}), other files by their base names, and paths into a stage's
// directory from the stage's directory on.
type namer struct {
	products map[string]string // stage/file -> {net} or {probcut}
	stages   []*regexp.Regexp  // a path through a stage's directory
}

// newNamer knows the products of the train and fit stages among dirs. A
// run whose manifest does not read names nothing: its section says why.
func newNamer(dirs []string) *namer {
	n := &namer{products: map[string]string{}}
	for _, d := range dirs {
		run, err := runs.Open(d)
		if err != nil {
			continue
		}
		base := filepath.Base(filepath.Clean(d))
		switch run.Manifest().Command {
		case "train":
			n.products[base+"/"+td.BestFile] = "{net}"
		case "fit":
			n.products[base+"/"+regression.ProbCutFile] = "{probcut}"
		case "run":
			continue
		}
		n.stages = append(n.stages, regexp.MustCompile(`[^\s,=()"']*/(`+regexp.QuoteMeta(base)+`)\b`))
	}
	return n
}

// path is the short name of a path in a spec.
func (n *namer) path(p string) string {
	p = filepath.ToSlash(filepath.Clean(p))
	for suffix, name := range n.products {
		if p == suffix || strings.HasSuffix(p, "/"+suffix) {
			return name
		}
	}
	return filepath.Base(p)
}

// probcutSource shortens where ChanceProbCut parameters come from: the
// file of "FILE: its source" as path does; the built-in fit and the
// defaults, which name no file of the run, stay as they are.
func (n *namer) probcutSource(src string) string {
	file, rest, ok := strings.Cut(src, ": ")
	if strings.HasPrefix(src, "built-in fit ") || !ok {
		return src
	}
	return n.path(file) + ": " + rest
}

// spec shortens the paths among a spec's options (name:key=value,...).
func (n *namer) spec(spec string) string {
	return search.MapSpecFiles(spec, func(v string) string {
		if strings.Contains(v, "/") {
			return n.path(v)
		}
		return v
	})
}

// specs shortens each spec; specs whose short names would coincide keep
// their full names.
func (n *namer) specs(specs []string) []string {
	short := make([]string, len(specs))
	count := map[string]map[string]bool{}
	for i, s := range specs {
		short[i] = n.spec(s)
		if count[short[i]] == nil {
			count[short[i]] = map[string]bool{}
		}
		count[short[i]][s] = true
	}
	for i, s := range specs {
		if len(count[short[i]]) > 1 {
			short[i] = s
		}
	}
	return short
}

// text writes each path through a stage's directory from that directory
// on (1-train/best.json).
func (n *namer) text(t string) string {
	for _, re := range n.stages {
		t = re.ReplaceAllString(t, "$1")
	}
	return t
}

func errText(e string) string {
	if e == "" {
		return ""
	}
	return " (" + e + ")"
}

func inline(data []byte, title string) Image {
	return Image{Title: title, Data: template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(data))}
}

// image adds the PNG name of the run directory as an inline image; a
// missing file is no image, and one that does not decode whole (truncated,
// not a PNG) is refused by name rather than shown broken.
func (s *Section) image(run *runs.Run, name, title string) error {
	data, err := os.ReadFile(run.Path(name))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if _, err := png.Decode(bytes.NewReader(data)); err != nil {
		return fmt.Errorf("%s: not a whole PNG image: %v", run.Path(name), err)
	}
	s.Images = append(s.Images, inline(data, title))
	return nil
}

// readJSON reads a run's JSON file into v; ok is false when the file is
// missing (a run that has not written it yet).
func readJSON(path string, v any) (ok bool, err error) {
	if err := runs.ReadJSON(path, v); errors.Is(err, fs.ErrNotExist) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	return true, nil
}

// num formats x as the terminal does: "-" when undefined (NaN), "inf" or
// "-inf" when unbounded, else with format.
func num(x float64, format string) string { return runs.Num(x).Format(format) }

// pct formats a share as a percentage, as num does.
func pct(x float64) string { return num(100*x, "%.1f%%") }

func addTrain(s *Section, run *runs.Run) error {
	s.Title = "train: the network's learning curve"
	curve, err := td.ReadCurve(run.Dir())
	if errors.Is(err, fs.ErrNotExist) || err == nil && len(curve) == 0 {
		s.Notes = append(s.Notes, "No learning curve yet: the run has reached no checkpoint.")
		return nil
	}
	if err != nil {
		return err
	}
	opponent := "the game's hand evaluator"
	for _, p := range curve {
		if p.Opponent != "" {
			opponent = "the game's hand evaluator, eval=" + p.Opponent + ","
			break
		}
	}
	judged := false // a run with -judge: the static error against exact values too
	for _, p := range curve {
		judged = judged || !math.IsNaN(float64(p.ExactMAE))
	}
	t := Table{Caption: "Learning curve: score against " + opponent + " at depth 1 over duplicate-dice games, luck-adjusted with " + s.trainLuckRef() + " (- where a checkpoint was not measured)",
		Head: []string{"games", "net", "seconds", "mean |TD error|", "score", "± 95%, duplicate dice", "luck-adjusted", "± 95%", "plies per game"}}
	if judged {
		t.Head = append(t.Head, "static error against exact values", "± its standard error")
	}
	for _, p := range curve {
		plies := p.MeanPlies.Format("%.1f") // "-" at a checkpoint without a measurement
		net := p.NetID
		if net == "" {
			net = "-" // a curve of format 1
		}
		row := []string{fmt.Sprint(p.Games), net, num(p.Seconds, "%.1f"), num(p.TDError, "%.4f"),
			pct(float64(p.Score)), pct(float64(p.ScoreCI95)), pct(float64(p.LuckScore)), pct(float64(p.LuckCI95)), plies}
		if judged {
			row = append(row, num(float64(p.ExactMAE), "%.4f"), num(float64(p.ExactSE), "%.4f"))
		}
		t.add(row...)
	}
	s.Tables = append(s.Tables, t)
	if last := curve[len(curve)-1]; last.NetID != "" {
		s.Notes = append(s.Notes, fmt.Sprintf("The net: %s, id %s, after %d games (the last checkpoint). Each row names its net by its id; %s is the net of the first row with the best score.",
			td.NetFile, last.NetID, last.Games, td.BestFile))
	}
	for _, p := range curve {
		if note := td.Repeated(p.MeasurePairs, p.DistinctPairs); note != "" {
			s.Notes = append(s.Notes, fmt.Sprintf("The measurement after %d games: %s.", p.Games, note))
		}
	}
	if _, err := os.Stat(run.Path(td.CurvePNG)); err == nil {
		return s.image(run, td.CurvePNG, "Learning curve")
	}
	// An unfinished run draws its curve at the end: draw what there is.
	data, err := td.CurvePNGData(curve)
	if err != nil {
		return err
	}
	s.Images = append(s.Images, inline(data, fmt.Sprintf("Learning curve so far (%d checkpoints)", len(curve))))
	return nil
}

// trainLuckRef names the luck reference a train run's measurements
// valued the rolls with: the match stage's default for its game and
// variant (selfplay.LuckRef), which the train stage uses and does not
// record; where the game is not known here, it says so in words.
func (s *Section) trainLuckRef() string {
	var set struct {
		Game    string `json:"game"`
		Variant string `json:"variant"`
	}
	if json.Unmarshal(s.Manifest.Settings, &set) == nil && s.games != nil && set.Game != "" {
		if g, err := s.games(set.Game); err == nil {
			return "the luck reference " + selfplay.LuckRef(g, set.Variant)
		}
	}
	return "the match stage's default luck reference for the game"
}

func addFit(s *Section, run *runs.Run) error {
	s.Title = "fit: ChanceProbCut's parameters"
	var f regression.FitResult
	if ok, err := readJSON(run.Path(regression.FitFile), &f); err != nil || !ok {
		return err
	}
	net := ""
	if f.NetID != "" {
		net = ", net " + f.NetID
	}
	t := Table{Caption: fmt.Sprintf("v_deep = a·v_shallow + b per depth pair, %s %s, eval=%s%s; ± is the standard error of a or b, clustered by position (a position's events share its searches); σ is the largest of the fit's, the cross-validated error and the floor", f.Game, f.Variant, f.Eval, net),
		Head: []string{"pair", "band (phase)", "n", "games", "a", "±", "b", "±", "σ", "fit σ", "cv rmse", "R²"}}
	for _, l := range f.Lines {
		t.add(fmt.Sprintf("%d:%d", l.Shallow, l.Deep), l.Band, fmt.Sprint(l.N), fmt.Sprint(l.Games),
			num(l.A, "%.4f"), l.ASE.Format("%.4f"), num(l.B, "%.4f"), l.BSE.Format("%.4f"), num(l.Sigma, "%.4f"), num(l.SigmaFit, "%.4f"), num(l.CVRMSE, "%.4f"), l.R2.Format("%.4f"))
	}
	s.Tables = append(s.Tables, t)
	for _, l := range f.Lines {
		if l.Band == "all" {
			name := regression.ScatterName(regression.Pair{Shallow: l.Shallow, Deep: l.Deep})
			if err := s.image(run, name+".png", fmt.Sprintf("Depths %d and %d", l.Shallow, l.Deep)); err != nil {
				return err
			}
		}
	}
	return nil
}

// addTune shows the tune table with its engines, the chapter's figures
// on our scale, and its plot; a tune.json of an older format, whose
// chapter's figures are on the chapter's own scale, is named, not shown.
func addTune(s *Section, run *runs.Run) error {
	s.Title = "tune: ChanceProbCut's nodes saved against move error"
	var head struct {
		Format string `json:"format"`
	}
	if ok, err := readJSON(run.Path(regression.TuneSummaryFile), &head); err != nil || !ok {
		return err
	}
	if head.Format != regression.TuneFormat {
		s.Notes = append(s.Notes, fmt.Sprintf("%s is of format %q, not %q: a tune of an older starlab, without standard errors and with the chapter's errors on its own scale; run the tune again to see it here.",
			regression.TuneSummaryFile, head.Format, regression.TuneFormat))
		return nil
	}
	var r regression.TuneResult
	if _, err := readJSON(run.Path(regression.TuneSummaryFile), &r); err != nil {
		return err
	}
	if s.games != nil {
		if g, err := s.games(r.GameName()); err == nil {
			r.Bind(g)
		}
	}
	for i, c := range r.CPC {
		src := "-"
		if i < len(r.ProbCut) {
			src = s.names.probcutSource(r.ProbCut[i])
		}
		s.Notes = append(s.Notes, fmt.Sprintf("Engine %d: %s over %d positions; parameters: %s.", i+1, s.names.spec(c), r.Positions, src))
	}
	h, lines := r.Table()
	beside, scale := "Against staretc.", ""
	if ch := r.Chapter(); ch != nil {
		beside, scale = "Against staretc, beside the chapter's "+ch.Tables+".", fmt.Sprintf("; the chapter's points / %d", ch.Points)
	}
	t := Table{Caption: beside + " " + strings.Join(strings.Fields(r.Caption()), " "), Head: h, Open: true}
	for _, l := range lines {
		t.add(l...)
		if e, err := strconv.Atoi(l[2]); err == nil && e >= 1 && e <= len(r.CPC) {
			t.Rows[len(t.Rows)-1][2].Title = r.CPC[e-1]
		}
	}
	s.Tables = append(s.Tables, t)
	return s.image(run, regression.TunePlot+".png", "Reduction against error (errors on our scale"+scale+")")
}

func addCollect(s *Section, run *runs.Run) error {
	s.Title = "collect: shallow and deep searches of chance events"
	// A run without part files has no rows yet; a part file that cannot
	// be read is damaged, and the report fails naming it.
	if parts, _ := filepath.Glob(run.Path(filepath.Join(regression.RowsDir, "*.parquet"))); len(parts) == 0 {
		s.Notes = append(s.Notes, "No rows yet.")
		return nil
	}
	rows, err := regression.ReadRows(run.Dir())
	if err != nil {
		return err
	}
	type acc struct {
		n              int
		nodesS, nodesD float64
	}
	by := map[regression.Pair]*acc{}
	var pairs []regression.Pair
	games := map[int64]bool{}
	for _, r := range rows {
		p := regression.Pair{Shallow: int(r.ShallowDepth), Deep: int(r.DeepDepth)}
		a := by[p]
		if a == nil {
			a = &acc{}
			by[p] = a
			pairs = append(pairs, p)
		}
		a.n++
		a.nodesS += float64(r.NodesShallow)
		a.nodesD += float64(r.NodesDeep)
		games[r.GameID] = true
	}
	t := Table{Caption: fmt.Sprintf("%d rows from %d positions", len(rows), len(games)),
		Head: []string{"pair", "events", "mean nodes, shallow", "mean nodes, deep"}}
	for _, p := range pairs {
		a := by[p]
		t.add(p.String(), fmt.Sprint(a.n), num(a.nodesS/float64(a.n), "%.0f"), num(a.nodesD/float64(a.n), "%.0f"))
	}
	s.Tables = append(s.Tables, t)
	return nil
}

func addBench(s *Section, run *runs.Run) error {
	s.Title = "bench: nodes and time to depth"
	var sum bench.Summary
	if ok, err := readJSON(run.Path(bench.SummaryFile), &sum); err != nil || !ok {
		return err
	}
	var text bytes.Buffer
	sum.WriteText(&text)
	s.Text = s.names.text(text.String())
	data, err := nodesPlot(&sum)
	if err != nil {
		return err
	}
	s.Images = append(s.Images, inline(data, "Mean nodes against depth"))
	return nil
}

// forfeitCell says how many games each side lost by forfeit (an outside
// engine's illegal, malformed or missing reply), the reasons on hover.
func forfeitCell(f *selfplay.ForfeitStats) Cell {
	if f == nil {
		return Cell{Text: "0 vs 0"}
	}
	return Cell{Text: fmt.Sprintf("%d vs %d", f.A, f.B), Title: fmt.Sprintf("first: %v; second: %v", f.ReasonA, f.ReasonB)}
}

// addMatch shows a match under its variants' short names (full specs on
// hover and in the terminal's text below): the variants, each pairing's
// scores with their intervals as a table and a plot, and the ranking.
func addMatch(s *Section, run *runs.Run) error {
	var r selfplay.MatchReport
	ok, err := readJSON(run.Path(selfplay.SummaryFile), &r)
	vs := r.Settings.Engines
	if !ok || err != nil {
		var set selfplay.MatchSettings // the variants, from the manifest
		if run.Settings(&set) == nil {
			vs = set.Engines
		}
	}
	short := s.names.specs(vs)
	number := map[string]int{}
	name := map[string]Cell{}
	for i, v := range vs {
		number[v] = i + 1
		name[v] = Cell{Text: short[i], Title: v, Left: true}
	}
	s.Title = "match: " + strings.Join(short, " vs ")
	if len(vs) > 2 {
		s.Title = fmt.Sprintf("match of %d variants", len(vs))
	}
	if err != nil || !ok {
		return err
	}
	vt := Table{Caption: "Variants (hover for the full spec)", Head: []string{"#", "variant"}}
	for i, v := range vs {
		vt.Rows = append(vt.Rows, []Cell{{Text: fmt.Sprint(i + 1)}, name[v]})
	}
	from := "the empty board" // a summary of a match before the game was recorded
	if set := r.Settings; set.GameName != "" {
		from = fmt.Sprintf("the start of %s %s", set.GameName, set.Variant)
	}
	if r.Settings.Suite != "" {
		from = fmt.Sprintf("%d positions of %s", len(r.Settings.Starts), s.names.path(r.Settings.Suite))
	}
	pt := Table{Caption: fmt.Sprintf("Pairings: %d games each from %s, seed %d, luck reference %s; each score is the first variant's, ± its 95%% interval",
		r.Settings.Games, from, r.Settings.Seed, s.names.spec(r.Settings.Luck)),
		Head: []string{"pairing", "games", "W/D/L", "score", "± over games", "± over pairs", "luck-adjusted", "Elo", "± over games", "± over pairs", "LOS (pairs)", "pentanomial"}}
	st := Table{Caption: "The games of each pairing: their length and shape (as the chapter reports its self-play games), and the search per move of each variant (first vs second; - where the engine reports no depth or nodes, as gnubg and ext: engines without info lines)",
		Head: []string{"pairing", "plies per game", "decisions per game", "branching factor", "chance nodes per game", "events per chance node", "mean depth", "nodes per move", "ms per move", "lost by forfeit"}}
	for _, p := range r.Pairings {
		luck := "-"
		if p.Luck {
			luck = pct(float64(p.LuckScore)) + " ± " + p.Interval(float64(p.LuckCI95), "luck")
		}
		label := fmt.Sprintf("%d vs %d", number[p.A], number[p.B])
		if p.Luck && p.LuckEloNote != "" {
			s.Notes = append(s.Notes, fmt.Sprintf("Pairing %s, luck-adjusted score %s: %s (its Elo is printed as -). The luck-adjusted score, the results minus the rolls' luck as the reference values it, estimates the score without bias but is not bounded by 0%% and 100%%.",
				label, pct(float64(p.LuckScore)), p.LuckEloNote))
		}
		pt.Rows = append(pt.Rows, []Cell{{Text: label, Title: name[p.A].Text + " vs " + name[p.B].Text},
			{Text: fmt.Sprint(p.Games)}, {Text: fmt.Sprintf("%d/%d/%d", p.Wins, p.Draws, p.Losses)},
			{Text: pct(p.Score)}, {Text: p.Interval(p.ScoreCI95, "games")}, {Text: p.Interval(p.ScoreCI95Pairs, "pairs")}, {Text: luck},
			{Text: p.Elo.Format("%+.1f")}, {Text: p.EloCI95.Format("%.1f")}, {Text: p.EloCI95Pairs.Format("%.1f")},
			{Text: pct(p.LOSPairs)}, {Text: fmt.Sprint(p.Pentanomial)}})
		st.Rows = append(st.Rows, []Cell{pt.Rows[len(pt.Rows)-1][0], {Text: num(p.MeanPlies, "%.1f")},
			{Text: p.DecisionsPerGame.Format("%.1f")}, {Text: p.Branching.Format("%.1f")}, {Text: p.ChancePerGame.Format("%.1f")}, {Text: p.EventsPerChance.Format("%.1f")},
			{Text: p.DepthA.Format("%.2f") + " vs " + p.DepthB.Format("%.2f")}, {Text: p.NodesA.Format("%.0f") + " vs " + p.NodesB.Format("%.0f")},
			{Text: num(p.MsPerMoveA, "%.3g") + " vs " + num(p.MsPerMoveB, "%.3g")}, forfeitCell(p.Forfeits)})
	}
	s.Tables = append(s.Tables, vt, pt, st)
	// Games played for points (backgammon's money play): the points per
	// game and the wins by points.
	var points *Table
	for _, p := range r.Pairings {
		if p.Points == nil {
			continue
		}
		if points == nil {
			points = &Table{Caption: "Points per game (the games are played for points): the first variant's mean with its 95% intervals, and each side's wins of 1, 2 and 3 points (single games, gammons, backgammons)",
				Head: []string{"pairing", "points per game", "± over games", "± over pairs", "wins of 1/2/3 (first)", "wins of 1/2/3 (second)"}}
		}
		pp := p.Points
		points.Rows = append(points.Rows, []Cell{{Text: fmt.Sprintf("%d vs %d", number[p.A], number[p.B]), Title: name[p.A].Text + " vs " + name[p.B].Text},
			{Text: fmt.Sprintf("%+.3f", pp.PerGame)}, {Text: fmt.Sprintf("%.3f", pp.CI95)}, {Text: fmt.Sprintf("%.3f", pp.CI95Pairs)},
			{Text: fmt.Sprintf("%d/%d/%d", pp.WinsA[0], pp.WinsA[1], pp.WinsA[2])}, {Text: fmt.Sprintf("%d/%d/%d", pp.WinsB[0], pp.WinsB[1], pp.WinsB[2])}})
	}
	if points != nil {
		s.Tables = append(s.Tables, *points)
	}
	if len(r.Ranking) > 0 {
		rt := Table{Caption: "Ranking: score over all games, 95% interval over pairs", Head: []string{"rank", "variant", "score", "± 95%", "Elo", "games"}}
		for i, e := range r.Ranking {
			rt.Rows = append(rt.Rows, []Cell{{Text: fmt.Sprint(i + 1)}, name[e.Variant], {Text: pct(e.Score)}, {Text: pct(e.CI95)}, {Text: e.Elo.Format("%+.1f")}, {Text: fmt.Sprint(e.Games)}})
		}
		s.Tables = append(s.Tables, rt)
	}
	if len(r.Pairings) > 0 {
		data, err := scorePlot(r.Pairings, number)
		if err != nil {
			return err
		}
		s.Images = append(s.Images, inline(data, "Scores with 95% intervals, per pairing"))
	}
	var text bytes.Buffer
	r.WriteText(&text)
	s.Details = append(s.Details, Details{Summary: "The terminal's text, with the full variant specs", Text: strings.TrimRight(text.String(), "\n")})
	return nil
}

var page = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 70em; padding: 0 1em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; border-bottom: 1px solid #ccc; padding-bottom: .2em; margin-top: 2em; }
table { border-collapse: collapse; margin: 1em 0; font-size: .9em; }
caption { text-align: left; font-weight: 600; padding-bottom: .3em; }
th, td { border: 1px solid #ddd; padding: .25em .6em; text-align: right; }
th { background: #f4f4f4; }
pre { background: #f8f8f8; padding: .8em; overflow-x: auto; font-size: .85em; }
pre.wrap { white-space: pre-wrap; overflow-wrap: anywhere; }
figure { display: inline-block; margin: 1em 1em 1em 0; } figure img { max-width: 100%; height: auto; border: 1px solid #eee; }
figcaption { font-size: .9em; color: #555; }
.meta { color: #555; font-size: .9em; }
.why { font-size: 1.05em; }
details.table summary { font-weight: 600; margin: 1em 0 .3em; }
td[title] { text-decoration: underline dotted #999; cursor: help; }
td.left { text-align: left; }
.scroll { overflow-x: auto; max-width: 100%; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<p class="meta">Made {{.Made}} by starlab {{.Build}}.</p>
{{if gt (len .Sections) 1}}<nav><ol>{{range .Sections}}<li><a href="#{{.ID}}">{{.Title}}</a> <span class="meta">{{.Status}}</span></li>{{end}}</ol></nav>{{end}}
{{range .Sections}}
<section id="{{.ID}}">
<h2>{{.Title}}</h2>
{{if .Why}}<p class="why"><strong>Why:</strong> {{.Why}}</p>{{end}}
{{if .Paper}}<p class="why"><strong>The paper:</strong> {{.Paper}}</p>{{end}}
<p class="meta">{{.Dir}}: <code>{{.Command}}</code>; status {{.Status}}; started {{.Manifest.Start.Format "2006-01-02 15:04:05"}}{{if not .Manifest.End.IsZero}}, ended {{.Manifest.End.Format "2006-01-02 15:04:05"}}{{end}}; build {{.Manifest.Build}}, {{.Manifest.GoVersion}}.</p>
{{range .Notes}}<p>{{.}}</p>{{end}}
{{range .Tables}}
{{if .Fold}}<details class="table"{{if .Open}} open{{end}}><summary>{{.Caption}} ({{len .Rows}} rows)</summary>{{end}}
<div class="scroll"><table>
{{if not .Fold}}<caption>{{.Caption}}</caption>{{end}}
<tr>{{range .Head}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range .}}<td{{if .Title}} title="{{.Title}}"{{end}}{{if .Left}} class="left"{{end}}>{{if .Href}}<a href="{{.Href}}">{{.Text}}</a>{{else}}{{.Text}}{{end}}</td>{{end}}</tr>
{{end}}</table></div>
{{if .Fold}}</details>{{end}}
{{end}}
{{if .Text}}<pre{{if .WrapText}} class="wrap"{{end}}>{{.Text}}</pre>{{end}}
{{range .Images}}<figure><img src="{{.Data}}" alt="{{.Title}}"><figcaption>{{.Title}}</figcaption></figure>{{end}}
{{range .Details}}<details><summary>{{.Summary}}</summary><pre>{{.Text}}</pre></details>{{end}}
{{if .Settings}}<details><summary>Settings</summary><pre>{{.Settings}}</pre></details>{{end}}
</section>
{{end}}
</body>
</html>
`))
