// Package pipeline is the run stage: a recipe's stages (train, collect,
// fit, bench, tune, matches, report) called in process, one after the
// other, each in a numbered sub-directory of one run directory; a recipe
// leaves out the stages it does not need. A stage whose run is done is not
// redone; an unfinished one is resumed, so a pipeline killed at any point
// and run again finishes the same run.
//
// Check reports every problem of a recipe a check can see before the
// first stage runs (Run calls it first): a recipe without a stage, match
// names, which name directories and so must be plain file names, every
// match's engines and luck reference by the rules and the parser of
// starlab match and its -luck (selfplay.MatchSettings.CheckPending), and
// the suites, nets and parameter files the stages will read that the
// recipe does not make. A pipeline run's manifest records its
// recipe as resolved; FindRun finishes an unfinished run only with the
// recipe it started with (Changes compares them), so a changed recipe
// starts a new run, or is refused in the old run's directory.
//
// Recipes are JSON (schema: Recipe; unknown fields are refused), embedded
// under recipes/ and overridable by a path. A spec keeps a product's name
// ({net}); the stage gets the file as a value of its settings
// (search.Products), not spliced into the spec's text. A recipe names its game and
// variant, which every stage plays; the command passes the registry's
// lookup, so that the pipeline imports no game. A match variant may name the
// pipeline's own products: {net} is the trained net (best.json), {probcut}
// the fitted parameters (probcut.json), and a tune stage's suite {suite}
// is the collect stage's positions (suite.txt); a recipe without a train stage (fit
// stage) cannot name them, and its engines use the built-in net (fit).
package pipeline

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
	"starlab/runs/report"
	"starlab/search"
	"starlab/search/bench"
	"starlab/search/game"
	"starlab/selfplay"
	"starlab/td"
)

// RecipeFormat names the recipe schema. Version 2 names the game and its
// variant; a version-1 recipe, read as well, was Dice's and gave the board
// as n and m.
const (
	RecipeFormat   = "starlab-recipe/2"
	recipeFormatV1 = "starlab-recipe/1"
)

//go:embed recipes/*.json
var recipes embed.FS

// SuiteProduct, as a tune stage's suite, names the positions of the
// recipe's collect stage.
const SuiteProduct = "{suite}"

// DefaultRecipe is the recipe of starlab run without an argument.
const DefaultRecipe = "default"

// MatchStage is one match of a recipe.
type MatchStage struct {
	Name     string   `json:"name"`
	Variants []string `json:"variants"`
	Games    int      `json:"games"`
	Gauntlet bool     `json:"gauntlet,omitempty"`
	Luck     string   `json:"luck,omitempty"` // default: the match stage's
	// Suite is a file of start positions, each the start of a pair of
	// games in turn (default: the variant's start). A game whose players
	// seldom meet chance from the start (ChanceBreakthrough) needs one.
	Suite string `json:"suite,omitempty"`
	Why   string `json:"why"`             // what the match shows, for the summary
	Paper string `json:"paper,omitempty"` // the paper's result, printed beside ours
}

// Recipe is a pipeline: a net trained by self-play, ChanceProbCut fitted
// for it, and matches.
type Recipe struct {
	// Game is the game the recipe's stages play, the one GameName names,
	// looked up by LoadRecipe; it is not part of the recipe's JSON.
	Game        search.Kit `json:"-"`
	Format      string     `json:"format"`
	Name        string     `json:"name"`
	Description string     `json:"description"`
	GameName    string     `json:"game"`
	Variant     string     `json:"variant"` // "" is the game's default
	// N and M are a version-1 recipe's Dice board; LoadRecipe turns them
	// into GameName and Variant.
	N       int                         `json:"n,omitempty"`
	M       int                         `json:"m,omitempty"`
	Seed    uint64                      `json:"seed"`
	Train   *td.Settings                `json:"train,omitempty"`
	Collect *regression.CollectSettings `json:"collect,omitempty"`
	Fit     *regression.FitSettings     `json:"fit,omitempty"`
	Bench   *bench.Settings             `json:"bench,omitempty"`
	Tune    *regression.TuneSettings    `json:"tune,omitempty"`
	Matches []MatchStage                `json:"matches"`
}

