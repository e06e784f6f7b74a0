package nn

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// randomNet returns a net of in inputs and h hidden units with random
// weights, of a made-up game.
func randomNet(t testing.TB, in, h int, seed uint64) *Net {
	t.Helper()
	net, err := New(in, h, rand.New(rand.NewPCG(seed, 1)), 0.5)
	if err != nil {
		t.Fatal(err)
	}
	net.Game, net.Variant, net.VariantKey = "test", "v1", []int{in}
	return net
}

// randomInput returns an input vector of len in, a third of it non-zero.
func randomInput(rng *rand.Rand, in int) []float64 {
	x := make([]float64, in)
	for i := range x {
		if rng.IntN(3) == 0 {
			x[i] = rng.Float64()
		}
	}
	return x
}

// TestAct: the activation is odd, bounded by 1, close to tanh, and its
// slope is the derivative of its value.
func TestAct(t *testing.T) {
	for x := -5.0; x <= 5; x += 0.01 {
		if d := Act(x) - math.Tanh(x); math.Abs(d) > 0.025 || Act(-x) != -Act(x) || math.Abs(Act(x)) > 1 {
			t.Fatalf("Act(%v) = %v, tanh %v", x, Act(x), math.Tanh(x))
		}
		const eps = 1e-6
		if fd := (Act(x+eps) - Act(x-eps)) / (2 * eps); math.Abs(fd-actSlope(x)) > 1e-6 {
			t.Fatalf("slope at %v: %v, finite difference %v", x, actSlope(x), fd)
		}
	}
}

// TestGradient: backpropagation agrees with central finite differences on
// random nets and inputs.
func TestGradient(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 20; trial++ {
		net := randomNet(t, []int{30, 62, 110}[trial%3], []int{1, 10, 13}[trial%3], uint64(trial))
		x := randomInput(rng, net.In)
		h := make([]float64, 2*net.H)
		g := net.NewGrad()
		net.Backward(x, h, g)
		name := fmt.Sprintf("trial %d", trial)
		checkFirstLayer(t, net, x, h, g, rng, name)
		for j := range net.W2 {
			checkSlope(t, net, x, h, name+" W2", &net.W2[j], g.W2[j])
		}
		checkSlope(t, net, x, h, name+" B2", &net.B2, g.B2)
	}
}

// checkFirstLayer checks backpropagation's derivatives g of net's value
// at x against finite differences (checkSlope) for 30 first-layer weights
// drawn by rng and every hidden bias.
func checkFirstLayer(t *testing.T, net *Net, x, h []float64, g *Grad, rng *rand.Rand, name string) {
	t.Helper()
	for k := 0; k < 30; k++ {
		i := rng.IntN(len(net.W1))
		checkSlope(t, net, x, h, name+" W1", &net.W1[i], g.W1[i])
	}
	for j := range net.B1 {
		checkSlope(t, net, x, h, name+" B1", &net.B1[j], g.B1[j])
	}
}

// checkSlope fails the test unless got, backpropagation's derivative of
// net's value at x with respect to the weight w, agrees with the central
// finite difference. h is Forward's scratch.
func checkSlope(t *testing.T, net *Net, x, h []float64, name string, w *float64, got float64) {
	t.Helper()
	const eps = 1e-6
	old := *w
	*w = old + eps
	up := net.Forward(x, h)
	*w = old - eps
	down := net.Forward(x, h)
	*w = old
	want := (up - down) / (2 * eps)
	if math.Abs(got-want) > 1e-7*math.Max(1, math.Abs(want)) {
		t.Fatalf("%s: backprop %.10g, finite difference %.10g", name, got, want)
	}
}

// TestUpdateIsBackwardAndStep: the sparse update equals backpropagation
// followed by a gradient step.
func TestUpdateIsBackwardAndStep(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 13))
	for trial := 0; trial < 20; trial++ {
		a := randomNet(t, 62, 10, uint64(trial))
		b := a.Clone()
		x := randomInput(rng, a.In)
		h := make([]float64, 2*a.H)
		g := a.NewGrad()
		va := a.Backward(x, h, g)
		a.Step(g, 0.3)
		vb := b.Forward(x, h)
		b.Update(x, h, vb, 0.3)
		if va != vb || b.B2 != a.B2 {
			t.Fatalf("values %v %v, B2 %v %v", va, vb, a.B2, b.B2)
		}
		for k, w := range [][2][]float64{{a.W1, b.W1}, {a.B1, b.B1}, {a.W2, b.W2}} {
			for i := range w[0] {
				if math.Abs(w[0][i]-w[1][i]) > 1e-15 {
					t.Fatalf("trial %d array %d [%d]: %v vs %v", trial, k, i, w[0][i], w[1][i])
				}
			}
		}
	}
}

