package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"starlab/regression"
	"starlab/runs"
	"starlab/search"
	"starlab/search/bench"
	"starlab/search/dice"
	"starlab/search/games"
	"starlab/selfplay"
)

var collectArgs = []string{"collect", "-count", "24", "-min", "5", "-max", "10", "-seed", "3", "-pairs", "1:3,3:5", "-chunk", "2", "-engine", "staretc:eval=pairs,tt=1", "-json"}

// shardMatchArgs is the match that TestMerge shards.
var shardMatchArgs = []string{"match", "staretc:depth=3,eval=pairs", "star1:depth=1,eval=pairs", "-games", "24", "-seed", "7"}

// sameMatch compares the match run in dir with the one in want: every
// statistic of summary.json and every games.parquet row, times aside.
func sameMatch(t *testing.T, dir, want string) {
	t.Helper()
	var w, g selfplay.MatchReport
	for p, r := range map[string]*selfplay.MatchReport{want: &w, dir: &g} {
		data, err := os.ReadFile(filepath.Join(p, selfplay.SummaryFile))
		if err != nil || json.Unmarshal(data, r) != nil {
			t.Fatalf("%s: %v", p, err)
		}
	}
	wp, gp := w.Pairings[0], g.Pairings[0]
	if wp.Score != gp.Score || wp.Pentanomial != gp.Pentanomial || wp.LuckScore != gp.LuckScore || wp.ScoreCI95Pairs != gp.ScoreCI95Pairs || wp.Games != gp.Games {
		t.Errorf("%s: %+v; unsharded %+v", dir, gp, wp)
	}
	sameParquet(t, selfplay.GamesFile, selfplay.MatchFormat, dir, want, func(r selfplay.GameRow) selfplay.GameRow {
		r.TimeMSBlue, r.TimeMSRed = 0, 0
		return r
	})
}

// sameParquet compares the Parquet file name of the runs dir and want,
// record by record, after untimed has cleared what depends on the clock.
func sameParquet[T comparable](t *testing.T, name, format, dir, want string, untimed func(T) T) {
	t.Helper()
	w, err := runs.ReadParquet[T](filepath.Join(want, name), format)
	if err != nil {
		t.Fatal(err)
	}
	g, err := runs.ReadParquet[T](filepath.Join(dir, name), format)
	if err != nil {
		t.Fatal(err)
	}
	sameRecords(t, name, g, w, untimed)
}

// sameCollect compares the collect run in dir with the one in want, row by
// row, times aside.
func sameCollect(t *testing.T, dir, want string) {
	t.Helper()
	wantRows, err := regression.ReadRows(want)
	if err != nil {
		t.Fatal(err)
	}
	gotRows, err := regression.ReadRows(dir)
	if err != nil {
		t.Fatal(err)
	}
	sameRows(t, gotRows, wantRows)
}

// sameRows compares two collects' rows, times aside.
func sameRows(t *testing.T, got, want []regression.Row) {
	t.Helper()
	sameRecords(t, "rows", got, want, func(r regression.Row) regression.Row {
		r.MsShallow, r.MsDeep = 0, 0
		return r
	})
}

// sameRecords compares two runs' records one by one, after untimed has
// cleared what depends on the clock.
func sameRecords[T comparable](t *testing.T, what string, got, want []T, untimed func(T) T) {
	t.Helper()
	if len(got) != len(want) || len(want) == 0 {
		t.Fatalf("%s: %d records, want %d", what, len(got), len(want))
	}
	for i := range got {
		if g, w := untimed(got[i]), untimed(want[i]); g != w {
			t.Fatalf("%s record %d: %+v, want %+v", what, i, g, w)
		}
	}
}

