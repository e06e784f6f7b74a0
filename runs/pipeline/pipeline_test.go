package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"starlab/runs"
	"starlab/runs/report"
	"starlab/search"
	"starlab/search/dice"
	"starlab/search/games"
	"starlab/selfplay"
)

// diceGame is the game the recipes' matches play, as the command hands it
// to the pipeline.
var diceGame = func() search.Kit {
	g, err := games.Lookup("dice")
	if err != nil {
		panic(err)
	}
	return g
}()

func runRecipe(t *testing.T, dir string, r *Recipe, progress runs.Progress) (*Result, error) {
	t.Helper()
	var run *runs.Run
	var err error
	if _, serr := os.Stat(filepath.Join(dir, "manifest.json")); serr == nil {
		if run, err = runs.Open(dir); err == nil {
			err = run.Resume()
		}
	} else {
		run, err = runs.CreateAt(dir, "run", []string{"starlab", "run"}, r, r.Seed)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	res, err := Run(context.Background(), r, run, progress)
	if ctxErr := run.Finish(err); ctxErr != nil && err == nil {
		t.Fatal(ctxErr)
	}
	return res, err
}

// TestPipelineInterruptedResumes runs a small recipe end to end, then
// again in another directory, interrupted during the collect stage and
// resumed: the resumed run skips the stages done, and its matches end
// with the statistics of the uninterrupted run.
func TestPipelineInterruptedResumes(t *testing.T) {
	r, err := LoadRecipe("testdata/tiny.json", games.Lookup)
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	want, err := runRecipe(t, filepath.Join(root, "whole"), r, runs.NoProgress)
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Matches) != 2 || want.Train == nil || len(want.Fit.Lines) != 2 || want.Fit.Eval != "mlp" {
		t.Fatalf("result %+v", want)
	}
	if _, err := os.Stat(want.Report); err != nil {
		t.Fatal(err)
	}
	page, _ := os.ReadFile(want.Report)
	if top := regexp.MustCompile(`(?s)<h2>run tiny.*?status (\w+);`).FindSubmatch(page); strings.Contains(string(page), "of its 5 stages") || top == nil || string(top[1]) != "done" {
		t.Errorf("the report of a finished pipeline does not say it is done")
	}
	// The page shows the summary the run prints, and why each match is
	// played.
	var text strings.Builder
	want.WriteSummary(&text)
	if kept, err := os.ReadFile(filepath.Join(want.Dir, report.PipelineSummary)); err != nil || string(kept) != text.String() {
		t.Errorf("kept summary %q (%v), printed %q", kept, err, text.String())
	}
	for _, s := range []string{"paper: a stand-in for a paper&#39;s figure", "<h2>match cpc</h2>", "<h2>match net</h2>", "the fitted cpc"} {
		if !strings.Contains(string(page), s) {
			t.Errorf("the page lacks %q", s)
		}
	}
	if !strings.Contains(text.String(), "paper: a stand-in") || !strings.Contains(text.String(), "± ") {
		t.Errorf("text:\n%s", text.String())
	}

	cut := filepath.Join(root, "cut")
	ctx, cancel := context.WithCancel(context.Background())
	run, err := runs.CreateAt(cut, "run", []string{"starlab", "run"}, r, r.Seed)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Run(ctx, r, run, func(done, _ int64, status string) {
		if strings.HasPrefix(status, "2-collect") && done >= 4 {
			cancel()
		}
	})
	if err == nil || !strings.Contains(err.Error(), "canceled") {
		t.Fatalf("interrupted pipeline: %v", err)
	}
	run.Finish(err)
	run.Close()
	// The report of the cut run says it is not done, and how far it got.
	rp, err := report.Run(context.Background(), cut, nil, runs.NoProgress)
	if err != nil {
		t.Fatal(err)
	}
	if page, _ := os.ReadFile(rp.Path); !strings.Contains(string(page), "1 of its 5 stages are done") {
		t.Errorf("the report of the cut run does not say how far it got")
	}
	got, err := runRecipe(t, cut, r, runs.NoProgress)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Stages[0].Skipped || got.Stages[1].Skipped {
		t.Errorf("stages after resume: %+v; want train skipped and collect finished", got.Stages)
	}
	if got.Fit.Lines[1].A != want.Fit.Lines[1].A {
		t.Errorf("fit after resume %+v, uninterrupted %+v", got.Fit.Lines[1], want.Fit.Lines[1])
	}
	for i := range want.Matches {
		w, g := want.Matches[i].Pairings, got.Matches[i].Pairings
		for k := range w {
			if w[k].Score != g[k].Score || w[k].Pentanomial != g[k].Pentanomial || w[k].LuckScore != g[k].LuckScore {
				t.Errorf("match %d pairing %d: resumed %+v, uninterrupted %+v", i, k, g[k], w[k])
			}
		}
	}
	var summary strings.Builder
	got.WriteSummary(&summary)
	for _, s := range []string{"{net}", "{probcut}", "ChanceProbCut fit", "report:", "done before"} {
		if !strings.Contains(summary.String(), s) {
			t.Errorf("summary lacks %q:\n%s", s, summary.String())
		}
	}
	var rep selfplay.MatchReport
	data, _ := os.ReadFile(filepath.Join(cut, "5-net", selfplay.SummaryFile))
	if err := json.Unmarshal(data, &rep); err != nil || len(rep.Ranking) != 3 {
		t.Errorf("net match report: %v, %+v", err, rep.Ranking)
	}
}

