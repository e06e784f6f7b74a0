package regression

import (
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"gonum.org/v1/gonum/stat"

	"starlab/runs"
	"starlab/search"
	"starlab/search/game"
	"starlab/search/games"
)

// diceGame and breakthroughGame are the games as a command hands them to
// the stages.
var diceGame, breakthroughGame = lookup("dice"), lookup("breakthrough")

func lookup(name string) search.Kit {
	g, err := games.Lookup(name)
	if err != nil {
		panic(err)
	}
	return g
}

// TestFitRecovers: rows drawn from v_deep = a*v_shallow + b + N(0, sigma)
// give back a, b and sigma within sampling error, and the cross-validated
// error of a true line is close to sigma.
func TestFitRecovers(t *testing.T) {
	const a, b, sigma, n = 0.8, 0.05, 0.1, 4000
	rng := rand.New(rand.NewPCG(1, 2))
	rows := make([]Row, n)
	for i := range rows {
		x := 2*rng.Float64() - 1
		rows[i] = Row{Game: "dice", Variant: "5x5-4", GameID: int64(i / 5), Phase: int32(5 + i%8), Weight: 1, ShallowDepth: 3, DeepDepth: 7,
			VShallow: x, VDeep: a*x + b + sigma*rng.NormFloat64(), Eval: "pairs"}
	}
	f, err := Fit(rows, DefaultFitSettings())
	if err != nil {
		t.Fatal(err)
	}
	l := f.Lines[0]
	// Standard errors: slope sigma/(sd(x) sqrt(n)), sd(x) = 1/sqrt(3);
	// intercept sigma/sqrt(n); sigma about sigma/sqrt(2n).
	seA, seB, seS := sigma*math.Sqrt(3)/math.Sqrt(n), sigma/math.Sqrt(n), sigma/math.Sqrt(2*n)
	if l.Band != "all" || l.N != n || l.Games != n/5 {
		t.Fatalf("line %+v", l)
	}
	if math.Abs(l.A-a) > 4*seA || math.Abs(l.B-b) > 4*seB || math.Abs(l.SigmaFit-sigma) > 4*seS {
		t.Errorf("fit a=%.4f b=%.4f sigma=%.4f, want %.2f %.2f %.2f within 4 standard errors (%.4f %.4f %.4f)", l.A, l.B, l.SigmaFit, a, b, sigma, seA, seB, seS)
	}
	if math.Abs(l.CVRMSE/l.SigmaFit-1) > 0.01 || l.Sigma != max(l.CVRMSE, l.SigmaFit) {
		t.Errorf("cv rmse %.5f, fit sigma %.5f, sigma %.5f: want cv within 1%% of the fit's, and sigma the larger", l.CVRMSE, l.SigmaFit, l.Sigma)
	}
	if l.R2 < 0.9 || l.R2 > 1 {
		t.Errorf("R² %v", l.R2)
	}
	if len(f.Lines) != 3 || f.Lines[1].Band != "5-8" || f.Lines[2].Band != "9-12" {
		t.Fatalf("bands: %+v", f.Lines)
	}
	pc := f.ProbCut("test")
	if len(pc.Pairs) != 1 || pc.Pairs[0].A != l.A || pc.Pairs[0].Sigma != l.Sigma || pc.Eval != "pairs" {
		t.Errorf("probcut %+v", pc)
	}

	// A floor applies to a perfect fit.
	for i := range rows {
		rows[i].VDeep = a*rows[i].VShallow + b
	}
	f, err = Fit(rows, DefaultFitSettings())
	if err != nil {
		t.Fatal(err)
	}
	if f.Lines[0].Sigma != 0.01 {
		t.Errorf("sigma of a perfect fit %v, want the floor 0.01", f.Lines[0].Sigma)
	}
	rows[0].NetID = "x"
	if _, err := Fit(rows, DefaultFitSettings()); err == nil {
		t.Error("rows of two nets fitted together")
	}
}