// TestSetWeights: SetWeights makes a net equal to another of its
// layout, deeper layers included, in arrays of its own.
func TestSetWeights(t *testing.T) {
	for _, layout := range [][]int{{10}, {12, 6, 4}} {
		a, err := NewLayout(62, layout, rand.New(rand.NewPCG(1, 1)), 0.5)
		if err != nil {
			t.Fatal(err)
		}
		b, err := NewLayout(62, layout, rand.New(rand.NewPCG(2, 1)), 0.5)
		if err != nil {
			t.Fatal(err)
		}
		b.B2 = 0.25
		w1 := &a.W1[0]
		a.SetWeights(b)
		if a.Checksum() != b.Checksum() || &a.W1[0] != w1 {
			t.Fatalf("layout %v: after SetWeights net %s, want %s, in its own arrays", layout, a.ID(), b.ID())
		}
		b.W1[0]++
		if a.W1[0] == b.W1[0] {
			t.Fatalf("layout %v: the copy shares the source's weights", layout)
		}
	}
}

// TestAccumulator: pre-activations built with AddInput from B1 and
// finished by Output give exactly Forward's value, and taking an input
// back with AddInput(-x) returns the accumulator to where it was.
func TestAccumulator(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 15))
	for trial := 0; trial < 20; trial++ {
		net := randomNet(t, []int{30, 62, 174}[trial%3], []int{1, 10, 15}[trial%3], uint64(trial))
		x := randomInput(rng, net.In)
		acc := slices.Clone(net.B1)
		for i, xi := range x {
			if xi != 0 {
				net.AddInput(acc, i, xi)
			}
		}
		h := make([]float64, 2*net.H)
		if got, want := net.Output(acc), net.Forward(x, h); got != want || !slices.Equal(acc, h[net.H:]) {
			t.Fatalf("trial %d: Output %v, Forward %v", trial, got, want)
		}
		before := slices.Clone(acc)
		i := rng.IntN(net.In)
		net.AddInput(acc, i, 1)
		net.AddInput(acc, i, -1)
		for j := range acc {
			if math.Abs(acc[j]-before[j]) > 1e-12 {
				t.Fatalf("trial %d: input %d added and taken back moves unit %d from %v to %v", trial, i, j, before[j], acc[j])
			}
		}
	}
}