// LoadRecipe reads a recipe: the name of an embedded one, or a path to a
// JSON file. lookup gives the game the recipe names (the command passes
// the registry's, so that this package imports no game). Settings a
// recipe leaves out are the stages' defaults.
func LoadRecipe(nameOrPath string, lookup func(name string) (search.Kit, error)) (*Recipe, error) {
	data, err := recipes.ReadFile("recipes/" + nameOrPath + ".json")
	src := "built-in recipe " + nameOrPath
	if err != nil {
		if data, err = os.ReadFile(nameOrPath); err != nil {
			return nil, fmt.Errorf("recipe %s: no built-in recipe of that name (%s) and no such file", nameOrPath, strings.Join(Names(), ", "))
		}
		src = "recipe " + nameOrPath
	}
	// A stage the recipe names starts from the stage's defaults; one it
	// leaves out stays nil.
	var present map[string]json.RawMessage
	if err := json.Unmarshal(data, &present); err != nil {
		return nil, runs.Usagef("%s: %v", src, err)
	}
	// The game comes first: the stages' defaults are the game's.
	var head struct {
		Format   string `json:"format"`
		GameName string `json:"game"`
	}
	_ = json.Unmarshal(data, &head)
	if head.GameName == "" {
		head.GameName = "dice" // a version-1 recipe is Dice's; version 2 must name its game (check)
	}
	g, err := lookup(head.GameName)
	if err != nil {
		return nil, runs.Usagef("%s: %v", src, err)
	}
	r := &Recipe{
		Game:    g,
		Train:   preset(present, "train", func() td.Settings { return td.DefaultSettings(g) }),
		Collect: preset(present, "collect", func() regression.CollectSettings { return regression.DefaultCollectSettings(g) }),
		Fit:     preset(present, "fit", regression.DefaultFitSettings),
		Bench:   preset(present, "bench", func() bench.Settings { return bench.DefaultSettings(g) }),
		Tune:    preset(present, "tune", func() regression.TuneSettings { return regression.DefaultTuneSettings(g, "") }),
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(r); err != nil {
		return nil, runs.Usagef("%s: %v", src, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, runs.Usagef("%s: data after the recipe", src)
	}
	if err := r.check(); err != nil {
		return nil, runs.Usagef("%s: %v", src, err)
	}
	// The game, the variant and the seed of train and collect are the
	// recipe's: a stage that gives others would be overruled without a
	// word.
	for _, stage := range []string{"train", "collect"} {
		var fields map[string]json.RawMessage
		if json.Unmarshal(present[stage], &fields) != nil {
			continue
		}
		for key, want := range map[string]string{"game": strconv.Quote(r.GameName), "variant": strconv.Quote(r.Variant), "seed": fmt.Sprint(r.Seed)} {
			if v, ok := fields[key]; ok && string(bytes.TrimSpace(v)) != want {
				return nil, fmt.Errorf("%s: %s.%s is %s, but the recipe's %s is %s: give it once, at the top", src, stage, key, bytes.TrimSpace(v), key, want)
			}
		}
	}
	return r, nil
}

// preset is a stage's defaults when the recipe names the stage, else nil.
func preset[T any](present map[string]json.RawMessage, key string, defaults func() T) *T {
	if _, ok := present[key]; !ok {
		return nil
	}
	v := defaults()
	return &v
}

// Names lists the built-in recipes.
func Names() []string {
	entries, _ := recipes.ReadDir("recipes")
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".json"))
	}
	return names
}

// bindGame gives the stages that take a game the recipe's.
func (r *Recipe) bindGame() {
	if r.Bench != nil && r.Game.Game != nil {
		r.Bench.Game, r.Bench.GameName = r.Game, r.Game.Name()
	}
	if r.Collect != nil && r.Game.Game != nil {
		r.Collect.Game, r.Collect.GameName = r.Game, r.Game.Name()
	}
	if r.Tune != nil && r.Game.Game != nil {
		r.Tune.Game, r.Tune.GameName = r.Game, r.Game.Name()
	}
}

