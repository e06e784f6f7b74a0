package selfplay

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"

	"starlab/outside"
	"starlab/runs"
	"starlab/search"
	"starlab/search/game"
)

// AnalyzeFormat versions the analyze stage's journal and analysis.parquet.
const AnalyzeFormat = "starlab-analyze/1"

// The analyze stage's files.
const (
	AnalyzeJournal = "decisions.jsonl"  // one analysed game a line: the checkpoint
	AnalysisFile   = "analysis.parquet" // one JudgedDecision a row
)

// ErrorLoss and BlunderLoss are the losses above which a decision counts
// as an error and a blunder, in points (a game's values times its
// Description.ValueScale): 0.04 and 0.08 of a point. gnubg's own marks,
// for comparison, are 0.03 (doubtful), 0.06 (bad) and 0.12 (very bad).
const (
	ErrorLoss   = 0.04
	BlunderLoss = 0.08
)

// worstShown is how many of a side's worst decisions the result lists.
const worstShown = 10

// AnalyzeSettings are the analyze stage's settings: the match run whose
// decisions are judged, and the judge, an engine spec of the game searched
// to a depth.
type AnalyzeSettings struct {
	Kit      search.Kit `json:"-"`
	GameName string     `json:"game"`
	Match    string     `json:"match"`
	// Engines and Positions, in place of a match, are engines judged on
	// positions (decisions, in the game's notation, such as a suite's):
	// each engine chooses its move at each position that has more than
	// one, and the judge values every legal move. The Engines are "A"
	// and "B" as a match's are.
	Engines   []string `json:"engines,omitempty"`
	Positions []string `json:"positions,omitempty"`
	Judge     string   `json:"judge"`
	// Rollout are the rollout judge's settings, where Judge is "rollout".
	Rollout *RolloutJudge `json:"rollout,omitempty"`
	Workers int           `json:"workers"`
	// Shard is the part of the match's pairs this run judges (merge joins
	// the parts): a pair's two games stay together.
	Shard runs.Shard `json:"shard,omitzero"`
}

// JudgedDecision is one decision of a match as the judge values it: one row of
// analysis.parquet. Values are the judge's of the position each legal
// move leads to, from the mover's view, in points (the game's values
// times what a value stands for, Kit.PointsOf: backgammon's cubeless
// equity in both variants); Loss is the best's less the chosen's.
type JudgedDecision struct {
	Game     int32   `parquet:"game" json:"game"`         // the game's number, in the match's order (pair, then round)
	Number   int32   `parquet:"decision" json:"decision"` // the action's index in the game record
	Player   string  `parquet:"player" json:"player"`     // "A", the match's first engine, or "B"
	Position string  `parquet:"position" json:"position"`
	Moves    int32   `parquet:"moves" json:"moves"`
	Chosen   string  `parquet:"chosen" json:"chosen"`
	Best     string  `parquet:"best" json:"best"`
	Value    float64 `parquet:"value" json:"value"`
	BestV    float64 `parquet:"best_value" json:"best_value"`
	Loss     float64 `parquet:"loss" json:"loss"`
}

// SideAnalysis is what the judge says of one engine's decisions with more
// than one legal move: the mean loss with its 95% interval clustered by
// game (the decisions of a game are not independent), the shares of
// errors and blunders, and the worst decisions.
type SideAnalysis struct {
	Engine    string           `json:"engine"`
	Decisions int              `json:"decisions"`
	MeanLoss  runs.Num         `json:"mean_loss"`
	CI95      runs.Num         `json:"mean_loss_ci95"`
	Errors    runs.Num         `json:"errors"`
	Blunders  runs.Num         `json:"blunders"`
	Worst     []JudgedDecision `json:"worst"`
}

