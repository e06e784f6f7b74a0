package main

import (
	"flag"
	"strings"

	"starlab/search"
	"starlab/search/games"
)

// gameFlag declares -game on fs, the game a command plays, Dice by
// default.
func gameFlag(fs *flag.FlagSet, name *string) {
	*name = games.Default
	fs.StringVar(name, "game", games.Default, "the game: "+strings.Join(games.Names(), ", "))
}

// lookupGame returns the game called name, or a usage error naming it and
// the games there are.
func lookupGame(name string) (search.Game, error) {
	g, err := games.Lookup(name)
	if err != nil {
		return g, usagef("-game: %v", err)
	}
	return g, nil
}
