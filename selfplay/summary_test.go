package selfplay

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"starlab/runs"
	"starlab/search/game"
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

// searched returns pairOf(i, a, b) with every game's sides searching: each
// made moves moves of depth depth and nodes nodes in all, A's and B's
// figures apart.
func searched(i int, a, b float64, moves int, depthA, depthB int, nodesA, nodesB int64) PairRecord {
	p := pairOf(i, a, b)
	for k := range p.Games {
		g := &p.Games[k].Game
		ca, cb := 0, 1
		if !p.Games[k].AIsBlue {
			ca, cb = 1, 0
		}
		g.Turns = [2]int{moves, moves}
		g.Depth[ca], g.Depth[cb] = depthA, depthB
		g.Nodes[ca], g.Nodes[cb] = nodesA, nodesB
	}
	return p
}

// TestSearchFiguresNotReported: a side whose engine reports no depth and
// no nodes (gnubg; an ext: engine without info lines) has neither, "-" in
// the text and null in summary.json, not "depth 0.00" and "nodes per
// move 0"; the other side's figures are its own; and games.parquet's
// mean depth of such a side is NaN, that of a side that made no move 0,
// as it always was.
func TestSearchFiguresNotReported(t *testing.T) {
	s := Summarize("ext", "staretc", []PairRecord{searched(0, 1, 0, 10, 0, 30, 0, 400), searched(1, 0, 1, 10, 0, 30, 0, 400)}, false, nil)
	if !math.IsNaN(float64(s.DepthA)) || !math.IsNaN(float64(s.NodesA)) || s.DepthB != 3 || s.NodesB != 40 {
		t.Fatalf("depth %v vs %v, nodes per move %v vs %v; want NaN vs 3, NaN vs 40", s.DepthA, s.DepthB, s.NodesA, s.NodesB)
	}
	var b strings.Builder
	(&MatchReport{Pairings: []Summary{s}}).WriteText(&b)
	if want := "depth - vs 3.00, nodes per move - vs 40 (-: the engine reports none),"; !strings.Contains(b.String(), want) {
		t.Errorf("text lacks %q:\n%s", want, b.String())
	}
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"mean_depth_a":null`, `"mean_depth_b":3`, `"nodes_per_move_a":null`, `"nodes_per_move_b":40`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("summary JSON lacks %s: %s", want, data)
		}
	}
	both := Summarize("a", "b", []PairRecord{searched(0, 1, 0, 10, 20, 30, 100, 400)}, false, nil)
	b.Reset()
	(&MatchReport{Pairings: []Summary{both}}).WriteText(&b)
	if want := "depth 2.00 vs 3.00, nodes per move 10 vs 40,"; !strings.Contains(b.String(), want) {
		t.Errorf("both sides searching: text lacks %q:\n%s", want, b.String())
	}

	toy := toyGame
	start, err := toy.New("5")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		turns, depth [2]int
		want         [2]float64
	}{
		{[2]int{4, 4}, [2]int{0, 12}, [2]float64{math.NaN(), 3}}, // blue reports no depth
		{[2]int{4, 0}, [2]int{8, 0}, [2]float64{2, 0}},           // red made no move
	} {
		g := PairGame{AIsBlue: true, Game: Record{Name: "toy", Variant: "5", Start: start.String(), Turns: c.turns, Depth: c.depth}}
		row, err := newGameRow(toy, 1, 0, "a", "b", g)
		if err != nil {
			t.Fatal(err)
		}
		for k, got := range []float64{row.MeanDepthBlue, row.MeanDepthRed} {
			if !(got == c.want[k] || math.IsNaN(got) && math.IsNaN(c.want[k])) {
				t.Errorf("turns %v, depths %v: mean depth of side %d %v, want %v", c.turns, c.depth, k, got, c.want[k])
			}
		}
	}
}

// maxNodes is a random player that reports math.MaxInt64 nodes a move, as
// an outside engine's "info nodes 9223372036854775807" would.
type maxNodes struct{ *Random }

func (p maxNodes) Choose(ctx context.Context, s game.State) Choice {
	c := p.Random.Choose(ctx, s)
	c.Nodes = math.MaxInt64
	return c
}

// TestNodesDoNotOverflow: node counts of math.MaxInt64 a move neither wrap
// a game's sum negative (it stops at math.MaxInt64) nor a match's: nodes
// per move over games of such counts is math.MaxInt64, printed as such,
// not "-0".
func TestNodesDoNotOverflow(t *testing.T) {
	start, err := toyGame.New("9")
	if err != nil {
		t.Fatal(err)
	}
	rec, err := Play(context.Background(), toyGame, start, [2]Player{maxNodes{NewRandom(1)}, maxNodes{NewRandom(2)}}, NewChanceStream(3), nil)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Turns[0] < 2 || rec.Nodes != [2]int64{math.MaxInt64, math.MaxInt64} {
		t.Fatalf("%v moves of math.MaxInt64 nodes each: nodes %v, want math.MaxInt64 a side", rec.Turns, rec.Nodes)
	}
	var pairs []PairRecord
	for i := range 50 {
		pairs = append(pairs, searched(i, 1, 0, 1, 1, 1, math.MaxInt64, math.MaxInt64))
	}
	s := Summarize("a", "b", pairs, false, nil)
	if s.NodesA != math.MaxInt64 || s.NodesB != math.MaxInt64 {
		t.Fatalf("nodes per move %v vs %v over 100 games of math.MaxInt64 nodes a move; want math.MaxInt64", s.NodesA, s.NodesB)
	}
	var b strings.Builder
	(&MatchReport{Pairings: []Summary{s}}).WriteText(&b)
	if want := "nodes per move 9223372036854775808 vs 9223372036854775808,"; !strings.Contains(b.String(), want) {
		t.Errorf("text lacks %q:\n%s", want, b.String())
	}
}

// TestLuckEloOutsideScores: a luck-adjusted score below 0% or above 100%
// has no Elo: LuckElo is NaN (null in summary.json, "-" in the text) with
// a note saying why, where it once printed "Elo -inf" unexplained; inside
// it is the score's Elo, without a note.
func TestLuckEloOutsideScores(t *testing.T) {
	lucky := func(i int, a, b, luckA float64) PairRecord {
		p := pairOf(i, a, b)
		p.Games[0].Game.Luck = 2 * luckA  // blue is A
		p.Games[1].Game.Luck = -2 * luckA // red is A
		return p
	}
	for _, c := range []struct {
		a, luck float64
		note    string
	}{
		{0, 0.3, "the luck-adjusted score is below 0%, where no Elo is defined"},
		{1, -0.3, "the luck-adjusted score is above 100%, where no Elo is defined"},
		{0.5, 0.1, ""},
	} {
		pairs := []PairRecord{lucky(0, c.a, c.a, c.luck), lucky(1, c.a, c.a, c.luck)}
		s := Summarize("a", "b", pairs, true, nil)
		if want := c.a - c.luck; math.Abs(float64(s.LuckScore)-want) > 1e-12 {
			t.Fatalf("score %v, luck %v: luck-adjusted score %v, want %v", c.a, c.luck, s.LuckScore, want)
		}
		var b strings.Builder
		(&MatchReport{Pairings: []Summary{s}}).WriteText(&b)
		data, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if c.note == "" {
			if want := EloFromScore(float64(s.LuckScore)); float64(s.LuckElo) != want || s.LuckEloNote != "" || strings.Contains(string(data), "luck_elo_note") {
				t.Errorf("luck-adjusted score %v: Elo %v (%q), want %v without a note", s.LuckScore, s.LuckElo, s.LuckEloNote, want)
			}
			continue
		}
		if !math.IsNaN(float64(s.LuckElo)) || s.LuckEloNote != c.note {
			t.Errorf("luck-adjusted score %v: Elo %v (%q), want NaN (%q)", s.LuckScore, s.LuckElo, s.LuckEloNote, c.note)
		}
		_, line, _ := strings.Cut(b.String(), "  luck ")
		line, _, _ = strings.Cut(line, "\n")
		if want := "Elo - (" + c.note + ")"; !strings.Contains(line, want) || strings.Contains(line, "inf") {
			t.Errorf("luck-adjusted score %v: the luck line lacks %q (or says inf):\n%s", s.LuckScore, want, b.String())
		}
		if want := `"luck_elo":null,"luck_elo_note":"` + c.note + `"`; !strings.Contains(string(data), want) {
			t.Errorf("summary JSON lacks %s: %s", want, data)
		}
	}
}