// AnalyzeResult is summary.json of an analyze run.
type AnalyzeResult struct {
	Format string `json:"format"`
	Judge  string `json:"judge"`
	Games  int    `json:"games"`
	// Positions is the number of positions judged, in place of games,
	// where engines were judged on positions; their figures' intervals
	// are by position, and there is no account of a result.
	Positions int             `json:"positions,omitempty"`
	Sides     [2]SideAnalysis `json:"sides"`
	// Paired, where engines were judged on positions, is B's loss less
	// A's on the positions where both chose: a comparison of the two on
	// the same positions, whose interval is narrower than either side's
	// own wherever their losses go together. Absent for a match.
	Paired *PairedLoss `json:"paired,omitempty"`
	// Predicted is the judge's account of A's mean result per game, in
	// points: its value of the start, less A's losses, plus B's; Actual
	// is what A scored. A game's result is exactly its start's value,
	// plus the luck of its chance events, less the mover's losses, when
	// all are valued by one judge, so the two differ by the mean luck,
	// which is 0 for a judge whose values are right: the test a judge
	// must pass. Each carries its 95% interval clustered by pair.
	Predicted     runs.Num `json:"predicted_a"`
	PredictedCI95 runs.Num `json:"predicted_a_ci95"`
	Actual        runs.Num `json:"actual_a"`
	ActualCI95    runs.Num `json:"actual_a_ci95"`
}

// PairedLoss is B's loss per decision less A's over the positions both
// engines chose at, with its 95% interval by position.
type PairedLoss struct {
	Positions int      `json:"positions"`
	Mean      runs.Num `json:"b_minus_a"`
	CI95      runs.Num `json:"ci95"`
}

// pairedLoss returns B's loss less A's over the positions (by number) of
// rows at which both decided, nil at none.
func pairedLoss(rows []JudgedDecision) *PairedLoss {
	lossA := map[int32]float64{}
	for _, d := range rows {
		if d.Player == "A" {
			lossA[d.Game] = d.Loss
		}
	}
	diffs := map[int32][]float64{} // by position, for clusteredMean
	for _, d := range rows {
		if a, ok := lossA[d.Game]; ok && d.Player == "B" {
			diffs[d.Game] = []float64{d.Loss - a}
		}
	}
	if len(diffs) == 0 {
		return nil
	}
	p := &PairedLoss{Positions: len(diffs)}
	p.Mean, p.CI95 = clusteredMean(diffs)
	return p
}

// analysedGame is a journal record: one game's judged decisions, with
// its start and length, which a resumed run checks against the match's.
type analysedGame struct {
	Game    int    `json:"game"`
	Start   string `json:"start"`
	Actions int    `json:"actions"`
	// StartA is the judge's value of the start for A and ResultA what A
	// scored, both in points.
	StartA    float64          `json:"start_a"`
	ResultA   float64          `json:"result_a"`
	Decisions []JudgedDecision `json:"decisions"`
}

// matchGame is one game of a match run to analyse.
type matchGame struct {
	index int
	game  PairGame
}

// Analyze is the analyze stage: every decision of the match run's games
// with more than one legal move, each legal move valued by the judge (a
// search of the position it leads to, one ply shallower than the judge's
// depth, or the judge's evaluation at depth 1; a finished game by its
// result), on Workers workers, a game's table emptied before it so that
// its values are the same on any worker. Each game's decisions are
// journalled as it finishes, so a stopped run resumes with the games it
// has not judged. It writes analysis.parquet and summary.json and returns
// each engine's figures.
func Analyze(ctx context.Context, s AnalyzeSettings, run *runs.Run, progress runs.Progress) (*AnalyzeResult, error) {
	g := s.Kit
	if err := g.Bind("analyze settings", &s.GameName); err != nil {
		return nil, err
	}
	judge, err := s.judge()
	if err != nil {
		return nil, err
	}
	if len(s.Positions) > 0 {
		return s.analyzePositions(ctx, judge, run, progress)
	}
	set, recs, err := readMatchRun(g, s.Match)
	if err != nil {
		return nil, err
	}
	var all []matchGame
	for _, r := range recs {
		for k, pg := range r.Pair.Games {
			// A game's number is its place in the whole match, pair by
			// pair, whichever pairs have been played: the journal's key,
			// the same when a stopped match has gone on since.
			if s.Shard.Owns(r.Pair.Index) {
				all = append(all, matchGame{index: 2*r.Pair.Index + k + 1, game: pg})
			}
		}
	}
	done, err := loadAnalysed(run.Dir())
	if err != nil {
		return nil, err
	}
	if err := s.judgeGames(ctx, judge, set.Variant, all, done, run, progress); err != nil {
		return nil, err
	}
	return writeAnalysis(run, s.judgeName(), set.twoEngines(), done)
}

