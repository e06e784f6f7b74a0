package regression

import (
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat"

	"starlab/runs"
)

// TestChapterFiguresOnOurScale: the chapter's errors are its points
// divided by 10, written as JSON without float noise, and every row says
// so; its reductions are as printed.
func TestChapterFiguresOnOurScale(t *testing.T) {
	for _, c := range []struct {
		d                 int
		t                 float64
		red, acpcme, dcpc float64 // as printed in tables 5.6 to 5.8
	}{
		{9, 1.6, 0.274, 0.01, 0.05},
		{9, 0.05, 0.690, 0.18, 0.16},
		{11, 0.2, 0.643, 0.12, 0.19},
		{13, 0.2, 0.659, 0.13, 0.14},
		{13, 3.2, 0.166, 0.01, 0.02},
	} {
		r, a, d := diceGame.ChapterOf("5x5-4").Figures(c.d, c.t)
		if float64(r) != c.red || math.Abs(float64(a)-c.acpcme/10) > 1e-15 || math.Abs(float64(d)-c.dcpc/10) > 1e-15 {
			t.Errorf("depth %d t=%g: %v %v %v, want %v and the printed %v and %v / 10", c.d, c.t, r, a, d, c.red, c.acpcme, c.dcpc)
		}
	}
	// Table 5.10, ChanceBreakthrough's, on [-1500, 1500].
	for _, c := range []struct {
		t                 float64
		red, acpcme, dcpc float64
	}{{3.2, 0.516, 30.26, 172.66}, {1.6, 0.539, 32.02, 182.73}, {0.05, 0.772, 35.80, 192.30}} {
		r, a, d := breakthroughGame.ChapterOf("8x8").Figures(5, c.t)
		if float64(r) != c.red || math.Abs(float64(a)-c.acpcme/1500) > 1e-15 || math.Abs(float64(d)-c.dcpc/1500) > 1e-15 {
			t.Errorf("breakthrough t=%g: %v %v %v, want %v and the printed %v and %v / 1500", c.t, r, a, d, c.red, c.acpcme, c.dcpc)
		}
	}
	if r, _, _ := breakthroughGame.ChapterOf("8x8").Figures(9, 1.6); !math.IsNaN(r) {
		t.Errorf("breakthrough at depth 9: %v, want NaN (no table)", r)
	}
	rows := summarize([]TuneRecord{{Depth: 9, T: 1.6, Nodes: 1, BaseNodes: 2, Error: 0.01}, {Depth: 13, T: 0.2, Nodes: 1, BaseNodes: 2}},
		[]int{9, 13}, []float64{1.6, 0.2}, []string{"cpc:eval=mlp"}, diceGame.ChapterOf("5x5-4"))
	data, err := json.Marshal(rows)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"chapter_acpcme":0.001,`, `"chapter_dcpcme":0.005}`, `"chapter_acpcme":0.013,`, `"chapter_scale":"` + diceGame.ChapterOf("5x5-4").Scale() + `"`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("rows lack %s: %s", want, data)
		}
	}
}

// TestTuneStatsHandExample checks the standard errors against a hand
// computation and against gonum's moments.
func TestTuneStatsHandExample(t *testing.T) {
	// |errors| 0, 0, 0, 0.4: mean 0.1, deviations -0.1 (x3) and 0.3,
	// Σd² = 0.12, s² = 0.04, s = 0.2, SE(mean) = 0.2/2 = 0.1;
	// m4 = (3·0.0001 + 0.0081)/4 = 0.0021, s⁴ = 0.0016,
	// SE(s) = sqrt(0.0005/4)/(2·0.2) = 0.0279508...
	xs := []float64{0, 0, 0, 0.4}
	m, seM := meanSE(xs)
	s, seS := sdSE(xs)
	near := func(what string, got runs.Num, want float64) {
		t.Helper()
		if math.Abs(float64(got)-want) > 1e-12 {
			t.Errorf("%s = %.15g, want %.15g", what, got, want)
		}
	}
	near("mean", m, 0.1)
	near("SE(mean)", seM, 0.1)
	near("s", s, 0.2)
	near("SE(s)", seS, math.Sqrt(0.0005/4)/0.4)
	// The same from gonum's sample deviation and central moment.
	gs := stat.StdDev(xs, nil)
	m4 := stat.Moment(4, xs, nil)
	near("s (gonum)", s, gs)
	near("SE(s) (gonum)", seS, math.Sqrt((m4-math.Pow(gs, 4))/4)/(2*gs))

	// Nodes 50, 80, 30 against 100, 100, 50: q = 160/250 = 0.64,
	// R = 0.36; residuals -14, 16, -2, Σ² = 456, SE =
	// sqrt(456/6)·3/250.
	r, seR := reductionSE([]float64{50, 80, 30}, []float64{100, 100, 50})
	near("R", r, 0.36)
	near("SE(R)", seR, math.Sqrt(456.0/6)*3/250)
}

// TestTuneStatsDegenerate: a figure is undefined (NaN) where its formula
// is, and a deviation of equal values has no error.
func TestTuneStatsDegenerate(t *testing.T) {
	nan := func(x runs.Num) bool { return math.IsNaN(float64(x)) }
	if m, se := meanSE(nil); !nan(m) || !nan(se) {
		t.Errorf("mean of nothing %v ± %v", m, se)
	}
	if m, se := meanSE([]float64{0.3}); m != 0.3 || !nan(se) {
		t.Errorf("mean of one %v ± %v", m, se)
	}
	if s, se := sdSE([]float64{0.3}); !nan(s) || !nan(se) {
		t.Errorf("sd of one %v ± %v", s, se)
	}
	if s, se := sdSE([]float64{0.2, 0.2, 0.2}); s != 0 || se != 0 {
		t.Errorf("sd of equal values %v ± %v, want 0 ± 0", s, se)
	}
	if s, se := sdSE([]float64{0, 0.2}); math.Abs(float64(s)-math.Sqrt(0.02)) > 1e-15 || !nan(se) {
		t.Errorf("sd of two values %v ± %v, want 0.1414 ± undefined (m4 < s⁴)", s, se)
	}
	if r, se := reductionSE(nil, nil); !nan(r) || !nan(se) {
		t.Errorf("reduction of nothing %v ± %v", r, se)
	}
	if r, se := reductionSE([]float64{5}, []float64{10}); r != 0.5 || !nan(se) {
		t.Errorf("reduction of one position %v ± %v", r, se)
	}
}

// TestTuneStandardErrorsMatchSpread draws many samples of heavy-tailed
// errors (exponential) and node counts and checks that each standard
// error is, on average, the spread of its figure over the samples, within
// a tenth. The deviation's, a delta-method approximation, runs low in
// smaller samples of such errors (by 13% over 100 positions, 36% over 20),
// so the samples are of 400.
func TestTuneStandardErrorsMatchSpread(t *testing.T) {
	const n, samples = 400, 2000
	rng := rand.New(rand.NewPCG(3, 4))
	var means, sds, reds, seMeans, seSDs, seReds []float64
	for range samples {
		errs, x, y := make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range errs {
			errs[i] = 0.01 * rng.ExpFloat64()
			y[i] = 1000 + 9000*rng.Float64()
			x[i] = y[i] * (0.5 + 0.2*rng.Float64())
		}
		m, sm := meanSE(errs)
		s, ss := sdSE(errs)
		r, sr := reductionSE(x, y)
		means, sds, reds = append(means, float64(m)), append(sds, float64(s)), append(reds, float64(r))
		seMeans, seSDs, seReds = append(seMeans, float64(sm)), append(seSDs, float64(ss)), append(seReds, float64(sr))
	}
	for _, c := range []struct {
		what      string
		est, errs []float64
	}{{"ACPCME", means, seMeans}, {"DCPCME", sds, seSDs}, {"reduction", reds, seReds}} {
		spread, se := stat.StdDev(c.est, nil), stat.Mean(c.errs, nil)
		if math.Abs(se/spread-1) > 0.1 {
			t.Errorf("%s: mean standard error %.5g, spread over %d samples %.5g", c.what, se, samples, spread)
		}
	}
}

// TestSpecListJSON: tune's engines read as a list or, as settings and
// recipes wrote them before, as one string; anything else is refused.
func TestSpecListJSON(t *testing.T) {
	var s TuneSettings
	if err := json.Unmarshal([]byte(`{"suite": "x", "cpc": "cpc:r=4", "depths": [9]}`), &s); err != nil || !slices.Equal(s.CPC, []string{"cpc:r=4"}) {
		t.Errorf("one string: %q, %v", s.CPC, err)
	}
	if err := json.Unmarshal([]byte(`{"cpc": ["cpc", "cpc:multi=0"]}`), &s); err != nil || !slices.Equal(s.CPC, []string{"cpc", "cpc:multi=0"}) {
		t.Errorf("a list: %q, %v", s.CPC, err)
	}
	data, err := json.Marshal(DefaultTuneSettings(diceGame, "x"))
	if err != nil || !strings.Contains(string(data), `"cpc":["cpc"]`) {
		t.Errorf("settings written as %s, %v", data, err)
	}
	for _, bad := range []string{`{"cpc": 3}`, `{"cpc": [3]}`, `{"cpc": {}}`} {
		if err := json.Unmarshal([]byte(bad), &s); err == nil || !strings.Contains(err.Error(), "cpc") {
			t.Errorf("%s: %v", bad, err)
		}
	}
}

// TestTuneSettingsRefuse: an engine given twice, engines on different
// staretc bases and a -probcut no engine takes are refused in one line
// naming the engine, before anything runs.
func TestTuneSettingsRefuse(t *testing.T) {
	for _, c := range []struct {
		cpc  SpecList
		want string
	}{
		{SpecList{"cpc", "cpc"}, "same engine"},
		{SpecList{"cpc:multi=0,r=2", "cpc:multi=0,tt=16"}, "same engine"},
		{SpecList{"cpc", "cpc:eval=pairs"}, "staretc base"},
		{SpecList{"cpc:multi=0", "cpc:tt=4"}, "staretc base"},
		{SpecList{"cpc", "cpc:k=2"}, "staretc base"},
		{SpecList{"cpc", "staretc"}, "not cpc"},
		{SpecList{}, "at least one"},
		{SpecList{"cpc:noise=0.01"}, "-cpc cpc:noise=0.01: give no noise=: the staretc searches it is measured against are noiseless"},
	} {
		s := DefaultTuneSettings(diceGame, "../search/dice/suites/dice5x5-4.suite")
		s.Kit, s.CPC = diceGame, c.cpc
		err := s.CheckSyntax()
		if err == nil || !runs.IsUsage(err) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: %v, want a usage error saying %q", c.cpc, err, c.want)
		}
	}
	// A t or a depth given twice would count each position twice in its
	// row, with standard errors too small for the positions measured.
	for _, c := range []struct {
		depths []int
		ts     []float64
		want   string
	}{
		{[]int{9}, []float64{1.6, 0.8, 1.6}, "-t: 1.6 is given twice"},
		{[]int{9, 11, 9}, []float64{1.6}, "-depths: 9 is given twice"},
	} {
		s := DefaultTuneSettings(diceGame, "../search/dice/suites/dice5x5-4.suite")
		s.Kit, s.Depths, s.Ts = diceGame, c.depths, c.ts
		err := s.CheckSyntax()
		if err == nil || !runs.IsUsage(err) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("-depths %v -t %v: %v, want a usage error saying %q", c.depths, c.ts, err, c.want)
		}
	}
	s := DefaultTuneSettings(diceGame, "x")
	s.CPC = SpecList{"cpc:probcut=a.json", "cpc:multi=0,probcut=b.json"}
	if err := s.SetProbCut("c.json"); err == nil || !runs.IsUsage(err) {
		t.Errorf("-probcut that no engine takes: %v", err)
	}
	// The file reaches the engines that name none as a value, so a path
	// with the grammar's comma in it is a path.
	s.CPC = SpecList{"cpc", "cpc:multi=0,probcut=b.json", "cpc:multi=0,r=4"}
	if err := s.SetProbCut("c,d.json"); err != nil {
		t.Fatalf("-probcut c,d.json: %v", err)
	}
	specs, err := s.cpcSpecs()
	var files []string
	for _, sp := range specs {
		files = append(files, sp.ProbCutFile)
	}
	if err != nil || !slices.Equal(files, []string{"c,d.json", "b.json", "c,d.json"}) || !slices.Equal(s.CPC, SpecList{"cpc", "cpc:multi=0,probcut=b.json", "cpc:multi=0,r=4"}) {
		t.Errorf("-probcut gave the engines %q (specs %q), %v", files, s.CPC, err)
	}
}

// TestTuneTwoEngines tunes two engines over the same positions in one
// run: each engine's records are those of its run alone (the same
// searches), both share the staretc nodes, and the second's paired
// difference is the difference of the two ACPCMEs, with the standard
// error of the per-position differences.
func TestTuneTwoEngines(t *testing.T) {
	suite := "../search/dice/suites/dice5x5-4.suite"
	tune := func(cpc ...string) (*TuneResult, []TuneRecord) {
		t.Helper()
		s := DefaultTuneSettings(diceGame, suite)
		s.Kit = diceGame
		s.Limit, s.Depths, s.Ts, s.CPC, s.Workers = 10, []int{5, 7}, []float64{0.4, 0.05}, cpc, 2
		run, err := runs.CreateAt(filepath.Join(t.TempDir(), "t"), "tune", nil, s, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer run.Close()
		res, err := Tune(context.Background(), s, run, runs.NoProgress)
		if err != nil {
			t.Fatal(err)
		}
		recs, err := runs.ReadParquet[TuneRecord](run.Path(TuneRowsFile), TuneFormat)
		if err != nil {
			t.Fatal(err)
		}
		return res, recs
	}
	a, b := "cpc:eval=pairs,tt=1,r=4,multi=0", "cpc:eval=pairs,tt=1"
	res, recs := tune(a, b)
	_, alone0 := tune(a)
	_, alone1 := tune(b)
	var got0, got1 []TuneRecord
	for _, r := range recs {
		e := r.Engine
		r.Engine = 0
		if e == 0 {
			got0 = append(got0, r)
		} else {
			got1 = append(got1, r)
		}
	}
	if !slices.Equal(got0, alone0) || !slices.Equal(got1, alone1) {
		t.Fatalf("an engine's records with another engine beside it differ from its records alone")
	}
	if len(res.Rows) != 2*2*2 || !slices.Equal(res.CPC, []string{"cpc:eval=pairs,tt=1,r=4,multi=0", "cpc:eval=pairs,tt=1"}) {
		t.Fatalf("engines %q, %d rows", res.CPC, len(res.Rows))
	}
	differs := false
	for i := 0; i < len(res.Rows); i += 2 {
		first, second := res.Rows[i], res.Rows[i+1]
		if first.Engine != res.CPC[0] || second.Engine != res.CPC[1] || first.Depth != second.Depth || first.T != second.T {
			t.Fatalf("rows %d and %d are not the two engines at one depth and t: %+v %+v", i, i+1, first, second)
		}
		if first.BaseNodes != second.BaseNodes || first.Positions != 10 || second.Positions != 10 {
			t.Errorf("depth %d t=%g: staretc nodes %d and %d over %d and %d positions", first.Depth, first.T, first.BaseNodes, second.BaseNodes, first.Positions, second.Positions)
		}
		if !math.IsNaN(float64(first.ACPCMEMinusFirst)) || !math.IsNaN(float64(first.ACPCMEMinusFirstSE)) {
			t.Errorf("the first engine has a paired difference %v ± %v", first.ACPCMEMinusFirst, first.ACPCMEMinusFirstSE)
		}
		if d := float64(second.ACPCMEMinusFirst) - float64(second.ACPCME-first.ACPCME); math.Abs(d) > 1e-12 {
			t.Errorf("depth %d t=%g: paired difference %v, ACPCMEs %v - %v", first.Depth, first.T, second.ACPCMEMinusFirst, second.ACPCME, first.ACPCME)
		}
		var diffs []float64
		for p := range 10 {
			var e0, e1 float64
			for _, r := range recs {
				if int(r.Position) == p && int(r.Depth) == first.Depth && r.T == first.T {
					if r.Engine == 0 {
						e0 = math.Abs(r.Error)
					} else {
						e1 = math.Abs(r.Error)
					}
				}
			}
			diffs = append(diffs, e1-e0)
		}
		if se := stat.StdDev(diffs, nil) / math.Sqrt(10); math.Abs(float64(second.ACPCMEMinusFirstSE)-se) > 1e-12 {
			t.Errorf("depth %d t=%g: SE of the paired difference %v, want %v", first.Depth, first.T, second.ACPCMEMinusFirstSE, se)
		}
		differs = differs || second.ACPCMEMinusFirst != 0
	}
	if !differs {
		t.Error("the two engines never differ: the test compares nothing")
	}
	head, lines := res.Table()
	if !slices.Contains(head, "vs 1") || len(lines) != len(res.Rows) {
		t.Errorf("table head %q, %d lines for %d rows (no chapter's at depths 5 and 7)", head, len(lines), len(res.Rows))
	}
}

// TestTuneTableChapterOnce: the table gives the chapter's figures once per
// depth and t, after the engines' lines, however many engines there are.
func TestTuneTableChapterOnce(t *testing.T) {
	res := &TuneResult{CPC: []string{"cpc:a", "cpc:b"}}
	res.Rows = summarize(nil, []int{7, 9}, []float64{1.6}, res.CPC, diceGame.ChapterOf("5x5-4"))
	res.Bind(diceGame)
	head, lines := res.Table()
	var col []string
	for _, l := range lines {
		if len(l) != len(head) {
			t.Fatalf("line %q has %d cells for %d columns", l, len(l), len(head))
		}
		col = append(col, l[0]+" "+l[2])
	}
	if got := strings.Join(col, ", "); got != "7 1, 7 2, 9 1, 9 2, 9 chapter" {
		t.Errorf("lines by depth and engine: %s", got)
	}
	if l := lines[4]; l[5] != "27.4%" || l[7] != "0.001" || l[9] != "0.005" {
		t.Errorf("the chapter's line %q, want 27.4%%, 0.001 and 0.005", l)
	}
}
