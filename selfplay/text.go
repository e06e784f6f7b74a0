package selfplay

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"starlab/outside"
	"starlab/runs"
	"starlab/search"
)

func pct(x float64) string { return fmt.Sprintf("%.1f%%", 100*x+0) }

// num formats a statistic that may be undefined: "-" when it is, as every
// table and summary prints it (runs.Num.Format).
func num(x runs.Num, format string) string { return x.Format(format) }

// WriteText writes the report as people read it: per pairing the game,
// pair and luck-adjusted statistics (each interval named by what it is
// over), and for a tournament the cross table and the ranking.
func (r *MatchReport) WriteText(w io.Writer) {
	set := r.Settings
	from := fmt.Sprintf("the start of %s %s", set.GameName, set.Variant)
	if set.Suite != "" {
		from = fmt.Sprintf("%d positions of %s", len(set.Starts), set.Suite)
	}
	shard := ""
	if set.Shard.Count > 1 {
		shard = ", shard " + set.Shard.String()
	}
	fmt.Fprintf(w, "match: %d games per pairing from %s, seed %d%s, luck reference %s\nrun directory %s\n", set.Games, from, set.Seed, shard, set.Luck, r.Run)
	for _, spec := range set.Engines {
		if search.SpecGives(spec, "movetime") {
			fmt.Fprintln(w, "note: time-limited variants make the games depend on the machine's load; the same seed may not repeat them")
			break
		}
	}
	for _, s := range r.Pairings {
		fmt.Fprintf(w, "\n%s vs %s: %d games (%d pairs)\n", s.A, s.B, s.Games, s.Pairs)
		fmt.Fprintf(w, "  games   W/D/L %d/%d/%d  score %s ± %s  Elo %s ± %s  LOS(games, cutechess) %s\n", s.Wins, s.Draws, s.Losses, pct(s.Score), s.Interval(s.ScoreCI95, "games"), num(s.Elo, "%+.1f"), num(s.EloCI95, "%.1f"), pct(s.LOSGames))
		fmt.Fprintf(w, "  pairs   pentanomial %v  score %s ± %s  Elo ± %s  LOS(pairs, normal) %s  (variance ratio games/pairs %s)\n", s.Pentanomial, pct(s.Score), s.Interval(s.ScoreCI95Pairs, "pairs"), num(s.EloCI95Pairs, "%.1f"), pct(s.LOSPairs), num(s.VarRatioPairs, "%.2f"))
		if s.Luck {
			elo := num(s.LuckElo, "%+.1f")
			if s.LuckEloNote != "" {
				elo += " (" + s.LuckEloNote + ")"
			}
			fmt.Fprintf(w, "  luck    adjusted score %s ± %s  Elo %s  (variance ratio pairs/adjusted %s, games/adjusted %s)\n", num(100*s.LuckScore, "%.1f%%"), s.Interval(float64(s.LuckCI95), "luck"), elo, num(s.VarRatioLuck, "%.2f"), num(s.VarRatioTotal, "%.2f"))
		}
		if p := s.Points; p != nil {
			fmt.Fprintf(w, "  points  %+.3f per game ± %.3f over games, ± %.3f over pairs; wins of 1/2/3 points: %d/%d/%d vs %d/%d/%d\n", p.PerGame, p.CI95, p.CI95Pairs, p.WinsA[0], p.WinsA[1], p.WinsA[2], p.WinsB[0], p.WinsB[1], p.WinsB[2])
		}
		if f := s.Forfeits; f != nil {
			fmt.Fprintf(w, "  forfeits %d by %s%s, %d by %s%s\n", f.A, s.A, reasons(f.ReasonA), f.B, s.B, reasons(f.ReasonB))
		}
		if s.SPRT != nil {
			fmt.Fprintf(w, "  SPRT    %s: LLR %s (bounds %.3f, %.3f) %s\n", s.SPRT, num(*s.LLR, "%.3f"), s.LLRLower, s.LLRUpper, s.Decision)
		}
		fmt.Fprintf(w, "  plies %.1f per game; depth %s vs %s, nodes per move %s vs %s%s, ms per move %.3g vs %.3g; %.0f games/s\n", s.MeanPlies,
			num(s.DepthA, "%.2f"), num(s.DepthB, "%.2f"), num(s.NodesA, "%.0f"), num(s.NodesB, "%.0f"), s.SearchNote(), s.MsPerMoveA, s.MsPerMoveB, s.GamesPerSec)
		fmt.Fprintf(w, "  shape   %s decisions per game, branching factor %s; %s chance nodes per game, %s events each\n", num(s.DecisionsPerGame, "%.1f"), num(s.Branching, "%.1f"), num(s.ChancePerGame, "%.1f"), num(s.EventsPerChance, "%.1f"))
	}
	if len(r.Ranking) == 0 {
		return
	}
	fmt.Fprintln(w)
	r.writeCrossTable(w)
	fmt.Fprintln(w, "\nranking (score over all games, 95% interval over pairs)")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for i, e := range r.Ranking {
		fmt.Fprintf(tw, "%d.\t%s\t%s ± %s\tElo %s\t%d games\n", i+1, e.Variant, pct(e.Score), pct(e.CI95), num(e.Elo, "%+.1f"), e.Games)
	}
	tw.Flush()
}

// reasons writes forfeit counts by reason, " (timeout 2, illegal 1)", in
// the reasons' fixed order.
func reasons(by map[string]int) string {
	var parts []string
	for _, r := range outside.ForfeitReasons {
		if n := by[r]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", r, n))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

func (r *MatchReport) writeCrossTable(w io.Writer) {
	set := r.Settings
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "cross table (row's score ± 95% over pairs)\t")
	for j := range set.Engines {
		fmt.Fprintf(tw, "%d\t", j+1)
	}
	fmt.Fprintln(tw)
	cell := map[[2]int]string{}
	for k, pg := range set.Pairings() {
		s := r.Pairings[k]
		cell[[2]int{pg.A, pg.B}] = fmt.Sprintf("%s±%s", pct(s.Score), pct(s.ScoreCI95Pairs))
		cell[[2]int{pg.B, pg.A}] = fmt.Sprintf("%s±%s", pct(1-s.Score), pct(s.ScoreCI95Pairs))
	}
	for i, v := range set.Engines {
		fmt.Fprintf(tw, "%d %s\t", i+1, v)
		for j := range set.Engines {
			c, ok := cell[[2]int{i, j}]
			if !ok {
				c = "-"
			}
			fmt.Fprintf(tw, "%s\t", c)
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}
