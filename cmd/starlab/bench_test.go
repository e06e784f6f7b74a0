package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"starlab/runs"
	"starlab/search/bench"
)

const benchTestSuite = "../../search/dice/suites/dice5x5-4.suite"

func runBench(t *testing.T, ctx context.Context, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return runCtx(t, ctx, append([]string{"bench"}, args...)...)
}

func TestBenchJSON(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "b")
	code, stdout, stderr := runBench(t, context.Background(), "-algos", "expectimax,star2,staretc", "-depths", "3,5",
		"-limit", "5", "-tt", "4", "-out", dir, "-json", benchTestSuite)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if stderr != "" {
		t.Errorf("stderr %q, want nothing (no terminal, -json)", stderr)
	}
	if strings.Count(stdout, "\n") != 1 {
		t.Errorf("stdout has %d lines, want one JSON object", strings.Count(stdout, "\n"))
	}
	var sum struct {
		Format    string   `json:"format"`
		Positions int      `json:"positions"`
		Algos     []string `json:"algos"`
		Depths    []int    `json:"depths"`
		RunDir    string   `json:"run_dir"`
		Results   []struct {
			Depth int `json:"depth"`
			Algos []struct {
				Algo  string `json:"algo"`
				Nodes struct {
					Min, Max, Mean, Median, Std *float64
				} `json:"nodes"`
				TimeMS struct {
					Min, Max, Mean, Median, Std *float64
				} `json:"time_ms"`
				TotalNodes   int64               `json:"total_nodes"`
				NodesPerS    *float64            `json:"nodes_per_s"`
				MeanRatio    *float64            `json:"mean_ratio_vs_first"`
				RatioOfMeans map[string]*float64 `json:"ratio_of_means"`
			} `json:"algos"`
		} `json:"results"`
		SoundAlgos    int               `json:"sound_algos"`
		SoundAgree    bool              `json:"sound_agree"`
		Disagreements []json.RawMessage `json:"disagreements"`
	}
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, stdout)
	}
	if sum.Format != bench.Format || sum.Positions != 5 || strings.Join(sum.Algos, ",") != "expectimax,star2,staretc" || len(sum.Depths) != 2 || sum.RunDir != dir {
		t.Errorf("summary header %+v", sum)
	}
	if !sum.SoundAgree || sum.SoundAlgos != 3 || sum.Disagreements == nil || len(sum.Disagreements) != 0 {
		t.Errorf("sound_agree %v, sound_algos %d, disagreements %v", sum.SoundAgree, sum.SoundAlgos, sum.Disagreements)
	}
	if len(sum.Results) != 2 || sum.Results[0].Depth != 3 || sum.Results[1].Depth != 5 {
		t.Fatalf("results %+v, want depths 3 and 5", sum.Results)
	}
	for _, r := range sum.Results {
		if len(r.Algos) != 3 {
			t.Fatalf("depth %d: %d algorithms, want 3", r.Depth, len(r.Algos))
		}
		for i, a := range r.Algos {
			n := a.Nodes
			if n.Min == nil || n.Max == nil || n.Mean == nil || n.Median == nil || n.Std == nil || a.TimeMS.Mean == nil {
				t.Fatalf("depth %d %s: missing statistics", r.Depth, a.Algo)
			}
			if !(*n.Min >= 1 && *n.Min <= *n.Median && *n.Median <= *n.Max && *n.Min <= *n.Mean && *n.Mean <= *n.Max && *n.Std >= 0) {
				t.Errorf("depth %d %s: nodes min %v median %v mean %v max %v std %v out of order", r.Depth, a.Algo, *n.Min, *n.Median, *n.Mean, *n.Max, *n.Std)
			}
			if a.TotalNodes != int64(*n.Mean*5+0.5) {
				t.Errorf("depth %d %s: total nodes %d, mean %v over 5 positions", r.Depth, a.Algo, a.TotalNodes, *n.Mean)
			}
			if a.NodesPerS == nil || *a.NodesPerS <= 0 {
				t.Errorf("depth %d %s: nodes/s %v", r.Depth, a.Algo, a.NodesPerS)
			}
			if i == 0 && (a.MeanRatio == nil || *a.MeanRatio != 1) {
				t.Errorf("depth %d %s: mean ratio to itself %v, want 1", r.Depth, a.Algo, a.MeanRatio)
			}
			if x := a.RatioOfMeans[a.Algo]; x == nil || *x != 1 {
				t.Errorf("depth %d %s: ratio of means to itself %v, want 1", r.Depth, a.Algo, x)
			}
		}
	}
	if r := sum.Results[1]; r.Algos[0].TotalNodes <= sum.Results[0].Algos[0].TotalNodes {
		t.Errorf("nodes to depth 5 (%d) not above nodes to depth 3 (%d): not cumulative?", r.Algos[0].TotalNodes, sum.Results[0].Algos[0].TotalNodes)
	}

	// summary.json is the same object.
	data, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var a, b any
	if err := json.Unmarshal(data, &a); err != nil {
		t.Fatal(err)
	}
	_ = json.Unmarshal([]byte(stdout), &b)
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if !bytes.Equal(ja, jb) {
		t.Errorf("summary.json differs from the -json output")
	}

	m, err := runs.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if mf := m.Manifest(); mf.Status != runs.StatusDone || mf.Command != "bench" {
		t.Errorf("manifest status %q command %q, want done bench", mf.Status, mf.Command)
	}

	path := filepath.Join(dir, "bench.parquet")
	rows, err := parquet.ReadFile[bench.Row](path)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3*5*2 {
		t.Fatalf("%d rows, want %d", len(rows), 3*5*2)
	}
	score := map[[2]int32]float64{}
	for _, r := range rows {
		if r.Position < 1 || r.Position > 5 || (r.Depth != 3 && r.Depth != 5) || r.SearchedDepth > r.Depth || r.Nodes < 1 || r.Notation == "" || !r.Sound {
			t.Errorf("bad row %+v", r)
		}
		k := [2]int32{r.Position, r.Depth}
		if v, ok := score[k]; ok && v != r.Score && (v-r.Score > 1e-9 || r.Score-v > 1e-9) {
			t.Errorf("position %d depth %d: %s scores %v, another algorithm %v", r.Position, r.Depth, r.Algo, r.Score, v)
		}
		score[k] = r.Score
	}

	// Standard column types, so that any Parquet reader takes the file.
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, _ := f.Stat()
	pf, err := parquet.OpenFile(f, fi.Size())
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := pf.Lookup("starlab.format"); !ok || v != bench.Format {
		t.Errorf("starlab.format metadata %q, want %q", v, bench.Format)
	}
	want := map[string]parquet.Kind{
		"algo": parquet.ByteArray, "notation": parquet.ByteArray, "position": parquet.Int32, "depth": parquet.Int32,
		"searched_depth": parquet.Int32, "nodes": parquet.Int64, "time_ms": parquet.Double, "score": parquet.Double,
		"nodes_per_s": parquet.Double, "sound": parquet.Boolean, "alpha_beta": parquet.Int64, "tt_cut_move": parquet.Int64,
		"tt_cut_chance": parquet.Int64, "etc_cut": parquet.Int64, "star2_cut": parquet.Int64, "star1_cut": parquet.Int64,
		"cpc_cut": parquet.Int64,
	}
	fields := pf.Schema().Fields()
	if len(fields) != len(want) {
		t.Errorf("%d columns, want %d", len(fields), len(want))
	}
	for _, fd := range fields {
		k, ok := want[fd.Name()]
		if !ok {
			t.Errorf("unexpected column %q", fd.Name())
			continue
		}
		if got := fd.Type().Kind(); got != k {
			t.Errorf("column %s: kind %v, want %v", fd.Name(), got, k)
		}
		if fd.Optional() || fd.Repeated() {
			t.Errorf("column %s is not required", fd.Name())
		}
		if k == parquet.ByteArray {
			if lt := fd.Type().LogicalType(); lt == nil || lt.String() != "STRING" {
				t.Errorf("column %s: logical type %v, want STRING", fd.Name(), lt)
			}
		}
	}
}