func TestLoadRecipe(t *testing.T) {
	for _, name := range Names() {
		if _, err := LoadRecipe(name, games.Lookup); err != nil {
			t.Errorf("built-in recipe %s: %v", name, err)
		}
	}
	// paper-5x5 tunes the chapter's configuration and the default side by
	// side, the chapter's first (the paired differences are against it).
	if r, err := LoadRecipe("paper-5x5", games.Lookup); err != nil || r.Tune == nil || !slices.Equal(r.Tune.CPC, []string{dice.ChapterCPC + ",probcut={probcut}", "cpc:probcut={probcut}"}) {
		t.Errorf("paper-5x5's tune engines: %v %v", err, r.Tune)
	}
	dir := t.TempDir()
	// A tune's engine given as one string, as recipes gave it before tune
	// took a list, is a list of one.
	one := filepath.Join(dir, "one.json")
	if err := os.WriteFile(one, []byte(`{"format": "starlab-recipe/1", "name": "one", "n": 5, "m": 4, "tune": {"cpc": "cpc:k=2"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if r, err := LoadRecipe(one, games.Lookup); err != nil || r.Tune == nil || !slices.Equal(r.Tune.CPC, []string{"cpc:k=2"}) {
		t.Errorf("a tune engine as one string: %v %v", err, r)
	}
	for name, text := range map[string]string{
		"unknown":  `{"format": "starlab-recipe/1", "name": "x", "n": 5, "m": 4, "trian": {}}`,
		"format":   `{"format": "x", "name": "x", "n": 5, "m": 4}`,
		"json":     `{`,
		"board":    `{"format": "starlab-recipe/1", "name": "x", "n": 2, "m": 4}`,
		"match":    `{"format": "starlab-recipe/1", "name": "x", "n": 5, "m": 4, "matches": [{"name": "a", "games": 10, "variants": ["staretc:depth=1"]}]}`,
		"net":      `{"format": "starlab-recipe/1", "name": "x", "n": 5, "m": 4, "matches": [{"name": "a", "games": 10, "variants": ["staretc:depth=1,net={net}", "star1:depth=1"]}]}`,
		"probcut":  `{"format": "starlab-recipe/1", "name": "x", "n": 5, "m": 4, "tune": {"cpc": "cpc:probcut={probcut}"}}`,
		"bench":    `{"format": "starlab-recipe/1", "name": "x", "n": 5, "m": 4, "bench": {"algos": ["staretcc"]}}`,
		"fit":      `{"format": "starlab-recipe/1", "name": "x", "n": 5, "m": 4, "fit": {}}`,
		"escape":   `{"format": "starlab-recipe/1", "name": "x", "n": 5, "m": 4, "matches": [{"name": "../../../escaped", "games": 2, "variants": ["staretc:depth=1", "star1:depth=1"]}]}`,
		"slash":    `{"format": "starlab-recipe/1", "name": "x", "n": 5, "m": 4, "matches": [{"name": "a/b", "games": 2, "variants": ["staretc:depth=1", "star1:depth=1"]}]}`,
		"dotdot":   `{"format": "starlab-recipe/1", "name": "x", "n": 5, "m": 4, "matches": [{"name": "a..b", "games": 2, "variants": ["staretc:depth=1", "star1:depth=1"]}]}`,
		"hidden":   `{"format": "starlab-recipe/1", "name": "x", "n": 5, "m": 4, "matches": [{"name": ".a", "games": 2, "variants": ["staretc:depth=1", "star1:depth=1"]}]}`,
		"twice":    `{"format": "starlab-recipe/1", "name": "x", "n": 5, "m": 4, "matches": [{"name": "a", "games": 2, "variants": ["staretc:depth=1", "star1:depth=1"]}, {"name": "a", "games": 2, "variants": ["staretc:depth=3", "star1:depth=1"]}]}`,
		"luck":     `{"format": "starlab-recipe/1", "name": "x", "n": 5, "m": 4, "matches": [{"name": "a", "games": 2, "luck": "staretc:eval=pairs,depth=1", "variants": ["staretc:depth=1,eval=pairs", "star1:depth=1"]}]}`,
		"luckdef":  `{"format": "starlab-recipe/1", "name": "x", "n": 5, "m": 4, "matches": [{"name": "a", "games": 2, "variants": ["staretc:depth=3,eval=pairs,tt=1", "star1:depth=1"]}]}`,
		"lucknet":  `{"format": "starlab-recipe/1", "name": "x", "n": 5, "m": 4, "train": {"games": 10}, "matches": [{"name": "a", "games": 2, "luck": "staretc:depth=3,net={net}", "variants": ["staretc:net={net},depth=3", "star1:depth=1"]}]}`,
		"lucktime": `{"format": "starlab-recipe/1", "name": "x", "n": 5, "m": 4, "matches": [{"name": "a", "games": 2, "luck": "staretc:movetime=10ms", "variants": ["staretc:depth=1", "star1:depth=1"]}]}`,
		"trainn":   `{"format": "starlab-recipe/1", "name": "x", "n": 5, "m": 4, "train": {"n": 7, "games": 10}}`,
		"seed":     `{"format": "starlab-recipe/1", "name": "x", "n": 5, "m": 4, "seed": 3, "collect": {"seed": 4}}`,
		"tunelist": `{"format": "starlab-recipe/1", "name": "x", "n": 5, "m": 4, "tune": {"cpc": ["cpc:eval=pairs", "cpc:eval=pairs,tt=16"]}}`,
		"tunebase": `{"format": "starlab-recipe/1", "name": "x", "n": 5, "m": 4, "tune": {"cpc": ["cpc:eval=pairs", "cpc"]}}`,
		"tunecpc":  `{"format": "starlab-recipe/1", "name": "x", "n": 5, "m": 4, "tune": {"cpc": 3}}`,
		"tuneprod": `{"format": "starlab-recipe/1", "name": "x", "n": 5, "m": 4, "tune": {"cpc": ["cpc", "cpc:multi=0,probcut={probcut}"]}}`,
		"tunet":    `{"format": "starlab-recipe/1", "name": "x", "n": 5, "m": 4, "tune": {"ts": [1.6, 1.6]}}`,
		"noise":    `{"format": "starlab-recipe/2", "name": "x", "game": "breakthrough", "variant": "8x8", "tune": {"cpc": "cpc:noise=0.01"}}`,
		"tourney":  `{"format": "starlab-recipe/1", "name": "x", "n": 5, "m": 4, "matches": [{"name": "a", "games": 2, "variants": ["staretc:depth=1", "star1:depth=1", "staretc:depth=1"]}]}`,
		"v1 game":  `{"format": "starlab-recipe/1", "name": "x", "game": "backgammon", "matches": [{"name": "a", "games": 2, "variants": ["staretc:depth=1", "star1:depth=1"]}]}`,
		"v1 board": `{"format": "starlab-recipe/1", "name": "x", "matches": [{"name": "a", "games": 2, "variants": ["staretc:depth=1", "star1:depth=1"]}]}`,
		"nostage":  `{"format": "starlab-recipe/2", "name": "x", "game": "dice", "matches": []}`,
		"points":   `{"format": "starlab-recipe/2", "name": "x", "game": "backgammon", "variant": "money", "matches": [{"name": "a", "games": 2, "luck": "staretc:depth=1,eval=race", "variants": ["staretc:depth=1", "star1:depth=1"]}]}`,
		"ext luck": `{"format": "starlab-recipe/1", "name": "x", "n": 5, "m": 4, "matches": [{"name": "a", "games": 2, "luck": "ext:cmd=/bin/true", "variants": ["staretc:depth=1", "star1:depth=1"]}]}`,
	} {
		path := filepath.Join(dir, name+".json")
		os.WriteFile(path, []byte(text), 0o644)
		_, err := LoadRecipe(path, games.Lookup)
		if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := LoadRecipe(filepath.Join(dir, "none.json"), games.Lookup); err == nil || !strings.Contains(err.Error(), "default") {
		t.Errorf("missing recipe: %v", err)
	}
}

// TestPipelineBenchTune runs the stages of the paper recipes: collect, fit,
// bench, and tune on the collect's positions with the fitted parameters.
func TestPipelineBenchTune(t *testing.T) {
	r, err := LoadRecipe("testdata/papers.json", games.Lookup)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "run")
	res, err := runRecipe(t, dir, r, runs.NoProgress)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range res.Stages {
		names = append(names, s.Name)
	}
	if got := strings.Join(names, " "); got != "1-collect 2-fit 3-bench 4-tune" {
		t.Errorf("stages %q", got)
	}
	if res.Bench == nil || len(res.Bench.Results) != 5 || !res.Bench.SoundAgree {
		t.Errorf("bench %+v", res.Bench)
	}
	// The tune's engines, given as a list, each with the fitted parameters.
	if res.Tune == nil || res.Tune.Positions != 6 || len(res.Tune.Rows) != 4 || len(res.Tune.ProbCut) != 2 ||
		!strings.Contains(res.Tune.ProbCut[0], "2-fit") || !strings.Contains(res.Tune.ProbCut[1], "2-fit") ||
		!strings.Contains(res.Tune.CPC[1], "multi=0") || !strings.Contains(res.Tune.Rows[1].Engine, "multi=0") {
		t.Errorf("tune %+v", res.Tune)
	}
	var out strings.Builder
	res.WriteSummary(&out)
	for _, want := range []string{"bench, mean nodes at depth 5", "depth 5 t=1.6: [1] ", "; [2] ", "engine 2: cpc:", "report: "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, out.String())
		}
	}
}

// TestRecipeCheck: what the stages would find wrong in the files a recipe
// names is reported by Check, and by Run before its first stage.
func TestRecipeCheck(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	suite := filepath.Join(root, "search", "dice", "suites", "dice5x5-4.suite")
	dir := t.TempDir()
	small := filepath.Join(dir, "4x4.suite")
	os.WriteFile(small, []byte("4 3 b -1 - - - - - - - - - - - - - - - -\n"), 0o644)
	const head = `{"format": "starlab-recipe/1", "name": "x", "n": 5, "m": 4, "seed": 1, `
	train := `"train": {"games": 2000, "workers": 1}, `
	for name, c := range map[string]struct{ text, want string }{
		"bench engine":                       {head + train + `"bench": {"suite": "` + suite + `", "depths": [1], "engine": {"net": "missing.json"}}, "matches": []}`, "missing.json"},
		"tune suite":                         {head + train + `"tune": {"suite": "` + filepath.Join(dir, "none") + `", "depths": [3], "ts": [1], "cpc": "cpc:eval=pairs"}, "matches": []}`, "none"},
		"tune suite board":                   {head + train + `"tune": {"suite": "` + small + `", "depths": [3], "ts": [1], "cpc": "cpc:net={net}"}, "matches": []}`, "variant 4x4-3"},
		"collect suite board":                {head + train + `"collect": {"suite": "` + small + `", "pairs": [{"shallow": 1, "deep": 3}], "engine": "staretc:net={net}"}, "matches": []}`, "variant 4x4-3"},
		"collect engine":                     {head + train + `"collect": {"count": 4, "pairs": [{"shallow": 1, "deep": 3}], "engine": "staretc:net=missing.json"}, "matches": []}`, "missing.json"},
		"match net beside a product":         {head + train + `"matches": [{"name": "a", "games": 2, "variants": ["staretc:depth=1,net={net}", "staretc:depth=1,net=missing.json"]}]}`, "missing.json"},
		"luck beside a product":              {head + train + `"matches": [{"name": "a", "games": 2, "variants": ["staretc:depth=1,net={net}", "star1:depth=1"], "luck": "staretc:depth=3,net=missing.json"}]}`, "missing.json"},
		"tune engine on the collect's suite": {head + train + `"collect": {"count": 4, "pairs": [{"shallow": 1, "deep": 3}], "engine": "staretc:net={net}"}, "tune": {"suite": "{suite}", "depths": [3], "ts": [1], "cpc": "cpc:net=missing.json"}, "matches": []}`, "missing.json"},
		"tune engine beside a product":       {head + `"collect": {"count": 4, "pairs": [{"shallow": 1, "deep": 3}], "engine": "staretc:tt=1"}, "fit": {}, "tune": {"suite": "` + suite + `", "depths": [3], "ts": [1], "cpc": ["cpc:probcut={probcut}", "cpc:multi=0,probcut=missing.json"]}, "matches": []}`, "missing.json"},
		"match net":                          {head + train + `"matches": [{"name": "a", "games": 2, "variants": ["staretc:depth=1,net=missing.json", "staretc:depth=1,net={net}"]}, {"name": "b", "games": 2, "variants": ["staretc:depth=1,net=missing.json", "star1:depth=1"]}]}`, "missing.json"},
	} {
		path := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".json")
		os.WriteFile(path, []byte(c.text), 0o644)
		r, err := LoadRecipe(path, games.Lookup)
		if err != nil {
			t.Errorf("%s: LoadRecipe: %v", name, err)
			continue
		}
		if err := r.Check(); err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: Check: %v; want one line naming %s", name, err, c.want)
		}
		// Run refuses it before the first stage (train) starts.
		out := filepath.Join(dir, strings.ReplaceAll(name, " ", "-"))
		if _, err := runRecipe(t, out, r, runs.NoProgress); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Run: %v", name, err)
		}
		if _, err := os.Stat(filepath.Join(out, "1-train")); err == nil {
			t.Errorf("%s: Run trained before it refused the recipe", name)
		}
	}
	// The default suites are built into their games: a recipe naming
	// none checks here, in runs/pipeline, outside the module root.
	path := filepath.Join(dir, "default-suites.json")
	os.WriteFile(path, []byte(head+train+`"bench": {"depths": [1]}, "tune": {"depths": [3], "ts": [1], "cpc": "cpc:net={net}"}, "matches": []}`), 0o644)
	r, err := LoadRecipe(path, games.Lookup)
	if err == nil {
		err = r.Check()
	}
	if err != nil {
		t.Errorf("a recipe on the default suites, outside the module root: %v", err)
	}
	// The built-in recipes pass from the module root.
	t.Chdir(root)
	for _, name := range Names() {
		r, err := LoadRecipe(name, games.Lookup)
		if err == nil {
			err = r.Check()
		}
		if err != nil {
			t.Errorf("built-in recipe %s: %v", name, err)
		}
	}
}

// TestPaper11x11SlurmScript: deploy/slurm/paper-11x11.sh submits the
// matches of the paper-11x11 recipe, each with the recipe's variants (the
// built-in fit in place of {probcut}, which is the fit the recipe makes),
// games, board and seed.
func TestPaper11x11SlurmScript(t *testing.T) {
	r, err := LoadRecipe("paper-11x11", games.Lookup)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("../../deploy/slurm/paper-11x11.sh")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	line := regexp.MustCompile(`"\$here/submit.sh" "\$n" "\$dir/cpc-t\$1" match "(.*?)" (\S+) -n (\d+) -m (\d+) -games "\$2" -seed (\d+) -concurrency 1`).FindStringSubmatch(text)
	if line == nil {
		t.Fatal("paper-11x11.sh: no submit line")
	}
	if v := line[3] + "x" + line[3] + "-" + line[4]; r.GameName != "dice" || v != r.Variant || line[5] != fmt.Sprint(r.Seed) {
		t.Errorf("paper-11x11.sh plays dice %s with seed %s, the recipe %s %s with seed %d", v, line[5], r.GameName, r.Variant, r.Seed)
	}
	calls := regexp.MustCompile(`(?m)^submit (\S+) (\d+)$`).FindAllStringSubmatch(text, -1)
	if len(calls) != len(r.Matches) {
		t.Fatalf("paper-11x11.sh submits %d matches, the recipe has %d", len(calls), len(r.Matches))
	}
	for i, m := range r.Matches {
		tv, games := calls[i][1], calls[i][2]
		want := []string{strings.ReplaceAll(line[1], "$1", tv), line[2]}
		got := []string{strings.ReplaceAll(m.Variants[0], ",probcut={probcut}", ""), m.Variants[1]}
		if m.Name != "cpc-t"+tv || games != fmt.Sprint(m.Games) || !slices.Equal(got, want) {
			t.Errorf("paper-11x11.sh's match %d is %s %s games %v, the recipe's %s %s games %v", i, "cpc-t"+tv, games, want, m.Name, fmt.Sprint(m.Games), got)
		}
	}
}

// TestTuneDepthsAreTheGames: a recipe's tune that gives no depths tunes
// at the depths of the chapter's tables for the recipe's game, 5 in
// ChanceBreakthrough (table 5.10) and 9, 11 and 13 in Dice (tables 5.6 to
// 5.8), as the tune command does.
func TestTuneDepthsAreTheGames(t *testing.T) {
	for game, want := range map[string][]int{"breakthrough": {5}, "dice": {9, 11, 13}} {
		variant := map[string]string{"breakthrough": "8x8", "dice": "5x5-4"}[game]
		path := filepath.Join(t.TempDir(), "r.json")
		recipe := fmt.Sprintf(`{"format": "starlab-recipe/2", "name": "r", "game": %q, "variant": %q, "seed": 1, "tune": {"ts": [1.6]}}`, game, variant)
		if err := os.WriteFile(path, []byte(recipe), 0o644); err != nil {
			t.Fatal(err)
		}
		r, err := LoadRecipe(path, games.Lookup)
		if err != nil {
			t.Fatalf("%s: %v", game, err)
		}
		if !slices.Equal(r.Tune.Depths, want) {
			t.Errorf("%s: tune depths %v, want %v", game, r.Tune.Depths, want)
		}
	}
}
