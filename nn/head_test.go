package nn

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// outcomeValue is backgammon money's: (2·win - 1 + gammons and
// backgammons won - those lost) / 3.
var outcomeValue = []float64{-1.0 / 3, 2.0 / 3, 1.0 / 3, 1.0 / 3, -1.0 / 3, -1.0 / 3}

// headNet returns a random net with a Head of outcomeValue's outputs.
func headNet(t testing.TB, in, h int, seed uint64) *Net {
	t.Helper()
	net := randomNet(t, in, h, seed)
	if err := net.NewHead(outcomeValue, rand.New(rand.NewPCG(seed, 9)), 0.5); err != nil {
		t.Fatal(err)
	}
	for k := range net.Head.B {
		net.Head.B[k] = 0.3 * float64(k-2)
	}
	return net
}

// TestHeadGradient: the value of a net with a Head is its combination of
// the outputs' probabilities, and backpropagation of it agrees with
// central finite differences.
func TestHeadGradient(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 12; trial++ {
		net := headNet(t, []int{30, 62}[trial%2], []int{1, 10, 13}[trial%3], uint64(trial))
		x := randomInput(rng, net.In)
		h := make([]float64, 2*net.H)
		var p [MaxOutputs]float64
		v := net.Probs(x, h, p[:])
		want := outcomeValue[0]
		for k := 0; k < 5; k++ {
			if p[k] <= 0 || p[k] >= 1 {
				t.Fatalf("trial %d: output %d is %v, not a probability", trial, k, p[k])
			}
			want += outcomeValue[k+1] * p[k]
		}
		if math.Abs(v-want) > 1e-15 || net.Forward(x, h) != v {
			t.Fatalf("trial %d: value %v, Forward %v, the outputs' combination %v", trial, v, net.Forward(x, h), want)
		}
		g := net.NewGrad()
		if got := net.Backward(x, h, g); got != v {
			t.Fatalf("trial %d: Backward's value %v, Forward's %v", trial, got, v)
		}
		name := fmt.Sprintf("trial %d", trial)
		checkFirstLayer(t, net, x, h, g, rng, name)
		for i := range net.Head.W {
			checkSlope(t, net, x, h, name+" head W", &net.Head.W[i], g.HeadW[i])
		}
		for k := range net.Head.B {
			checkSlope(t, net, x, h, name+" head B", &net.Head.B[k], g.HeadB[k])
		}
	}
}

// TestStepProbs: StepProbs steps each output along its own gradient,
// weighted by c: it equals Step with the gradient of Σ c_k·p_k, which a
// net whose value is that combination backpropagates; and Update, TD(0)'s
// step of the value, is StepProbs with the value's own weights.
func TestStepProbs(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 12; trial++ {
		a := headNet(t, 62, 10, uint64(trial))
		c := []float64{0, rng.Float64() - 0.5, rng.Float64() - 0.5, rng.Float64() - 0.5, rng.Float64() - 0.5, rng.Float64() - 0.5}
		b := a.Clone()
		b.Head.Value = c // b's value is Σ c_k·p_k
		x := randomInput(rng, a.In)
		h := make([]float64, 2*a.H)
		g := b.NewGrad()
		b.Backward(x, h, g)
		b.Step(g, 0.3)
		var p [MaxOutputs]float64
		a.Probs(x, h, p[:])
		a.StepProbs(x, h, p[:5], c[1:], 0.3)
		d := a.Clone()
		d.Head.Value = c
		if diff := weightsDiffer(d, b, 1e-15); diff != "" {
			t.Fatalf("trial %d: StepProbs differs from Backward and Step: %s", trial, diff)
		}
		e, f := headNet(t, 62, 10, uint64(trial)), headNet(t, 62, 10, uint64(trial))
		g = e.NewGrad()
		e.Backward(x, h, g)
		e.Step(g, -0.2)
		v := f.Forward(x, h)
		f.Update(x, h, v, -0.2)
		if diff := weightsDiffer(e, f, 1e-15); diff != "" {
			t.Fatalf("trial %d: Update differs from Backward and Step: %s", trial, diff)
		}
	}
}

// weightsDiffer names the first weight of a and b, nets with Heads, that
// differ by more than tol, or returns "" when none does.
func weightsDiffer(a, b *Net, tol float64) string {
	for k, w := range [][2][]float64{{a.W1, b.W1}, {a.B1, b.B1}, {a.Head.W, b.Head.W}, {a.Head.B, b.Head.B}} {
		for i := range w[0] {
			if math.Abs(w[0][i]-w[1][i]) > tol {
				return fmt.Sprintf("array %d [%d]: %v vs %v", k, i, w[0][i], w[1][i])
			}
		}
	}
	return ""
}

// TestHeadAdam: Adam steps a Head's weights, and a net of one output's
// Adam is as it was (the Head adds no component to its gradient).
func TestHeadAdam(t *testing.T) {
	net := headNet(t, 12, 4, 3)
	before := net.Clone()
	x := randomInput(rand.New(rand.NewPCG(1, 2)), net.In)
	h := make([]float64, 2*net.H)
	g := net.NewGrad()
	net.Backward(x, h, g)
	NewAdam(net, 0.01).Step(net, g)
	for i := range net.Head.W {
		if net.Head.W[i] == before.Head.W[i] {
			t.Fatalf("Adam left head weight %d alone", i)
		}
	}
	if len(randomNet(t, 12, 4, 3).NewGrad().slices()) != 3 {
		t.Fatal("a net of one output's gradient has other components than W1, B1, W2")
	}
}

