package selfplay

import (
	"starlab/search"
	toyengine "starlab/search/engine/toy"
	"starlab/search/games"
)

// diceGame and toyGame are the games the tests play, as a command hands
// them to the stages.
var (
	diceGame = lookupGame("dice")
	toyGame  = toyengine.Game()
)

func lookupGame(name string) search.Kit {
	g, err := games.Lookup(name)
	if err != nil {
		panic(err)
	}
	return g
}
