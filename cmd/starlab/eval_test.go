package main

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"starlab/runs"
	"starlab/search/dice"
)

func writeNet(t *testing.T, n, m int) string {
	t.Helper()
	net, err := dice.NewNet(n, m, rand.New(rand.NewPCG(1, 2)), 0.3)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "net.json")
	if err := runs.WriteFileAtomic(path, net.Write); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestEvalAndSearchWithNet: a weight file drives eval, search and a match
// variant; a net of another board size and a bad file are refused in one
// line.
func TestEvalAndSearchWithNet(t *testing.T) {
	net := writeNet(t, 5, 4)
	code, stdout, stderr := runCmd(t, "eval", "-eval", "mlp,pairs", "-net", net, "-depth", "3", "-json", exampleDPN)
	if code != 0 {
		t.Fatalf("eval: exit %d: %s", code, stderr)
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(stdout), &obj); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"dpn", "mlp", "pairs", "mlp_d3", "pairs_d3"} {
		v, ok := obj[k]
		if !ok {
			t.Fatalf("eval -json lacks %q: %s", k, stdout)
		}
		if f, isNum := v.(float64); isNum && (f < -1 || f > 1) {
			t.Fatalf("%s = %v outside [-1, 1]", k, f)
		}
	}
	code, stdout, stderr = runCmd(t, "search", "-eval", "mlp", "-net", net, "-depth", "5", exampleDPN)
	if code != 0 || !strings.Contains(stdout, "eval=mlp") {
		t.Fatalf("search with a net: exit %d, %s %s", code, stdout, stderr)
	}
	code, _, stderr = runMatch(t, "staretc:depth=1,eval=mlp,net="+net, "staretc:depth=1", "-games", "4", "-json", "-out", filepath.Join(t.TempDir(), "m"))
	if code != 0 {
		t.Fatalf("match with a net: exit %d: %s", code, stderr)
	}
	// Without -net, mlp is the built-in net of the board size.
	code, stdout, stderr = runCmd(t, "search", "-eval", "mlp", "-depth", "3", "-json", exampleDPN)
	if code != 0 || !strings.Contains(stdout, `"depth":3`) {
		t.Fatalf("search with the built-in net: exit %d, %s %s", code, stdout, stderr)
	}
	other := writeNet(t, 7, 5)
	checkBadInput(t, []badInput{
		{[]string{"search", "-eval", "mlp", "-net", other, exampleDPN}, 2, "7x7"},
		{[]string{"eval", "-eval", "mlp", "-net", other, exampleDPN}, 2, "7x7"},
		{[]string{"match", "staretc:depth=1,eval=mlp,net=" + other, "staretc:depth=1", "-games", "2"}, 2, "7x7"},
		{[]string{"search", "-eval", "mlp", "-net", exampleDPN + ".json", exampleDPN}, 2, "net file"},
		{[]string{"eval", "-eval", "nn", exampleDPN}, 2, "eval=nn is not an evaluator of dice"},
		{[]string{"eval", "-eval", "mlp", "6 4 b -1" + strings.Repeat(" -", 36)}, 2, "no network is built in for 6x6"},
		{[]string{"eval"}, 2, "missing DPN"},
	})
}

// TestEvalExactError: on a suite with exact values, eval reports each
// column's mean absolute error against them with its standard error (the
// figures recomputed here from its own per-position JSON), and the best
// constant's; the text says the same.
func TestEvalExactError(t *testing.T) {
	const suite = "../../search/testdata/endgame5x5-4.suite"
	code, stdout, stderr := runCmd(t, "eval", "-suite", suite, "-eval", "pairs", "-depth", "3", "-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	var sum struct {
		ExactError []struct {
			Name    string
			N       int
			MAE, SE float64
		} `json:"exact_error"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &sum); err != nil {
		t.Fatal(err)
	}
	var static, deep float64
	for _, l := range lines[:len(lines)-1] {
		var p struct{ Exact, Pairs, PairsD3 float64 }
		var raw map[string]float64
		json.Unmarshal([]byte(l), &raw) // the position's notation is not a number
		p.Exact, p.Pairs, p.PairsD3 = raw["exact"], raw["pairs"], raw["pairs_d3"]
		static += math.Abs(p.Pairs - p.Exact)
		deep += math.Abs(p.PairsD3 - p.Exact)
	}
	n := float64(len(lines) - 1)
	if len(sum.ExactError) != 3 || sum.ExactError[0].N != 50 || math.Abs(sum.ExactError[0].MAE-static/n) > 1e-12 ||
		math.Abs(sum.ExactError[1].MAE-deep/n) > 1e-12 || !strings.HasPrefix(sum.ExactError[2].Name, "constant") || sum.ExactError[0].SE <= 0 {
		t.Fatalf("exact errors %+v; recomputed static %v, depth 3 %v over %v positions", sum.ExactError, static/n, deep/n, n)
	}
	code, text, _ := runCmd(t, "eval", "-suite", suite, "-eval", "pairs")
	if code != 0 || !strings.Contains(text, "mean absolute error against the suite's exact values") {
		t.Errorf("the text has no exact errors:\n%s", text)
	}
}
