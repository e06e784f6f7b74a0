package main

import (
	"flag"

	"starlab/search"
	"starlab/search/dice"
	"starlab/search/games"
)

// gameFlags are Dice's -n and -m, which give the variant "<n>x<n>-<m>".
type gameFlags struct{ n, m int }

// set declares the flags on fs, with the usage texts given.
func (f *gameFlags) set(fs *flag.FlagSet, nUsage, mUsage string) {
	*f = gameFlags{}
	fs.IntVar(&f.n, "n", 5, nUsage)
	fs.IntVar(&f.m, "m", 4, mUsage)
}

// resolve returns Dice and the variant the flags give, "" when neither -n
// nor -m was given. Errors are usage errors naming the flags.
func (f *gameFlags) resolve(fs *flag.FlagSet) (search.Game, string, error) {
	g, err := games.Lookup("dice")
	if err != nil {
		return g, "", err
	}
	var sized []string
	fs.Visit(func(fl *flag.Flag) {
		if fl.Name == "n" || fl.Name == "m" {
			sized = append(sized, "-"+fl.Name)
		}
	})
	if len(sized) == 0 {
		return g, "", nil
	}
	if _, err := dice.New(f.n, f.m); err != nil {
		return g, "", usagef("-n %d -m %d: %v", f.n, f.m, err)
	}
	return g, dice.Variant(f.n, f.m), nil
}
