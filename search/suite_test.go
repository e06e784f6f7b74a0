package search_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"starlab/search"
	toyengine "starlab/search/engine/toy"
	"starlab/search/game"
	"starlab/search/game/toy"
)

// TestParseValue: a suite's values are finite decimal numbers in [-1, 1];
// what strconv.ParseFloat takes besides (NaN, Inf, hexadecimal, digits
// with underscores) is refused in one line quoting the text.
func TestParseValue(t *testing.T) {
	for text, want := range map[string]float64{
		"0.5": 0.5, "-1": -1, "1": 1, "+0.25": 0.25, "-.5": -0.5, "1.": 1, "5e-1": 0.5, "-0.765311535494": -0.765311535494, "0": 0,
	} {
		if x, err := search.ParseValue(text); err != nil || x != want {
			t.Errorf("ParseValue(%q) = %v, %v; want %v", text, x, err, want)
		}
	}
	for text, why := range map[string]string{
		"NaN": "not a decimal", "nan": "not a decimal", "Inf": "not a decimal", "-infinity": "not a decimal",
		"0x1p-1": "not a decimal", "0_5": "not a decimal", "0.5_0": "not a decimal", "": "not a decimal",
		".": "not a decimal", "1/2": "not a decimal", " 0.5": "not a decimal", "0.5x": "not a decimal",
		"1.0000001": "outside [-1, 1]", "-2": "outside [-1, 1]", "1e999": "outside [-1, 1]", "-1e400": "outside [-1, 1]",
	} {
		x, err := search.ParseValue(text)
		if err == nil || !strings.Contains(err.Error(), why) || !strings.Contains(err.Error(), `"`+text+`"`) || strings.Contains(err.Error(), "\n") {
			t.Errorf("ParseValue(%q) = %v, %v; want an error saying %q", text, x, err, why)
		}
	}
}

// TestReadSuiteValues: a suite whose value is not one is refused by
// ReadSuite with the file, the line and the problem, so that no stage
// (eval, train -judge, match -suite, bench, collect, tune) reads NaN or a
// hexadecimal value as a game value.
func TestReadSuiteValues(t *testing.T) {
	dir := t.TempDir()
	g := toy.Game{}
	good := "6 3 3 0 ; exact=0.333333333333\n6 3 3 1\n"
	for name, c := range map[string]struct{ text, want string }{
		"nan":   {good + "6 3 3 0 ; exact=NaN\n", `line 3: exact value "NaN" is not a decimal number`},
		"hex":   {"6 3 3 0 ; exact=0x1p-1\n", `line 1: exact value "0x1p-1" is not a decimal number`},
		"inf":   {"\n# c\n6 3 3 0 ; exact=-Inf\n", `line 3: exact value "-Inf" is not a decimal number`},
		"range": {"6 3 3 0 ; exact=1.5\n", `line 1: exact value "1.5" is outside [-1, 1]`},
		"twice": {"6 3 3 0 ; exact=0.5 exact=0.25\n", "line 1: exact given twice"},
		"empty": {"6 3 3 0 ; exact=\n", `line 1: exact value "" is not a decimal number`},
	} {
		path := filepath.Join(dir, name+".suite")
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		ps, err := search.ReadSuite(search.Kit{Game: g}, path)
		if err == nil || !strings.Contains(err.Error(), path+": "+c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, %v; want an error naming %s and %q", name, ps, err, path, c.want)
		}
	}
	path := filepath.Join(dir, "good.suite")
	if err := os.WriteFile(path, []byte(good), 0o644); err != nil {
		t.Fatal(err)
	}
	ps, err := search.ReadSuite(search.Kit{Game: g}, path)
	if err != nil || len(ps) != 2 || !ps[0].HasExact || math.Abs(ps[0].Exact-0.333333333333) > 1e-15 || ps[1].HasExact {
		t.Errorf("good suite: %+v, %v", ps, err)
	}
}

// TestCheckDepth: a depth deeper than every position's bound (the toy's:
// 40 plies) is refused, naming the bound; the bound, 0 and the positions
// that are over are not.
func TestCheckDepth(t *testing.T) {
	g := toyengine.Game()
	start, err := g.New(g.DefaultVariant())
	if err != nil {
		t.Fatal(err)
	}
	bound := g.MaxDepth(start)
	ps := []game.State{start}
	for _, d := range []int{0, 1, bound} {
		if err := search.CheckDepth(g, "-depth", d, ps); err != nil {
			t.Errorf("depth %d: %v", d, err)
		}
	}
	err = search.CheckDepth(g, "-depth", bound+1, ps)
	if want := fmt.Sprintf("-depth %d: no search of these toy positions goes deeper than %d plies", bound+1, bound); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("depth %d: %v, want %q", bound+1, err, want)
	}
	over, err := g.Parse("6 6 0 1")
	if err != nil || over.Kind() != game.Over {
		t.Fatalf("a finished toy game: %v, %v", over, err)
	}
	if err := search.CheckDepth(g, "-depth", search.MaxDepthLimit, []game.State{over}); err != nil {
		t.Errorf("a finished position: %v", err)
	}
}
