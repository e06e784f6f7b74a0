package td

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"starlab/runs"
	"starlab/search"
	"starlab/search/game"
	"starlab/selfplay"
)

// Repeated returns the note to print beside the score of a measurement
// of pairs pairs of games of which distinct differ: "" when all differ (or
// the counts were not recorded); otherwise the interval over pairs, which
// counts every pair, is too narrow, and when all are one pair it is 0
// around the score of that one pair.
func Repeated(pairs, distinct int32) string {
	switch {
	case distinct <= 0 || distinct >= pairs:
		return ""
	case distinct == 1:
		return fmt.Sprintf("all %d couples of games on shared dice are the same two games: the score is theirs, repeated, and its interval means nothing", pairs)
	}
	return fmt.Sprintf("only %d of the %d couples of games on shared dice differ: the interval, which counts them all, is too narrow", distinct, pairs)
}

// judgement is a held-out suite with exact values that judges nets of
// the game.
type judgement struct {
	game  search.Kit
	pos   []game.State
	exact []float64
}

// judgeSuite reads Settings.JudgeSuite: every position of the variant,
// with its exact value. nil without a suite; errors are runs.UsageError
// naming the suite.
func (s *Settings) judgeSuite() (*judgement, error) {
	if s.JudgeSuite == "" {
		return nil, nil
	}
	ps, err := search.ReadSuite(s.Kit, s.JudgeSuite)
	if err != nil {
		return nil, runs.Usagef("-judge: %v", err)
	}
	j := &judgement{game: s.Kit}
	for _, p := range ps {
		switch {
		case s.Kit.Variant(p.Pos) != s.Variant:
			return nil, runs.Usagef("-judge %s: line %d is of variant %s, the training's is %s", s.JudgeSuite, p.Line, s.Kit.Variant(p.Pos), s.Variant)
		case !p.HasExact:
			return nil, runs.Usagef("-judge %s: line %d has no exact value (starlab gen -exact writes them)", s.JudgeSuite, p.Line)
		}
		j.pos, j.exact = append(j.pos, p.Pos), append(j.exact, p.Exact)
	}
	if len(j.pos) == 0 {
		return nil, runs.Usagef("-judge %s: no positions", s.JudgeSuite)
	}
	return j, nil
}

// judge returns the static error of the net in file against the exact
// values (a finished position counts with its rules' value).
func (j *judgement) judge(file string) (search.Judgement, error) {
	_, res, err := netSpec(j.game, file)
	if err != nil {
		return search.Judgement{}, err
	}
	e := j.game.NewEngine(res)
	values := make([]float64, len(j.pos))
	for i, p := range j.pos {
		if p.Kind() == game.Over {
			values[i] = p.Result()
		} else {
			values[i] = e.Evaluate(p)
		}
	}
	return search.Judge("mlp", values, j.exact), nil
}

// netSpec returns the depth-1 StarETC spec of game g's net in file,
// resolved: the player the measurements play and the evaluator the
// judgement reads.
func netSpec(g search.Kit, file string) (search.Spec, *search.Resolved, error) {
	spec, err := selfplay.ParseEngineSpec(g, "staretc:depth=1,tt=1,eval=mlp")
	if err != nil {
		return spec, nil, err
	}
	spec.Net = file // in the fields, not the text, where a path with a comma would break the grammar
	res, err := spec.Config.Resolve()
	return spec, res, err
}

// measureVsHand plays the net in file at depth 1 against the game's hand
// evaluator at depth 1 with duplicate dice and the match stage's default
// luck reference, seeded by the games trained, from the measurements'
// starts that s, checked, has read, and returns the net's statistics and
// how many of the pairs of games differ.
func measureVsHand(ctx context.Context, s *Settings, file string, g int64) (selfplay.Summary, int, error) {
	dg := s.Kit
	spec, res, err := netSpec(dg, file)
	if err != nil {
		return selfplay.Summary{}, 0, err
	}
	a := selfplay.Engine{Kit: dg, Spec: spec, Resolved: res}
	b, err := selfplay.ParseEngine(dg, "staretc:depth=1,tt=1,eval="+dg.HandEval)
	if err != nil {
		return selfplay.Summary{}, 0, err
	}
	luck, err := selfplay.ParseEngine(dg, selfplay.LuckRef(dg, s.Variant))
	if err != nil {
		return selfplay.Summary{}, 0, err
	}
	cfg := &selfplay.MatchConfig{Kit: dg, A: a, B: b, Starts: s.res.measure, Pairs: s.MeasureGames / 2, Seed: runs.StreamSeed(s.Seed, "train/measure", uint64(g)), Workers: s.Workers, LuckRef: &luck}
	todo := make([]int, cfg.Pairs)
	for i := range todo {
		todo[i] = i
	}
	var prs []selfplay.PairRecord
	if err := selfplay.PlayPairs(ctx, cfg, todo, func(pr selfplay.PairRecord) (bool, error) {
		prs = append(prs, pr)
		return false, nil
	}); err != nil {
		return selfplay.Summary{}, 0, err
	}
	return selfplay.Summarize(a.Name(), b.Name(), prs, true, nil), distinctPairs(prs), nil
}

