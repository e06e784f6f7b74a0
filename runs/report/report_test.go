package report

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"starlab/regression"
	"starlab/runs"
	"starlab/search/bench"
	diceengine "starlab/search/engine/dice"
	"starlab/search/games"
	"starlab/selfplay"
	"starlab/td"
)

// diceGame is the game the matches play, as a command hands it to them.
var diceGame, _ = games.Lookup("dice")

// stages runs, as a pipeline run would lay them out in root, small train,
// collect, fit, tune and bench stages and two matches, the first between
// engines that name the trained net and the fitted parameters by their
// paths, the second one whose Elo interval is unbounded (one side wins
// every pair it does not split); the train stage has a checkpoint without
// a measurement. The pipeline's own run is left running, as it is while
// it writes its page, and its summary is written as it writes it. It
// returns the paths of the products.
func stages(t *testing.T, root string) (net, probcut string) {
	t.Helper()
	ctx := context.Background()
	recipe := map[string]any{
		"format": "starlab-recipe/1", "name": "test", "description": "every stage, small",
		"train": map[string]any{}, "collect": map[string]any{}, "fit": map[string]any{}, "bench": map[string]any{}, "tune": map[string]any{},
		"matches": []map[string]any{
			{"name": "cpc", "why": "whether the fitted parameters save nodes at no cost", "paper": "the chapter's 55%"},
			{"name": "zero", "why": "a sanity check: search against no evaluation"},
		},
	}
	top, err := runs.CreateAt(root, "run", []string{"starlab", "run", "test.json"}, recipe, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer top.Close()
	create := func(name, command string, settings any) *runs.Run {
		run, err := runs.CreateAt(filepath.Join(root, name), command, []string{"starlab", "run", "test.json"}, settings, 1)
		if err != nil {
			t.Fatal(err)
		}
		return run
	}
	finish := func(run *runs.Run, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		if err := run.Finish(nil); err != nil {
			t.Fatal(err)
		}
		run.Close()
	}

	ts := td.DefaultSettings(diceengine.Game())
	ts.Games, ts.CheckpointEvery, ts.MeasureEvery, ts.MeasureGames = 2000, 1000, 2000, 40
	ts.JudgeSuite = "../../search/testdata/endgame5x5-4.suite"
	run := create("1-train", "train", ts)
	_, err = td.Run(ctx, ts, run, runs.NoProgress)
	finish(run, err)
	net = filepath.Join(root, "1-train", td.BestFile)

	cs := regression.DefaultCollectSettings(diceengine.Game())
	cs.Kit = diceGame
	cs.Count, cs.Pairs, cs.Engine, cs.Chunk = 12, []regression.Pair{{Shallow: 1, Deep: 3}, {Shallow: 3, Deep: 5}}, "staretc:net="+net+",tt=1", 4
	run = create("2-collect", "collect", cs)
	_, err = regression.Collect(ctx, cs, run, runs.NoProgress)
	finish(run, err)

	fs := regression.DefaultFitSettings()
	fs.Inputs = []string{filepath.Join(root, "2-collect")}
	run = create("3-fit", "fit", fs)
	_, err = regression.RunFit(ctx, fs, run, runs.NoProgress)
	finish(run, err)
	probcut = filepath.Join(root, "3-fit", regression.ProbCutFile)

	tu := regression.DefaultTuneSettings(diceengine.Game(), "../../search/dice/suites/dice5x5-4.suite")
	tu.Kit = diceGame
	tu.Limit, tu.Depths, tu.Ts, tu.CPC = 4, []int{5}, []float64{1.6, 0.2}, regression.SpecList{"cpc:eval=pairs,tt=1", "cpc:eval=pairs,tt=1,multi=0,r=4"}
	run = create("4-tune", "tune", tu)
	_, err = regression.Tune(ctx, tu, run, runs.NoProgress)
	finish(run, err)

	bs := bench.DefaultSettings(diceengine.Game())
	bs.Kit = diceengine.Game()
	bs.Suite, bs.Limit, bs.Depths, bs.Engine.Eval, bs.Engine.TTMiB = "../../search/dice/suites/dice5x5-4.suite", 4, []int{3, 5}, "pairs", 1
	run = create("5-bench", "bench", bs)
	_, err = bench.Run(ctx, bs, run, runs.NoProgress)
	finish(run, err)

	ms := selfplay.DefaultMatchSettings(diceGame, "cpc:depth=3,net="+net+",probcut="+probcut+",tt=1", "staretc:depth=3,net="+net+",tt=1")
	ms.Games = 10
	run = create("6-cpc", "match", ms)
	_, err = selfplay.RunMatch(ctx, ms, run, runs.NoProgress)
	finish(run, err)

	ms = selfplay.DefaultMatchSettings(diceGame, "staretc:depth=5", "staretc:depth=1,eval=zero")
	ms.Games, ms.Seed = 10, 2
	run = create("7-zero", "match", ms)
	_, err = selfplay.RunMatch(ctx, ms, run, runs.NoProgress)
	finish(run, err)

	summary := "run test: " + root + "\nnet " + net + ": 2000 games\nreport: " + filepath.Join(root, File) + "\n"
	if err := os.WriteFile(filepath.Join(root, PipelineSummary), []byte(summary), 0o644); err != nil {
		t.Fatal(err)
	}
	return net, probcut
}

// visible is the text of a page a reader sees without opening anything:
// without the tags, the title attributes (shown on hover), the images'
// data, and the closed details elements.
func visible(html string) string {
	for _, re := range []*regexp.Regexp{
		regexp.MustCompile(`(?s)<details>.*?</details>`),
		regexp.MustCompile(`(?s)<style>.*?</style>`),
		regexp.MustCompile(`<[^>]*>`),
	} {
		html = re.ReplaceAllString(html, " ")
	}
	return html
}

// TestReport writes the page of a pipeline run and checks what it holds:
// the pipeline on top, done, with its summary and the recipe's reasons;
// each match under its own name with a plot of its scores, its variants
// under short names; undefined and unbounded figures as the terminal
// prints them. Then, where Chromium is installed (CI installs it), it
// opens the page headless and checks that it loads without console
// errors, that every image has a natural size, and that its visible text
// holds no path of the products.
func TestReport(t *testing.T) {
	// Paths as long as a real run's, which made a match's variants 200
	// characters wide.
	root := filepath.Join(t.TempDir(), strings.Repeat("a-long-directory-name/", 4)+"run-test")
	net, probcut := stages(t, root)
	res, html := reportPage(t, root)
	// train: curve; fit: two scatter plots; tune: one; bench: one; each
	// match: one.
	if res.Sections != 8 || res.Images != 7 {
		t.Fatalf("report %+v, want 8 sections and 7 images", res)
	}
	for _, want := range []string{"Learning curve", "per depth pair", "Engine 2: cpc:eval=pairs,tt=1,r=4,multi=0", "<th>vs 1</th>", "on our evaluation&#39;s scale, [-1, 1]", "its points / 10", "Mean nodes against depth", "pentanomial", "1:3", "3:5",
		"<h2>run test: every stage, small</h2>", "<h2>match cpc</h2>", "<h2>match zero</h2>",
		"whether the fitted parameters save nodes at no cost", "the chapter&#39;s 55%", "a sanity check: search against no evaluation",
		`<a href="#6-cpc">cpc</a>`, "net 1-train/best.json: 2000 games", "Scores with 95% intervals",
		`<pre class="wrap">run test: `,                                      // the summary's long lines wrap, not run off the box
		"<th>a</th><th>±</th><th>b</th><th>±</th>", "clustered by position", // the fit's standard errors
		"cpc:depth=3,eval=mlp,net={net},tt=1,probcut={probcut}", "staretc:depth=1,eval=zero",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	// The pipeline writes its page before it marks its run done.
	if top := regexp.MustCompile(`(?s)<h2>run test.*?status (\w+);`).FindStringSubmatch(html); top == nil || top[1] != "done" {
		t.Errorf("the pipeline's line shows status %v, want done", top)
	}
	// Figures as the terminal prints them: the train checkpoint without a
	// measurement has no score and no plies per game; the zero match's
	// Elo interval is unbounded.
	if !regexp.MustCompile(`<tr><td>1000</td>(<td>[^<]*</td>){3}(<td>-</td>){7}</tr>`).MatchString(html) {
		t.Error("the train checkpoint at 1000 games, not measured, does not show - for its score, intervals, plies per game and static error")
	}
	// With -judge the table has the static error against exact values,
	// as the plot does.
	if !regexp.MustCompile(`(?s)<th>static error against exact values</th><th>± its standard error</th>.*?<tr><td>2000</td>(<td>[^<]*</td>){8}<td>0\.[0-9]{4}</td><td>0\.[0-9]{4}</td></tr>`).MatchString(html) {
		t.Error("the train table lacks the measured static error against exact values")
	}
	if !regexp.MustCompile(`<td>&#43;240.8</td><td>inf</td><td>inf</td>`).MatchString(html) {
		t.Error("the zero match's Elo does not show ± inf over games and pairs")
	}
	for _, bad := range []string{"http://", "https://", "<script"} {
		if strings.Contains(html, bad) {
			t.Errorf("the page holds %q", bad)
		}
	}
	seen := visible(html)
	for _, bad := range []string{"NaN", "Inf", "± 0.0 "} {
		if strings.Contains(seen, bad) {
			t.Errorf("the page shows %q", bad)
		}
	}
	for _, long := range []string{net, probcut, filepath.Dir(net), filepath.Dir(probcut)} {
		if strings.Contains(seen, long) {
			t.Errorf("the page's visible text holds the path %s", long)
		}
	}
	if !strings.Contains(html, `title="cpc:depth=3,eval=mlp,net=`+net) {
		t.Error("the full spec of the cpc variant is not kept in a title")
	}
	if _, err := Run(context.Background(), t.TempDir(), games.Lookup, runs.NoProgress); err == nil || !strings.Contains(err.Error(), "no run directory") {
		t.Errorf("report of an empty directory: %v", err)
	}
	if inBrowser != nil {
		inBrowser(t, res.Path, res.Images, []string{net, probcut})
	}
}

// TestReportUnfinishedTrain checks that a train run killed after its
// checkpoints, which has no curve file yet, shows the curve its state
// file holds, drawn for the page.
// TestReportOlderTune: a tune run of the older format (one engine, the
// chapter's errors in its own points) is named as such in one line, and
// neither its table nor its plot, which put the chapter's raw errors
// beside ours, is shown.
func TestReportOlderTune(t *testing.T) {
	dir := t.TempDir()
	run, err := runs.CreateAt(dir, "tune", []string{"starlab", "tune"}, map[string]any{"cpc": "cpc", "depths": []int{9}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	old := `{"format": "starlab-tune/1", "cpc": "cpc:eval=mlp", "probcut": "built-in", "positions": 100, "rows": [
		{"depth": 9, "t": 1.6, "nodes": 6, "base_nodes": 8, "reduction": 0.25, "acpcme": 0.0015, "dcpcme": 0.0079, "max_error": 0.05, "move_changed": 0, "positions": 100, "chapter_reduction": 0.274, "chapter_acpcme": 0.01}],
		"seconds": 1}`
	if err := os.WriteFile(filepath.Join(dir, regression.TuneSummaryFile), []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, regression.TunePlot+".png"), []byte("not shown"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run.Finish(nil); err != nil {
		t.Fatal(err)
	}
	run.Close()
	res, html := reportPage(t, dir)
	if !strings.Contains(html, "format &#34;starlab-tune/1&#34;") || !strings.Contains(html, "run the tune again") || res.Images != 0 || strings.Contains(html, "<th>ACPCME</th>") {
		t.Errorf("report %+v of an older tune:\n%s", res, visible(html))
	}
}

func TestReportUnfinishedTrain(t *testing.T) {
	dir := t.TempDir()
	ts := td.DefaultSettings(diceengine.Game())
	ts.Games, ts.CheckpointEvery, ts.MeasureEvery, ts.MeasureGames = 2000, 500, 1000, 20
	run, err := runs.CreateAt(dir, "train", []string{"starlab", "train"}, ts, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := td.Run(context.Background(), ts, run, runs.NoProgress); err != nil {
		t.Fatal(err)
	}
	run.Close() // not finished: killed
	// What a kill after the last checkpoint leaves: the state, no curve.
	for _, f := range []string{td.CurveFile, td.CurvePNG, td.CurveSVG} {
		if err := os.Remove(filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
	}
	res, html := reportPage(t, dir)
	if res.Images != 1 || !strings.Contains(html, "Learning curve so far (4 checkpoints)") || strings.Contains(html, "No learning curve yet") {
		t.Errorf("report %+v of a train run killed after 4 checkpoints does not draw them", res)
	}
	if n := strings.Count(html, "<tr><td>"); n != 4 {
		t.Errorf("%d rows in the learning curve table, want 4", n)
	}
	// Its manifest says running, but no process holds it: the page says
	// it was stopped and how to go on, not that it is running.
	if !strings.Contains(html, "This run was stopped before it finished") || !strings.Contains(html, "starlab train -resume "+dir) || strings.Contains(html, "This run is running") {
		t.Errorf("the page of a killed run does not say it was stopped and how to resume it")
	}
	// Held by a live process (here this one), it is running.
	again, err := runs.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := again.Resume(); err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if _, html := reportPage(t, dir); !strings.Contains(html, "This run is running") {
		t.Errorf("the page of a run in progress does not say it is running")
	}
}

// reportPage reports on dir and returns the result and the page's HTML.
func reportPage(t *testing.T, dir string) (Result, string) {
	t.Helper()
	res, err := Run(context.Background(), dir, games.Lookup, runs.NoProgress)
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(res.Path)
	if err != nil {
		t.Fatal(err)
	}
	return res, string(page)
}

// inBrowser, set by the integration build (report_browser_test.go), opens
// the page in headless Chromium; make test-integration runs it.
var inBrowser func(t *testing.T, path string, images int, hidden []string)

// TestLongTableFolds checks that a table longer than foldRows (a long
// learning curve) is folded under its caption, and a short one is not.
func TestLongTableFolds(t *testing.T) {
	for _, rows := range []int{foldRows, foldRows + 1} {
		tb := Table{Caption: "curve", Head: []string{"games"}}
		for i := range rows {
			tb.add(fmt.Sprint(i))
		}
		var buf strings.Builder
		if err := page.Execute(&buf, map[string]any{"Title": "t", "Sections": []Section{{ID: "1-train", Title: "train", Tables: []Table{tb}}}}); err != nil {
			t.Fatal(err)
		}
		folded := strings.Contains(buf.String(), `<details class="table"><summary>curve (`)
		if folded != (rows > foldRows) {
			t.Errorf("a table of %d rows folded: %v", rows, folded)
		}
	}
}

// TestOpenTableShown: a long table marked open (the tune table, what its
// section is for) is foldable but shown open.
func TestOpenTableShown(t *testing.T) {
	tb := Table{Caption: "t table", Head: []string{"t"}, Open: true}
	for i := range foldRows + 1 {
		tb.add(fmt.Sprint(i))
	}
	var buf strings.Builder
	if err := page.Execute(&buf, map[string]any{"Title": "t", "Sections": []Section{{ID: "1-tune", Title: "tune", Tables: []Table{tb}}}}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `<details class="table" open><summary>t table (`) {
		t.Errorf("the open table is not shown open:\n%s", buf.String())
	}
}

// TestProbCutSource: the page names the built-in fit as the built-in fit
// (not by the base name of its file, as if the run had made it), and a
// parameter file by its short name.
func TestProbCutSource(t *testing.T) {
	n := &namer{products: map[string]string{}}
	builtin := "built-in fit search/dice/fits/5x5-4.json (starlab fit, default settings, of the 39480 rows of starlab collect -count 1000 -min 5 -max 12 -seed 1 -pairs 1:5,3:7,5:9,7:11,3:5,5:7,7:9,9:11 -workers 2)"
	for src, want := range map[string]string{
		builtin: builtin,
		"defaults (identity model, sigma 0.1; not fitted)":           "defaults (identity model, sigma 0.1; not fitted)",
		"/tmp/x/fit5x5/probcut.json: starlab fit of 984 rows from c": "probcut.json: starlab fit of 984 rows from c",
	} {
		if got := n.probcutSource(src); got != want {
			t.Errorf("probcutSource(%q) = %q, want %q", src, got, want)
		}
	}
}

// finishedRun runs stage as the command command would in a new run
// directory dir with settings, and finishes the run.
func finishedRun(t *testing.T, dir, command string, settings any, stage func(*runs.Run) error) {
	t.Helper()
	run, err := runs.CreateAt(dir, command, []string{"starlab", command}, settings, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	if err := stage(run); err != nil {
		t.Fatal(err)
	}
	if err := run.Finish(nil); err != nil {
		t.Fatal(err)
	}
}

// TestReportTuneChapterOnlyOnItsBoard: the page of a ChanceBreakthrough
// tune names the chapter's table 5.10 on 8x8 and no chapter's figures on
// 5x6, a board the chapter did not measure.
func TestReportTuneChapterOnlyOnItsBoard(t *testing.T) {
	bt, err := games.Lookup("breakthrough")
	if err != nil {
		t.Fatal(err)
	}
	suite5x6 := filepath.Join(t.TempDir(), "5x6.suite")
	if err := os.WriteFile(suite5x6, []byte("5 6 b ..bbb/b..../w..../w..ww/...../...ww\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		suite, want string
	}{{suite5x6, ""}, {"../../search/breakthrough/suites/breakthrough8x8-measure.suite", "table 5.10"}} {
		dir := t.TempDir()
		tu := regression.DefaultTuneSettings(bt, c.suite)
		tu.Kit, tu.Limit, tu.Depths, tu.Ts, tu.CPC = bt, 1, []int{3}, []float64{1.6}, regression.SpecList{"cpc:eval=material"}
		finishedRun(t, dir, "tune", tu, func(run *runs.Run) error {
			_, err := regression.Tune(context.Background(), tu, run, runs.NoProgress)
			return err
		})
		_, html := reportPage(t, dir)
		if has := strings.Contains(html, "chapter"); c.want == "" && has || c.want != "" && !strings.Contains(html, c.want) {
			t.Errorf("%s: the page shows the chapter %v, want %q:\n%s", c.suite, has, c.want, visible(html))
		}
	}
}

// TestReportTrainRepeatedMeasurement: the page of a ChanceBreakthrough
// training measured from the start, where the depth-1 players never meet
// chance, says that every pair of the measurement's games is one pair; it
// names the luck reference and the nets measured, as every train page.
func TestReportTrainRepeatedMeasurement(t *testing.T) {
	bt, err := games.Lookup("breakthrough")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ts := td.DefaultSettings(bt)
	// Seed 3 trains a net whose depth-1 player never rolls from the start.
	ts.Variant, ts.Games, ts.CheckpointEvery, ts.MeasureEvery, ts.MeasureGames, ts.Seed = "4x5", 400, 400, 400, 20, 3
	var res *td.Result
	finishedRun(t, dir, "train", ts, func(run *runs.Run) error {
		res, err = td.Run(context.Background(), ts, run, runs.NoProgress)
		return err
	})
	_, html := reportPage(t, dir)
	for _, want := range []string{
		"The measurement after 400 games: all 10 couples of games on shared dice are the same two games",
		// The luck reference the measurements valued the rolls with (the
		// match stage's default for the game and variant) and the net
		// each row measured, the last one as net.json's.
		"luck-adjusted with the luck reference " + selfplay.LuckRef(bt, "4x5") + " (",
		"<th>games</th><th>net</th>",
		"<td>400</td><td>" + res.NetID + "</td>",
		"The net: net.json, id " + res.NetID + ", after 400 games (the last checkpoint).",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %q:\n%s", want, visible(html))
		}
	}
}

// TestReportMatchSplitPairs: a match whose every pair split 1-1 has an
// interval over pairs of no width, which the page says has no spread to
// measure instead of showing ± 0.0% as if the score were certain.
func TestReportMatchSplitPairs(t *testing.T) {
	dir := t.TempDir()
	ms := selfplay.DefaultMatchSettings(diceGame, "staretc:depth=1,eval=pairs", "star1:depth=1,eval=pairs")
	ms.Games = 8
	run, err := runs.CreateAt(dir, "match", []string{"starlab", "match"}, ms, 1)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := selfplay.RunMatch(context.Background(), ms, run, runs.NoProgress)
	if err != nil {
		t.Fatal(err)
	}
	if err := run.Finish(nil); err != nil {
		t.Fatal(err)
	}
	run.Close()
	if p := rep.Pairings[0].Pentanomial; p != [5]int{0, 0, 4, 0, 0} {
		t.Fatalf("pentanomial %v: the two engines' pairs did not all split 1-1", p)
	}
	_, html := reportPage(t, dir)
	if !strings.Contains(html, "<td>0.0% (every pair split 1-1: no spread to measure)</td>") {
		t.Errorf("the page does not say why the interval over pairs is 0:\n%s", visible(html))
	}
	// The games' shape, which the terminal's text prints, is in a table
	// of its own beside their length, not in the scores' table.
	shape := regexp.MustCompile(`(?s)<caption>The games of each pairing: their length and shape.*?<th>plies per game</th><th>decisions per game</th><th>branching factor</th><th>chance nodes per game</th><th>events per chance node</th>.*?</table>`).FindString(html)
	if r := rep.Pairings[0]; shape == "" || !strings.Contains(shape, "<td>"+r.Branching.Format("%.1f")+"</td><td>"+r.ChancePerGame.Format("%.1f")+"</td>") {
		t.Errorf("no table of the games' shape, or not this match's:\n%s", shape)
	}
}