// Check checks the settings a command gives before a run exists: the
// workers and the judge, an outside judge by starting it once for the
// match's variant.
func (s *AnalyzeSettings) Check(ctx context.Context, variant string) error {
	if len(s.Positions) > 0 {
		if _, _, _, err := s.resolvePositions(); err != nil {
			return err
		}
	}
	e, err := s.judge()
	if err == nil && s.Judge == "rollout" {
		set := s.Rollout.settings(s.Kit, variant)
		err = set.Check(ctx)
		s.Rollout.Luck = set.Luck // resolved, as the run records it
		return err
	}
	if err != nil || e.Outside == nil {
		return err
	}
	v, err := e.Outside.(outside.ValuerEngine).StartValuer(ctx, s.Kit, variant, io.Discard)
	if err != nil {
		return runs.Usagef("-judge %s: %v", s.Judge, err)
	}
	return v.Close()
}

// judgeName names the judge in the results: its spec, or the rollout's
// settings.
func (s *AnalyzeSettings) judgeName() string {
	if r := s.Rollout; s.Judge == "rollout" && r != nil {
		luck := cmp.Or(r.Luck, "the game's reference")
		return fmt.Sprintf("rollout (%d trials by %s, luck by %s)", r.Trials, r.Player, luck)
	}
	return s.Judge
}

// judge parses and resolves the judge, which must give a depth and no
// other limit, so that its values are the same on any machine.
func (s *AnalyzeSettings) judge() (Engine, error) {
	if err := runs.CheckWorkers("workers", s.Workers); err != nil {
		return Engine{}, err
	}
	if s.Judge == "rollout" {
		if s.Rollout == nil {
			return Engine{}, runs.Usagef("-judge rollout: the settings give no rollout")
		}
		return Engine{Kit: s.Kit}, nil // checked with the variant: Check, newJudge
	}
	e, err := ParseEngine(s.Kit, s.Judge)
	if err != nil {
		return e, err
	}
	if e.Outside != nil {
		if _, ok := e.Outside.(outside.ValuerEngine); !ok {
			return e, runs.Usagef("-judge %s: this outside engine cannot value positions; give an engine of starlab's or gnubg:plies=N", s.Judge)
		}
		return e, nil
	}
	if e.Spec.Config.Noise != 0 {
		return e, runs.Usagef("-judge %s: a judge has no noise (give noise=0): it values what was played", s.Judge)
	}
	if !e.Spec.Limits.DepthOnly() {
		return e, runs.Usagef("-judge %s: give a depth and no other limit, so that the values are the same on any machine", s.Judge)
	}
	return e, nil
}

// loadAnalysed reads the games the run in dir has judged already.
func loadAnalysed(dir string) (map[int]analysedGame, error) {
	done := map[int]analysedGame{}
	err := runs.LoadJournal(dir, AnalyzeJournal, AnalyzeFormat, func(line []byte) error {
		var a analysedGame
		if err := json.Unmarshal(line, &a); err != nil {
			return err
		}
		done[a.Game] = a
		return nil
	})
	return done, err
}

