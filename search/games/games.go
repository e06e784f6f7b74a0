package games

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"starlab/search"
	backgammonengine "starlab/search/engine/backgammon"
	breakthroughengine "starlab/search/engine/breakthrough"
	diceengine "starlab/search/engine/dice"
	pigengine "starlab/search/engine/pig"
	toyengine "starlab/search/engine/toy"
)

// Default is the name of the game played when none is given.
const Default = "dice"

// kits are the games, one line each: a game's name and its engine's Game.
var kits = map[string]func() search.Kit{
	"backgammon":   backgammonengine.Game,
	"breakthrough": breakthroughengine.Game,
	"dice":         diceengine.Game,
	"pig":          pigengine.Game,
	"toy":          toyengine.Game,
}

// Names returns the names of the known games, sorted, in a new slice.
func Names() []string { return slices.Sorted(maps.Keys(kits)) }

// Lookup returns the game called name, or a one-line error naming it and
// listing the known games.
func Lookup(name string) (search.Kit, error) {
	if kit, ok := kits[name]; ok {
		return kit(), nil
	}
	return search.Kit{}, fmt.Errorf("game %q is unknown; the games are %s", name, strings.Join(Names(), ", "))
}