func (r *Recipe) check() error {
	r.bindGame()
	switch r.Format {
	case RecipeFormat:
		if r.GameName == "" {
			return fmt.Errorf("no game: give \"game\", as \"dice\"")
		}
		if r.N != 0 || r.M != 0 {
			return fmt.Errorf("n and m are a %s recipe's; give the variant, as \"%dx%d-%d\"", recipeFormatV1, r.N, r.N, r.M)
		}
	case recipeFormatV1: // Dice's, its board given by n and m
		if r.GameName != "" && r.GameName != "dice" {
			return fmt.Errorf("format %q is Dice's, its board given by n and m; a recipe of %s is of format %q, with its \"game\" and \"variant\"", recipeFormatV1, r.GameName, RecipeFormat)
		}
		if r.N == 0 || r.M == 0 || r.Variant != "" {
			return fmt.Errorf("format %q gives the Dice board as n and m (5 and 4 for 5x5-4), and no variant", recipeFormatV1)
		}
		r.Format, r.GameName, r.Variant = RecipeFormat, "dice", fmt.Sprintf("%dx%d-%d", r.N, r.N, r.M)
		r.N, r.M = 0, 0
	default:
		return fmt.Errorf("format %q, want %q", r.Format, RecipeFormat)
	}
	if r.Name == "" {
		return fmt.Errorf("no name")
	}
	if r.Game.Game == nil || r.Game.Name() != r.GameName {
		return fmt.Errorf("no game")
	}
	if r.Variant == "" {
		r.Variant = r.Game.DefaultVariant()
	}
	if _, err := r.Game.New(r.Variant); err != nil {
		return fmt.Errorf("variant: %v", err)
	}
	if r.Train == nil && r.Collect == nil && r.Bench == nil && r.Tune == nil && len(r.Matches) == 0 {
		return fmt.Errorf("no stage: give train, collect (and fit), bench, tune or matches")
	}
	if r.Fit != nil && r.Collect == nil {
		return fmt.Errorf("fit: a fit needs a collect stage")
	}
	// The net and the parameters the specs may name ({net}, {probcut})
	// are made by the stages, so the specs are checked without opening
	// them; named refuses a product the recipe does not make.
	if r.Train != nil {
		r.Train.Game, r.Train.GameName, r.Train.Variant, r.Train.Seed = r.Game, r.GameName, r.Variant, r.Seed
		if err := r.Train.Check(); err != nil {
			return fmt.Errorf("train: %v", err)
		}
	}
	if r.Fit != nil {
		if err := r.Fit.CheckSyntax(); err != nil {
			return fmt.Errorf("fit: %v", err)
		}
	}
	named := func(stage, s string) error {
		products := search.SpecProducts(s)
		if slices.Contains(products, "net") && r.Train == nil {
			return fmt.Errorf("%s: %q names {net}, but the recipe trains no net", stage, s)
		}
		if slices.Contains(products, "probcut") && r.Fit == nil {
			return fmt.Errorf("%s: %q names {probcut}, but the recipe fits no parameters", stage, s)
		}
		return nil
	}
	if r.Collect != nil {
		r.Collect.Seed = r.Seed
		if r.Collect.Suite == "" { // a suite gives its own variant
			r.Collect.Variant = r.Variant
		}
		if err := named("collect", r.Collect.Engine); err != nil {
			return err
		}
		c := *r.Collect // CheckSyntax fills in what the recipe leaves out
		if err := c.CheckSyntax(); err != nil {
			return fmt.Errorf("collect: %v", err)
		}
	}
	if r.Bench != nil {
		if err := r.Bench.Check(); err != nil {
			return fmt.Errorf("bench: %v", err)
		}
	}
	if r.Tune != nil {
		if r.Tune.Suite == SuiteProduct && r.Collect == nil {
			return fmt.Errorf("tune: suite %s names the collect's positions, but the recipe collects none", SuiteProduct)
		}
		for _, c := range r.Tune.CPC {
			if err := named("tune", c); err != nil {
				return err
			}
		}
		t := *r.Tune // CheckSyntax fills in what the recipe leaves out
		if err := t.CheckSyntax(); err != nil {
			return fmt.Errorf("tune: %v", err)
		}
	}
	names := map[string]bool{}
	for i, m := range r.Matches {
		if m.Name == "" || len(m.Variants) < 2 || m.Games < 2 || m.Games%2 != 0 {
			return fmt.Errorf("match %d: want a name, two variants or more and an even number of games", i+1)
		}
		// The name is a directory of the run: a plain file name, never a
		// path that leads out of it.
		if !matchName.MatchString(m.Name) || strings.Contains(m.Name, "..") {
			return fmt.Errorf("match %d: name %q: want letters, digits, '.', '-' and '_', starting with a letter or digit, at most 64 (it names the match's directory)", i+1, m.Name)
		}
		if names[m.Name] {
			return fmt.Errorf("match %d: name %q is another match's", i+1, m.Name)
		}
		names[m.Name] = true
		for _, v := range append(slices.Clone(m.Variants), m.Luck) {
			if err := named("match "+m.Name, v); err != nil {
				return err
			}
		}
		// The rules and the parser of match and its -luck, without the
		// files (Check opens them).
		if err := r.matchSettings(m, "", "").CheckSpecs(); err != nil {
			return fmt.Errorf("match %s: %v", m.Name, err)
		}
	}
	return nil
}