// TestClusteredSE: with independent rows (each its own game) the
// clustered standard errors of a and b are those of ordinary least
// squares, sigma·√3/√n and sigma/√n for x uniform on [-1, 1]; with every
// row three times in its game, as the events of one position share its
// searches, they stay what they were (but for the small-sample factor),
// where the ordinary ones would shrink by √3 as if there were three times
// the evidence. A fit.json without them reads them as undefined.
func TestClusteredSE(t *testing.T) {
	const a, b, sigma, n = 0.8, 0.05, 0.1, 4000
	rng := rand.New(rand.NewPCG(3, 4))
	x, y, game := make([]float64, n), make([]float64, n), make([]int64, n)
	for i := range x {
		x[i] = 2*rng.Float64() - 1
		y[i] = a*x[i] + b + sigma*rng.NormFloat64()
		game[i] = int64(i)
	}
	fb, fa := stat.LinearRegression(x, y, nil, false)
	aSE, bSE := clusteredSE(x, y, game, fa, fb)
	if wantA, wantB := sigma*math.Sqrt(3)/math.Sqrt(n), sigma/math.Sqrt(n); math.Abs(aSE/wantA-1) > 0.1 || math.Abs(bSE/wantB-1) > 0.1 {
		t.Errorf("independent rows: SE a %.5f b %.5f, want %.5f %.5f within 10%%", aSE, bSE, wantA, wantB)
	}
	var x3, y3 []float64
	var game3 []int64
	for i := range x {
		for range 3 {
			x3, y3, game3 = append(x3, x[i]), append(y3, y[i]), append(game3, game[i])
		}
	}
	a3, b3 := clusteredSE(x3, y3, game3, fa, fb)
	factor := func(rows float64) float64 { return float64(n) / float64(n-1) * (rows - 1) / (rows - 2) }
	ratio := math.Sqrt(factor(3*n) / factor(n))
	if math.Abs(a3/aSE-ratio) > 1e-9 || math.Abs(b3/bSE-ratio) > 1e-9 {
		t.Errorf("rows three times over: SE a %.6f b %.6f, want %.6f %.6f", a3, b3, aSE*ratio, bSE*ratio)
	}
	if a, b := clusteredSE(x[:5], y[:5], make([]int64, 5), fa, fb); !math.IsNaN(a) || !math.IsNaN(b) {
		t.Errorf("one game: SE %v %v, want undefined", a, b)
	}
	var l Line
	if err := json.Unmarshal([]byte(`{"shallow": 3, "deep": 7, "a": 0.9, "b": 0.01}`), &l); err != nil || !math.IsNaN(float64(l.ASE)) || !math.IsNaN(float64(l.BSE)) || l.A != 0.9 {
		t.Errorf("a line without standard errors read as %+v, %v", l, err)
	}
}

func smallCollect(suite string) CollectSettings {
	s := DefaultCollectSettings(diceGame)
	s.Kit = diceGame
	s.Suite, s.Pairs, s.Engine, s.Chunk, s.Workers = suite, []Pair{{1, 3}, {2, 4}}, "staretc:eval=pairs,tt=1", 3, 2
	return s
}

