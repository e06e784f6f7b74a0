package search

import (
	"os"
	"strings"
	"testing"
)

// TestBuiltinFits: every built-in fit parses, names the board, evaluator
// and net it was fitted for, and is what cpc uses for that net, while
// another evaluator gets the defaults, which say they are no fit.
func TestBuiltinFits(t *testing.T) {
	fs := builtinFits()
	if len(fs) == 0 {
		t.Fatal("no built-in fits")
	}
	for size, p := range fs {
		if p.Eval == "" || p.N != size[0] || p.M != size[1] || len(p.Pairs) == 0 {
			t.Fatalf("built-in fit %v: %+v", size, p)
		}
	}
	c := DefaultConfig(CPC)
	r := c.MustResolve()
	fit := fs[[2]int{5, 4}]
	if got := r.ProbCutFor(fit.NetID, 5, 4); got != fit {
		t.Errorf("cpc with the fit's net uses %q, want the built-in fit", got.Source)
	}
	if src := r.ProbCutSource(fit.NetID, 5, 4); !strings.HasPrefix(src, "built-in fit search/fits/5x5-4.json (") {
		t.Errorf("cpc with the fit's net says its parameters are %q, want the built-in fit named", src)
	}
	if src := r.ProbCutSource("0123456789ab", 5, 4); !strings.Contains(src, "not fitted") {
		t.Errorf("cpc with another net uses %q, want the defaults", src)
	}
	c.Eval = "pairs"
	if src := c.MustResolve().ProbCutSource("", 5, 4); !strings.Contains(src, "not fitted") {
		t.Errorf("cpc with pairs uses %q, want the defaults", src)
	}
}

// TestProbCutNetCheck: a fit made for one net is refused, in one line, by
// an engine evaluating with another evaluator or net.
func TestProbCutNetCheck(t *testing.T) {
	path := t.TempDir() + "/p.json"
	if err := writeFile(path, `{"format":"starlab-probcut","version":1,"source":"test","eval":"mlp","net_id":"0123456789ab","n":5,"m":4,"pairs":[{"shallow":3,"deep":7,"a":1,"b":0,"sigma":0.1}]}`); err != nil {
		t.Fatal(err)
	}
	for eval, netID := range map[string]string{"mlp": "ba9876543210", "pairs": ""} {
		spec, err := ParseSpec("cpc:eval=" + eval + ",probcut=" + path)
		if err != nil {
			t.Fatal(err)
		}
		err = spec.Config.MustResolve().CheckProbCut(netID, 5, 4)
		if err == nil || !strings.Contains(err.Error(), path) || strings.Contains(err.Error(), "\n") {
			t.Errorf("eval=%s with a fit for net 0123456789ab: %v", eval, err)
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