// matchName is what a match's name may be: it names a directory.
var matchName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// Check reports every problem of the recipe that can be seen before its
// first stage runs. Besides what LoadRecipe checks, it reads the files the
// stages will read that the recipe does not make (suites, nets, parameter
// files, relative to the working directory) and checks them as the stage
// would: the bench's suite and engines, the collect's and the tune's
// suites and engines, every match whose variants name none of the
// pipeline's products. Run calls it before the first stage; starlab run
// calls it before it makes the run directory.
func (r *Recipe) Check() error {
	if err := r.check(); err != nil {
		return err
	}
	names := func(s string) bool { return len(search.SpecProducts(s)) > 0 }
	same := func(suite, v string) error {
		if v != r.Variant {
			return fmt.Errorf("suite %s is of %s variant %s, but the recipe's net and parameters are for %s", suite, r.GameName, v, r.Variant)
		}
		return nil
	}
	collectVariant := r.Variant
	if r.Collect != nil {
		c := *r.Collect // its checks fill in the suite's variant, which the recipe leaves out
		var err error
		if names(c.Engine) {
			if collectVariant, err = c.PositionsVariant(); err == nil {
				err = same(c.Suite, collectVariant)
			}
		} else if err = c.Check(); err == nil {
			collectVariant, err = c.PositionsVariant()
		}
		if err != nil {
			return fmt.Errorf("collect: %v", err)
		}
	}
	// The stages' default suite is relative to the module root.
	defaultSuite := func(stage, suite string) error {
		if _, err := os.Stat(suite); suite == r.Game.Defaults.Suite && err != nil {
			return fmt.Errorf("%s: default suite %s not found: run from the module root or give the %s a suite", stage, suite, stage)
		}
		return nil
	}
	if r.Bench != nil {
		if err := defaultSuite("bench", r.Bench.Suite); err != nil {
			return err
		}
		if _, err := r.Bench.Resolve(); err != nil {
			return fmt.Errorf("bench: %v", err)
		}
	}
	if t := r.Tune; t != nil {
		if err := defaultSuite("tune", t.Suite); err != nil {
			return err
		}
		var err error
		switch named := slices.ContainsFunc(t.CPC, names); {
		case t.Suite == SuiteProduct || named:
			suite, v := "{suite}", collectVariant
			if t.Suite != SuiteProduct {
				var ps []search.SuitePosition
				if ps, err = search.ReadSuite(r.Game, t.Suite); err == nil {
					suite, v = t.Suite, r.Game.Variant(ps[0].Pos)
				}
			}
			if err == nil && named {
				err = same(suite, v)
			}
			// The files of the engines that name no product, on the
			// suite's variant.
			for _, c := range t.CPC {
				if err == nil && !names(c) {
					err = r.resolveOn(c, v)
				}
			}
		default:
			err = t.Check()
		}
		if err != nil {
			return fmt.Errorf("tune: %v", err)
		}
	}
	// Every match as match resolves it, but for the products the
	// recipe's stages will make ({net}, {probcut}).
	for _, m := range r.Matches {
		if err := r.matchSettings(m, "", "").CheckPending(); err != nil {
			return fmt.Errorf("match %s: %v", m.Name, err)
		}
	}
	return nil
}

// StartOutsiders starts each outside engine of the recipe's matches once
// and stops it (selfplay.MatchSettings.StartPending): the command calls it
// after Check, before the run directory exists, so that a program that
// exists but cannot play refuses the recipe before its first stage.
func (r *Recipe) StartOutsiders(ctx context.Context) error {
	for _, m := range r.Matches {
		if err := r.matchSettings(m, "", "").StartPending(ctx); err != nil {
			return fmt.Errorf("match %s: %w", m.Name, err)
		}
	}
	return nil
}

// resolveOn reads the files an engine spec names and checks the engine
// can search positions of the recipe game's variant.
func (r *Recipe) resolveOn(spec, variant string) error {
	sp, err := r.Game.ParseSpec(spec)
	if err != nil {
		return runs.Usagef("%q: %v", spec, err)
	}
	res, err := sp.Config.Resolve()
	var start game.State
	if err == nil {
		start, err = r.Game.New(variant)
	}
	if err == nil {
		err = r.Game.Check(res, start)
	}
	if err != nil {
		return runs.Usagef("%q: %v", spec, err)
	}
	return nil
}