func TestBenchTables(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "b")
	code, stdout, stderr := runBench(t, context.Background(), "-algos", "expectimax,staretc,cpc", "-depths", "2",
		"-limit", "3", "-tt", "4", "-out", dir, benchTestSuite)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	for _, s := range []string{"Depth 2", "nodes", "time (ms)", "median", "std", "nodes/s", "row/column", "mean of ratios to expectimax",
		"sound algorithms agree on all 3 positions x 1 depths"} {
		if !strings.Contains(stdout, s) {
			t.Errorf("output lacks %q:\n%s", s, stdout)
		}
	}
}

func TestBenchBadInput(t *testing.T) {
	tmp := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string // in the one-line message
	}{
		{"unknown algo", []string{"-algos", "expectimax,star9"}, 2, `"star9"`},
		{"repeated algo", []string{"-algos", "star1,star1"}, 2, "star1 given twice"},
		{"missing suite", []string{filepath.Join(tmp, "nope.suite")}, 2, "nope.suite"},
		{"bad depth list", []string{"-depths", "3,x"}, 2, `"x"`},
		{"zero depth", []string{"-depths", "0,3"}, 2, `"0"`},
		{"negative limit", []string{"-limit", "-1"}, 2, "-limit"},
		{"flag given twice", []string{"-tt", "4", "-tt", "8"}, 2, "-tt is given twice"},
		{"bad engine flag", []string{"-tt", "-1"}, 2, "-tt"},
		{"option no algorithm reads", []string{"-algos", "staretc", "-t", "1"}, 2, "does not read"},
		{"huge table", []string{"-tt", "8796093022208"}, 2, "-tt"},
		{"two suites", []string{benchTestSuite, benchTestSuite}, 2, "at most one SUITE"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(tmp, strings.ReplaceAll(tc.name, " ", "-"))
			args := []string{"-out", out}
			for flag, def := range map[string]string{"-depths": "3", "-limit": "1"} {
				if !slices.Contains(tc.args, flag) {
					args = append(args, flag, def)
				}
			}
			args = append(args, tc.args...)
			if len(tc.args) == 0 || !strings.HasSuffix(tc.args[len(tc.args)-1], ".suite") {
				args = append(args, benchTestSuite)
			}
			code, stdout, stderr := runBench(t, context.Background(), args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr %q", code, tc.code, stderr)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
			first, _, _ := strings.Cut(stderr, "\n")
			if !strings.HasPrefix(first, "starlab bench: ") || !strings.Contains(first, tc.want) {
				t.Errorf("first stderr line %q, want a message naming %s", first, tc.want)
			}
			if n := strings.Count(stderr, "\n"); n != 1 {
				t.Errorf("stderr has %d lines, want 1: %q", n, stderr)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("run directory %s created on bad input", out)
			}
		})
	}
}

func TestBenchCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	dir := filepath.Join(t.TempDir(), "b")
	code, _, stderr := runBench(t, ctx, "-algos", "star1", "-depths", "3", "-limit", "2", "-tt", "4", "-out", dir, benchTestSuite)
	if code != 1 || !strings.Contains(stderr, "interrupted") {
		t.Errorf("exit %d, stderr %q; want 1 and interrupted", code, stderr)
	}
	m, err := runs.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if mf := m.Manifest(); mf.Status != runs.StatusFailed || mf.Error != runs.Interrupted {
		t.Errorf("manifest status %q error %q, want failed, interrupted", mf.Status, mf.Error)
	}
	if _, err := os.Stat(filepath.Join(dir, "bench.parquet")); err == nil {
		t.Errorf("bench.parquet written by a canceled run")
	}
}
