package dice

import (
	"embed"

	"starlab/search"
)

// fits holds the built-in ChanceProbCut fits: fits/<n>x<n>-<m>.json, each
// a probcut.json from starlab fit for the built-in net of its board, kept
// as written (version 1, which names the board by n and m, or 5x5/4's
// version 2, which names the game and variant), which cpc
// uses without probcut=FILE when it evaluates with that net.
// docs/chanceprobcut.md gives the commands that made each.
//
//go:embed fits/*.json
var fits embed.FS

// builtinFits looks the fits up by variant.
var builtinFits = search.BuiltinFits(fits, "search/dice", "fits")

// BuiltinFit returns the built-in ChanceProbCut fit of a variant
// ("5x5-4"), nil when there is none. It is shared: callers must not change
// it. search.Resolved.ProbCutFor uses it only for the evaluator and net it
// was made for.
func BuiltinFit(variant string) *search.ProbCutParams { return builtinFits(variant) }
