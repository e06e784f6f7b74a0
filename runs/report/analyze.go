package report

import (
	"fmt"

	"starlab/selfplay"
)

// addAnalyze shows an analyze run: each engine's mean loss per decision
// with its interval, its shares of errors and blunders, and its worst
// decisions with their positions.
func addAnalyze(s *Section, r *selfplay.AnalyzeResult) error {
	s.Title = "analyze: judged by " + s.names.spec(r.Judge)
	over := fmt.Sprintf("over %d games; ± the 95%% interval clustered by pair of games", r.Games)
	if r.Positions > 0 {
		over = fmt.Sprintf("over %d positions; ± the 95%% interval", r.Positions)
	}
	t := Table{Caption: "Loss per decision with more than one legal move, in points, " + over,
		Head: []string{"", "engine", "decisions", "mean loss", "errors (> 0.04)", "blunders (> 0.08)"}, Open: true}
	worst := Table{Caption: "Each engine's worst decisions", Head: []string{"", map[bool]string{false: "game", true: "number"}[r.Positions > 0], "position", "played", "best", "loss"}}
	for i, side := range r.Sides {
		if side.Engine == "" {
			continue
		}
		player := string(rune('A' + i))
		t.Rows = append(t.Rows, []Cell{{Text: player}, {Text: s.names.spec(side.Engine), Title: side.Engine, Left: true}, {Text: fmt.Sprint(side.Decisions)},
			{Text: side.MeanLoss.Format("%.4f") + " ± " + side.CI95.Format("%.4f")}, {Text: side.Errors.Format("%.3f")}, {Text: side.Blunders.Format("%.3f")}})
		for _, d := range side.Worst {
			worst.Rows = append(worst.Rows, []Cell{{Text: player}, {Text: fmt.Sprint(d.Game)}, {Text: d.Position, Left: true},
				{Text: d.Chosen, Left: true}, {Text: d.Best, Left: true}, {Text: fmt.Sprintf("%.4f", d.Loss)}})
		}
	}
	if r.Positions > 0 {
		if p := r.Paired; p != nil {
			s.Notes = append(s.Notes, fmt.Sprintf("B's loss less A's, paired over the %d positions both chose at: %s ± %s per decision.",
				p.Positions, p.Mean.Format("%+.4f"), p.CI95.Format("%.4f")))
		}
		s.Tables = append(s.Tables, t, worst)
		return nil
	}
	s.Notes = append(s.Notes, fmt.Sprintf("A's result per game in points: the judge's account (its value of the start, less A's losses, plus B's) %s ± %s; A scored %s ± %s. They differ by the mean luck of the dice, 0 for a judge whose values are right.",
		r.Predicted.Format("%+.4f"), r.PredictedCI95.Format("%.4f"), r.Actual.Format("%+.4f"), r.ActualCI95.Format("%.4f")))
	s.Tables = append(s.Tables, t, worst)
	return nil
}
