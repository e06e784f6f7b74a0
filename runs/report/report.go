// Package report is the report stage: one self-contained HTML page for a
// run directory of any stage, or a directory of stage directories (a
// pipeline run). The page needs no network: images are inline PNG data,
// there are no scripts, and the style sheet is in the page.
//
// What a section shows depends on the stage that made the directory (its
// manifest's command): the settings and the build always; the learning
// curve of train; the fit table and the scatter plots of fit; the t table
// beside the chapter's and its plot of tune; the rows per depth pair of
// collect; the node table and a nodes-against-depth plot (thesis figure
// 5.1) of bench; the statistics, cross table and ranking of match.
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
	"slices"
	"strings"
	"time"

	"starlab/regression"
	"starlab/runs"
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
}

// Image is an inline picture.
type Image struct {
	Title string
	Data  template.URL // data:image/png;base64,...
}

// Table is a table of text cells.
type Table struct {
	Caption string
	Head    []string
	Rows    [][]string
}

// Section is one run directory's part of the page.
type Section struct {
	Title    string
	Dir      string
	Manifest runs.Manifest
	Command  string // the command line
	Settings string // indented JSON
	Notes    []string
	Tables   []Table
	Text     string // preformatted
	Images   []Image
}

// Run writes report.html into dir: one section for dir if it is a run
// directory, and one for each run directory below it (in name order), so
// that a pipeline run's report covers its stages.
func Run(ctx context.Context, dir string, progress runs.Progress) (Result, error) {
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
		return Result{}, fmt.Errorf("report: %v", err)
	}
	if len(dirs) == 0 {
		return Result{}, fmt.Errorf("report: %s holds no run directory (no manifest.json)", dir)
	}
	slices.Sort(dirs)
	var secs []Section
	images := 0
	for i, d := range dirs {
		if err := ctx.Err(); err != nil {
			return Result{}, err
		}
		progress(int64(i), int64(len(dirs)), filepath.Base(d))
		s, err := section(d)
		if err != nil {
			return Result{}, err
		}
		images += len(s.Images)
		secs = append(secs, s)
	}
	progress(int64(len(dirs)), int64(len(dirs)), "")
	pipelineProgress(secs)
	var buf bytes.Buffer
	title := "starlab report: " + filepath.Base(filepath.Clean(dir))
	if err := page.Execute(&buf, map[string]any{"Title": title, "Sections": secs, "Made": time.Now().UTC().Format(time.RFC3339), "Build": runs.BuildVersion()}); err != nil {
		return Result{}, fmt.Errorf("report: %v", err)
	}
	path := filepath.Join(dir, File)
	if err := runs.WriteBytesAtomic(path, buf.Bytes()); err != nil {
		return Result{}, err
	}
	return Result{Path: path, Sections: len(secs), Images: images}, nil
}

// pipelineProgress notes, on a pipeline run (starlab run) that is not
// done, how many of its recipe's stages are: a pipeline writes its report
// as its last step, before it is marked done, so a run whose stages are
// all done is one whose report is being written.
func pipelineProgress(secs []Section) {
	top := &secs[0]
	m := top.Manifest
	if m.Command != "run" || m.Status == runs.StatusDone {
		return
	}
	var recipe map[string]json.RawMessage
	if json.Unmarshal(m.Settings, &recipe) != nil {
		return
	}
	want := 0
	for _, k := range []string{"train", "collect", "fit", "bench", "tune"} {
		if v, ok := recipe[k]; ok && string(v) != "null" {
			want++
		}
	}
	var matches []json.RawMessage
	_ = json.Unmarshal(recipe["matches"], &matches)
	want += len(matches)
	done := 0
	for _, s := range secs[1:] {
		if s.Manifest.Status == runs.StatusDone {
			done++
		}
	}
	if done < want {
		top.Notes = append(top.Notes, fmt.Sprintf("This pipeline run is %s%s: %d of its %d stages are done, and this page shows what its stages had written.",
			m.Status, errText(m.Error), done, want))
	} else if m.Status == runs.StatusRunning {
		top.Notes = append(top.Notes, fmt.Sprintf("All %d stages are done: the pipeline wrote this page as its last step, before it marked its run done.", want))
	}
}

// section reads one run directory.
func section(dir string) (Section, error) {
	run, err := runs.Open(dir)
	if err != nil {
		return Section{}, err
	}
	m := run.Manifest()
	s := Section{Title: m.Command, Dir: dir, Manifest: m, Command: strings.Join(m.Args, " ")}
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
	} else if m.Status != runs.StatusDone {
		s.Notes = append(s.Notes, fmt.Sprintf("This run is %s%s: what follows is what it had written.", m.Status, errText(m.Error)))
	}
	return s, nil
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

func readJSON(path string, v any) (bool, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return false, fmt.Errorf("%s: %v", path, err)
	}
	return true, nil
}

func pct(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*x)
}

