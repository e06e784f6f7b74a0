package breakthrough

import (
	"embed"
	"sync"

	"starlab/search"
)

// fits holds the built-in ChanceProbCut fits: fits/<w>x<h>.json, each
// a probcut.json from starlab fit for the built-in net of its board, kept
// as written (version 2, naming the game and variant), which cpc
// uses without probcut=FILE when it evaluates with that net. The README
// gives the commands that made each.
//
//go:embed fits/*.json
var fits embed.FS

// builtinFits parses the built-in fits once, by variant.
var builtinFits = sync.OnceValue(func() map[string]*search.ProbCutParams {
	m := map[string]*search.ProbCutParams{}
	entries, _ := fits.ReadDir("fits")
	for _, e := range entries {
		data, err := fits.ReadFile("fits/" + e.Name())
		if err != nil {
			panic(err)
		}
		p, err := search.ParseProbCut("built-in "+e.Name(), data)
		if err != nil {
			panic(err) // a test loads every built-in fit
		}
		// Where the parameters come from is said wherever they are
		// reported (tune, bench, match): the built-in fit, by its file.
		p.Source = "built-in fit search/breakthrough/fits/" + e.Name() + " (" + p.Source + ")"
		m[p.Variant] = p
	}
	return m
})

// BuiltinFit returns the built-in ChanceProbCut fit of a variant
// ("8x8"), nil when there is none. It is shared: callers must not change
// it. search.Resolved.ProbCutFor uses it only for the evaluator and net it
// was made for.
func BuiltinFit(variant string) *search.ProbCutParams { return builtinFits()[variant] }
