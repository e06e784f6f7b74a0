package runs

import (
	"encoding/json"
	"math"
)

// Num is a float64 for the JSON artifacts of a run (summary.json, -json
// output). It encodes as null when it is not finite, since JSON has no
// infinities and a statistic can be undefined: the Elo of a side that won
// every game, the mean of an empty sample, a ratio to zero.
type Num float64

// MarshalJSON encodes finite values as numbers and the rest as null.
func (x Num) MarshalJSON() ([]byte, error) {
	f := float64(x)
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return []byte("null"), nil
	}
	return json.Marshal(f)
}
