// Package jsonnum is a float64 for JSON artifacts that keeps NaN and the
// infinities. It imports only the standard library, so that packages below
// the run substrate (search's ChanceProbCut parameters) can use it;
// package runs keeps the name runs.Num as an alias.
package jsonnum

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Num is a float64 for the JSON artifacts of a run (summary.json, state.json,
// -json output) that survives the round trip when it is not finite, since a
// statistic can be undefined (the mean of an empty sample, a score never
// measured: NaN) or unbounded (the Elo interval of a side that won every
// game: +Inf). JSON has no such numbers, so they are written as
//
//	NaN   null
//	+Inf  "inf"
//	-Inf  "-inf"
//
// and read back as what they were; finite values are plain JSON numbers,
// with negative zero written as 0. Readers of the artifacts in other tools
// should treat null as missing and the two strings as infinities.
type Num float64

// MarshalJSON encodes finite values as numbers, NaN as null and the
// infinities as "inf" and "-inf".
func (x Num) MarshalJSON() ([]byte, error) {
	f := float64(x)
	switch {
	case math.IsNaN(f):
		return []byte("null"), nil
	case math.IsInf(f, 1):
		return []byte(`"inf"`), nil
	case math.IsInf(f, -1):
		return []byte(`"-inf"`), nil
	case f == 0:
		return []byte("0"), nil // not -0
	}
	return json.Marshal(f)
}

// UnmarshalJSON reads what MarshalJSON writes: a number, null (NaN), or
// one of the strings "nan", "inf", "+inf", "-inf" (any case).
func (x *Num) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if string(data) == "null" {
		*x = Num(math.NaN())
		return nil
	}
	if len(data) > 0 && data[0] == '"' {
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
		switch strings.ToLower(s) {
		case "nan":
			*x = Num(math.NaN())
		case "inf", "+inf":
			*x = Num(math.Inf(1))
		case "-inf":
			*x = Num(math.Inf(-1))
		default:
			return fmt.Errorf("number %q: want a number, null, \"inf\" or \"-inf\"", s)
		}
		return nil
	}
	f, err := strconv.ParseFloat(string(data), 64)
	if err != nil {
		return fmt.Errorf("number %s: %v", data, err.(*strconv.NumError).Err)
	}
	*x = Num(f)
	return nil
}

// Format formats x for people with format (such as "%.1f") when it is
// finite, as "-" when it is NaN (undefined) and as "inf" or "-inf"
// otherwise: what the terminal tables print, and so what every page and
// summary made from an artifact must print too. A value that the format
// rounds to zero prints as zero, never with a minus sign ("-0.0000" for
// -0.00004 with "%.4f" is "0.0000").
func (x Num) Format(format string) string {
	f := float64(x)
	switch {
	case math.IsNaN(f):
		return "-"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	s := fmt.Sprintf(format, f)
	if f <= 0 && s == fmt.Sprintf(format, math.Copysign(0, -1)) {
		return fmt.Sprintf(format, 0.0)
	}
	return s
}
