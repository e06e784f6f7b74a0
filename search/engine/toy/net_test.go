package toy

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"starlab/search"
	"starlab/search/engine/enginetest"
	"starlab/search/game"
	rules "starlab/search/game/toy"
)

// netFile writes a random toy net of target 6 and returns it and its path.
func netFile(t *testing.T) (string, *netEval) {
	net, err := rules.NewNet(6, rand.New(rand.NewPCG(3, 4)), 0.5)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "net.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := net.Write(f); err != nil {
		t.Fatal(err)
	}
	return path, newNetEval(net)
}

// TestNetConforms: with eval=mlp and a net file (the toy has no built-in
// net), the engine passes the conformance test, and its evaluation of
// every position is the net's value of that position alone: the
// evaluator follows every move and event (it panics where it does not).
func TestNetConforms(t *testing.T) {
	path, val := netFile(t)
	enginetest.Check(t, Game(), enginetest.Options{Seed: 2, Net: path})

	c := search.DefaultConfig(search.StarETC)
	c.Eval, c.Net, c.TTMiB = "mlp", path, 0
	e := New(c.MustResolve())
	rng := rand.New(rand.NewPCG(5, 6))
	for range 200 {
		text := []string{"0", "1", "r0", "r1"}[rng.IntN(4)]
		p, err := rules.Parse("6 " + string(rune('0'+rng.IntN(6))) + " " + string(rune('0'+rng.IntN(6))) + " " + text)
		if err != nil {
			t.Fatal(err)
		}
		if p.Kind() == game.Decision {
			if got, want := e.Evaluate(p), val.Value(p); math.Abs(got-want) > 1e-12 {
				t.Fatalf("on %s: Evaluate %v, the net's value %v", p, got, want)
			}
		}
		e.Search(context.Background(), p, search.Limits{Depth: 4}, nil)
	}
}

// TestMLPNeedsANet: eval=mlp without net=FILE is refused in one line that
// names the way out; a net of another target is refused too.
func TestMLPNeedsANet(t *testing.T) {
	start, _ := rules.Game{}.New("6")
	c := search.DefaultConfig(search.StarETC)
	if err := Game().Check(c.MustResolve(), start); err == nil || !strings.Contains(err.Error(), "no built-in net") {
		t.Fatalf("eval=mlp without a net file: %v", err)
	}
	path, _ := netFile(t)
	c.Net = path
	other, _ := rules.Game{}.New("8")
	if err := Game().Check(c.MustResolve(), other); err == nil || !strings.Contains(err.Error(), "target 6, not 8") {
		t.Fatalf("a target-6 net on target 8: %v", err)
	}
}
