package main

import (
	"flag"
	"strconv"
	"strings"

	"starlab/search"
	"starlab/search/games"
)

// gameFlags are the flags that choose a game and its variant: -game,
// -variant, and Dice's -n and -m, which give the variant "<n>x<n>-<m>".
type gameFlags struct {
	name, variant string
	n, m          int
}

// set declares the flags on fs, -n and -m with the usage texts given.
func (f *gameFlags) set(fs *flag.FlagSet, nUsage, mUsage string) {
	*f = gameFlags{}
	gameFlag(fs, &f.name)
	fs.StringVar(&f.variant, "variant", "", "the game's variant (default: the game's default, 5x5-4 for dice)")
	fs.IntVar(&f.n, "n", 5, nUsage)
	fs.IntVar(&f.m, "m", 4, mUsage)
}

// resolve returns the game the flags name and the variant they give, ""
// when neither -variant nor -n or -m was given. Errors are usage errors
// naming the flag.
func (f *gameFlags) resolve(fs *flag.FlagSet) (search.Kit, string, error) {
	g, err := lookupGame(f.name)
	if err != nil {
		return g, "", err
	}
	var sized []string
	fs.Visit(func(fl *flag.Flag) {
		if fl.Name == "n" || fl.Name == "m" {
			sized = append(sized, "-"+fl.Name)
		}
	})
	switch {
	case len(sized) > 0 && g.SizedVariant == nil:
		return g, "", usagef("%s: the board size and win length are Dice's; give -variant for %s", strings.Join(sized, " and "), g.Name())
	case len(sized) > 0 && f.variant != "":
		return g, "", usagef("-variant gives the board; %s cannot change it", strings.Join(sized, " and "))
	case len(sized) > 0:
		v, err := g.SizedVariant(f.n, f.m)
		if err != nil {
			return g, "", usagef("-n %d -m %d: %v", f.n, f.m, err)
		}
		return g, v, nil
	case f.variant != "":
		if _, err := g.New(f.variant); err != nil {
			return g, "", usagef("-variant: %v", err)
		}
	}
	return g, f.variant, nil
}

// lookupGame is games.Lookup with the error a usage error naming -game.
func lookupGame(name string) (search.Kit, error) {
	g, err := games.Lookup(name)
	if err != nil {
		return g, usagef("-game: %v", err)
	}
	return g, nil
}

// gameFlag declares -game alone on fs, for commands whose positions say
// their variant (search, bench): the game a command plays, Dice by
// default.
func gameFlag(fs *flag.FlagSet, name *string) {
	*name = games.Default
	fs.StringVar(name, "game", games.Default, "the game: "+strings.Join(games.Names(), ", "))
}

// joinInts writes ints as a comma-separated list, as the flags take them.
func joinInts(ints []int) string {
	s := make([]string, len(ints))
	for i, n := range ints {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ",")
}

// gameOf returns the game args name with -game, before the flags are
// parsed: its defaults are the flags' (Command.SetFlags). Where args
// name none, or one the registry does not know (which the command then
// refuses in its own words), it is the default game.
func gameOf(args []string) search.Kit {
	name := games.Default
	for i := 0; i < len(args) && args[i] != "--"; i++ {
		if !strings.HasPrefix(args[i], "-") {
			continue
		}
		f := strings.TrimPrefix(strings.TrimPrefix(args[i], "-"), "-") // -game or --game
		if v, found := strings.CutPrefix(f, "game="); found {
			name = v
		} else if f == "game" && i+1 < len(args) {
			name = args[i+1]
			i++
		}
	}
	g, err := games.Lookup(name)
	if err != nil {
		g, err = games.Lookup(games.Default)
	}
	if err != nil {
		panic(err) // the registry names its default
	}
	return g
}

// allGames returns every registered game, in the registry's order, for
// help texts that speak of each.
func allGames() []search.Kit {
	var gs []search.Kit
	for _, name := range games.Names() {
		if g, err := games.Lookup(name); err == nil {
			gs = append(gs, g)
		}
	}
	return gs
}
