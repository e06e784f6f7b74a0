package enginetest

import (
	"testing"

	"starlab/search"
	"starlab/search/engine/toy"
	"starlab/search/games"
)

// engines returns every registered game and the toy game, each once: the
// toy is registered, and were it not, it would still be checked here.
func engines(t *testing.T) []search.Kit {
	var gs []search.Kit
	seen := map[string]bool{}
	for _, name := range games.Names() {
		g, err := games.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		gs, seen[name] = append(gs, g), true
	}
	if g := toy.Game(); !seen[g.Name()] {
		gs = append(gs, g)
	}
	return gs
}

// TestEnginesConform runs Check over every engine at its game's default
// variant.
func TestEnginesConform(t *testing.T) {
	for _, g := range engines(t) {
		t.Run(g.Name(), func(t *testing.T) { Check(t, g, Options{Seed: 1}) })
	}
}
