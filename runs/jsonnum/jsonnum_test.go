package jsonnum

import (
	"encoding/json"
	"math"
	"testing"
)

func TestNumRoundTrip(t *testing.T) {
	type rec struct {
		X Num  `json:"x"`
		P *Num `json:"p,omitempty"`
	}
	negZero := math.Copysign(0, -1)
	for _, c := range []struct {
		in   float64
		json string
	}{
		{math.NaN(), `{"x":null}`},
		{math.Inf(1), `{"x":"inf"}`},
		{math.Inf(-1), `{"x":"-inf"}`},
		{negZero, `{"x":0}`},
		{0.25, `{"x":0.25}`},
		{-1e300, `{"x":-1e+300}`},
	} {
		data, err := json.Marshal(rec{X: Num(c.in)})
		if err != nil || string(data) != c.json {
			t.Errorf("marshal %v = %s, %v; want %s", c.in, data, err, c.json)
		}
		var back rec
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatalf("unmarshal %s: %v", data, err)
		}
		got := float64(back.X)
		if math.IsNaN(c.in) != math.IsNaN(got) || (!math.IsNaN(c.in) && got != c.in) {
			t.Errorf("%s read back as %v, want %v", data, got, c.in)
		}
	}
	for in, want := range map[string]float64{`"INF"`: math.Inf(1), `"+inf"`: math.Inf(1), `"NaN"`: math.NaN(), ` 2 `: 2} {
		var x Num
		if err := json.Unmarshal([]byte(in), &x); err != nil {
			t.Errorf("%s: %v", in, err)
		} else if g := float64(x); math.IsNaN(want) != math.IsNaN(g) || (!math.IsNaN(want) && g != want) {
			t.Errorf("%s read as %v, want %v", in, g, want)
		}
	}
	for _, bad := range []string{`"infinity and beyond"`, `true`, `"1"`, `{}`} {
		var x Num
		if err := json.Unmarshal([]byte(bad), &x); err == nil {
			t.Errorf("%s read as %v, want an error", bad, x)
		}
	}
	for _, c := range []struct {
		x    float64
		want string
	}{{math.NaN(), "-"}, {math.Inf(1), "inf"}, {math.Inf(-1), "-inf"}, {negZero, "0.0"}, {1.25, "1.2"}} {
		if got := Num(c.x).Format("%.1f"); got != c.want {
			t.Errorf("Num(%v).Format = %q, want %q", c.x, got, c.want)
		}
	}
	// What rounds to zero prints as zero, in the format's width and sign
	// flag; what does not keeps its sign.
	for _, c := range []struct {
		x            float64
		format, want string
	}{
		{-0.00004, "%.4f", "0.0000"}, {-0.00004, "%8.4f", "  0.0000"}, {-0.0004, "%+.3f", "+0.000"},
		{-0.04, "b=%+.1f", "b=+0.0"}, {-0.0004, "%.1f%%", "0.0%"}, {-0.00006, "%.4f", "-0.0001"},
		{-1e-20, "%.3g", "-1e-20"}, {0.00004, "%+.4f", "+0.0000"},
	} {
		if got := Num(c.x).Format(c.format); got != c.want {
			t.Errorf("Num(%v).Format(%q) = %q, want %q", c.x, c.format, got, c.want)
		}
	}
}
