package nn

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// deepNet returns a net of in inputs and the hidden layers layout, with
// random weights and a non-zero output bias, of a made-up game.
func deepNet(t testing.TB, in int, layout []int, seed uint64) *Net {
	t.Helper()
	net, err := NewLayout(in, layout, rand.New(rand.NewPCG(seed, 1)), 0.5)
	if err != nil {
		t.Fatal(err)
	}
	net.Game, net.Variant, net.VariantKey = "test", "v1", []int{in}
	net.B2 = 0.1
	for _, l := range net.Deep {
		for i := range l.B {
			l.B[i] = 0.05 * float64(i%3-1)
		}
	}
	return net
}

var deepLayouts = [][]int{{10, 8}, {16, 8, 4}, {5, 1}, {12, 12, 12, 3}}

// TestNewLayoutOneLayer: a layout of one hidden layer is New's net, drawn
// alike.
func TestNewLayoutOneLayer(t *testing.T) {
	a, err := NewLayout(62, []int{10}, rand.New(rand.NewPCG(7, 8)), 0.1)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := New(62, 10, rand.New(rand.NewPCG(7, 8)), 0.1)
	if a.Checksum() != b.Checksum() || len(a.Deep) != 0 {
		t.Fatal("NewLayout with one layer differs from New")
	}
	for _, bad := range [][]int{nil, {10, 0}, {10, MaxHidden + 1}, make([]int, MaxLayers+1)} {
		if _, err := NewLayout(62, bad, rand.New(rand.NewPCG(1, 1)), 0.1); err == nil {
			t.Errorf("layout %v accepted", bad)
		}
	}
}

// TestDeepGradient: backpropagation through deeper layers agrees with
// central finite differences for every kind of weight.
func TestDeepGradient(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial, layout := range deepLayouts {
		net := deepNet(t, 40, layout, uint64(trial))
		x := randomInput(rng, net.In)
		h := make([]float64, 2*net.H)
		g := net.NewGrad()
		v := net.Backward(x, h, g)
		if f := net.Forward(x, make([]float64, 2*net.H)); f != v {
			t.Fatalf("layout %v: Backward's value %v, Forward's %v", layout, v, f)
		}
		check := func(name string, w *float64, got float64) {
			t.Helper()
			checkSlope(t, net, x, h, fmt.Sprintf("layout %v %s", layout, name), w, got)
		}
		for k := 0; k < 40; k++ {
			i := rng.IntN(len(net.W1))
			check("W1", &net.W1[i], g.W1[i])
		}
		for j := range net.B1 {
			check("B1", &net.B1[j], g.B1[j])
		}
		for j := range net.W2 {
			check("W2", &net.W2[j], g.W2[j])
		}
		for k, l := range net.Deep {
			for i := range l.W {
				check("deep W", &l.W[i], g.Deep[k].W[i])
			}
			for i := range l.B {
				check("deep B", &l.B[i], g.Deep[k].B[i])
			}
		}
		check("B2", &net.B2, g.B2)
	}
}

// TestDeepAccumulator: a deep net's accumulator finished by Output gives
// exactly Forward's value, as a one-layer net's does, and Update is
// Backward and Step.
func TestDeepAccumulator(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for trial, layout := range deepLayouts {
		net := deepNet(t, 62, layout, uint64(trial))
		x := randomInput(rng, net.In)
		acc := slices.Clone(net.B1)
		for i, xi := range x {
			if xi != 0 {
				net.AddInput(acc, i, xi)
			}
		}
		h := make([]float64, 2*net.H)
		v := net.Forward(x, h)
		if got := net.Output(acc); got != v || math.Abs(v) > 1 {
			t.Fatalf("layout %v: Output %v, Forward %v", layout, got, v)
		}
		a, b := net.Clone(), net.Clone()
		g := a.NewGrad()
		a.Backward(x, make([]float64, 2*a.H), g)
		a.Step(g, 0.2)
		b.Update(x, h, v, 0.2)
		if a.Checksum() != b.Checksum() {
			t.Fatalf("layout %v: Update differs from Backward and Step", layout)
		}
		if a.Checksum() == net.Checksum() {
			t.Fatalf("layout %v: a step changed nothing", layout)
		}
	}
}

// TestDeepWeightFile: a deep net is written as version 3 with its layout
// and reads back bit for bit; a one-layer net is still written as version
// 2; a version-3 file whose layout disagrees with its layers is refused.
func TestDeepWeightFile(t *testing.T) {
	net := deepNet(t, 62, []int{16, 8, 4}, 3)
	var buf bytes.Buffer
	if err := net.Write(&buf); err != nil {
		t.Fatal(err)
	}
	data := bytes.Clone(buf.Bytes())
	if !bytes.Contains(data, []byte(`"version": 3`)) || !bytes.Contains(data, []byte(`"layout": [`)) {
		t.Fatalf("a deep net's file is not version 3 with its layout:\n%.300s", data)
	}
	back, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if back.Checksum() != net.Checksum() || !slices.Equal(back.Layout(), []int{16, 8, 4}) {
		t.Fatalf("read back %v %s, wrote %v %s", back.Layout(), back.ID(), net.Layout(), net.ID())
	}
	shallow := randomNet(t, 62, 10, 4)
	buf.Reset()
	if err := shallow.Write(&buf); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(buf.Bytes(), []byte(`"version": 2`)) || bytes.Contains(buf.Bytes(), []byte("layout")) {
		t.Fatal("a one-layer net is not written as version 2")
	}
	// The checksum covers the deeper layers.
	other := net.Clone()
	other.Deep[1].W[0] += 1e-9
	if other.Checksum() == net.Checksum() {
		t.Fatal("the checksum does not see a deeper layer's weight")
	}
	for _, bad := range []struct{ old, new, want string }{
		{`"layout": [` + "\n  16,\n  8,\n  4\n ]", `"layout": [16, 8]`, "layout"},
		{`"layout": [` + "\n  16,\n  8,\n  4\n ]", `"layout": [16, 8, 5]`, "units"},
		{`"version": 3`, `"version": 2`, "version-2"},
		{`"version": 3`, `"version": 6`, "unsupported version"},
	} {
		_, err := Parse(replace1(t, data, bad.old, bad.new))
		if err == nil || !strings.Contains(err.Error(), bad.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s -> %s: %v, want one line with %q", bad.old, bad.new, err, bad.want)
		}
	}
}

