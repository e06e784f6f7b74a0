package regression

import (
	"math"
	"path/filepath"
	"testing"

	"starlab/runs"
	"starlab/search"
)

// TestFitFilesKeepAnUndefinedR2: rows whose deep values are all equal (a
// won position searched deeper) fit a flat line whose R² is 0/0; fit.json
// and probcut.json, written as the fit stage writes them, hold it as
// undefined, and their readers (the pipeline's and cpc's) read it back
// undefined, not 0, instead of the write failing on a NaN.
func TestFitFilesKeepAnUndefinedR2(t *testing.T) {
	rows := make([]Row, 200)
	for i := range rows {
		rows[i] = Row{Game: "dice", Variant: "5x5-4", GameID: int64(i / 5), Phase: 6, Weight: 1, ShallowDepth: 1, DeepDepth: 3,
			VShallow: float64(i%7)/10 - 0.3, VDeep: 1, Eval: "pairs"}
	}
	f, err := Fit(rows, DefaultFitSettings())
	if err != nil {
		t.Fatal(err)
	}
	if !math.IsNaN(float64(f.Lines[0].R2)) {
		t.Fatalf("R² of a flat line %v, want NaN", f.Lines[0].R2)
	}
	run, err := runs.CreateAt(filepath.Join(t.TempDir(), "f"), "fit", nil, DefaultFitSettings(), 1)
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	if err := runs.WriteJSON(run, ProbCutFile, f.ProbCut("test")); err != nil {
		t.Fatal(err)
	}
	if err := runs.WriteJSON(run, FitFile, f); err != nil {
		t.Fatal(err)
	}
	pc, err := search.LoadProbCut(run.Path(ProbCutFile))
	if err != nil {
		t.Fatal(err)
	}
	if r2 := float64(pc.Pairs[0].R2); !math.IsNaN(r2) {
		t.Errorf("probcut.json R² read back as %v, want NaN", r2)
	}
	var back FitResult
	if err := runs.ReadJSON(run.Path(FitFile), &back); err != nil {
		t.Fatal(err)
	}
	if r2 := float64(back.Lines[0].R2); !math.IsNaN(r2) {
		t.Errorf("fit.json R² read back as %v, want NaN", r2)
	}
}

// TestTuneFileKeepsUndefinedChapterFigures: tune.json, written as the tune
// stage writes it and read back as the pipeline and merge read it, keeps
// the chapter's figures undefined at a depth the chapter never measured
// (depth 5) and as they are at one it did (depth 9).
func TestTuneFileKeepsUndefinedChapterFigures(t *testing.T) {
	s := TuneSettings{Kit: diceGame, Variant: "5x5-4", Depths: []int{5, 9}, Ts: []float64{0.8}}
	var all []TuneRecord
	for _, d := range s.Depths {
		all = append(all, TuneRecord{Position: 0, Depth: int32(d), T: 0.8, Nodes: 60, BaseNodes: 100, Value: 0.1, Actual: 0.2, Error: -0.1, Rolled: true})
	}
	run, err := runs.CreateAt(filepath.Join(t.TempDir(), "t"), "tune", nil, s, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	if err := writeTune(run, s, &TuneResult{Format: TuneFormat, Game: "dice", Variant: "5x5-4", CPC: []string{"cpc:eval=mlp"}}, all); err != nil {
		t.Fatal(err)
	}
	var back TuneResult
	if err := runs.ReadJSON(run.Path(TuneSummaryFile), &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Rows) != 2 {
		t.Fatalf("%d rows", len(back.Rows))
	}
	if r := back.Rows[0]; !math.IsNaN(float64(r.ChapterReduction)) || !math.IsNaN(float64(r.ChapterACPCME)) || !math.IsNaN(float64(r.ChapterDCPCME)) {
		t.Errorf("depth 5: chapter's figures read back as %v %v %v, want NaN", r.ChapterReduction, r.ChapterACPCME, r.ChapterDCPCME)
	}
	if r := back.Rows[1]; r.ChapterReduction != 0.410 || r.ChapterACPCME != 0.005 || r.ChapterDCPCME != 0.009 || r.Reduction != 0.4 {
		t.Errorf("depth 9: %+v", r)
	}
}
