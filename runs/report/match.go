package report

import (
	"bytes"
	"fmt"
	"strings"

	"starlab/runs"
	"starlab/selfplay"
)

// forfeitCell says how many games each side lost by forfeit (an outside
// engine's illegal, malformed or missing reply), the reasons on hover.
func forfeitCell(f *selfplay.ForfeitStats) Cell {
	if f == nil {
		return Cell{Text: "0 vs 0"}
	}
	return Cell{Text: fmt.Sprintf("%d vs %d", f.A, f.B), Title: fmt.Sprintf("first: %v; second: %v", f.ReasonA, f.ReasonB)}
}

// addMatch shows a match under its variants' short names (full specs on
// hover and in the terminal's text below): the variants, each pairing's
// scores with their intervals as a table and a plot, and the ranking.
func addMatch(s *Section, run *runs.Run) error {
	var r selfplay.MatchReport
	ok, err := readJSON(run.Path(selfplay.SummaryFile), &r)
	vs := r.Settings.Engines
	if !ok || err != nil {
		var set selfplay.MatchSettings // the variants, from the manifest
		if run.Settings(&set) == nil {
			vs = set.Engines
		}
	}
	short := s.names.specs(vs)
	number := map[string]int{}
	name := map[string]Cell{}
	for i, v := range vs {
		number[v] = i + 1
		name[v] = Cell{Text: short[i], Title: v, Left: true}
	}
	s.Title = "match: " + strings.Join(short, " vs ")
	if len(vs) > 2 {
		s.Title = fmt.Sprintf("match of %d variants", len(vs))
	}
	if err != nil || !ok {
		return err
	}
	vt := Table{Caption: "Variants (hover for the full spec)", Head: []string{"#", "variant"}}
	for i, v := range vs {
		vt.Rows = append(vt.Rows, []Cell{{Text: fmt.Sprint(i + 1)}, name[v]})
	}
	from := "the empty board" // a summary of a match before the game was recorded
	if set := r.Settings; set.GameName != "" {
		from = fmt.Sprintf("the start of %s %s", set.GameName, set.Variant)
	}
	if r.Settings.Suite != "" {
		from = fmt.Sprintf("%d positions of %s", len(r.Settings.Starts), s.names.path(r.Settings.Suite))
	}
	pt := Table{Caption: fmt.Sprintf("Pairings: %d games each from %s, seed %d, luck reference %s; each score is the first variant's, ± its 95%% interval",
		r.Settings.Games, from, r.Settings.Seed, s.names.spec(r.Settings.Luck)),
		Head: []string{"pairing", "games", "W/D/L", "score", "± over games", "± over pairs", "luck-adjusted", "Elo", "± over games", "± over pairs", "LOS (pairs)", "pentanomial"}}
	st := Table{Caption: "The games of each pairing: their length and shape (as the chapter reports its self-play games), and the search per move of each variant (first vs second; - where the engine reports no depth or nodes, as gnubg and ext: engines without info lines)",
		Head: []string{"pairing", "plies per game", "decisions per game", "branching factor", "chance nodes per game", "events per chance node", "mean depth", "nodes per move", "ms per move", "lost by forfeit"}}
	for _, p := range r.Pairings {
		luck := "-"
		if p.Luck {
			luck = pct(float64(p.LuckScore)) + " ± " + p.Interval(float64(p.LuckCI95), "luck")
		}
		label := fmt.Sprintf("%d vs %d", number[p.A], number[p.B])
		if p.Luck && p.LuckEloNote != "" {
			s.Notes = append(s.Notes, fmt.Sprintf("Pairing %s, luck-adjusted score %s: %s (its Elo is printed as -). The luck-adjusted score, the results minus the rolls' luck as the reference values it, estimates the score without bias but is not bounded by 0%% and 100%%.",
				label, pct(float64(p.LuckScore)), p.LuckEloNote))
		}
		pt.Rows = append(pt.Rows, []Cell{{Text: label, Title: name[p.A].Text + " vs " + name[p.B].Text},
			{Text: fmt.Sprint(p.Games)}, {Text: fmt.Sprintf("%d/%d/%d", p.Wins, p.Draws, p.Losses)},
			{Text: pct(p.Score)}, {Text: p.Interval(p.ScoreCI95, "games")}, {Text: p.Interval(p.ScoreCI95Pairs, "pairs")}, {Text: luck},
			{Text: p.Elo.Format("%+.1f")}, {Text: p.EloCI95.Format("%.1f")}, {Text: p.EloCI95Pairs.Format("%.1f")},
			{Text: pct(p.LOSPairs)}, {Text: fmt.Sprint(p.Pentanomial)}})
		st.Rows = append(st.Rows, []Cell{pt.Rows[len(pt.Rows)-1][0], {Text: num(p.MeanPlies, "%.1f")},
			{Text: p.DecisionsPerGame.Format("%.1f")}, {Text: p.Branching.Format("%.1f")}, {Text: p.ChancePerGame.Format("%.1f")}, {Text: p.EventsPerChance.Format("%.1f")},
			{Text: p.DepthA.Format("%.2f") + " vs " + p.DepthB.Format("%.2f")}, {Text: p.NodesA.Format("%.0f") + " vs " + p.NodesB.Format("%.0f")},
			{Text: num(p.MsPerMoveA, "%.3g") + " vs " + num(p.MsPerMoveB, "%.3g")}, forfeitCell(p.Forfeits)})
	}
	s.Tables = append(s.Tables, vt, pt, st)
	if points := pointsTable(r.Pairings, number, name); points != nil {
		s.Tables = append(s.Tables, *points)
	}
	if len(r.Ranking) > 0 {
		s.Tables = append(s.Tables, rankingTable(r.Ranking, name))
	}
	if len(r.Pairings) > 0 {
		data, err := scorePlot(r.Pairings, number)
		if err != nil {
			return err
		}
		s.Images = append(s.Images, inline(data, "Scores with 95% intervals, per pairing"))
	}
	var text bytes.Buffer
	r.WriteText(&text)
	s.Details = append(s.Details, Details{Summary: "The terminal's text, with the full variant specs", Text: strings.TrimRight(text.String(), "\n")})
	return nil
}

