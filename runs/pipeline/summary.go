package pipeline

import (
	"fmt"
	"io"
	"math"
	"slices"

	"starlab/regression"
	"starlab/runs"
	"starlab/search"
	"starlab/search/bench"
	"starlab/selfplay"
)

// WriteSummary writes the short summary starlab run ends with.
func (r *Result) WriteSummary(w io.Writer) {
	fmt.Fprintf(w, "run %s: %s\n", r.Recipe, r.Dir)
	for _, s := range r.Stages {
		if s.Skipped {
			fmt.Fprintf(w, "  %-18s done before\n", s.Name)
		} else {
			fmt.Fprintf(w, "  %-18s %.1f s\n", s.Name, s.Seconds)
		}
	}
	if r.Train != nil {
		opponent, repeated := r.Train.Opponent, ""
		if opponent == "" { // a curve of format 1 names none
			opponent = "the hand evaluator"
		}
		if note := r.Train.Repeated(); note != "" {
			repeated = " (" + note + ")"
		}
		fmt.Fprintf(w, "net %s: %d games, last measured %s ± %s against %s at depth 1%s\n",
			r.Net, r.Train.Games, pct(r.Train.Score), pct(r.Train.ScoreCI95), opponent, repeated)
	}
	if r.Fit != nil {
		fmt.Fprintf(w, "ChanceProbCut fit (net %s):", r.Fit.NetID)
		for _, l := range r.Fit.Lines {
			if l.Band == "all" {
				fmt.Fprintf(w, "  %d:%d a=%s b=%s σ=%.3f", l.Shallow, l.Deep, runs.Num(l.A).Format("%.3f"), runs.Num(l.B).Format("%+.3f"), l.Sigma)
			}
		}
		fmt.Fprintln(w)
	}
	if b := r.Bench; b != nil && len(b.Results) > 0 {
		last := b.Results[len(b.Results)-1]
		fmt.Fprintf(w, "bench, mean nodes at depth %d over %d positions:", last.Depth, b.Positions)
		for _, a := range last.Algos {
			fmt.Fprintf(w, "  %s %s", a.Algo, bench.FormatCount(a.Nodes.Mean))
			if t, ok := bench.Thesis[a.Algo]; ok && last.Depth == bench.ThesisDepth {
				fmt.Fprintf(w, " (thesis %s)", bench.FormatCount(t.Nodes.Mean))
			}
		}
		fmt.Fprintln(w)
	}
	if r.Tune != nil {
		writeTune(w, r.Tune)
	}
	if len(r.Matches) > 0 && r.Net != "" {
		fmt.Fprintf(w, "matches ({net} is the new net):\n")
	} else if len(r.Matches) > 0 {
		fmt.Fprintf(w, "matches:\n")
	}
	for i, m := range r.Matches {
		for _, p := range m.Pairings {
			fmt.Fprintf(w, "  %s vs %s: %.1f%% ± %s over pairs, luck-adjusted %s, %d games\n",
				variantName(p.A), variantName(p.B), 100*p.Score, p.Interval(p.ScoreCI95Pairs, "pairs"), luckText(p), p.Games)
		}
		if i < len(r.Papers) && r.Papers[i] != "" {
			fmt.Fprintf(w, "    paper: %s\n", r.Papers[i])
		}
		if len(m.Ranking) > 0 {
			fmt.Fprintf(w, "  ranking:")
			for i, e := range m.Ranking {
				fmt.Fprintf(w, " %d. %s %.1f%%", i+1, variantName(e.Variant), 100*e.Score)
			}
			fmt.Fprintln(w)
		}
	}
	fmt.Fprintf(w, "report: %s\n", r.Report)
}

// writeTune writes the tune's lines of the summary: its engines, and per
// depth and t each engine's nodes saved and error, with the chapter's
// figures where it has them.
func writeTune(w io.Writer, t *regression.TuneResult) {
	ch := t.Chapter()
	if ch != nil {
		fmt.Fprintf(w, "tune, nodes saved and ACPCME ± SE against staretc (errors on [-1, 1]; the chapter's, for %s, in its points / %d):\n", ch.Engine, ch.Points)
	} else {
		fmt.Fprintln(w, "tune, nodes saved and ACPCME ± SE against staretc (errors on [-1, 1]):")
	}
	for i, c := range t.CPC {
		src := "-"
		if i < len(t.ProbCut) {
			src = t.ProbCut[i]
		}
		fmt.Fprintf(w, "  engine %d: %s (%s)\n", i+1, c, src)
	}
	for i, row := range t.Rows {
		if i == 0 || t.Rows[i-1].Depth != row.Depth || t.Rows[i-1].T != row.T {
			fmt.Fprintf(w, "  depth %d t=%g:", row.Depth, row.T)
		}
		fmt.Fprintf(w, " [%d] %s ± %s %s ± %s", slices.Index(t.CPC, row.Engine)+1, pct(row.Reduction), pct(row.ReductionSE), row.ACPCME.Format("%.4f"), row.ACPCMESE.Format("%.4f"))
		if !math.IsNaN(float64(row.ACPCMEMinusFirst)) {
			fmt.Fprintf(w, " (vs [1] %s ± %s)", row.ACPCMEMinusFirst.Format("%+.4f"), row.ACPCMEMinusFirstSE.Format("%.4f"))
		}
		if i < len(t.Rows)-1 && t.Rows[i+1].Depth == row.Depth && t.Rows[i+1].T == row.T {
			fmt.Fprint(w, ";")
			continue
		}
		if red, acpcme, _ := ch.Figures(row.Depth, row.T); !math.IsNaN(red) || !math.IsNaN(acpcme) {
			fmt.Fprintf(w, " (chapter %s %s)", pct(runs.Num(red)), runs.Num(acpcme).Format("%.3f"))
		}
		fmt.Fprintln(w)
	}
}

// variantName returns variant v as the summary writes it: the products
// by their names (net={net}), the built-in net as eval=mlp(built-in).
func variantName(v string) string {
	net, _ := search.SpecValue(v, "net")
	return search.MapSpec(v, func(key, val string) (string, bool) {
		switch {
		case key != "eval" || val != "mlp":
			return val, true
		case net == "{net}":
			return val, false
		}
		return "mlp(built-in)", true
	})
}

// pct formats a share as a percentage, "-" when undefined and "inf" when
// unbounded, as the stages print it.
func pct(x runs.Num) string { return (100 * x).Format("%.1f%%") }

func luckText(s selfplay.Summary) string {
	if !s.Luck {
		return "-"
	}
	return pct(s.LuckScore) + " ± " + s.Interval(float64(s.LuckCI95), "luck")
}
