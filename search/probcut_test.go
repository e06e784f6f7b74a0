package search

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestProbCutForBuiltin: a game's built-in fit is what cpc uses for the
// game, variant, evaluator and net it was made for, and said to be; any
// other search (another net, evaluator, variant or game, or no built-in
// fit) gets the defaults, which say they are no fit; probcut=FILE wins
// over the built-in fit.
func TestProbCutForBuiltin(t *testing.T) {
	fit := &ProbCutParams{Format: ProbCutFormat, Version: ProbCutVersion, Source: "built-in fit of the test",
		Eval: "mlp", NetID: "0123456789ab", Game: "dice", Variant: "5x5-4", Pairs: []DepthPair{{Shallow: 3, Deep: 7, A: 1, Sigma: 0.1}}}
	c := DefaultConfig(CPC)
	r := c.MustResolve()
	if got := r.ProbCutFor(fit, "dice", "5x5-4", fit.NetID); got != fit {
		t.Errorf("cpc with the fit's net uses %q, want the built-in fit", got.Source)
	}
	if src := r.ProbCutSource(fit, "dice", "5x5-4", fit.NetID); src != fit.Source {
		t.Errorf("cpc with the fit's net says its parameters are %q, want the built-in fit's source", src)
	}
	for name, key := range map[string][3]string{
		"another net":     {"dice", "5x5-4", "ba9876543210"},
		"another variant": {"dice", "7x7-5", fit.NetID},
		"another game":    {"breakthrough", "5x5-4", fit.NetID},
	} {
		if src := r.ProbCutSource(fit, key[0], key[1], key[2]); !strings.Contains(src, "not fitted") {
			t.Errorf("cpc with %s uses %q, want the defaults", name, src)
		}
	}
	if src := r.ProbCutSource(nil, "dice", "5x5-4", fit.NetID); !strings.Contains(src, "not fitted") {
		t.Errorf("cpc without a built-in fit uses %q, want the defaults", src)
	}
	c.Eval = "pairs"
	if src := c.MustResolve().ProbCutSource(fit, "dice", "5x5-4", ""); !strings.Contains(src, "not fitted") {
		t.Errorf("cpc with pairs uses %q, want the defaults", src)
	}
	path := t.TempDir() + "/p.json"
	if err := writeFile(path, `{"format":"starlab-probcut","version":2,"source":"test","pairs":[{"shallow":3,"deep":7,"a":1,"b":0,"sigma":0.1}]}`); err != nil {
		t.Fatal(err)
	}
	spec, err := ParseSpec("cpc:probcut=" + path)
	if err != nil {
		t.Fatal(err)
	}
	if got := spec.Config.MustResolve().ProbCutFor(fit, "dice", "5x5-4", fit.NetID); got == fit || got.Source != "test" {
		t.Errorf("cpc with probcut=FILE uses %q, want the file", got.Source)
	}
}

// TestProbCutNetCheck: a fit made for one net is refused, in one line, by
// an engine evaluating with another evaluator or net.
func TestProbCutNetCheck(t *testing.T) {
	path := t.TempDir() + "/p.json"
	if err := writeFile(path, `{"format":"starlab-probcut","version":2,"source":"test","eval":"mlp","net_id":"0123456789ab","game":"dice","variant":"5x5-4","pairs":[{"shallow":3,"deep":7,"a":1,"b":0,"sigma":0.1}]}`); err != nil {
		t.Fatal(err)
	}
	for eval, netID := range map[string]string{"mlp": "ba9876543210", "pairs": ""} {
		spec, err := ParseSpec("cpc:eval=" + eval + ",probcut=" + path)
		if err != nil {
			t.Fatal(err)
		}
		err = spec.Config.MustResolve().CheckProbCut("dice", "5x5-4", netID)
		if err == nil || !strings.Contains(err.Error(), path) || strings.Contains(err.Error(), "\n") {
			t.Errorf("eval=%s with a fit for net 0123456789ab: %v", eval, err)
		}
	}
}

