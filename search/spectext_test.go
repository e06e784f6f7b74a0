package search

import (
	"path/filepath"
	"slices"
	"testing"
)

func TestFileKeysAreKeys(t *testing.T) {
	for _, k := range FileKeys() {
		if !slices.Contains(OptionKeys(), k) {
			t.Errorf("file key %q is no key of the grammar", k)
		}
	}
}

func TestMapSpec(t *testing.T) {
	base := func(p string) string { return filepath.Base(p) }
	for _, c := range []struct{ in, want string }{
		{"staretc:depth=3,net=out/a/b/best.json", "staretc:depth=3,net=best.json"},
		{"cpc:probcut=x/y.json,t=1.6", "cpc:probcut=y.json,t=1.6"},
		{"staretc", "staretc"},
		{"not a spec", "not a spec"},
		{"staretc:eval=mlp/x", "staretc:eval=mlp/x"}, // not a file key
	} {
		if got := MapSpecFiles(c.in, base); got != c.want {
			t.Errorf("MapSpecFiles(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	status := "staretc:depth=1,net=/r/1-train/best.json vs staretc:depth=1,eval=pairs: 51.2% ± 3.4%  98 games/s"
	if got, want := MapSpecsIn(status, base), "staretc:depth=1,net=best.json vs staretc:depth=1,eval=pairs: 51.2% ± 3.4%  98 games/s"; got != want {
		t.Errorf("MapSpecsIn = %q, want %q", got, want)
	}
	drop := MapSpec("staretc:depth=1,eval=mlp,tt=1", func(k, v string) (string, bool) { return v, k != "eval" })
	if drop != "staretc:depth=1,tt=1" {
		t.Errorf("dropping eval: %q", drop)
	}
	if v, ok := SpecValue("cpc:net={net},probcut={probcut}", "probcut"); !ok || v != "{probcut}" {
		t.Errorf("SpecValue = %q, %v", v, ok)
	}
	if got := SpecProducts("cpc:net={net},probcut={probcut}"); !slices.Equal(got, []string{"net", "probcut"}) {
		t.Errorf("SpecProducts = %q", got)
	}
}
