package breakthrough

import (
	"strings"
	"testing"
)

// TestBuiltinFit: the built-in 8x8 fit is the fit of the built-in net's
// variant and id, for the net (eval=mlp), with the chapter's depth pairs
// (1, 3), (2, 4) and (3, 5), and says it is the built-in fit; a variant
// without a file has none.
func TestBuiltinFit(t *testing.T) {
	p := BuiltinFit("8x8")
	net, err := EmbeddedNet(8, 8)
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case p == nil:
		t.Fatal("no built-in fit of 8x8")
	case p.Game != "breakthrough" || p.Variant != "8x8" || p.Eval != "mlp" || p.NetID != net.ID() || len(p.Pairs) != 3:
		t.Errorf("read as game %q variant %q eval %q net %q with %d pairs; the built-in net is %s", p.Game, p.Variant, p.Eval, p.NetID, len(p.Pairs), net.ID())
	case !strings.HasPrefix(p.Source, "built-in fit search/breakthrough/fits/8x8.json ("):
		t.Errorf("source %q does not name the built-in fit", p.Source)
	}
	for i, want := range [][2]int{{1, 3}, {2, 4}, {3, 5}} {
		if i < len(p.Pairs) && (p.Pairs[i].Shallow != want[0] || p.Pairs[i].Deep != want[1]) {
			t.Errorf("pair %d is %d:%d, want %d:%d", i, p.Pairs[i].Shallow, p.Pairs[i].Deep, want[0], want[1])
		}
	}
	if p := BuiltinFit("5x6"); p != nil {
		t.Errorf("5x6 has no file but a built-in fit %q", p.Source)
	}
}