// TestProbCutVariantCheck: a fit of one game and variant is used for it
// and refused, in one line naming the file, for another variant or game;
// a version-1 file, which names a Dice board by n and m, is read as the
// fit of that Dice variant, and one without a board fits every variant of
// Dice.
func TestProbCutVariantCheck(t *testing.T) {
	dir := t.TempDir()
	for name, c := range map[string]struct {
		file         string
		game, varnt  string // the fit's, as read
		okFor, notOK [][2]string
	}{
		"version 2": {`{"format":"starlab-probcut","version":2,"source":"test","eval":"pairs","game":"breakthrough","variant":"4x5","pairs":[{"shallow":3,"deep":7,"a":1,"b":0,"sigma":0.1}]}`,
			"breakthrough", "4x5", [][2]string{{"breakthrough", "4x5"}}, [][2]string{{"breakthrough", "5x5"}, {"dice", "4x5"}}},
		"version 1": {`{"format":"starlab-probcut","version":1,"source":"test","eval":"pairs","n":7,"m":5,"pairs":[{"shallow":3,"deep":7,"a":1,"b":0,"sigma":0.1}]}`,
			"dice", "7x7-5", [][2]string{{"dice", "7x7-5"}}, [][2]string{{"dice", "5x5-4"}, {"breakthrough", "7x7"}}},
		"version 1 without a board": {`{"format":"starlab-probcut","version":1,"source":"test","eval":"pairs","pairs":[{"shallow":3,"deep":7,"a":1,"b":0,"sigma":0.1}]}`,
			"dice", "", [][2]string{{"dice", "7x7-5"}, {"dice", "5x5-4"}}, [][2]string{{"breakthrough", "8x8"}}},
	} {
		path := dir + "/" + strings.ReplaceAll(name, " ", "-") + ".json"
		if err := writeFile(path, c.file); err != nil {
			t.Fatal(err)
		}
		p, err := LoadProbCut(path)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if p.Game != c.game || p.Variant != c.varnt || p.Version != ProbCutVersion {
			t.Errorf("%s: read as game %q variant %q version %d, want %q %q %d", name, p.Game, p.Variant, p.Version, c.game, c.varnt, ProbCutVersion)
		}
		spec, err := ParseSpec("cpc:eval=pairs,probcut=" + path)
		if err != nil {
			t.Fatal(err)
		}
		r := spec.Config.MustResolve()
		for _, k := range c.okFor {
			if err := r.CheckProbCut(k[0], k[1], ""); err != nil {
				t.Errorf("%s for %s %s: %v", name, k[0], k[1], err)
			}
		}
		for _, k := range c.notOK {
			err := r.CheckProbCut(k[0], k[1], "")
			if err == nil || !strings.Contains(err.Error(), path) || strings.Contains(err.Error(), "\n") {
				t.Errorf("%s for %s %s: %v, want one line naming %s", name, k[0], k[1], err, path)
			}
		}
	}
}

// TestLoadProbCutDamaged: a parameter file edited by hand into something no
// fit writes (a depth pair twice, absurd or non-finite numbers, an unknown
// field, data after the object) is refused in one line naming the file,
// and the file it was made from loads.
func TestLoadProbCutDamaged(t *testing.T) {
	const good = `{"format":"starlab-probcut","version":1,"source":"test","pairs":[{"shallow":1,"deep":5,"a":0.9,"b":0.01,"sigma":0.1,"n":40,"r2":0.9},{"shallow":3,"deep":7,"a":1,"b":0,"sigma":0.05}]}`
	path := t.TempDir() + "/p.json"
	if err := writeFile(path, good); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadProbCut(path); err != nil {
		t.Fatalf("the undamaged file: %v", err)
	}
	for name, damage := range map[string][2]string{
		"duplicated pair": {`"shallow":3,"deep":7`, `"shallow":1,"deep":5`},
		"huge a":          {`"a":0.9`, `"a":1e300`},
		"huge b":          {`"b":0.01`, `"b":-2e3`},
		"huge sigma":      {`"sigma":0.1`, `"sigma":1e9`},
		"negative sigma":  {`"sigma":0.1`, `"sigma":-0.1`},
		"negative n":      {`"n":40`, `"n":-40`},
		"r2 above 1":      {`"r2":0.9`, `"r2":3`},
		"deep too deep":   {`"deep":7`, `"deep":7000`},
		"unknown field":   {`"source":"test"`, `"source":"test","sigmaa":2`},
		"unknown in pair": {`"a":1,`, `"a":1,"c":2,`},
		"trailing data":   {`]}`, `]}{}`},
		"negative board":  {`"source":"test"`, `"source":"test","n":-5`},
		"version 2 board": {`"version":1`, `"version":2,"n":5,"m":4`},
		"version 1 game":  {`"source":"test"`, `"source":"test","game":"dice"`},
		"version 3":       {`"version":1`, `"version":3`},
	} {
		bad := strings.Replace(good, damage[0], damage[1], 1)
		if bad == good {
			t.Fatalf("%s: the damage changes nothing", name)
		}
		if err := writeFile(path, bad); err != nil {
			t.Fatal(err)
		}
		_, err := LoadProbCut(path)
		if err == nil || !strings.Contains(err.Error(), path) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: got %v, want one line naming %s", name, err, path)
		}
	}
}

