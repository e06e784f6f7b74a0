package search

import (
	"flag"
	"strings"
	"testing"
)

// TestRReadOnlyWithoutMulti: r is the single depth pair's reduction of
// multi=0, so under multi=1 (the default) it is refused in one line, as a
// spec key, as a flag and in a configuration built in Go, with the spec
// that reads it; r's default is the reduction the default cpc is made of.
func TestRReadOnlyWithoutMulti(t *testing.T) {
	for spec, want := range map[string]string{
		"cpc:r=4":                 "cpc:multi=0,r=4",
		"cpc:multi=1,r=2":         "cpc:multi=0,r=2",
		"cpc:depth=3,r=4,t=0.4":   "cpc:depth=3,multi=0,r=4,t=0.4",
		"cpc:r=4,multi=1,depth=3": "cpc:r=4,multi=0,depth=3",
	} {
		_, err := ParseSpec(spec)
		if err == nil || !strings.Contains(err.Error(), "multi=1 (the default)") || !strings.Contains(err.Error(), "(want "+want+")") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line suggesting %s", spec, err, want)
		}
		if _, err := ParseSpec(want); err != nil {
			t.Errorf("%s, the suggestion for %s: %v", want, spec, err)
		}
	}
	for _, args := range [][]string{{"-algo", "cpc", "-r", "4"}, {"-algo", "cpc", "-multi", "1", "-r", "2"}} {
		fs := flag.NewFlagSet("search", flag.ContinueOnError)
		s := DefaultSpec(StarETC)
		RegisterFlags(fs, &s)
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		err := CheckFlags(fs, &s, s.Algorithm)
		if err == nil || !strings.Contains(err.Error(), "want -multi 0 -r ") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: %v, want one line suggesting -multi 0", args, err)
		}
	}
	fs := flag.NewFlagSet("search", flag.ContinueOnError)
	s := DefaultSpec(StarETC)
	RegisterFlags(fs, &s)
	if err := fs.Parse([]string{"-algo", "cpc", "-r", "4", "-multi", "0"}); err != nil {
		t.Fatal(err)
	}
	if err := CheckFlags(fs, &s, s.Algorithm); err != nil || s.ProbCutR != 4 || s.Multi {
		t.Errorf("-r 4 -multi 0: %v (%+v)", err, s.Config)
	}
	c := DefaultConfig(CPC)
	c.ProbCutR = 4
	if _, err := c.Resolve(); err == nil || !strings.Contains(err.Error(), "r=4 is read only with multi=0") {
		t.Errorf("a Go configuration of cpc with r=4 under multi=1: %v", err)
	}
	if DefaultProbCutR != 2 || !DefaultProbCutMulti {
		t.Errorf("the default cpc is Multi-ChanceProbCut on the pairs of R = 2, not multi=%v, r=%d", DefaultProbCutMulti, DefaultProbCutR)
	}
}
