package games

import (
	"fmt"
	"strings"

	"starlab/search/dice"
	"starlab/search/game"
)

// Default is the name of the game played when none is given.
const Default = "dice"

// Names returns the names of the known games, sorted, in a new slice.
func Names() []string { return []string{"dice"} }

// Lookup returns the game called name, or a one-line error naming it and
// listing the known games.
func Lookup(name string) (game.Game, error) {
	switch name {
	case "dice":
		return dice.Game{}, nil
	}
	return nil, fmt.Errorf("game %q is unknown; the games are %s", name, strings.Join(Names(), ", "))
}