// judgeGames judges the games not in done on the workers, journalling
// each and adding it to done.
func (s *AnalyzeSettings) judgeGames(ctx context.Context, judge Engine, variant string, all []matchGame, done map[int]analysedGame, run *runs.Run, progress runs.Progress) error {
	var todo []matchGame
	for _, mg := range all {
		a, ok := done[mg.index]
		switch {
		case !ok:
			todo = append(todo, mg)
		case a.Start != mg.game.Game.Start || a.Actions != len(mg.game.Game.Actions):
			return fmt.Errorf("%s: game %d is not the game this run judged: start the analysis afresh", s.Match, mg.index)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	journal, err := runs.OpenJournal(run.Dir(), AnalyzeJournal, AnalyzeFormat)
	if err != nil {
		return err
	}
	defer journal.Close()
	progress(int64(len(done)), int64(len(all)), "")
	// An outside judge's messages go to the run's engines.log, through
	// one bounded writer for all the workers.
	var log io.Writer = io.Discard
	if judge.Outside != nil || s.Judge == "rollout" {
		f, bounded, err := openEnginesLog(run.Dir())
		if err != nil {
			return err
		}
		defer f.Close()
		log = bounded
	}
	var ws workers[*gameJudge]
	defer ws.close()
	return runs.Pool(ctx, s.Workers, todo,
		func() *gameJudge { return ws.keep(s.newJudge(ctx, judge, variant, log)) },
		func(ctx context.Context, j *gameJudge, mg matchGame) (analysedGame, error) {
			if j.err != nil {
				return analysedGame{}, j.err
			}
			return j.judgeGame(ctx, s.Kit, mg)
		},
		func(a analysedGame) (bool, error) {
			done[a.Game] = a
			progress(int64(len(done)), int64(len(all)), "")
			return false, journal.Append(a)
		})
}

// gameJudge is one worker's judge: an engine of the game searching to a
// depth, or an outside program valuing positions (gnubg), with its log.
type gameJudge struct {
	engine search.Engine
	depth  int
	valuer outside.Valuer
	scale  float64 // the points a value stands for
	err    error   // the judge's start failed
}

// newJudge starts one worker's judge; a failure is kept in err, which the
// worker's first game returns.
func (s *AnalyzeSettings) newJudge(ctx context.Context, judge Engine, variant string, log io.Writer) *gameJudge {
	j := &gameJudge{scale: s.Kit.PointsOf(variant)}
	if s.Judge == "rollout" {
		j.valuer, j.err = newRolloutValuer(s.Kit, *s.Rollout, variant, log)
		if j.err != nil { // a nil *rolloutValuer is no valuer
			j.valuer = nil
		}
		return j
	}
	if judge.Outside == nil {
		j.engine, j.depth = s.Kit.NewEngine(judge.Resolved), judge.Spec.Limits.Depth
		return j
	}
	j.valuer, j.err = judge.Outside.(outside.ValuerEngine).StartValuer(ctx, s.Kit, variant, log)
	return j
}

// close stops the judge's program, if any.
func (j *gameJudge) close() {
	if j.valuer != nil {
		j.valuer.Close()
	}
}

// value returns the judge's value of st for its mover, which is not over:
// the engine's search one ply shallower than its depth (at depth 1 its
// evaluation), or the program's value.
func (j *gameJudge) value(ctx context.Context, st game.State) (float64, error) {
	if j.valuer != nil {
		return j.valuer.Value(ctx, st)
	}
	if j.depth <= 1 {
		return j.engine.Evaluate(st), nil
	}
	return j.engine.Search(ctx, st, search.Limits{Depth: j.depth - 1}, nil).Last().Score, nil
}

// afresh empties the judge's table, so that its values depend on nothing
// judged before, and returns its value as a function of the state, the
// first failure of its program kept in *failed.
func (j *gameJudge) afresh(ctx context.Context, failed *error) func(game.State) float64 {
	if j.engine != nil {
		j.engine.ClearTT()
	}
	return func(st game.State) float64 {
		v, err := j.value(ctx, st)
		if err != nil && *failed == nil {
			*failed = err
		}
		return v
	}
}

// judgeGame replays one game and judges its decisions.
func (j *gameJudge) judgeGame(ctx context.Context, g search.Kit, mg matchGame) (analysedGame, error) {
	out := analysedGame{Game: mg.index, Start: mg.game.Game.Start, Actions: len(mg.game.Game.Actions)}
	s, err := g.Parse(mg.game.Game.Start)
	if err != nil {
		return out, fmt.Errorf("game %d: start: %v", mg.index, err)
	}
	var verr error // the first failure of the judge's program
	value := j.afresh(ctx, &verr)
	sideA := 1
	if mg.game.AIsBlue {
		sideA = 0
	}
	out.StartA = j.scale * game.ValueFor(s, sideA, value)
	out.ResultA = float64(mg.game.Game.Result) * float64(max(mg.game.Game.Points, 1))
	if sideA == 1 {
		out.ResultA = -out.ResultA
	}
	var moves []game.Move
	for n, a := range mg.game.Game.Actions {
		if s.Kind() == game.Chance {
			s.Happen(game.Event{ID: uint16(a)})
			continue
		}
		if err := cmp.Or(ctx.Err(), verr); err != nil {
			return out, err
		}
		moves = s.Legal(moves)
		if len(moves) > 1 {
			d, err := judgeDecision(g, s, moves, game.Move(a), j.scale, value)
			if err != nil {
				return out, fmt.Errorf("game %d: %v", mg.index, err)
			}
			d.Game, d.Number, d.Player = int32(mg.index), int32(n), "B"
			if s.Mover() == sideA {
				d.Player = "A"
			}
			out.Decisions = append(out.Decisions, d)
		}
		s.Play(game.Move(a))
	}
	return out, cmp.Or(ctx.Err(), verr)
}

// judgeDecision values every legal move of the decision s by what value
// says of the position it leads to, for s's mover, times scale (points a
// value stands for), and returns the decision with the chosen move's
// loss against the best: the chosen move itself where none is better,
// else the first best in the game's order of moves. A chosen move that is
// not legal is an error.
func judgeDecision(g search.Kit, s game.State, moves []game.Move, chosen game.Move, scale float64, value func(game.State) float64) (JudgedDecision, error) {
	return decisionOf(g, s, moves, valueMoves(s, moves, scale, value), chosen)
}

// valueMoves returns what value says of the position each move of s leads
// to, for s's mover, times scale.
func valueMoves(s game.State, moves []game.Move, scale float64, value func(game.State) float64) []float64 {
	me := s.Mover()
	child := s.Clone()
	values := make([]float64, len(moves))
	for i, m := range moves {
		child.CopyFrom(s)
		child.Play(m)
		values[i] = scale * game.ValueFor(child, me, value)
	}
	return values
}

// decisionOf returns the decision s, its moves valued by values, with the
// chosen move's loss against the best (judgeDecision).
func decisionOf(g search.Kit, s game.State, moves []game.Move, values []float64, chosen game.Move) (JudgedDecision, error) {
	d := JudgedDecision{Position: s.String(), Moves: int32(len(moves)), Chosen: g.FormatMove(s, chosen), BestV: math.Inf(-1)}
	legal := false
	for i, m := range moves {
		v := values[i]
		if v > d.BestV {
			d.BestV, d.Best = v, g.FormatMove(s, m)
		}
		if m == chosen {
			d.Value, legal = v, true
		}
	}
	if !legal {
		return d, fmt.Errorf("position %s: the recorded move %d is not legal", s, chosen)
	}
	d.Loss = max(d.BestV-d.Value, 0)
	if d.Loss == 0 {
		d.Best = d.Chosen
	}
	return d, nil
}

// writeAnalysis writes analysis.parquet and summary.json from the judged
// games and returns the summary: A's and B's figures.
func writeAnalysis(run *runs.Run, judge string, engines [2]string, done map[int]analysedGame) (*AnalyzeResult, error) {
	return writeJudged(run, judge, engines, done, false)
}

// writeJudged writes analysis.parquet and summary.json of the judged
// games, or with positions of the judged positions (each analysedGame a
// position: intervals by position, no account of a result).
func writeJudged(run *runs.Run, judge string, engines [2]string, done map[int]analysedGame, positions bool) (*AnalyzeResult, error) {
	var rows []JudgedDecision
	for _, k := range slices.Sorted(maps.Keys(done)) {
		rows = append(rows, done[k].Decisions...)
	}
	if err := runs.WriteParquet(run, AnalysisFile, AnalyzeFormat, rows); err != nil {
		return nil, err
	}
	res := &AnalyzeResult{Format: AnalyzeFormat, Judge: judge, Games: len(done)}
	cluster := func(game int32) int32 { return (game - 1) / 2 } // a pair of games
	if positions {
		res.Games, res.Positions = 0, len(done)
		cluster = func(position int32) int32 { return position }
	}
	for i, player := range [2]string{"A", "B"} {
		res.Sides[i] = sideAnalysis(engines[i], player, rows, cluster)
	}
	if positions {
		res.Paired = pairedLoss(rows)
		res.Predicted, res.PredictedCI95 = runs.Num(math.NaN()), runs.Num(math.NaN())
		res.Actual, res.ActualCI95 = runs.Num(math.NaN()), runs.Num(math.NaN())
		return res, runs.WriteJSON(run, SummaryFile, res)
	}
	predicted, actual := map[int32][]float64{}, map[int32][]float64{}
	for _, k := range slices.Sorted(maps.Keys(done)) {
		g := done[k]
		pair := int32(g.Game-1) / 2
		p := g.StartA
		for _, d := range g.Decisions {
			if d.Player == "A" {
				p -= d.Loss
			} else {
				p += d.Loss
			}
		}
		predicted[pair] = append(predicted[pair], p)
		actual[pair] = append(actual[pair], g.ResultA)
	}
	res.Predicted, res.PredictedCI95 = clusteredMean(predicted)
	res.Actual, res.ActualCI95 = clusteredMean(actual)
	if err := runs.WriteJSON(run, SummaryFile, res); err != nil {
		return nil, err
	}
	return res, nil
}

// sideAnalysis summarises the decisions of player: the mean loss, its
// interval clustered by pair of games (clusteredMean: a pair's two games
// share their dice, and a game's decisions are not independent), and the
// shares of errors and blunders.
func sideAnalysis(engine, player string, rows []JudgedDecision, cluster func(game int32) int32) SideAnalysis {
	a := SideAnalysis{Engine: engine, MeanLoss: runs.Num(math.NaN()), CI95: runs.Num(math.NaN()), Errors: runs.Num(math.NaN()), Blunders: runs.Num(math.NaN())}
	var mine []JudgedDecision
	losses := map[int32][]float64{} // by pair
	var errors, blunders int
	for _, d := range rows {
		if d.Player != player {
			continue
		}
		mine = append(mine, d)
		losses[cluster(d.Game)] = append(losses[cluster(d.Game)], d.Loss)
		if d.Loss > ErrorLoss {
			errors++
		}
		if d.Loss > BlunderLoss {
			blunders++
		}
	}
	a.Decisions = len(mine)
	if a.Decisions == 0 {
		return a
	}
	n := float64(a.Decisions)
	a.MeanLoss, a.CI95 = clusteredMean(losses)
	a.Errors, a.Blunders = runs.Num(float64(errors)/n), runs.Num(float64(blunders)/n)
	mine = slices.DeleteFunc(mine, func(d JudgedDecision) bool { return d.Loss == 0 })
	slices.SortStableFunc(mine, func(x, y JudgedDecision) int { return cmp.Compare(y.Loss, x.Loss) })
	a.Worst = mine[:min(worstShown, len(mine))]
	return a
}

// clusteredMean returns the mean of the values, grouped by cluster, with
// its 95% interval by the ratio estimator clustered that way: Σ_c (S_c -
// m n_c)² over (Σ n)², scaled by C/(C-1), with Student's t quantile on C-1
// degrees of freedom (NaN with one cluster). The clusters are summed in
// order, so that the figures are the same every run.
func clusteredMean(byCluster map[int32][]float64) (mean, ci95 runs.Num) {
	keys := slices.Sorted(maps.Keys(byCluster))
	var total, n float64
	for _, k := range keys {
		for _, v := range byCluster[k] {
			total += v
		}
		n += float64(len(byCluster[k]))
	}
	if n == 0 {
		return runs.Num(math.NaN()), runs.Num(math.NaN())
	}
	m := total / n
	C := float64(len(byCluster))
	if C < 2 {
		return runs.Num(m), runs.Num(math.NaN())
	}
	var ss float64
	for _, k := range keys {
		r := -m * float64(len(byCluster[k]))
		for _, v := range byCluster[k] {
			r += v
		}
		ss += r * r
	}
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: C - 1}.Quantile(0.975)
	return runs.Num(m), runs.Num(t * math.Sqrt(C/(C-1)*ss) / n)
}

// MergeAnalyze is the analyze stage's merge: it joins the journals of
// every shard of one analysis of game g (runs.CheckShards) into run, each
// game once, checks that together they judged every game of the match,
// and writes what the unsharded analysis would have written: its files
// are a function of the judged games alone.
func MergeAnalyze(ctx context.Context, g search.Kit, sh *runs.Shards, run *runs.Run, progress runs.Progress) (*AnalyzeResult, error) {
	var s AnalyzeSettings
	if err := json.Unmarshal(sh.Settings, &s); err != nil {
		return nil, fmt.Errorf("%s: settings: %v", sh.Dirs[0], err)
	}
	s.Kit = g
	if err := g.Bind("analyze settings", &s.GameName); err != nil {
		return nil, err
	}
	// What the shards judged: a match's games, a pair's two in one
	// shard, or positions.
	owner, what, want := func(k int) int { return (k - 1) / 2 }, "games", 0
	var engines [2]string
	if len(s.Positions) > 0 {
		es, positions, _, err := s.resolvePositions()
		if err != nil {
			return nil, err
		}
		for i, e := range es {
			engines[i] = e.Name()
		}
		owner, what, want = func(k int) int { return k - 1 }, "positions", len(positions)
	} else {
		set, recs, err := readMatchRun(g, s.Match)
		if err != nil {
			return nil, err
		}
		engines, want = set.twoEngines(), 2*len(recs)
	}
	done := map[int]analysedGame{}
	for i, d := range sh.Dirs {
		part, err := loadAnalysed(d)
		if err != nil {
			return nil, err
		}
		for k, a := range part {
			if _, dup := done[k]; dup || !(runs.Shard{Index: i, Count: sh.Count}).Owns(owner(k)) {
				return nil, fmt.Errorf("%s: %s %d is not shard %d/%d's, or is in two shards", d, what[:len(what)-1], k, i, sh.Count)
			}
			done[k] = a
		}
	}
	if len(done) != want {
		return nil, fmt.Errorf("the shards judged %d %s of %d", len(done), what, want)
	}
	journal, err := runs.OpenJournal(run.Dir(), AnalyzeJournal, AnalyzeFormat)
	if err != nil {
		return nil, err
	}
	defer journal.Close()
	for _, k := range slices.Sorted(maps.Keys(done)) {
		if err := journal.Append(done[k]); err != nil {
			return nil, err
		}
	}
	progress(int64(len(done)), int64(len(done)), "")
	return writeJudged(run, s.judgeName(), engines, done, len(s.Positions) > 0)
}