// TestHeadKernel: the kernel's value of a net with a Head is Forward's,
// by Output or, where the value weighs one output alone, as a tanh output.
func TestHeadKernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 21))
	for trial := 0; trial < 6; trial++ {
		checkKernelForward(t, headNet(t, 62, []int{10, 13, 80}[trial%3], uint64(trial)), rng, fmt.Sprint("trial ", trial))
		// A value of one output (a one-point net's 2·win - 1, and
		// another), which the kernel takes as a tanh output.
		for _, value := range [][]float64{{-1, 2, 0, 0, 0, 0}, {0.25, 0, 0, -0.5, 0, 0}} {
			net := headNet(t, 62, []int{10, 13, 80}[trial%3], uint64(trial))
			net.Head.Value = value
			if !NewKernel(net).byTanh {
				t.Fatalf("value %v: the kernel sums the outputs", value)
			}
			checkKernelForward(t, net, rng, fmt.Sprint("trial ", trial, " value ", value))
		}
	}
}

// TestHeadOutputFive: the output of a head of five outputs, each sum in a
// variable of its own, is the general loop's bit for bit, value and
// probabilities, over pre-activations that reach both of Act's clamps.
func TestHeadOutputFive(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 23))
	for _, h := range []int{1, 13, 80} {
		net := headNet(t, 62, h, uint64(h))
		if net.Head.K() != 5 {
			t.Fatalf("a head of %d outputs, want 5", net.Head.K())
		}
		pre := make([]float64, h)
		var p, q [MaxOutputs]float64
		for trial := 0; trial < 2000; trial++ {
			for j := range pre {
				pre[j] = 8 * (rng.Float64() - 0.5)
			}
			v, w := net.headOutput(pre, p[:]), net.headOutputAny(pre, q[:])
			if math.Float64bits(v) != math.Float64bits(w) || p != q {
				t.Fatalf("%d hidden units, trial %d: value %v and outputs %v, the general loop's %v and %v", h, trial, v, p[:5], w, q[:5])
			}
		}
	}
}

// TestHeadWeightFile: a net with a Head is a version-5 file that reads
// back as itself, with a phase net too; its checksum covers the outputs;
// a damaged or misplaced outputs field is refused in one line.
func TestHeadWeightFile(t *testing.T) {
	net := headNet(t, 12, 4, 7)
	plain := randomNet(t, 12, 4, 7)
	if net.Checksum() == plain.Checksum() {
		t.Fatal("the checksum does not see the outputs")
	}
	race := randomNet(t, 12, 3, 8)
	race.Phase = "race"
	for _, phases := range [][]*Net{nil, {race}} {
		net.Phases = phases
		var buf bytes.Buffer
		if err := net.Write(&buf); err != nil {
			t.Fatal(err)
		}
		data := bytes.Clone(buf.Bytes())
		if !bytes.Contains(data, []byte(`"version": 5`)) || !bytes.Contains(data, []byte(`"outputs": {`)) {
			t.Fatalf("a net with outputs is not version 5 with them:\n%.300s", data)
		}
		back, err := Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		if back.Checksum() != net.Checksum() || back.Head == nil || back.Head.K() != 5 || len(back.Phases) != len(phases) {
			t.Fatalf("read back %s, wrote %s", back.ID(), net.ID())
		}
		for _, bad := range []struct{ old, new, want string }{
			{`"version": 5`, `"version": 4`, "version-4"},
			{`"value": [`, `"value": [1, `, "value terms"},
			{`"w2": null`, `"w2": [1, 2, 3, 4]`, "w2"},
			{`"b": [`, `"b": [0.5, `, "outputs"},
		} {
			_, err := Parse(replace1(t, data, bad.old, bad.new))
			if err == nil || !strings.Contains(err.Error(), bad.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("%s -> %s: %v, want one line with %q", bad.old, bad.new, err, bad.want)
			}
		}
		i := bytes.Index(data, []byte(`"b": [`)) + len(`"b": [`)
		i += len(data[i:]) - len(bytes.TrimLeft(data[i:], " \n")) // the first bias
		damaged := append(append(bytes.Clone(data[:i]), []byte(`0.125`)...), data[i+bytes.IndexAny(data[i:], ",\n"):]...)
		if _, err := Parse(damaged); err == nil || !strings.Contains(err.Error(), "checksum") {
			t.Errorf("a damaged output bias: %v, want a checksum error", err)
		}
	}
	c := net.Clone()
	c.Head.W[0] += 1
	if net.Head.W[0] == c.Head.W[0] {
		t.Fatal("Clone shares the outputs' weights")
	}
	c.SetWeights(net)
	if c.Checksum() != net.Checksum() {
		t.Fatal("SetWeights does not copy the outputs' weights")
	}
	net.Phases = nil
	if _, err := net.Widen(8, rand.New(rand.NewPCG(1, 1)), 0.1); err == nil {
		t.Error("Widen widened a net with outputs of probabilities")
	}
	deep := deepNet(t, 12, []int{4, 3}, 1)
	if err := deep.NewHead(outcomeValue, rand.New(rand.NewPCG(1, 1)), 0.1); err == nil {
		t.Error("NewHead gave a net of two hidden layers outputs of probabilities")
	}
}
