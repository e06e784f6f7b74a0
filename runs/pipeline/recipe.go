package pipeline

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"starlab/regression"
	"starlab/runs"
	"starlab/search"
	"starlab/search/bench"
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
	// Kit is the game the recipe's stages play, the one GameName names,
	// looked up by LoadRecipe; it is not part of the recipe's JSON.
	Kit         search.Kit `json:"-"`
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
		Kit:     g,
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
	if r.Bench != nil && r.Kit.Game != nil {
		r.Bench.Kit, r.Bench.GameName = r.Kit, r.Kit.Name()
	}
	if r.Collect != nil && r.Kit.Game != nil {
		r.Collect.Kit, r.Collect.GameName = r.Kit, r.Kit.Name()
	}
	if r.Tune != nil && r.Kit.Game != nil {
		r.Tune.Kit, r.Tune.GameName = r.Kit, r.Kit.Name()
	}
}

func (r *Recipe) check() error {
	r.bindGame()
	if err := r.checkFormat(); err != nil {
		return err
	}
	if r.Name == "" {
		return fmt.Errorf("no name")
	}
	if r.Kit.Game == nil || r.Kit.Name() != r.GameName {
		return fmt.Errorf("no game")
	}
	if r.Variant == "" {
		r.Variant = r.Kit.DefaultVariant()
	}
	if _, err := r.Kit.New(r.Variant); err != nil {
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
		r.Train.Kit, r.Train.GameName, r.Train.Variant, r.Train.Seed = r.Kit, r.GameName, r.Variant, r.Seed
		if err := r.Train.Check(); err != nil {
			return fmt.Errorf("train: %v", err)
		}
	}
	if r.Fit != nil {
		if err := r.Fit.CheckSyntax(); err != nil {
			return fmt.Errorf("fit: %v", err)
		}
	}
	if r.Collect != nil {
		r.Collect.Seed = r.Seed
		if r.Collect.Suite == "" { // a suite gives its own variant
			r.Collect.Variant = r.Variant
		}
		if err := r.named("collect", r.Collect.Engine); err != nil {
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
			if err := r.named("tune", c); err != nil {
				return err
			}
		}
		t := *r.Tune // CheckSyntax fills in what the recipe leaves out
		if err := t.CheckSyntax(); err != nil {
			return fmt.Errorf("tune: %v", err)
		}
	}
	return r.checkMatches()
}

// checkFormat checks the recipe's format, and turns a recipe of format 1
// (Dice's, its board given by n and m) into one of RecipeFormat.
func (r *Recipe) checkFormat() error {
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
	return nil
}

// named refuses a spec s of stage that names a product ({net},
// {probcut}) the recipe does not make.
func (r *Recipe) named(stage, s string) error {
	products := search.SpecProducts(s)
	if slices.Contains(products, "net") && r.Train == nil {
		return fmt.Errorf("%s: %q names {net}, but the recipe trains no net", stage, s)
	}
	if slices.Contains(products, "probcut") && r.Fit == nil {
		return fmt.Errorf("%s: %q names {probcut}, but the recipe fits no parameters", stage, s)
	}
	return nil
}

// checkMatches checks the matches: each named as a directory may be and
// by no other match, its specs naming only products the recipe makes, and
// by the rules and the parser of starlab match and its -luck, without
// their files.
func (r *Recipe) checkMatches() error {
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
			if err := r.named("match "+m.Name, v); err != nil {
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
	ms := selfplay.DefaultMatchSettings(r.Kit, slices.Clone(m.Variants)...)
	ms.GameName, ms.Variant = r.GameName, r.Variant
	ms.Seed, ms.Games, ms.Gauntlet = r.Seed, m.Games, m.Gauntlet
	ms.Products = products(net, probcut)
	ms.Suite = m.Suite
	ms.Luck = m.Luck
	if ms.Luck == "" {
		ms.Luck = selfplay.DefaultLuck(r.Kit, r.Variant)
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
