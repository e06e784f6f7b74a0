package dice

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestBuiltinFits: every file of fits/ is a built-in fit, read (version 1,
// n and m, or version 2) as the fit of its Dice variant, the variant its name gives,
// made for an evaluator and a net, and says it is the built-in fit; a
// variant without a file has none.
func TestBuiltinFits(t *testing.T) {
	names, err := filepath.Glob("fits/*.json")
	if err != nil || len(names) == 0 {
		t.Fatalf("no built-in fits: %v", err)
	}
	for _, name := range names {
		v := strings.TrimSuffix(filepath.Base(name), ".json")
		n, m, err := ParseVariant(v)
		if err != nil {
			t.Fatalf("%s: not named by its variant: %v", name, err)
		}
		p := BuiltinFit(v)
		switch {
		case p == nil:
			t.Errorf("%s: no built-in fit of %s", name, v)
		case p.Game != "dice" || p.Variant != Variant(n, m) || p.Eval == "" || p.NetID == "" || len(p.Pairs) == 0:
			t.Errorf("%s: read as game %q variant %q eval %q net %q with %d pairs", name, p.Game, p.Variant, p.Eval, p.NetID, len(p.Pairs))
		case !strings.HasPrefix(p.Source, "built-in fit search/dice/"+name+" ("):
			t.Errorf("%s: source %q does not name the built-in fit", name, p.Source)
		}
	}
	if p := BuiltinFit("6x6-4"); p != nil {
		t.Errorf("6x6-4 has no file but a built-in fit %q", p.Source)
	}
}