// distinctPairs counts the different pairs of games among prs: pairs that
// start from the same position and play the same moves and events.
func distinctPairs(prs []selfplay.PairRecord) int {
	seen := map[string]bool{}
	for _, pr := range prs {
		key, _ := json.Marshal([]any{pr.Games[0].Start, pr.Games[0].Game.Actions, pr.Games[1].Game.Actions})
		seen[string(key)] = true
	}
	return len(seen)
}

// judgedPlays reads Settings.JudgePositions, decisions of the variant, and
// checks that JudgeBy is an engine spec of the game, starlab's or an
// outside one. Errors are runs.UsageError.
func (s *Settings) judgedPlays() ([]string, error) {
	if (s.JudgePositions == "") != (s.JudgeBy == "") {
		return nil, runs.Usagef("-judge-positions and -judge-by go together: the positions and the engine that judges the net's play there")
	}
	if s.JudgePositions == "" {
		return nil, nil
	}
	ps, err := search.ReadSuite(s.Kit, s.JudgePositions)
	if err != nil {
		return nil, runs.Usagef("-judge-positions: %v", err)
	}
	if len(ps) == 0 {
		return nil, runs.Usagef("-judge-positions %s: no positions", s.JudgePositions)
	}
	var plays []string
	for _, p := range ps {
		if v := s.Kit.Variant(p.Pos); v != s.Variant {
			return nil, runs.Usagef("-judge-positions %s: line %d is of variant %s, the training's is %s", s.JudgePositions, p.Line, v, s.Variant)
		}
		if p.Pos.Kind() != game.Decision {
			return nil, runs.Usagef("-judge-positions %s: line %d is not a decision", s.JudgePositions, p.Line)
		}
		plays = append(plays, p.Pos.String())
	}
	if _, err := selfplay.ParseEngine(s.Kit, s.JudgeBy); err != nil {
		return nil, runs.Usagef("-judge-by %s: %v", s.JudgeBy, err)
	}
	return plays, nil
}

// judgePlay judges the play of the net in file at depth 1 on the judged
// positions that s, checked, has read, by s.JudgeBy, in the run's
// directory judged-G (made afresh: a measurement cut short is redone), and
// returns the net's figures.
func judgePlay(ctx context.Context, s *Settings, run *runs.Run, file string, g int64) (selfplay.SideAnalysis, error) {
	dir := run.Path(fmt.Sprintf("judged-%d", g))
	if err := os.RemoveAll(dir); err != nil {
		return selfplay.SideAnalysis{}, err
	}
	spec, _, err := netSpec(s.Kit, file) // the engine the measurement plays
	if err != nil {
		return selfplay.SideAnalysis{}, err
	}
	as := selfplay.AnalyzeSettings{Kit: s.Kit, GameName: s.GameName, Engines: []string{spec.String()},
		Positions: s.res.plays, Judge: s.JudgeBy, Workers: s.Workers}
	jr, err := runs.CreateAt(dir, "analyze", nil, as, s.Seed)
	if err != nil {
		return selfplay.SideAnalysis{}, err
	}
	defer jr.Close()
	res, err := selfplay.Analyze(ctx, as, jr, runs.NoProgress)
	if err != nil {
		return selfplay.SideAnalysis{}, fmt.Errorf("judging the net's play by %s: %v", s.JudgeBy, err)
	}
	// A finished analysis, as starlab analyze leaves one: the report
	// shows it done, not stopped.
	return res.Sides[0], jr.Finish(nil)
}
