package report

import (
	"fmt"
	"math"

	"starlab/runs"
	"starlab/selfplay"
)

// addRollout shows a rollout run: each position's (or move's) value with
// its standard error, the plain estimate beside it, and the outcomes.
func addRollout(s *Section, r *selfplay.RolloutResult) error {
	s.Title = "rollout: played by " + s.names.spec(r.Player)
	// The shares of wins and losses by more than a point only where a
	// trial ended so (backgammon's money play).
	gammons := false
	for _, row := range r.Rows {
		gammons = gammons || row.Gammon+row.LoseGammon > 0
	}
	head := []string{"position", "move", "side", "value", "plain", "SE ratio", "win"}
	if gammons {
		head = append(head, "gammon", "backgammon", "lose gammon", "lose backgammon")
	}
	caption := fmt.Sprintf("Value in points for the side named, %d trials a row, ± one standard error: less the luck the reference %s sees, and plain", r.Trials, r.Luck)
	if r.Luck == "none" {
		caption = fmt.Sprintf("Value in points for the side named, %d trials a row, ± one standard error: plain rollouts (no reference)", r.Trials)
	}
	t := Table{Caption: caption,
		Head: head, Open: true}
	for _, row := range r.Rows {
		ratio := row.SE / row.PlainSE
		cells := []Cell{{Text: row.Position, Left: true}, {Text: row.Play, Left: true}, {Text: row.Side},
			{Text: row.Value.Format("%+.4f") + " ± " + row.SE.Format("%.4f")}, {Text: row.Plain.Format("%+.4f") + " ± " + row.PlainSE.Format("%.4f")},
			{Text: ratio.Format("%.2f")}, {Text: row.Win.Format("%.3f")}}
		if gammons {
			for _, x := range []runs.Num{row.Gammon, row.Backgammon, row.LoseGammon, row.LoseBackgammon} {
				cells = append(cells, Cell{Text: x.Format("%.3f")})
			}
		}
		t.Rows = append(t.Rows, cells)
	}
	if !math.IsNaN(r.TrialsPerSecond) && r.TrialsPerSecond > 0 {
		s.Notes = append(s.Notes, fmt.Sprintf("%.1f trials a second a worker (%.1f s of trials in all). The SE ratio is the variance-reduced standard error over the plain one.", r.TrialsPerSecond, r.Seconds))
	}
	s.Tables = append(s.Tables, t)
	return nil
}
