package runs

import "starlab/runs/jsonnum"

// Num is a float64 for the JSON artifacts of a run that survives the round
// trip when it is not finite (NaN as null, the infinities as "inf" and
// "-inf"): jsonnum.Num, in a package of its own so that packages below
// runs can use it.
type Num = jsonnum.Num