func addTrain(s *Section, run *runs.Run) error {
	s.Title = "train: the network's learning curve"
	curve, err := runs.ReadParquet[td.CurvePoint](run.Path(td.CurveFile), td.Format)
	if errors.Is(err, fs.ErrNotExist) {
		s.Notes = append(s.Notes, "No learning curve yet.")
		return nil
	}
	if err != nil {
		return err
	}
	t := Table{Caption: "Learning curve: score against pairs at depth 1 over duplicate-dice games",
		Head: []string{"games", "seconds", "mean |TD error|", "score", "± 95% over pairs", "luck-adjusted", "± 95%", "plies per game"}}
	for _, p := range curve {
		t.Rows = append(t.Rows, []string{fmt.Sprint(p.Games), fmt.Sprintf("%.1f", p.Seconds), fmt.Sprintf("%.4f", p.TDError),
			pct(float64(p.Score)), pct(float64(p.ScoreCI95)), pct(float64(p.LuckScore)), pct(float64(p.LuckCI95)), fmt.Sprintf("%.1f", p.MeanPlies)})
	}
	s.Tables = append(s.Tables, t)
	return s.image(run, td.CurvePNG, "Learning curve")
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
	t := Table{Caption: fmt.Sprintf("v_deep = a·v_shallow + b per depth pair, %dx%d/%d, eval=%s%s; σ is the largest of the fit's, the cross-validated error and the floor", f.N, f.N, f.M, f.Eval, net),
		Head: []string{"pair", "band (checkers)", "n", "games", "a", "b", "σ", "fit σ", "cv rmse", "R²"}}
	for _, l := range f.Lines {
		t.Rows = append(t.Rows, []string{fmt.Sprintf("%d:%d", l.Shallow, l.Deep), l.Band, fmt.Sprint(l.N), fmt.Sprint(l.Games),
			fmt.Sprintf("%.4f", l.A), fmt.Sprintf("%.4f", l.B), fmt.Sprintf("%.4f", l.Sigma), fmt.Sprintf("%.4f", l.SigmaFit), fmt.Sprintf("%.4f", l.CVRMSE), fmt.Sprintf("%.4f", l.R2)})
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

func addTune(s *Section, run *runs.Run) error {
	s.Title = "tune: ChanceProbCut's nodes saved against move error"
	var r regression.TuneResult
	if ok, err := readJSON(run.Path(regression.TuneSummaryFile), &r); err != nil || !ok {
		return err
	}
	s.Notes = append(s.Notes, fmt.Sprintf("%s over %d positions; parameters: %s.", r.CPC, r.Positions, r.ProbCut))
	t := Table{Caption: "Against staretc, beside the chapter's tables 5.6-5.8 (Schadd et al. 2009)",
		Head: []string{"depth", "t", "nodes", "staretc", "reduction", "ACPCME", "DCPCME", "max error", "move changed", "chapter: reduction", "chapter: ACPCME"}}
	for _, x := range r.Rows {
		ca := "-"
		if !math.IsNaN(float64(x.ChapterACPCME)) {
			ca = fmt.Sprintf("%.2f", float64(x.ChapterACPCME))
		}
		t.Rows = append(t.Rows, []string{fmt.Sprint(x.Depth), fmt.Sprint(x.T), fmt.Sprint(x.Nodes), fmt.Sprint(x.BaseNodes), pct(x.Reduction),
			fmt.Sprintf("%.4f", x.ACPCME), fmt.Sprintf("%.4f", x.DCPCME), fmt.Sprintf("%.3f", x.MaxError), pct(x.MoveChanged), pct(float64(x.ChapterReduction)), ca})
	}
	s.Tables = append(s.Tables, t)
	return s.image(run, regression.TunePlot+".png", "Reduction against error")
}

func addCollect(s *Section, run *runs.Run) error {
	s.Title = "collect: shallow and deep searches of chance events"
	rows, err := regression.ReadRows(run.Dir())
	if err != nil {
		s.Notes = append(s.Notes, "No rows yet.")
		return nil
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
		t.Rows = append(t.Rows, []string{p.String(), fmt.Sprint(a.n), fmt.Sprintf("%.0f", a.nodesS/float64(a.n)), fmt.Sprintf("%.0f", a.nodesD/float64(a.n))})
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
	s.Text = text.String()
	data, err := nodesPlot(&sum)
	if err != nil {
		return err
	}
	s.Images = append(s.Images, inline(data, "Mean nodes against depth"))
	return nil
}

func addMatch(s *Section, run *runs.Run) error {
	s.Title = "match: variants against each other"
	var r selfplay.MatchReport
	if ok, err := readJSON(run.Path(selfplay.SummaryFile), &r); err != nil || !ok {
		return err
	}
	var text bytes.Buffer
	r.WriteText(&text)
	s.Text = strings.TrimRight(text.String(), "\n")
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
figure { display: inline-block; margin: 1em 1em 1em 0; } figure img { max-width: 100%; height: auto; border: 1px solid #eee; }
figcaption { font-size: .9em; color: #555; }
.meta { color: #555; font-size: .9em; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<p class="meta">Made {{.Made}} by starlab {{.Build}}.</p>
{{range .Sections}}
<section>
<h2>{{.Title}}</h2>
<p class="meta">{{.Dir}}: <code>{{.Command}}</code>; status {{.Manifest.Status}}; started {{.Manifest.Start.Format "2006-01-02 15:04:05"}}{{if not .Manifest.End.IsZero}}, ended {{.Manifest.End.Format "2006-01-02 15:04:05"}}{{end}}; build {{.Manifest.Build}}, {{.Manifest.GoVersion}}.</p>
{{range .Notes}}<p>{{.}}</p>{{end}}
{{range .Tables}}
<table>
<caption>{{.Caption}}</caption>
<tr>{{range .Head}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
{{end}}
{{if .Text}}<pre>{{.Text}}</pre>{{end}}
{{range .Images}}<figure><img src="{{.Data}}" alt="{{.Title}}"><figcaption>{{.Title}}</figcaption></figure>{{end}}
{{if .Settings}}<details><summary>Settings</summary><pre>{{.Settings}}</pre></details>{{end}}
</section>
{{end}}
</body>
</html>
`))