// pointsTable is the table of the pairings played for points
// (backgammon's money play): the points per game and the wins by points;
// nil when no pairing was.
func pointsTable(pairings []selfplay.Summary, number map[string]int, name map[string]Cell) *Table {
	var points *Table
	for _, p := range pairings {
		if p.Points == nil {
			continue
		}
		if points == nil {
			points = &Table{Caption: "Points per game (the games are played for points): the first variant's mean with its 95% intervals, and each side's wins of 1, 2 and 3 points (single games, gammons, backgammons)",
				Head: []string{"pairing", "points per game", "± over games", "± over pairs", "wins of 1/2/3 (first)", "wins of 1/2/3 (second)"}}
		}
		pp := p.Points
		points.Rows = append(points.Rows, []Cell{{Text: fmt.Sprintf("%d vs %d", number[p.A], number[p.B]), Title: name[p.A].Text + " vs " + name[p.B].Text},
			{Text: fmt.Sprintf("%+.3f", pp.PerGame)}, {Text: fmt.Sprintf("%.3f", pp.CI95)}, {Text: fmt.Sprintf("%.3f", pp.CI95Pairs)},
			{Text: fmt.Sprintf("%d/%d/%d", pp.WinsA[0], pp.WinsA[1], pp.WinsA[2])}, {Text: fmt.Sprintf("%d/%d/%d", pp.WinsB[0], pp.WinsB[1], pp.WinsB[2])}})
	}
	return points
}

// rankingTable is the table of the ranking of a match of three variants or
// more.
func rankingTable(ranking []selfplay.RankEntry, name map[string]Cell) Table {
	rt := Table{Caption: "Ranking: score over all games, 95% interval over pairs", Head: []string{"rank", "variant", "score", "± 95%", "Elo", "games"}}
	for i, e := range ranking {
		rt.Rows = append(rt.Rows, []Cell{{Text: fmt.Sprint(i + 1)}, name[e.Variant], {Text: pct(e.Score)}, {Text: pct(e.CI95)}, {Text: e.Elo.Format("%+.1f")}, {Text: fmt.Sprint(e.Games)}})
	}
	return rt
}
