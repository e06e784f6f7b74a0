package report

import (
	"fmt"

	"starlab/runs"
	"starlab/selfplay"
)

// addAnalyze shows an analyze run: each engine's mean loss per decision
// with its interval, its shares of errors and blunders, and its worst
// decisions with their positions.
func addAnalyze(s *Section, run *runs.Run) error {
	var r selfplay.AnalyzeResult
	ok, err := readJSON(run.Path(selfplay.SummaryFile), &r)
	if err != nil || !ok {
		return err
	}
	s.Title = "analyze: judged by " + s.names.spec(r.Judge)
	t := Table{Caption: fmt.Sprintf("Loss per decision with more than one legal move, in the game's values, over %d games; ± the 95%% interval clustered by game", r.Games),
		Head: []string{"", "engine", "decisions", "mean loss", "errors (> 0.04)", "blunders (> 0.08)"}, Open: true}
	worst := Table{Caption: "Each engine's worst decisions", Head: []string{"", "game", "position", "played", "best", "loss"}}
	for i, side := range r.Sides {
		player := string(rune('A' + i))
		t.Rows = append(t.Rows, []Cell{{Text: player}, {Text: s.names.spec(side.Engine), Title: side.Engine, Left: true}, {Text: fmt.Sprint(side.Decisions)},
			{Text: side.MeanLoss.Format("%.4f") + " ± " + side.CI95.Format("%.4f")}, {Text: side.Errors.Format("%.3f")}, {Text: side.Blunders.Format("%.3f")}})
		for _, d := range side.Worst {
			worst.Rows = append(worst.Rows, []Cell{{Text: player}, {Text: fmt.Sprint(d.Game)}, {Text: d.Position, Left: true},
				{Text: d.Chosen, Left: true}, {Text: d.Best, Left: true}, {Text: fmt.Sprintf("%.4f", d.Loss)}})
		}
	}
	s.Tables = append(s.Tables, t, worst)
	return nil
}