// TestCollectKilledAndResumed kills a collect with SIGKILL once it has
// written some part files, resumes it, and checks that it ends with the
// rows of an uninterrupted collect; then fits them and tunes with the fit.
func TestCollectKilledAndResumed(t *testing.T) {
	ref := filepath.Join(t.TempDir(), "ref")
	code, stdout, stderr := runCmd(t, append(collectArgs, "-out", ref)...)
	if code != 0 {
		t.Fatalf("reference collect: exit %d: %s", code, stderr)
	}
	var res regression.CollectResult
	if err := json.Unmarshal([]byte(stdout), &res); err != nil || res.Positions != 24 || res.Parts != 12 {
		t.Fatalf("collect result %q: %v", stdout, err)
	}
	want, err := regression.ReadRows(ref)
	if err != nil {
		t.Fatal(err)
	}

	dir := filepath.Join(t.TempDir(), "killed")
	killWhen(t, append(collectArgs, "-out", dir), "a part file", func() bool {
		parts, _ := filepath.Glob(filepath.Join(dir, "rows", "*.parquet"))
		return len(parts) >= 2
	})
	parts, _ := filepath.Glob(filepath.Join(dir, "rows", "*.parquet"))
	if len(parts) == 12 {
		t.Skip("the child finished before it was killed")
	}
	code, stdout, stderr = runCmd(t, "collect", "-resume", dir, "-json")
	if code != 0 {
		t.Fatalf("resume: exit %d: %s", code, stderr)
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil || res.Resumed < 2 {
		t.Fatalf("resumed collect %q: %v", stdout, err)
	}
	got, err := regression.ReadRows(dir)
	if err != nil {
		t.Fatal(err)
	}
	sameRows(t, got, want)

	fit := filepath.Join(t.TempDir(), "fit")
	code, stdout, stderr = runCmd(t, "fit", dir, "-out", fit)
	if code != 0 || !strings.Contains(stdout, "3:5") || !strings.Contains(stdout, "probcut.json") {
		t.Fatalf("fit: exit %d: %s%s", code, stdout, stderr)
	}
	for _, f := range []string{"probcut.json", "fit.json", "scatter-1-3.png", "scatter-3-5.svg"} {
		if fi, err := os.Stat(filepath.Join(fit, f)); err != nil || fi.Size() == 0 {
			t.Errorf("fit wrote no %s: %v", f, err)
		}
	}
	probcut := filepath.Join(fit, "probcut.json")
	code, stdout, stderr = runCmd(t, "tune", "-limit", "6", "-depths", "5", "-t", "1.6,0.2", "-cpc", "cpc:eval=pairs,tt=1", "-probcut", probcut, "-suite", "../../search/dice/suites/dice5x5-4.suite", "-out", filepath.Join(t.TempDir(), "tune"), "-json")
	if code != 0 {
		t.Fatalf("tune: exit %d: %s", code, stderr)
	}
	rows := tuneRows(t, stdout)
	if len(rows) != 2 || rows[0].T != 1.6 || rows[1].Depth != 5 || rows[0].BaseNodes == 0 {
		t.Fatalf("tune rows %+v", rows)
	}
	// The fit was made with pairs: an mlp engine refuses it.
	code, _, stderr = runCmd(t, "search", "-algo", "cpc", "-depth", "5", "-probcut", probcut, exampleDPN)
	if code != 2 || !strings.Contains(stderr, "fitted with eval=pairs") {
		t.Errorf("cpc with eval=mlp and a pairs fit: exit %d, %q", code, stderr)
	}
}

// TestTuneChapterOnOurScale: starlab tune -depths 9 -t 1.6 -json gives
// the chapter's ACPCME of that row as 0.001 (its 0.01 points over 10) and
// its DCPCME as 0.005, says the scale in the row, and carries a standard
// error.
func TestTuneChapterOnOurScale(t *testing.T) {
	code, stdout, stderr := runCmd(t, "tune", "-depths", "9", "-t", "1.6", "-json", "-limit", "2", "-suite", benchTestSuite, "-out", filepath.Join(t.TempDir(), "tune"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{`"chapter_acpcme":0.001,`, `"chapter_dcpcme":0.005}`, `"chapter_scale":"` + diceChapter().Scale() + `"`, `"acpcme_se":`, `"reduction":`} {
		if !strings.Contains(stdout, want) {
			t.Errorf("tune -json lacks %s: %s", want, stdout)
		}
	}
}

// TestTuneSeveralEngines: -cpc given twice measures both engines over the
// same positions in one run, -probcut going to each; the table gives each
// engine's line, the paired difference, and the chapter's line once per
// depth and t, on our scale, as its header says.
func TestTuneSeveralEngines(t *testing.T) {
	args := []string{"tune", "-depths", "9", "-t", "1.6,0.05", "-limit", "3", "-cpc", "cpc:tt=1,r=4,multi=0", "-cpc", "cpc:tt=1",
		"-probcut", "../../search/dice/fits/5x5-4.json", "-suite", benchTestSuite}
	code, stdout, stderr := runCmd(t, append(args, "-json", "-out", filepath.Join(t.TempDir(), "json"))...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rows := tuneRows(t, stdout)
	if len(rows) != 4 {
		t.Fatalf("%d rows, want 4: %s", len(rows), stdout)
	}
	for i, r := range rows {
		want := []string{"cpc:eval=mlp,tt=1,r=4,probcut=../../search/dice/fits/5x5-4.json,multi=0", "cpc:eval=mlp,tt=1,probcut=../../search/dice/fits/5x5-4.json"}[i%2]
		if r.Engine != want || r.Positions != 3 || r.BaseNodes != rows[i-i%2].BaseNodes {
			t.Errorf("row %d: engine %s over %d positions, staretc %d nodes; want %s over 3 and the first's", i, r.Engine, r.Positions, r.BaseNodes, want)
		}
		if paired := !math.IsNaN(float64(r.ACPCMEMinusFirst)); paired != (i%2 == 1) {
			t.Errorf("row %d: paired difference %v", i, r.ACPCMEMinusFirst)
		}
	}
	code, stdout, stderr = runCmd(t, append(args, "-out", filepath.Join(t.TempDir(), "table"))...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"engine 2: cpc:eval=mlp,tt=1,probcut=", "vs 1", "on our evaluation's scale, [-1, 1]", "its points / 10", dice.ChapterCPC} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the table lacks %q:\n%s", want, stdout)
		}
	}
	if n := strings.Count(stdout, " chapter "); n != 2 {
		t.Errorf("%d chapter's lines, want one per depth and t (2):\n%s", n, stdout)
	}
	if !regexp.MustCompile(`(?m)^ +9 +1\.6 +chapter +- +- +27\.4% +- +0\.001 +- +0\.005 `).MatchString(stdout) {
		t.Errorf("no chapter's line with 27.4%%, 0.001 and 0.005 at depth 9, t = 1.6:\n%s", stdout)
	}
}

// TestTuneNoChapterOnOtherBoards: a tune of Dice 4x4-3 or of
// ChanceBreakthrough 5x6, boards the chapter did not measure, names no
// chapter in its table or its -json rows.
func TestTuneNoChapterOnOtherBoards(t *testing.T) {
	for _, c := range []struct{ game, eval, position string }{
		{"dice", "pairs", "4 3 r -1 - - r - b - - - b - - - - - - -"},
		{"breakthrough", "material", "5 6 b ..bbb/b..../w..../w..ww/...../...ww"},
	} {
		suite := filepath.Join(t.TempDir(), "positions.suite")
		if err := os.WriteFile(suite, []byte(c.position+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, json := range []bool{false, true} {
			args := []string{"tune", "-game", c.game, "-suite", suite, "-depths", "3", "-t", "1.6", "-cpc", "cpc:eval=" + c.eval, "-out", filepath.Join(t.TempDir(), "tune")}
			if json {
				args = append(args, "-json")
			}
			code, stdout, stderr := runCmd(t, args...)
			if code != 0 || regexp.MustCompile(`(?i)\bchapter`).MatchString(stdout) {
				t.Errorf("%q: exit %d, %s\n%s", args, code, stderr, stdout)
			}
		}
	}
}

func TestRegressionBadInput(t *testing.T) {
	dir := t.TempDir()
	checkBadInput(t, []badInput{
		{[]string{"collect", "-pairs", "3-7"}, 2, "-pairs"},
		{[]string{"collect", "-pairs", "7:3"}, 2, "-pairs 7:3"},
		{[]string{"collect", "-engine", "cpc"}, 2, "not sound"},
		{[]string{"collect", "-engine", "staretc:depth=3"}, 2, "no limits"},
		{[]string{"collect", "-suite", filepath.Join(dir, "none")}, 2, "suite"},
		{[]string{"collect", "-resume", dir, "-pairs", "1:3"}, 2, "cannot change"},
		{[]string{"collect", "-suite", "../../search/dice/suites/dice5x5-4.suite", "-count", "5"}, 2, "-count samples"},
		{[]string{"fit"}, 2, "missing input"},
		{[]string{"fit", filepath.Join(dir, "none")}, 2, "none"},
		{[]string{"fit", dir, "-folds", "1"}, 2, "-folds"},
		{[]string{"tune", "-t", "x"}, 2, "-t"},
		{[]string{"tune", "-depths", "1"}, 2, "-depths"},
		{[]string{"tune", "-cpc", "staretc"}, 2, "not cpc"},
		{[]string{"tune", "-cpc", "cpc:eval=pairs", "-cpc", "cpc:eval=pairs,tt=16"}, 2, "the same engine as -cpc cpc:eval=pairs"},
		{[]string{"tune", "-cpc", "cpc:eval=pairs", "-cpc", "cpc"}, 2, "staretc base"},
		{[]string{"tune", "-cpc", "cpc:probcut=a.json", "-probcut", "b.json"}, 2, "none would use it"},
		{[]string{"tune", "-depths", "5", "-depths", "7"}, 2, "-depths is given twice"},
		{[]string{"tune", "-t", "1.6,1.6"}, 2, "-t: 1.6 is given twice"},
		{[]string{"tune", "-game", "breakthrough", "-cpc", "cpc:noise=0.01"}, 2, "-cpc cpc:noise=0.01: give no noise="},
		{[]string{"run", "nosuch"}, 2, "no built-in recipe"},
		{[]string{"run", "a", "b"}, 2, "one recipe"},
	})
}

func TestReportCommand(t *testing.T) {
	dir := t.TempDir()
	checkBadInput(t, []badInput{
		{[]string{"report"}, 2, "one run directory"},
		{[]string{"report", dir}, 2, "no run directory"},
		{[]string{"report", filepath.Join(dir, "none")}, 2, "none"},
	})
	run := filepath.Join(dir, "c")
	if code, _, stderr := runCmd(t, append(collectArgs, "-out", run)...); code != 0 {
		t.Fatal(stderr)
	}
	code, stdout, stderr := runCmd(t, "report", run)
	if code != 0 || !strings.Contains(stdout, filepath.Join(run, "report.html")) {
		t.Fatalf("report: exit %d, %q %q", code, stdout, stderr)
	}
}

// TestMerge: four shards of a match and of a collect, merged, hold the
// records and statistics of the unsharded run with the same seed; missing,
// duplicated and foreign shards are refused in one line.
func TestMerge(t *testing.T) {
	dir := t.TempDir()
	at := func(name string) string { return filepath.Join(dir, name) }
	shards := func(args []string, prefix string) []string {
		var dirs []string
		for i := 0; i < 4; i++ {
			d := at(fmt.Sprintf("%s%d", prefix, i))
			if code, _, stderr := runCmd(t, append(args, "-shard", fmt.Sprintf("%d/4", i), "-out", d)...); code != 0 {
				t.Fatalf("shard %d: %s", i, stderr)
			}
			dirs = append(dirs, d)
		}
		return dirs
	}
	ms := shards(shardMatchArgs, "m")
	if code, _, stderr := runCmd(t, append(shardMatchArgs, "-out", at("mwhole"))...); code != 0 {
		t.Fatal(stderr)
	}
	if code, stdout, stderr := runCmd(t, append([]string{"merge", "-out", at("mmerged")}, ms...)...); code != 0 || !strings.Contains(stdout, "4 shards of a match") {
		t.Fatalf("merge: exit %d %s %s", code, stdout, stderr)
	}
	sameMatch(t, at("mmerged"), at("mwhole"))

	cargs := collectArgs[:len(collectArgs)-1] // without -json
	cs := shards(cargs, "c")
	if code, _, stderr := runCmd(t, append(cargs, "-out", at("cwhole"))...); code != 0 {
		t.Fatal(stderr)
	}
	if code, stdout, stderr := runCmd(t, append([]string{"merge", "-out", at("cmerged")}, cs...)...); code != 0 || !strings.Contains(stdout, "4 shards of a collect") {
		t.Fatalf("merge: exit %d %s %s", code, stdout, stderr)
	}
	sameCollect(t, at("cmerged"), at("cwhole"))

	// bench and tune: the merged rows and tables are the unsharded ones.
	bargs := []string{"bench", "-algos", "star2,staretc", "-depths", "3,5", "-limit", "8", "-eval", "pairs", benchTestSuite}
	targs := []string{"tune", "-depths", "3,5", "-t", "1.6,0.4", "-limit", "8", "-cpc", "cpc:eval=pairs", "-cpc", "cpc:eval=pairs,r=4,multi=0", "-suite", benchTestSuite}
	for _, args := range [][]string{bargs, targs} {
		prefix := args[0]
		sh := shards(args, prefix)
		whole, merged := at(prefix+"whole"), at(prefix+"merged")
		if code, _, stderr := runCmd(t, append(args, "-out", whole)...); code != 0 {
			t.Fatal(stderr)
		}
		if code, stdout, stderr := runCmd(t, append([]string{"merge", "-out", merged}, sh...)...); code != 0 || !strings.Contains(stdout, "4 shards of a "+prefix) {
			t.Fatalf("merge: exit %d %s %s", code, stdout, stderr)
		}
		if prefix == "bench" {
			sameParquet(t, bench.RowsFile, bench.Format, merged, whole, func(r bench.Row) bench.Row { r.TimeMS, r.NodesPerS = 0, 0; return r })
			var ws, gs bench.Summary
			readJSONFile(t, filepath.Join(whole, bench.SummaryFile), &ws)
			readJSONFile(t, filepath.Join(merged, bench.SummaryFile), &gs)
			for i := range ws.Results {
				for j, a := range ws.Results[i].Algos {
					if b := gs.Results[i].Algos[j]; a.Nodes != b.Nodes || a.MeanRatio != b.MeanRatio || a.TotalNodes != b.TotalNodes {
						t.Errorf("bench summary at depth %d: merged %+v, unsharded %+v", ws.Results[i].Depth, b, a)
					}
				}
			}
			continue
		}
		sameParquet(t, regression.TuneRowsFile, regression.TuneFormat, merged, whole, func(r regression.TuneRecord) regression.TuneRecord { return r })
		var wr, gr regression.TuneResult
		readJSONFile(t, filepath.Join(whole, regression.TuneSummaryFile), &wr)
		readJSONFile(t, filepath.Join(merged, regression.TuneSummaryFile), &gr)
		wrows, _ := json.Marshal(wr.Rows) // the chapter's figures are behind a pointer
		grows, _ := json.Marshal(gr.Rows)
		if string(wrows) != string(grows) || wr.Positions != gr.Positions || !slices.Equal(wr.ProbCut, gr.ProbCut) {
			t.Errorf("tune.json: merged %+v, unsharded %+v", gr, wr)
		}
	}

	other := at("other")
	if code, _, stderr := runCmd(t, "match", "staretc:depth=3,eval=pairs", "star1:depth=1,eval=pairs", "-games", "24", "-seed", "8", "-shard", "3/4", "-out", other); code != 0 {
		t.Fatal(stderr)
	}
	for _, c := range []struct {
		dirs []string
		want string
	}{
		{ms[:3], "shard 3/4 missing"},
		{append(ms, ms[0]), "given twice"},
		{[]string{ms[0], ms[1], ms[2], other}, "seed"},
		{[]string{ms[0], cs[1]}, "collect run"},
	} {
		code, stdout, stderr := runCmd(t, append([]string{"merge", "-out", at("bad")}, c.dirs...)...)
		if code == 0 || stdout != "" || !strings.Contains(stderr, c.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("merge %v: exit %d, %q; want one line with %q", c.dirs, code, stderr, c.want)
		}
	}
}

// readJSONFile reads a run's JSON file into v.
func readJSONFile(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// TestBadInputLeavesNoRun: collect, tune and fit check everything they
// read (suite, net, parameters, input runs) before they make a run
// directory, so bad input leaves none under out/ for -resume latest to
// pick in place of a real interrupted run.
func TestBadInputLeavesNoRun(t *testing.T) {
	suite, err := filepath.Abs("../../search/dice/suites/dice5x5-4.suite")
	if err != nil {
		t.Fatal(err)
	}
	fit7, err := filepath.Abs("../../search/dice/fits/7x7-5.json")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	t.Chdir(dir)
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	over := write("over.suite", "5 4 r -1 b b b b - r r r - - - - - - - - - - - - - - - - -\n")
	mixed := write("mixed.suite", "5 4 b -1 - - - - - - - - - - - - - - - - - - - - - - - - -\n4 3 b -1 - - - - - - - - - - - - - - - -\n")
	notParquet := write("rows.parquet", "not Parquet")
	collect := []string{"collect", "-pairs", "1:3", "-engine", "staretc:eval=material,tt=1"}
	tune := []string{"tune", "-depths", "3", "-t", "1.6", "-cpc", "cpc:eval=pairs,tt=1"}
	for _, c := range []badInput{
		{append(collect, "-suite", over), 2, "finished"},
		{append(collect, "-suite", mixed), 2, "one variant per collect"},
		{append(collect, "-suite", suite, "-variant", "5x5-4"), 2, "-variant samples positions"},
		{append(collect, "-game", "breakthrough", "-n", "5"), 2, "give -variant for breakthrough"},
		{append(collect, "-game", "chess"), 2, `game "chess" is unknown`},
		{append(collect, "-suite", filepath.Join(dir, "none")), 2, "none"},
		{[]string{"collect", "-count", "2", "-n", "6", "-m", "4", "-pairs", "1:3"}, 2, "6x6"},
		{append(tune, "-suite", filepath.Join(dir, "none")), 2, "none"},
		{append(tune, "-suite", over), 2, "finished"},
		{[]string{"tune", "-depths", "3", "-t", "1.6", "-cpc", "cpc:tt=1", "-suite", mixed}, 2, "4x4"},
		{[]string{"tune", "-depths", "3", "-t", "0.8", "-cpc", "cpc:t=1.6,tt=1"}, 2, "give no t"},
		{[]string{"tune", "-depths", "3", "-t", "0.8", "-cpc", "cpc:tt=1", "-suite", suite, "-probcut", fit7}, 2, "probcut " + fit7 + " was fitted for dice variant 7x7-5, not 5x5-4"},
		{[]string{"fit", notParquet}, 2, "rows.parquet"},
		{[]string{"fit", suite}, 2, "dice5x5-4.suite"},
	} {
		checkBadInput(t, []badInput{c})
		if entries, err := os.ReadDir("out"); err == nil || !os.IsNotExist(err) {
			t.Errorf("%v left a run under out/: %v", c.args, entries)
			os.RemoveAll("out")
		}
	}
}

// TestFitRefusesDoubleAndPartialInput: fit refuses rows it would count
// twice, and a collect run that is not done unless -partial.
func TestFitRefusesDoubleAndPartialInput(t *testing.T) {
	dir := t.TempDir()
	c := filepath.Join(dir, "c")
	if code, _, stderr := runCmd(t, "collect", "-count", "6", "-min", "5", "-max", "10", "-seed", "3", "-pairs", "1:3", "-chunk", "2", "-engine", "staretc:eval=pairs,tt=1", "-out", c); code != 0 {
		t.Fatal(stderr)
	}
	part := filepath.Join(c, "rows", "part-00000.parquet")
	out := filepath.Join(dir, "fit")
	checkBadInput(t, []badInput{
		{[]string{"fit", c, c, "-folds", "2", "-out", out}, 2, c + " is given twice"},
		{[]string{"fit", part, part, "-folds", "2", "-out", out}, 2, part + " is given twice"},
		{[]string{"fit", c, part, "-folds", "2", "-out", out}, 2, "read twice"},
		{[]string{"fit", filepath.Join(c, "rows"), c, "-folds", "2", "-out", out}, 2, "read twice"},
	})
	// The collect, marked running as a killed one is, has only some rows.
	manifest := filepath.Join(c, runs.ManifestName)
	data, err := os.ReadFile(manifest)
	if err != nil || !strings.Contains(string(data), `"status": "done"`) {
		t.Fatalf("manifest %s: %v", data, err)
	}
	if err := os.WriteFile(manifest, []byte(strings.Replace(string(data), `"status": "done"`, `"status": "running"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	checkBadInput(t, []badInput{
		{[]string{"fit", c, "-folds", "2", "-out", out}, 2, "-partial"},
		{[]string{"fit", filepath.Join(c, "rows"), "-folds", "2", "-out", out}, 2, "is not finished (stopped)"},
	})
	if _, err := os.Stat(out); err == nil {
		t.Fatalf("a refused fit made %s", out)
	}
	code, stdout, stderr := runCmd(t, "fit", c, "-partial", "-folds", "2", "-out", out, "-json")
	var res regression.FitResult
	if code != 0 || json.Unmarshal([]byte(stdout), &res) != nil || len(res.Lines) == 0 {
		t.Fatalf("fit -partial: exit %d, %q %q", code, stdout, stderr)
	}
	rows, err := regression.ReadRows(c)
	if err != nil || res.Lines[0].N != len(rows) {
		t.Errorf("fit -partial: n %d, the collect has %d rows (%v)", res.Lines[0].N, len(rows), err)
	}
}

// tuneRows decodes the rows tune -json prints, one JSON object per line.
func tuneRows(t *testing.T, stdout string) []regression.TuneRow {
	t.Helper()
	var rows []regression.TuneRow
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var r regression.TuneRow
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("tune line %q: %v", line, err)
		}
		rows = append(rows, r)
	}
	return rows
}

// TestCollectBreakthrough: collect, merge, fit and tune over
// ChanceBreakthrough from the command line: sampled positions of a small
// variant, their rows naming the game, the variant and the weighted
// events; shards that merge into the unsharded rows, the game read from
// the runs; a fit that needs -game breakthrough and names the game and
// variant; and tune with that fit over the collect's positions.
func TestCollectBreakthrough(t *testing.T) {
	dir := t.TempDir()
	at := func(name string) string { return filepath.Join(dir, name) }
	args := []string{"collect", "-game", "breakthrough", "-variant", "4x5", "-count", "8", "-min", "6", "-max", "14", "-seed", "2",
		"-pairs", "1:2,1:3", "-chunk", "2", "-engine", "staretc:eval=material,tt=1"}
	if code, _, stderr := runCmd(t, append(args, "-out", at("whole"))...); code != 0 {
		t.Fatal(stderr)
	}
	rows, err := regression.ReadRows(at("whole"))
	if err != nil {
		t.Fatal(err)
	}
	weighted := false
	for _, r := range rows {
		if r.Game != "breakthrough" || r.Variant != "4x5" || !strings.Contains(r.Position, " r") || r.Total != 20 || r.Weight < 1 || r.Phase < 1 {
			t.Fatalf("row %+v", r)
		}
		weighted = weighted || r.Weight > 1
	}
	if !weighted {
		t.Error("no event weighs more than 1: the rows test no weights")
	}
	var shards []string
	for i := range 2 {
		d := at(fmt.Sprintf("shard%d", i))
		if code, _, stderr := runCmd(t, append(args, "-shard", fmt.Sprintf("%d/2", i), "-out", d)...); code != 0 {
			t.Fatal(stderr)
		}
		shards = append(shards, d)
	}
	if code, _, stderr := runCmd(t, append([]string{"merge", "-game", "dice", "-out", at("bad")}, shards...)...); code != 2 || !strings.Contains(stderr, "the runs are of breakthrough") {
		t.Errorf("merge -game dice of breakthrough runs: exit %d, %s", code, stderr)
	}
	if code, stdout, stderr := runCmd(t, append([]string{"merge", "-out", at("merged")}, shards...)...); code != 0 || !strings.Contains(stdout, "2 shards of a collect") {
		t.Fatalf("merge: exit %d %s %s", code, stdout, stderr)
	}
	sameCollect(t, at("merged"), at("whole"))

	if code, _, stderr := runCmd(t, "fit", "-game", "dice", at("whole"), "-folds", "2", "-out", at("fitdice")); code != 2 || !strings.Contains(stderr, "the rows are of breakthrough, not dice: give -game breakthrough") {
		t.Errorf("fit -game dice of breakthrough rows: exit %d, %s", code, stderr)
	}
	// Without -game, fit takes the game the rows name, as collect's
	// closing line suggests.
	if code, stdout, stderr := runCmd(t, "fit", "-folds", "2", at("whole"), "-out", at("fitrows")); code != 0 || !strings.Contains(stdout, "fit: breakthrough 4x5, eval=material") {
		t.Fatalf("fit without -game: exit %d %s %s", code, stdout, stderr)
	}
	if code, stdout, stderr := runCmd(t, "fit", "-game", "breakthrough", "-folds", "2", at("whole"), "-out", at("fit")); code != 0 || !strings.Contains(stdout, "fit: breakthrough 4x5, eval=material") {
		t.Fatalf("fit: exit %d %s %s", code, stdout, stderr)
	}
	probcut := filepath.Join(at("fit"), regression.ProbCutFile)
	var p struct {
		Version       int
		Game, Variant string
	}
	readJSONFile(t, probcut, &p)
	if p.Version != 2 || p.Game != "breakthrough" || p.Variant != "4x5" {
		t.Errorf("probcut.json of version %d, game %q, variant %q", p.Version, p.Game, p.Variant)
	}
	code, stdout, stderr := runCmd(t, "tune", "-game", "breakthrough", "-suite", filepath.Join(at("whole"), regression.SuiteFile), "-depths", "2,3", "-t", "1.6",
		"-cpc", "cpc:eval=material,tt=1", "-probcut", probcut, "-out", at("tune"))
	if code != 0 || !strings.Contains(stdout, "tune over 8 positions of breakthrough 4x5") || !strings.Contains(stdout, probcut+": starlab fit of") {
		t.Errorf("tune with the fit: exit %d %s %s", code, stdout, stderr)
	}
}

// diceChapter is the chapter's tuning tables of Dice 5x5-4.
func diceChapter() *search.Chapter {
	g, err := games.Lookup("dice")
	if err != nil {
		panic(err)
	}
	return g.ChapterOf("5x5-4")
}
