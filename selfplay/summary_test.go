package selfplay

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"starlab/runs"
)

// pairOf returns pair i whose games A scores a and b (1, ½ or 0), A blue
// in the first.
func pairOf(i int, a, b float64) PairRecord {
	res := func(s float64, aBlue bool) int {
		r := int(2*s) - 1 // blue's view when A is blue
		if !aBlue {
			r = -r
		}
		return r
	}
	return PairRecord{Index: i, Games: [2]PairGame{
		{Pair: i, AIsBlue: true, Game: Record{Result: res(a, true), Plies: 9}},
		{Pair: i, Round: 1, Game: Record{Result: res(b, false), Plies: 9}},
	}}
}

// TestSummaryFileKeepsUndefinedFigures: summary.json, written as a match
// writes it and read back as the pipeline and the report read it, keeps
// the unbounded Elo of a side that won every game, and the undefined
// figures of a match without a luck reference, instead of 0; an even
// match's Elo, -0 in arithmetic, is written 0.
func TestSummaryFileKeepsUndefinedFigures(t *testing.T) {
	sprt, err := ParseSPRT("0,5,0.05,0.05")
	if err != nil {
		t.Fatal(err)
	}
	won := Summarize("a", "b", []PairRecord{pairOf(0, 1, 1), pairOf(1, 1, 1)}, false, &sprt)
	even := Summarize("a", "c", []PairRecord{pairOf(0, 1, 0), pairOf(1, 0.5, 0.5)}, false, nil)
	if !math.IsInf(float64(won.Elo), 1) || !math.IsNaN(float64(won.LuckScore)) || float64(even.Elo) != 0 {
		t.Fatalf("summaries: won Elo %v luck %v, even Elo %v", won.Elo, won.LuckScore, even.Elo)
	}
	llr := runs.Num(math.Inf(-1))
	won.LLR = &llr
	rep := &MatchReport{Format: MatchFormat, Pairings: []Summary{won, even},
		Ranking: []RankEntry{{Variant: "a", Elo: runs.Num(math.Inf(1))}, {Variant: "c", Elo: runs.Num(math.NaN())}}}
	run, err := runs.CreateAt(filepath.Join(t.TempDir(), "m"), "match", nil, MatchSettings{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	if err := runs.WriteJSON(run, SummaryFile, rep); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(run.Path(SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "-0,") || strings.Contains(string(data), "-0\n") {
		t.Errorf("summary.json has a -0:\n%s", data)
	}
	var back MatchReport
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	w, e := back.Pairings[0], back.Pairings[1]
	if w.LLR == nil {
		t.Fatalf("llr read back as missing")
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"elo", float64(w.Elo), math.Inf(1)},
		{"elo_ci95", float64(w.EloCI95), float64(won.EloCI95)},
		{"elo_ci95_pairs", float64(w.EloCI95Pairs), float64(won.EloCI95Pairs)},
		{"var_ratio_pairs", float64(w.VarRatioPairs), float64(won.VarRatioPairs)},
		{"luck_score", float64(w.LuckScore), math.NaN()},
		{"luck_ci95", float64(w.LuckCI95), math.NaN()},
		{"luck_elo", float64(w.LuckElo), math.NaN()},
		{"var_ratio_luck", float64(w.VarRatioLuck), math.NaN()},
		{"var_ratio_luck_vs_games", float64(w.VarRatioTotal), math.NaN()},
		{"llr", float64(*w.LLR), math.Inf(-1)},
		{"even elo", float64(e.Elo), 0},
		{"ranking elo", float64(back.Ranking[0].Elo), math.Inf(1)},
		{"ranking elo undefined", float64(back.Ranking[1].Elo), math.NaN()},
	} {
		if !(c.got == c.want || math.IsNaN(c.got) && math.IsNaN(c.want)) || math.Signbit(c.got) != math.Signbit(c.want) {
			t.Errorf("%s read back as %v, want %v", c.name, c.got, c.want)
		}
	}
}

// TestZeroWidthIntervalSaysWhy: a match whose pairs all split 1-1 has an
// interval over pairs of no width, which the text must not print as a
// bare "± 0.0%" (certainty): it says there was no spread to measure, and
// why; so do games that all ended alike, and an interval with width is
// printed as it is.
func TestZeroWidthIntervalSaysWhy(t *testing.T) {
	var split, won, mixed []PairRecord
	for i := range 10 {
		split = append(split, pairOf(i, 1, 0))
		won = append(won, pairOf(i, 1, 1))
		mixed = append(mixed, pairOf(i, 1, float64(i%2)))
	}
	text := func(pairs []PairRecord) string {
		s := Summarize("a", "b", pairs, false, nil)
		var b strings.Builder
		(&MatchReport{Pairings: []Summary{s}}).WriteText(&b)
		return b.String()
	}
	if got := text(split); !strings.Contains(got, "score 50.0% ± 0.0% (every pair split 1-1: no spread to measure)") {
		t.Errorf("every pair split 1-1:\n%s", got)
	}
	got := text(won)
	for _, want := range []string{"± 0.0% (every game won: no spread to measure)", "± 0.0% (every pair scored 2 of 2: no spread to measure)"} {
		if !strings.Contains(got, want) {
			t.Errorf("every game won: lacks %q:\n%s", want, got)
		}
	}
	if got := text(mixed); strings.Contains(got, "no spread") || strings.Contains(got, "± 0.0%") {
		t.Errorf("pairs that differ:\n%s", got)
	}
}