// checksum is the checksum's definition written out again: SHA-256 of
// the variant key, inputs and hidden units as little-endian 64-bit
// integers, then w1, b1, w2, b2 as little-endian float64s.
func checksum(key []int, net *Net) string {
	var data []byte
	for _, v := range append(slices.Clone(key), net.In, net.H) {
		data = binary.LittleEndian.AppendUint64(data, uint64(v))
	}
	for _, w := range [][]float64{net.W1, net.B1, net.W2, {net.B2}} {
		for _, x := range w {
			data = binary.LittleEndian.AppendUint64(data, math.Float64bits(x))
		}
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// writeFile writes data to dir/name and returns the path.
func writeFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := dir + "/" + name
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// replace1 returns data with old replaced by new once, failing the test
// when old is not there (a damage that damages nothing checks nothing).
func replace1(t *testing.T, data []byte, old, new string) []byte {
	t.Helper()
	if !bytes.Contains(data, []byte(old)) {
		t.Fatalf("%q is not in the file", old)
	}
	return bytes.Replace(data, []byte(old), []byte(new), 1)
}

// TestWeightFile: a written net loads back bit for bit, with its game,
// variant and checksum; a truncated, corrupted, wrong-size, wrong-version
// or nameless file is refused in one line that names the file.
func TestWeightFile(t *testing.T) {
	dir := t.TempDir()
	net := randomNet(t, 62, 10, 11)
	net.Meta.Games = 123
	var buf bytes.Buffer
	if err := net.Write(&buf); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	path := writeFile(t, dir, "net.json", data)
	back, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if back.Checksum() != net.Checksum() || back.Checksum() != checksum([]int{62}, net) || back.Meta.Games != 123 ||
		back.Game != "test" || back.Variant != "v1" || !slices.Equal(back.VariantKey, []int{62}) ||
		!slices.Equal(back.W1, net.W1) || !slices.Equal(back.B1, net.B1) || !slices.Equal(back.W2, net.W2) || back.B2 != net.B2 {
		t.Fatal("the net read back differs")
	}
	if !bytes.Contains(data, []byte(`"version": 2,`)) || !bytes.Contains(data, []byte(`"sha256": "`+net.Checksum()+`"`)) {
		t.Fatalf("the file is not version 2 with the net's checksum:\n%.300s", data)
	}
	bad := map[string][]byte{
		"truncated":      data[:len(data)/2],
		"corrupted":      replace1(t, data, `"b2": 0`, `"b2": 0.5`),
		"key changed":    replace1(t, data, "\"variant_key\": [\n  62", "\"variant_key\": [\n  63"),
		"wrong size":     replace1(t, data, `"inputs": 62`, `"inputs": 61`),
		"too wide":       replace1(t, data, `"hidden": 10`, `"hidden": 5000`),
		"wrong version":  replace1(t, data, `"version": 2`, `"version": 9`),
		"no game":        replace1(t, data, `"game": "test"`, `"game": ""`),
		"activation":     replace1(t, data, `"activation": "tanh"`, `"activation": "relu"`),
		"not a net":      []byte(`{"format": "starlab-probcut", "version": 1}`),
		"unknown field":  replace1(t, data, `"game"`, `"gamez": 1, "game"`),
		"v1 field in v2": replace1(t, data, `"game"`, `"n": 5, "game"`),
		"trailing data":  append(slices.Clone(data), "{}"...),
		"negative games": replace1(t, data, `"games": 123`, `"games": -123`),
		"empty":          nil,
		"garbage":        []byte("\x00\xff\xfe"),
	}
	want := map[string]string{"truncated": "truncated JSON", "corrupted": "damaged", "key changed": "damaged", "wrong size": "weight arrays",
		"too wide": "5000 hidden units", "wrong version": "version 9", "no game": "game", "activation": "relu", "not a net": "format",
		"unknown field": "unknown field", "v1 field in v2": `unknown field "n"`, "trailing data": "data after", "negative games": "games -123",
		"empty": "JSON", "garbage": "JSON"}
	for name, b := range bad {
		p := writeFile(t, dir, strings.ReplaceAll(name, " ", "-")+".json", b)
		_, err := Load(p)
		if err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), want[name]) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line naming %s and %q", name, err, p, want[name])
		}
	}
}

// TestVersion1File: a version-1 file, which gave a Dice net's n and m
// instead of a game and variant, reads as game "dice", variant
// "<n>x<n>-<m>", variant key (n, m), with the checksum it was written with
// (n, m, inputs, hidden, weights); written again it is a version-2 file of
// the same checksum. A version-2 field in it is unknown.
func TestVersion1File(t *testing.T) {
	dir := t.TempDir()
	net := randomNet(t, 12+2*7*7, 15, 3)
	sum := checksum([]int{7, 5}, net)
	num := func(w []float64) string {
		var b strings.Builder
		for i, x := range w {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(strconv.FormatFloat(x, 'g', -1, 64))
		}
		return "[" + b.String() + "]"
	}
	v1 := []byte(`{"format": "starlab-net", "version": 1, "n": 7, "m": 5, "inputs": 110, "hidden": 15, "activation": "tanh", ` +
		`"meta": {"games": 7, "source": "test", "settings": {"n": 7}}, "w1": ` + num(net.W1) + `, "b1": ` + num(net.B1) +
		`, "w2": ` + num(net.W2) + `, "b2": 0, "sha256": "` + sum + `"}`)
	got, err := Load(writeFile(t, dir, "v1.json", v1))
	if err != nil {
		t.Fatal(err)
	}
	if got.Game != "dice" || got.Variant != "7x7-5" || !slices.Equal(got.VariantKey, []int{7, 5}) || got.Checksum() != sum || got.Meta.Games != 7 {
		t.Fatalf("version 1 read as game %q variant %q key %v checksum %s, want dice 7x7-5 [7 5] %s", got.Game, got.Variant, got.VariantKey, got.Checksum(), sum)
	}
	var buf bytes.Buffer
	if err := got.Write(&buf); err != nil {
		t.Fatal(err)
	}
	again, err := Parse(buf.Bytes())
	if err != nil || again.Checksum() != sum || again.Game != "dice" || again.Variant != "7x7-5" || !bytes.Contains(buf.Bytes(), []byte(`"version": 2,`)) {
		t.Fatalf("written again: %v, checksum %s, want %s", err, again.Checksum(), sum)
	}
	for name, c := range map[string]struct{ old, new, want string }{
		"v2 field":  {`"n": 7`, `"game": "dice", "n": 7`, `unknown field "game"`},
		"n changed": {`"n": 7`, `"n": 8`, "damaged"},
		"m changed": {`"m": 5`, `"m": 4`, "damaged"},
	} {
		p := writeFile(t, dir, strings.ReplaceAll(name, " ", "-")+".json", replace1(t, v1, c.old, c.new))
		if _, err := Load(p); err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: error %v, want %q", name, err, c.want)
		}
	}
}