// TestAdamFits: Adam on the squared error fits a deep net to a smooth
// target function of its inputs, the error falling by more than half.
func TestAdamFits(t *testing.T) {
	net := deepNet(t, 8, []int{16, 8}, 1)
	rng := rand.New(rand.NewPCG(2, 3))
	target := func(x []float64) float64 { return 0.8 * math.Tanh(x[0]-x[1]+0.5*x[2]*x[3]) }
	xs := make([][]float64, 512)
	for i := range xs {
		xs[i] = make([]float64, 8)
		for j := range xs[i] {
			xs[i][j] = 2*rng.Float64() - 1
		}
	}
	h := make([]float64, 2*net.H)
	loss := func() float64 {
		sum := 0.0
		for _, x := range xs {
			d := net.Forward(x, h) - target(x)
			sum += d * d
		}
		return sum / float64(len(xs))
	}
	before := loss()
	opt, g, batch := NewAdam(net, 0.01), net.NewGrad(), net.NewGrad()
	for epoch := 0; epoch < 60; epoch++ {
		for start := 0; start < len(xs); start += 32 {
			batch.Zero()
			for _, x := range xs[start : start+32] {
				v := net.Backward(x, h, g)
				batch.AddScaled(g, (v-target(x))/32)
			}
			opt.Step(net, batch)
		}
	}
	if after := loss(); !(after < before/2) {
		t.Fatalf("mean squared error %v before, %v after 60 epochs of Adam", before, after)
	}
}

// TestPhaseWeightFile: a net with a phase net is written as version 4,
// reads back bit for bit with its phase net, and has a checksum of its
// own, while the main net alone keeps the one it had; Clone and
// SetWeights carry the phase net; a phase net of other inputs, a second
// net of the same phase, a phase in a version-2 file and a damaged phase
// weight are refused in one line.
func TestPhaseWeightFile(t *testing.T) {
	net := randomNet(t, 12, 4, 7)
	alone := net.Checksum()
	race := randomNet(t, 12, 6, 8)
	race.Phase = "race"
	net.Phases = []*Net{race}
	if net.Checksum() == alone {
		t.Fatal("the checksum does not see the phase net")
	}
	var buf bytes.Buffer
	if err := net.Write(&buf); err != nil {
		t.Fatal(err)
	}
	data := bytes.Clone(buf.Bytes())
	if !bytes.Contains(data, []byte(`"version": 4`)) || !bytes.Contains(data, []byte(`"phase": "race"`)) {
		t.Fatalf("a net with a phase is not version 4 with its phase:\n%.300s", data)
	}
	back, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	p := back.PhaseNet("race")
	if back.Checksum() != net.Checksum() || p == nil || p.Checksum() != race.Checksum() || p.H != 6 || back.PhaseNet("crashed") != nil {
		t.Fatalf("read back %s with race net %v, wrote %s", back.ID(), p, net.ID())
	}
	back.Phases = nil
	if back.Checksum() != alone {
		t.Fatal("the main net's checksum without its phase net changed")
	}
	c := net.Clone()
	c.Phases[0].W1[0] += 1
	if race.W1[0] == c.Phases[0].W1[0] {
		t.Fatal("Clone shares the phase net's weights")
	}
	c.SetWeights(net)
	if c.Checksum() != net.Checksum() {
		t.Fatal("SetWeights does not copy the phase net's weights")
	}
	other := randomNet(t, 13, 6, 8)
	other.Phase = "race"
	for _, bad := range []struct{ old, new, want string }{
		{`"version": 4`, `"version": 2`, "version-2"},
		{`"phase": "race"`, `"phase": ""`, "phase"},
		{`"inputs": 12,`, `"inputs": 12, "phase": "main",`, "main net"},
	} {
		_, err := Parse(replace1(t, data, bad.old, bad.new))
		if err == nil || !strings.Contains(err.Error(), bad.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s -> %s: %v, want one line with %q", bad.old, bad.new, err, bad.want)
		}
	}
	// The phase net's weights are checked: a changed weight in it fails
	// its checksum.
	i := bytes.LastIndex(data, []byte(`"b2": `))
	damaged := append(append(bytes.Clone(data[:i]), []byte(`"b2": 0.125`)...), data[bytes.IndexByte(data[i:], ',')+i:]...)
	if _, err := Parse(damaged); err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Errorf("a damaged phase net: %v, want a checksum error", err)
	}
	// Two nets of the same phase, and a phase net of other inputs.
	for name, phases := range map[string][]*Net{"twice": {race, race}, "inputs": {other}} {
		n := randomNet(t, 12, 4, 7)
		n.Phases = phases
		buf.Reset()
		if err := n.Write(&buf); err != nil {
			t.Fatal(err)
		}
		if _, err := Parse(buf.Bytes()); err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want a one-line error", name, err)
		}
	}
}
