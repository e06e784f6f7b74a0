package regression

import (
	"path/filepath"
	"strings"
	"testing"

	"starlab/runs/runstest"
)

// TestReadRowsVersion1: the part files of earlier collects (format 1, Dice
// boards by n and m) are read as the rows they mean: game dice, the
// variant "<n>x<n>-<m>", the checkers as the phase, the roll as the event
// of weight 1 and an unrecorded total; fit takes them as it takes rows of
// version 2, and a row no collect could write is refused in one line
// naming the file and the row.
func TestReadRowsVersion1(t *testing.T) {
	dir := t.TempDir()
	v1Lacks := []string{"game", "variant", "position", "phase", "event", "weight", "total"} // the columns of Row that version 1 had not
	var old []rowV1
	for i := range 60 {
		x := float64(i%11)/10 - 0.5
		old = append(old, rowV1{DPN: "5 4 b -1 " + strings.Repeat("- ", 24) + "-", N: 5, M: 4, Checkers: int32(i % 9), Roll: int32(i % 3),
			Row: Row{GameID: int64(i / 3), ShallowDepth: 3, DeepDepth: 7, VShallow: x, VDeep: 0.9*x + 0.01*float64(i%3), NodesShallow: 10, NodesDeep: 100, Eval: "pairs", Seed: 1}})
	}
	path := filepath.Join(dir, "part-00000.parquet")
	runstest.WriteOldParquet(t, path, rowsFormatV1, old, v1Lacks...)
	rows, err := ReadRows(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(old) {
		t.Fatalf("%d rows, want %d", len(rows), len(old))
	}
	for i, r := range rows {
		o := old[i]
		if r.Game != "dice" || r.Variant != "5x5-4" || r.Position != o.DPN || r.Phase != o.Checkers || r.Event != o.Roll || r.Weight != 1 || r.Total != 0 ||
			r.GameID != o.GameID || r.VShallow != o.VShallow || r.VDeep != o.VDeep || r.NodesDeep != o.NodesDeep || r.Eval != o.Eval || r.Seed != o.Seed {
			t.Fatalf("row %d read as %+v from %+v", i, r, o)
		}
	}
	f, err := Fit(rows, FitSettings{GameName: "dice", Folds: 5, SigmaFloor: 0.01, Bands: 0, T: 1.6})
	if err != nil {
		t.Fatal(err)
	}
	if p := f.ProbCut("test"); p.Game != "dice" || p.Variant != "5x5-4" || len(p.Pairs) != 1 || p.Pairs[0].N != 60 {
		t.Errorf("fit of version-1 rows: %+v", p)
	}
	old[7].N = 20
	bad := filepath.Join(dir, "bad.parquet")
	runstest.WriteOldParquet(t, bad, rowsFormatV1, old, v1Lacks...)
	if _, err := ReadRows(bad); err == nil || !strings.Contains(err.Error(), bad+": row 8: board 20x20/4") || strings.Contains(err.Error(), "\n") {
		t.Errorf("a version-1 row of a 20x20 board: %v", err)
	}
}

// TestFitOneGameAndVariant: rows of two variants, or of two games, are
// refused in one line, and so are rows of another game than the one the
// settings name.
func TestFitOneGameAndVariant(t *testing.T) {
	rows := make([]Row, 40)
	for i := range rows {
		x := float64(i%7)/10 - 0.3
		rows[i] = Row{Game: "dice", Variant: "5x5-4", GameID: int64(i / 4), Phase: int32(i % 6), Weight: 1, Total: 4,
			ShallowDepth: 1, DeepDepth: 3, VShallow: x, VDeep: x + 0.01*float64(i%3), Eval: "pairs"}
	}
	s := DefaultFitSettings()
	if _, err := Fit(rows, s); err != nil {
		t.Fatalf("rows of one variant: %v", err)
	}
	for name, c := range map[string]struct {
		change func(*Row)
		game   string
		want   string
	}{
		"two variants": {func(r *Row) { r.Variant = "7x7-5" }, "", "rows of dice 7x7-5, eval pairs net \"\" beside rows of dice 5x5-4"},
		"two games":    {func(r *Row) { r.Game, r.Variant = "breakthrough", "5x5" }, "", "rows of breakthrough 5x5"},
		"another game": {func(*Row) {}, "breakthrough", "the rows are of dice, not breakthrough"},
	} {
		rs := append([]Row(nil), rows...)
		c.change(&rs[len(rs)-1])
		s.GameName = c.game
		_, err := Fit(rs, s)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line saying %q", name, err, c.want)
		}
	}
}