// TestCollectInterruptedResumes: a collect cancelled after some chunks
// and resumed in the same directory ends with the rows of an
// uninterrupted one, times aside.
func TestCollectInterruptedResumes(t *testing.T) {
	root := t.TempDir()
	suite := filepath.Join(root, "s.suite")
	if err := os.WriteFile(suite, []byte(`5 4 b -1 - - - - - - - - - - - - - - - b r - - - - - - - -
5 4 r -1 b r r - - r - - - - r - - - - b b - - - b b - - -
5 4 r 2 r - - r - b b - r - b r b - - r b - - - b - - - -
5 4 b 0 b - - - - r - - - - - - - - - - - - - - - - - - -
5 4 b 1 - r b - r - - r - r b r b r r b b - - b b - - - -
5 4 b -1 - - - - - - - - - - - - - - - - - - - - - - - - -
5 4 r -1 b - - - - - - - - - - - - - - - - - - - - - - - -
`), 0o644); err != nil {
		t.Fatal(err)
	}
	s := smallCollect(suite)
	whole, err := runs.CreateAt(filepath.Join(root, "whole"), "collect", nil, s, 0)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Collect(context.Background(), s, whole, runs.NoProgress)
	if err != nil {
		t.Fatal(err)
	}
	whole.Close()
	if res.Positions != 7 || res.Parts != 3 || res.Resumed != 0 {
		t.Fatalf("result %+v", res)
	}
	want, err := ReadRows(whole.Dir())
	if err != nil {
		t.Fatal(err)
	}
	events := 0
	for _, r := range want {
		if r.ShallowDepth == 1 {
			events++
		}
		if r.Game != "dice" || r.Variant != "5x5-4" || r.Event < 0 || r.Event > 4 || r.Weight != 1 || r.Total < 1 || r.Total > 5 ||
			r.VDeep < -1 || r.VDeep > 1 || r.NodesDeep <= r.NodesShallow || r.Eval != "pairs" || r.NetID != "" {
			t.Fatalf("row %+v", r)
		}
	}
	ps, err := search.ReadSuite(diceGame, suite)
	if err != nil {
		t.Fatal(err)
	}
	wantEvents := 0
	for _, p := range ps {
		node := p.Pos
		if node.Kind() == game.Decision {
			node, _ = diceGame.ChanceNode(node)
		}
		evs, _ := node.Outcomes(nil)
		wantEvents += len(evs)
	}
	if events != wantEvents || len(want) != 2*wantEvents {
		t.Fatalf("%d events, %d rows; want %d events, two pairs each", events, len(want), wantEvents)
	}

	s.Workers = 1 // the rows do not depend on it; one makes the cut fall after chunk 0
	run, err := runs.CreateAt(filepath.Join(root, "cut"), "collect", nil, s, 0)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	_, err = Collect(ctx, s, run, func(done, total int64, _ string) {
		if done == 1 {
			time.Sleep(300 * time.Millisecond) // time the first part's file counts
		}
		if done >= 4 {
			cancel()
		}
	})
	if err != context.Canceled {
		t.Fatalf("interrupted collect returned %v", err)
	}
	run.Finish(err)
	again, err := runs.Open(run.Dir())
	if err != nil {
		t.Fatal(err)
	}
	if err := again.Resume(); err != nil {
		t.Fatal(err)
	}
	res, err = Collect(context.Background(), s, again, runs.NoProgress)
	if err != nil {
		t.Fatal(err)
	}
	again.Close()
	if res.Resumed < 1 || res.Resumed == res.Parts {
		t.Errorf("resumed %d of %d parts; want some, not all", res.Resumed, res.Parts)
	}
	// The time is the whole run's, as train gives it: the first process's
	// up to its last part file, and the second's.
	if v, ok, err := runs.ParquetMeta(filepath.Join(again.Dir(), partName(0)), partSecondsKey); err != nil || !ok {
		t.Errorf("part 0 records no time: %q %v %v", v, ok, err)
	} else if first, _ := strconv.ParseFloat(v, 64); !(first >= 0.3) || !(res.Seconds > first) {
		t.Errorf("resumed collect: %g s, the first process's part 0 written after %g s (want at least 0.3)", res.Seconds, first)
	}
	got, err := ReadRows(again.Dir())
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d rows after resume, want %d", len(got), len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		g.MsShallow, g.MsDeep, w.MsShallow, w.MsDeep = 0, 0, 0, 0
		if g != w {
			t.Fatalf("row %d after resume %+v, want %+v", i, g, w)
		}
	}
}

// TestTune: cpc with bounds too wide to cut is staretc (no error, the same
// moves); a narrow one saves nodes; the table has one row per depth and t
// and the chapter's figures where it has them.
func TestTune(t *testing.T) {
	s := DefaultTuneSettings(diceGame, "../search/dice/suites/dice5x5-4.suite")
	s.Kit = diceGame
	s.Limit, s.Depths, s.Ts, s.CPC, s.Workers = 12, []int{5, 9}, []float64{1e6, 0.1}, SpecList{"cpc:eval=pairs,tt=1"}, 2
	run, err := runs.CreateAt(filepath.Join(t.TempDir(), "t"), "tune", nil, s, 0)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Tune(context.Background(), s, run, runs.NoProgress)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 4 || res.Positions != 12 {
		t.Fatalf("rows %+v", res.Rows)
	}
	for _, r := range res.Rows {
		if r.T == 1e6 && (r.ACPCME != 0 || r.MoveChanged != 0) {
			t.Errorf("cpc with t=1e6 at depth %d: error %v, moved %v; want staretc's values", r.Depth, r.ACPCME, r.MoveChanged)
		}
		if r.T == 0.1 && r.Depth == 9 && r.Reduction <= 0.1 {
			t.Errorf("cpc with t=0.1 at depth 9 saves %.1f%% of the nodes", 100*r.Reduction)
		}
	}
	recs, err := runs.ReadParquet[TuneRecord](run.Path(TuneRowsFile), TuneFormat)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 12*2*2 {
		t.Fatalf("%d records, want 48", len(recs))
	}
	for _, r := range recs {
		if r.Error != r.Value-r.Actual || (!r.Rolled && r.MoveChanged) {
			t.Fatalf("record %+v", r)
		}
	}
	for _, f := range []string{TuneSummaryFile, TunePlot + ".png", TunePlot + ".svg"} {
		if fi, err := os.Stat(run.Path(f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
}
