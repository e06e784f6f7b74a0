// Package engines is the table of outside engine kinds, as package
// starlab/search/games is the table of games: the word before a spec's
// colon names the kind, and its parser reads the spec. A program that
// plays matches finds every kind here, with no import of its own.
package engines

import (
	"fmt"
	"slices"
	"strings"

	"starlab/outside"
	"starlab/outside/gnubg"
	"starlab/search"
)

// kinds are the outside engines by the word before the colon of their
// specs: ext is starlab's engine protocol (docs/protocol.md), gnubg GNU
// Backgammon through its socket.
var kinds = map[string]func(g search.Kit, spec string) (outside.Engine, error){
	"ext":   outside.ParseExt,
	"gnubg": gnubg.Parse,
}

// Kinds returns the kinds' words, sorted.
func Kinds() []string {
	var ks []string
	for k := range kinds {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// IsOutside reports whether spec names an outside engine.
func IsOutside(spec string) bool {
	kind, _, ok := strings.Cut(spec, ":")
	_, known := kinds[kind]
	return ok && known
}

// Parse reads an outside engine's spec for game g, in one line naming the
// problem.
func Parse(g search.Kit, spec string) (outside.Engine, error) {
	kind, _, _ := strings.Cut(spec, ":")
	parse, ok := kinds[kind]
	if !ok {
		return nil, fmt.Errorf("spec %q: no outside engine %q (want %s)", spec, kind, strings.Join(Kinds(), ", "))
	}
	return parse(g, spec)
}