// products are the pipeline's products made so far, by the names specs
// give them: {net} the trained net, {probcut} the fitted parameters. A
// stage gets them as a value of its settings; the specs keep the names.
func products(net, probcut string) search.Products {
	p := search.Products{}
	if net != "" {
		p["net"] = net
	}
	if probcut != "" {
		p["probcut"] = probcut
	}
	if len(p) == 0 {
		return nil
	}
	return p
}

// matchSettings are the settings of match m, given the products.
func (r *Recipe) matchSettings(m MatchStage, net, probcut string) selfplay.MatchSettings {
	ms := selfplay.DefaultMatchSettings(r.Game, slices.Clone(m.Variants)...)
	ms.GameName, ms.Variant = r.GameName, r.Variant
	ms.Seed, ms.Games, ms.Gauntlet = r.Seed, m.Games, m.Gauntlet
	ms.Products = products(net, probcut)
	ms.Suite = m.Suite
	ms.Luck = m.Luck
	if ms.Luck == "" {
		ms.Luck = selfplay.DefaultLuck(r.Game, r.Variant)
	}
	return ms
}

// Changes lists the top-level fields (train, matches, ...) in which the
// recipe differs from recorded, the recipe a pipeline run's manifest
// holds (its settings, the recipe as LoadRecipe resolved it); none when it
// is the same recipe.
func (r *Recipe) Changes(recorded json.RawMessage) ([]string, error) {
	now, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	var a, b map[string]json.RawMessage
	if err := json.Unmarshal(now, &a); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(recorded, &b); err != nil {
		return nil, fmt.Errorf("recorded recipe: %v", err)
	}
	var changed []string
	for k, v := range a {
		if w, ok := b[k]; !ok || !jsonEqual(v, w) {
			changed = append(changed, k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			changed = append(changed, k)
		}
	}
	slices.Sort(changed)
	return changed, nil
}

// jsonEqual reports whether two JSON texts are the same but for spacing.
func jsonEqual(a, b json.RawMessage) bool {
	var x, y bytes.Buffer
	return json.Compact(&x, a) == nil && json.Compact(&y, b) == nil && bytes.Equal(x.Bytes(), y.Bytes())
}

// Found is the run FindRun found for a recipe.
type Found struct {
	// Dir is the unfinished run of the recipe to finish, "" for none.
	Dir string
	// Stale, when Dir is "", is the newest unfinished run of a recipe of
	// the same name that has changed since it started, and Changes the
	// recipe's fields that changed: a new run starts beside it.
	Stale   string
	Changes []string
}

// FindRun finds the run starlab run finishes for the recipe r: with out
// given, the unfinished run in out if it is of the same recipe (same name
// and the same content, as Changes compares them); without it, the newest
// unfinished run under root of the same recipe that no process holds. A
// run whose recipe has changed since it started is never finished with
// the new recipe: in out it is refused, under root a new run starts and
// Found names the old one. An unfinished run in out of another command or
// another recipe is refused.
func FindRun(root, out string, r *Recipe) (Found, error) {
	// changes reports whether run is an unfinished run of a recipe of r's
	// name (ours), and how r differs from its recipe.
	changes := func(run *runs.Run) (c []string, ours bool) {
		m := run.Manifest()
		var got struct {
			Name string `json:"name"`
		}
		if m.Command != "run" || m.Status == runs.StatusDone || json.Unmarshal(m.Settings, &got) != nil || got.Name != r.Name {
			return nil, false
		}
		c, err := r.Changes(m.Settings)
		return c, err == nil
	}
	if out != "" {
		run, err := runs.Open(out)
		if err != nil || run.Manifest().Status == runs.StatusDone {
			return Found{}, nil // a new run in out, or the error of making it
		}
		c, ours := changes(run)
		switch {
		case !ours:
			return Found{}, runs.Usagef("-out %s holds an unfinished starlab %s, not one of recipe %s; finish it with its own command, or give another -out", out, run.Manifest().Command, r.Name)
		case len(c) > 0:
			return Found{}, runs.Usagef("-out %s holds an unfinished run of recipe %s as it was before changes to %s; it is not finished with the changed recipe: give another -out to start afresh", out, r.Name, strings.Join(c, ", "))
		}
		return Found{Dir: out}, nil
	}
	dirs, err := runs.FindUnfinished(root, "run")
	if err != nil {
		return Found{}, err
	}
	var f Found
	for _, d := range dirs {
		run, err := runs.Open(d)
		if err != nil {
			continue
		}
		if c, ours := changes(run); ours && len(c) == 0 {
			return Found{Dir: d}, nil
		} else if ours && f.Stale == "" {
			f.Stale, f.Changes = d, c
		}
	}
	return f, nil
}

// StageResult is what one stage of a pipeline did.
type StageResult struct {
	Name    string  `json:"name"`
	Dir     string  `json:"dir"`
	Skipped bool    `json:"skipped"` // done before this process
	Seconds float64 `json:"seconds"`
}

// Result is what a pipeline run made.
type Result struct {
	Recipe  string                  `json:"recipe"`
	Dir     string                  `json:"dir"`
	Stages  []StageResult           `json:"stages"`
	Net     string                  `json:"net"`
	ProbCut string                  `json:"probcut"`
	Train   *td.Result              `json:"train,omitempty"`
	Fit     *regression.FitResult   `json:"fit,omitempty"`
	Bench   *bench.Summary          `json:"bench,omitempty"`
	Tune    *regression.TuneResult  `json:"tune,omitempty"`
	Matches []*selfplay.MatchReport `json:"matches"`
	Papers  []string                `json:"papers"` // the paper's result of each match, if the recipe gives it
	Report  string                  `json:"report"`
}

// Run runs the recipe in the run directory run, each stage in a
// sub-directory, skipping stages whose run is done and resuming the one
// that is not.
func Run(ctx context.Context, r *Recipe, run *runs.Run, progress runs.Progress) (*Result, error) {
	r.bindGame()
	res := &Result{Recipe: r.Name, Dir: run.Dir()}
	if err := r.Check(); err != nil {
		return res, fmt.Errorf("recipe %s: %w", r.Name, err)
	}
	// stage runs one stage in the sub-directory name, unless it is done,
	// and then reads its summary file into summary (when not nil): what
	// the pipeline reports comes from the stage's files, whichever process
	// ran it.
	stage := func(name, command string, settings any, summaryFile string, summary any, fn func(st *runs.Run, p runs.Progress) error) error {
		dir := run.Path(name)
		read := func() error {
			if summary == nil {
				return nil
			}
			return runs.ReadJSON(filepath.Join(dir, summaryFile), summary)
		}
		start := time.Now()
		sr := StageResult{Name: name, Dir: dir}
		st, err := runs.Open(dir)
		switch {
		case err == nil && st.Manifest().Status == runs.StatusDone:
			sr.Skipped = true
			res.Stages = append(res.Stages, sr)
			return read()
		case err == nil:
			if err := st.Resume(); err != nil {
				return err
			}
		case errors.Is(err, fs.ErrNotExist):
			if st, err = runs.CreateAt(dir, command, []string{"starlab", "run", r.Name}, settings, r.Seed); err != nil {
				return err
			}
		default:
			return err
		}
		err = fn(st, func(done, total int64, status string) {
			progress(done, total, strings.TrimSpace(name+" "+status))
		})
		if ferr := st.Finish(err); ferr != nil && err == nil {
			err = ferr
		}
		st.Close()
		if err != nil {
			return fmt.Errorf("stage %s: %w", name, err)
		}
		sr.Seconds = time.Since(start).Seconds()
		res.Stages = append(res.Stages, sr)
		return read()
	}

	k := 0 // stages are numbered in the order they run
	next := func(name string) string { k++; return fmt.Sprintf("%d-%s", k, name) }
	if r.Train != nil {
		name := next("train")
		if err := stage(name, "train", r.Train, "", nil, func(st *runs.Run, p runs.Progress) (err error) {
			res.Train, err = td.Run(ctx, *r.Train, st, p)
			return err
		}); err != nil {
			return res, err
		}
		res.Net = run.Path(filepath.Join(name, td.BestFile))
		if res.Train == nil { // trained before this process: the curve has the scores
			curve, err := td.ReadCurve(run.Path(name))
			if err != nil {
				return res, err
			}
			res.Train = &td.Result{}
			for _, p := range curve {
				if !math.IsNaN(float64(p.Score)) {
					res.Train.Games, res.Train.Score, res.Train.ScoreCI95, res.Train.Opponent = p.Games, p.Score, p.ScoreCI95, p.Opponent
					res.Train.MeasurePairs, res.Train.DistinctPairs = p.MeasurePairs, p.DistinctPairs
				}
			}
		}
	}
	suite := "" // the collect's positions
	if r.Collect != nil {
		name := next("collect")
		suite = run.Path(filepath.Join(name, regression.SuiteFile))
		collect := *r.Collect
		collect.Products = products(res.Net, "")
		if err := stage(name, "collect", collect, "", nil, func(st *runs.Run, p runs.Progress) error {
			_, err := regression.Collect(ctx, collect, st, p)
			return err
		}); err != nil {
			return res, err
		}
		if r.Fit != nil {
			fit := *r.Fit
			fit.Inputs = []string{run.Path(name)}
			name = next("fit")
			res.Fit = &regression.FitResult{}
			if err := stage(name, "fit", fit, regression.FitFile, res.Fit, func(st *runs.Run, p runs.Progress) error {
				_, err := regression.RunFit(ctx, fit, st, p)
				return err
			}); err != nil {
				return res, err
			}
			res.ProbCut = run.Path(filepath.Join(name, regression.ProbCutFile))
		}
	}
	if r.Bench != nil {
		name := next("bench")
		res.Bench = &bench.Summary{}
		if err := stage(name, "bench", r.Bench, bench.SummaryFile, res.Bench, func(st *runs.Run, p runs.Progress) error {
			_, err := bench.Run(ctx, *r.Bench, st, p)
			return err
		}); err != nil {
			return res, err
		}
	}
	if r.Tune != nil {
		name := next("tune")
		tune := *r.Tune
		tune.Products = products(res.Net, res.ProbCut)
		if tune.Suite == SuiteProduct {
			tune.Suite = suite
		}
		res.Tune = &regression.TuneResult{}
		if err := stage(name, "tune", tune, regression.TuneSummaryFile, res.Tune, func(st *runs.Run, p runs.Progress) error {
			_, err := regression.Tune(ctx, tune, st, p)
			return err
		}); err != nil {
			return res, err
		}
		res.Tune.Bind(r.Game) // read back from tune.json
	}
	for _, m := range r.Matches {
		ms := r.matchSettings(m, res.Net, res.ProbCut)
		name := next(m.Name)
		rep := &selfplay.MatchReport{}
		if err := stage(name, "match", ms, selfplay.SummaryFile, rep, func(st *runs.Run, p runs.Progress) error {
			_, err := selfplay.RunMatch(ctx, ms, st, p)
			return err
		}); err != nil {
			return res, err
		}
		res.Matches = append(res.Matches, rep)
		res.Papers = append(res.Papers, m.Paper)
	}
	// The summary this run prints, kept for the report to show on top.
	res.Report = run.Path(report.File)
	var sum bytes.Buffer
	res.WriteSummary(&sum)
	if err := runs.WriteBytesAtomic(run.Path(report.PipelineSummary), sum.Bytes()); err != nil {
		return res, err
	}
	progress(0, 1, "report")
	// The report's runs are all of the recipe's game.
	recipeGame := func(name string) (search.Kit, error) {
		if name != r.Game.Name() {
			return search.Kit{}, fmt.Errorf("game %q is not the recipe's, %s", name, r.Game.Name())
		}
		return r.Game, nil
	}
	rp, err := report.Run(ctx, run.Dir(), recipeGame, runs.NoProgress)
	if err != nil {
		return res, err
	}
	res.Report = rp.Path
	return res, nil
}

// WriteSummary writes the short summary starlab run ends with.
func (r *Result) WriteSummary(w io.Writer) {
	fmt.Fprintf(w, "run %s: %s\n", r.Recipe, r.Dir)
	for _, s := range r.Stages {
		if s.Skipped {
			fmt.Fprintf(w, "  %-18s done before\n", s.Name)
		} else {
			fmt.Fprintf(w, "  %-18s %.1f s\n", s.Name, s.Seconds)
		}
	}
	if r.Train != nil {
		opponent, repeated := r.Train.Opponent, ""
		if opponent == "" { // a curve of format 1 names none
			opponent = "the hand evaluator"
		}
		if note := r.Train.Repeated(); note != "" {
			repeated = " (" + note + ")"
		}
		fmt.Fprintf(w, "net %s: %d games, last measured %s ± %s against %s at depth 1%s\n",
			r.Net, r.Train.Games, pct(r.Train.Score), pct(r.Train.ScoreCI95), opponent, repeated)
	}
	if r.Fit != nil {
		fmt.Fprintf(w, "ChanceProbCut fit (net %s):", r.Fit.NetID)
		for _, l := range r.Fit.Lines {
			if l.Band == "all" {
				fmt.Fprintf(w, "  %d:%d a=%s b=%s σ=%.3f", l.Shallow, l.Deep, runs.Num(l.A).Format("%.3f"), runs.Num(l.B).Format("%+.3f"), l.Sigma)
			}
		}
		fmt.Fprintln(w)
	}
	if b := r.Bench; b != nil && len(b.Results) > 0 {
		last := b.Results[len(b.Results)-1]
		fmt.Fprintf(w, "bench, mean nodes at depth %d over %d positions:", last.Depth, b.Positions)
		for _, a := range last.Algos {
			fmt.Fprintf(w, "  %s %s", a.Algo, bench.FormatCount(a.Nodes.Mean))
			if t, ok := bench.Thesis[a.Algo]; ok && last.Depth == bench.ThesisDepth {
				fmt.Fprintf(w, " (thesis %s)", bench.FormatCount(t.Nodes.Mean))
			}
		}
		fmt.Fprintln(w)
	}
	if t := r.Tune; t != nil {
		ch := t.Chapter()
		if ch != nil {
			fmt.Fprintf(w, "tune, nodes saved and ACPCME ± SE against staretc (errors on [-1, 1]; the chapter's, for %s, in its points / %d):\n", ch.Engine, ch.Points)
		} else {
			fmt.Fprintln(w, "tune, nodes saved and ACPCME ± SE against staretc (errors on [-1, 1]):")
		}
		for i, c := range t.CPC {
			src := "-"
			if i < len(t.ProbCut) {
				src = t.ProbCut[i]
			}
			fmt.Fprintf(w, "  engine %d: %s (%s)\n", i+1, c, src)
		}
		for i, row := range t.Rows {
			if i == 0 || t.Rows[i-1].Depth != row.Depth || t.Rows[i-1].T != row.T {
				fmt.Fprintf(w, "  depth %d t=%g:", row.Depth, row.T)
			}
			fmt.Fprintf(w, " [%d] %s ± %s %s ± %s", slices.Index(t.CPC, row.Engine)+1, pct(row.Reduction), pct(row.ReductionSE), row.ACPCME.Format("%.4f"), row.ACPCMESE.Format("%.4f"))
			if !math.IsNaN(float64(row.ACPCMEMinusFirst)) {
				fmt.Fprintf(w, " (vs [1] %s ± %s)", row.ACPCMEMinusFirst.Format("%+.4f"), row.ACPCMEMinusFirstSE.Format("%.4f"))
			}
			if i < len(t.Rows)-1 && t.Rows[i+1].Depth == row.Depth && t.Rows[i+1].T == row.T {
				fmt.Fprint(w, ";")
				continue
			}
			if red, acpcme, _ := ch.Figures(row.Depth, row.T); !math.IsNaN(red) || !math.IsNaN(acpcme) {
				fmt.Fprintf(w, " (chapter %s %s)", pct(runs.Num(red)), runs.Num(acpcme).Format("%.3f"))
			}
			fmt.Fprintln(w)
		}
	}
	// name writes a variant, which names the products by their names
	// (net={net}), with the built-in net as eval=mlp(built-in).
	name := func(v string) string {
		net, _ := search.SpecValue(v, "net")
		return search.MapSpec(v, func(key, val string) (string, bool) {
			switch {
			case key != "eval" || val != "mlp":
				return val, true
			case net == "{net}":
				return val, false
			}
			return "mlp(built-in)", true
		})
	}
	if len(r.Matches) > 0 && r.Net != "" {
		fmt.Fprintf(w, "matches ({net} is the new net):\n")
	} else if len(r.Matches) > 0 {
		fmt.Fprintf(w, "matches:\n")
	}
	for i, m := range r.Matches {
		for _, p := range m.Pairings {
			fmt.Fprintf(w, "  %s vs %s: %.1f%% ± %s over pairs, luck-adjusted %s, %d games\n",
				name(p.A), name(p.B), 100*p.Score, p.Interval(p.ScoreCI95Pairs, "pairs"), luckText(p), p.Games)
		}
		if i < len(r.Papers) && r.Papers[i] != "" {
			fmt.Fprintf(w, "    paper: %s\n", r.Papers[i])
		}
		if len(m.Ranking) > 0 {
			fmt.Fprintf(w, "  ranking:")
			for i, e := range m.Ranking {
				fmt.Fprintf(w, " %d. %s %.1f%%", i+1, name(e.Variant), 100*e.Score)
			}
			fmt.Fprintln(w)
		}
	}
	fmt.Fprintf(w, "report: %s\n", r.Report)
}

// pct formats a share as a percentage, "-" when undefined and "inf" when
// unbounded, as the stages print it.
func pct(x runs.Num) string { return (100 * x).Format("%.1f%%") }

func luckText(s selfplay.Summary) string {
	if !s.Luck {
		return "-"
	}
	return pct(s.LuckScore) + " ± " + s.Interval(float64(s.LuckCI95), "luck")
}