// BenchmarkForward prices a full forward pass of a 5x5 Dice-sized net
// (62 inputs, 10 hidden units) over an input a third of it set.
func BenchmarkForward(b *testing.B) {
	net := randomNet(b, 62, 10, 1)
	x := randomInput(rand.New(rand.NewPCG(1, 2)), net.In)
	h := make([]float64, net.H)
	b.ReportAllocs()
	s := 0.0
	for b.Loop() {
		s += net.Forward(x, h)
	}
	sink = s
}

// BenchmarkOutput prices finishing the forward pass from an accumulator:
// what an incremental evaluator pays at a leaf besides its updates.
func BenchmarkOutput(b *testing.B) {
	net := randomNet(b, 62, 10, 1)
	acc := slices.Clone(net.B1)
	b.ReportAllocs()
	s := 0.0
	for b.Loop() {
		s += net.Output(acc)
	}
	sink = s
}

var sink float64

// TestWiden: a widened net values every input exactly as the net does, by
// Forward and by the kernel, keeps the net's weights, grows its new units
// by training, and is refused narrower or with deeper layers.
func TestWiden(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 19))
	for trial := 0; trial < 30; trial++ {
		net := randomNet(t, []int{30, 62, 174}[trial%3], []int{1, 10, 15}[trial%3], uint64(trial))
		h := net.H + []int{0, 1, 7, 40}[trial%4]
		wide, err := net.Widen(h, rand.New(rand.NewPCG(uint64(trial), 2)), 0.5)
		if err != nil {
			t.Fatal(err)
		}
		if wide.H != h || wide.Game != net.Game || !slices.Equal(wide.B1[:net.H], net.B1) || !slices.Equal(wide.W2[:net.H], net.W2) || wide.B2 != net.B2 {
			t.Fatalf("trial %d: widened to %d units, got %d, or the net's weights changed", trial, h, wide.H)
		}
		for i := 0; i < net.In; i++ {
			if !slices.Equal(wide.W1[i*h:][:net.H], net.W1[i*net.H:][:net.H]) {
				t.Fatalf("trial %d: input %d's weights changed", trial, i)
			}
		}
		if err := wide.check(); err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		for n := 0; n < 5; n++ {
			x := randomInput(rng, net.In)
			if a, b := net.Forward(x, make([]float64, net.H)), wide.Forward(x, make([]float64, h)); a != b {
				t.Fatalf("trial %d: Forward %v, widened %v", trial, a, b)
			}
			kn, kw := NewKernel(net), NewKernel(wide)
			an, aw, col := slices.Clone(kn.B1), slices.Clone(kw.B1), make([]float64, kw.H)
			for i, xi := range x {
				if xi != 0 {
					kn.Column(col, i)
					for j := range an {
						an[j] += xi * col[j]
					}
					kw.Column(col, i)
					for j := range aw {
						aw[j] += xi * col[j]
					}
				}
			}
			if a, b := kn.Value(an), kw.Value(aw); a != b {
				t.Fatalf("trial %d: kernel value %v, widened %v", trial, a, b)
			}
		}
		if h > net.H {
			x := randomInput(rng, net.In)
			hid := make([]float64, 2*h)
			wide.Update(x, hid, wide.Forward(x, hid), 0.1)
			if wide.W2[h-1] == 0 {
				t.Fatalf("trial %d: a step of training leaves the new unit's output weight 0", trial)
			}
		}
	}
	net := randomNet(t, 10, 8, 1)
	if _, err := net.Widen(7, rand.New(rand.NewPCG(1, 2)), 0.1); err == nil || !strings.Contains(err.Error(), "8") {
		t.Errorf("narrowing 8 units to 7: %v", err)
	}
	deep, err := NewLayout(10, []int{8, 4}, rand.New(rand.NewPCG(1, 2)), 0.1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := deep.Widen(16, rand.New(rand.NewPCG(1, 2)), 0.1); err == nil {
		t.Error("a net of two hidden layers widened")
	}
}
