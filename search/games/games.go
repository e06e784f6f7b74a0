package games

import (
	"fmt"
	"strings"

	"starlab/search"
	backgammonengine "starlab/search/engine/backgammon"
	breakthroughengine "starlab/search/engine/breakthrough"
	diceengine "starlab/search/engine/dice"
	toyengine "starlab/search/engine/toy"
)

// Default is the name of the game played when none is given.
const Default = "dice"

// Names returns the names of the known games, sorted, in a new slice.
func Names() []string { return []string{"backgammon", "breakthrough", "dice", "toy"} }

// Lookup returns the game called name, or a one-line error naming it and
// listing the known games.
func Lookup(name string) (search.Kit, error) {
	switch name {
	case "backgammon":
		return backgammonengine.Game(), nil
	case "breakthrough":
		return breakthroughengine.Game(), nil
	case "dice":
		return diceengine.Game(), nil
	case "toy":
		return toyengine.Game(), nil
	}
	return search.Kit{}, fmt.Errorf("game %q is unknown; the games are %s", name, strings.Join(Names(), ", "))
}