// TestSpecGives: a key given is seen whatever its value, the default's
// included, and a key not given is not.
func TestSpecGives(t *testing.T) {
	for _, c := range []struct {
		spec, key string
		want      bool
	}{
		{"cpc:t=1.6", "t", true}, {"cpc:tt=1,t=0.2", "t", true}, {"cpc:tt=1", "t", false}, {"cpc", "t", false}, {"cpc:r=4", "r", true},
	} {
		if got := SpecGives(c.spec, c.key); got != c.want {
			t.Errorf("SpecGives(%q, %q) = %v, want %v", c.spec, c.key, got, c.want)
		}
	}
}

func writeFile(path, text string) error { return os.WriteFile(path, []byte(text), 0o644) }

// TestProducts: a spec names a pipeline's product as {name} and keeps the
// name, so its text is the same wherever the file is; ResolveIn opens the
// product's file, whatever characters its path holds (a comma would break
// the spec's grammar were the path spliced into the text), and Resolve
// refuses a product it is not given, in one line.
func TestProducts(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a,b=c")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "probcut.json")
	if err := writeFile(path, `{"format":"starlab-probcut","version":2,"source":"the product","eval":"pairs","game":"dice","variant":"5x5-4","pairs":[{"shallow":3,"deep":7,"a":1,"b":0,"sigma":0.1}]}`); err != nil {
		t.Fatal(err)
	}
	spec, err := ParseSpec("cpc:eval=pairs,probcut={probcut}")
	if err != nil {
		t.Fatal(err)
	}
	r, err := spec.Config.ResolveIn(Products{"probcut": path})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Config().String(); got != spec.String() || !strings.Contains(got, "probcut={probcut}") {
		t.Errorf("resolved config %q, want the spec %q with the product's name", got, spec.String())
	}
	if src := r.ProbCutSource(nil, "dice", "5x5-4", ""); src != path+": the product" {
		t.Errorf("ProbCutSource = %q, want the product's file and source", src)
	}
	if err := r.CheckProbCut("dice", "5x5-4", ""); err != nil {
		t.Errorf("CheckProbCut: %v", err)
	}
	if _, err := spec.Config.Resolve(); err == nil || !strings.Contains(err.Error(), "{probcut}") || strings.Contains(err.Error(), "\n") {
		t.Errorf("Resolve without the product: %v", err)
	}
}

// TestBuiltinFitSources: every game's built-in fit (search/*/fits) says in
// its source the commands that made it, as a user can run them again: a
// starlab collect of its game and variant with exactly its depth pairs,
// and a fit of as many rows as its pairs have.
func TestBuiltinFitSources(t *testing.T) {
	names, err := filepath.Glob("*/fits/*.json")
	if err != nil || len(names) == 0 {
		t.Fatalf("no built-in fits: %v", err)
	}
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		p, err := ParseProbCut(name, data)
		if err != nil {
			t.Fatal(err)
		}
		fit, collect, ok := strings.Cut(p.Source, " of the ")
		rows, collect, _ := strings.Cut(collect, " rows of starlab collect ")
		if !ok || !strings.HasPrefix(fit, "starlab fit") || collect == "" {
			t.Errorf("%s: source %q is not \"starlab fit ... of the N rows of starlab collect ...\"", name, p.Source)
			continue
		}
		flags := map[string]string{"-game": "dice", "-n": "5", "-m": "4"} // collect's defaults
		args := strings.Fields(collect)
		for i := 0; i+1 < len(args); i += 2 {
			flags[args[i]] = args[i+1]
		}
		variant := flags["-variant"]
		if flags["-game"] == "dice" && variant == "" {
			variant = flags["-n"] + "x" + flags["-n"] + "-" + flags["-m"]
		}
		var pairs []string
		n := 0
		for _, dp := range p.Pairs {
			pairs = append(pairs, fmt.Sprintf("%d:%d", dp.Shallow, dp.Deep))
			n += dp.N
		}
		got := strings.Split(flags["-pairs"], ",")
		slices.Sort(got)
		slices.Sort(pairs)
		if flags["-game"] != p.Game || variant != p.Variant || !slices.Equal(got, pairs) || rows != fmt.Sprint(n) {
			t.Errorf("%s: source %q collects %s %s pairs %v and fits %s rows; the fit is of %s %s, pairs %v, %d rows",
				name, p.Source, flags["-game"], variant, got, rows, p.Game, p.Variant, pairs, n)
		}
	}
}
