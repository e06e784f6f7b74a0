package selfplay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"starlab/runs"
	"starlab/search"
	"starlab/search/game"
)

// RolloutFormat versions the rollout stage's journal and rollout.parquet.
const RolloutFormat = "starlab-rollout/1"

// The rollout stage's files.
const (
	RolloutJournal = "trials.jsonl"    // one trial a line: the checkpoint
	RolloutFile    = "rollout.parquet" // one RolloutRow a row
)

// rolloutStrata is the number of strata of a stratified chance node: the
// 36 rolls of two dice, gnubg's quasi-random rotation.
const rolloutStrata = 36

// stratifiedNodes is how many of a trial's first chance nodes are
// stratified: the first two rolls, whose 1,296 pairs every 1,296 trials
// meet once each.
const stratifiedNodes = 2

// RolloutSettings are the rollout stage's settings: the positions rolled
// out, the engine that plays every trial for both sides, the trials, and
// the reference whose luck is taken out of each trial's result.
type RolloutSettings struct {
	Kit      search.Kit `json:"-"`
	GameName string     `json:"game"`
	Variant  string     `json:"variant"`
	// Positions are the positions rolled out, in the game's notation,
	// before or after their chance event. With Plays each must be a
	// decision, and every legal move of it is rolled out: the position it
	// leads to, valued for the side that moved.
	Positions []string `json:"positions"`
	Plays     bool     `json:"plays,omitempty"`
	// Player is the engine spec that plays both sides of every trial
	// (a search with a depth or node limit, or an outside engine).
	Player string `json:"player"`
	Trials int    `json:"trials"`
	// Truncate, if above 0, stops a trial at the first chance node after
	// that many decisions and values it there by the reference.
	Truncate int `json:"truncate,omitempty"`
	// Luck is the variance reduction's reference (a search with a depth or
	// node limit, or gnubg:plies=N), "none" for plain rollouts; ""
	// becomes the game's luck reference (LuckRef).
	Luck    string `json:"luck"`
	Seed    uint64 `json:"seed"`
	Workers int    `json:"workers"`
	// Shard is the part of every position's trials this run plays (merge
	// joins the parts): trial t belongs to shard t mod N.
	Shard runs.Shard `json:"shard,omitzero"`
}

// RolloutRow is what the rollout says of one position (or one move of
// it): one row of rollout.parquet. Values are in points for Side, the
// position's mover (with Plays, the side that moved): backgammon's
// cubeless equity.
type RolloutRow struct {
	Position string `parquet:"position" json:"position"`
	Play     string `parquet:"play" json:"play,omitempty"` // the move rolled out (Plays), else ""
	Side     string `parquet:"side" json:"side"`
	Trials   int32  `parquet:"trials" json:"trials"`
	// Value is the mean of the trials' results less their luck (the
	// variance-reduced estimate; the plain mean without a reference) and
	// SE its standard error; Plain and PlainSE are the plain mean of the
	// results and its standard error, VR's measure.
	Value   runs.Num `parquet:"value" json:"value"`
	SE      runs.Num `parquet:"se" json:"se"`
	Plain   runs.Num `parquet:"plain" json:"plain"`
	PlainSE runs.Num `parquet:"plain_se" json:"plain_se"`
	// Score is Side's expected score (1 a win, 0.5 a draw) from Value, in
	// a game not played for points: backgammon 1pt's P(win). NaN in a
	// game played for points.
	Score runs.Num `parquet:"score" json:"score"`
	// Win, Gammon and Backgammon are the shares of trials Side won, won
	// by 2 points or more and by 3, and LoseGammon and LoseBackgammon
	// those it lost by 2 or more and by 3; a truncated trial counts in
	// none.
	Win            runs.Num `parquet:"win" json:"win"`
	Gammon         runs.Num `parquet:"gammon" json:"gammon"`
	Backgammon     runs.Num `parquet:"backgammon" json:"backgammon"`
	LoseGammon     runs.Num `parquet:"lose_gammon" json:"lose_gammon"`
	LoseBackgammon runs.Num `parquet:"lose_backgammon" json:"lose_backgammon"`
	Decisions      runs.Num `parquet:"decisions" json:"decisions"` // mean decisions per trial
}

// RolloutResult is summary.json of a rollout run.
type RolloutResult struct {
	Format string       `json:"format"`
	Player string       `json:"player"`
	Luck   string       `json:"luck"`
	Trials int          `json:"trials"` // per row
	Rows   []RolloutRow `json:"rows"`
	// Seconds is the time the trials took, summed over workers, and
	// TrialsPerSecond the trials played per second of it: per core.
	Seconds         float64 `json:"seconds"`
	TrialsPerSecond float64 `json:"trials_per_s"`
}

// rolloutTrial is a journal record: one trial of one row, its result and
// luck in points for the row's side.
type rolloutTrial struct {
	Row       int     `json:"row"`
	Trial     int     `json:"trial"`
	Result    float64 `json:"result"`
	Luck      float64 `json:"luck"`
	Points    int     `json:"points"` // signed: what Side won (+) or lost (-), 0 drawn or truncated
	Truncated bool    `json:"truncated,omitempty"`
	Decisions int     `json:"decisions"`
	Nanos     int64   `json:"ns"` // the time the trial took
}

// rolloutItem is one row to roll out: the state each trial starts from
// and the side whose view the row takes.
type rolloutItem struct {
	row   RolloutRow
	start game.State
	side  int
}

// rolloutTask is one trial of one row.
type rolloutTask struct{ row, trial int }

// Rollout is the rollout stage: Trials trials of every position (or of
// every move of it), each a game played to its end (or to Truncate
// decisions) by Player for both sides, its dice from the trial's number
// alone, so that trial t of two moves or positions sees the same dice, and
// its first two rolls stratified (rolloutStrata); each trial's result less
// the luck of its chance events as the reference values them (Luck) is
// the variance-reduced estimate. Trials run on Workers workers, each
// trial's tables emptied before it, and are journalled as they finish, so
// a stopped run resumes with the trials it has not played and every
// figure is the same on any number of workers or shards.
func Rollout(ctx context.Context, s RolloutSettings, run *runs.Run, progress runs.Progress) (*RolloutResult, error) {
	cfg, items, err := s.resolve()
	if err != nil {
		return nil, err
	}
	done, err := loadTrials(run.Dir(), len(items), s.Trials)
	if err != nil {
		return nil, err
	}
	var todo []rolloutTask
	total := 0
	for r := range items {
		for t := 0; t < s.Trials; t++ {
			if !s.Shard.Owns(t) {
				continue
			}
			total++
			if _, ok := done[rolloutTask{r, t}]; !ok {
				todo = append(todo, rolloutTask{r, t})
			}
		}
	}
	if len(todo) > 0 {
		if err := s.playTrials(ctx, cfg, items, todo, done, total, run, progress); err != nil {
			return nil, err
		}
	}
	return writeRollout(run, s, items, done)
}

// Check checks the settings a command gives before a run exists, and
// starts an outside player or reference once.
func (s *RolloutSettings) Check(ctx context.Context) error {
	cfg, _, err := s.resolve()
	if err != nil {
		return err
	}
	m := &Match{Settings: MatchSettings{Kit: s.Kit, Variant: s.Variant}, Engines: []Engine{cfg.A}, Luck: cfg.LuckRef}
	return m.startChecked(ctx)
}

// resolve parses the settings: the positions, the player and the
// reference, into a match configuration (its Starts the rows' starts) and
// the rows.
func (s *RolloutSettings) resolve() (*MatchConfig, []rolloutItem, error) {
	g := s.Kit
	if err := g.Bind("rollout settings", &s.GameName); err != nil {
		return nil, nil, err
	}
	switch {
	case s.Trials < 1:
		return nil, nil, runs.Usagef("-trials %d: want 1 or more", s.Trials)
	case s.Truncate < 0:
		return nil, nil, runs.Usagef("-truncate %d: want 0 (play to the end) or more decisions", s.Truncate)
	}
	if err := runs.CheckWorkers("workers", s.Workers); err != nil {
		return nil, nil, err
	}
	if err := s.startPositions(); err != nil {
		return nil, nil, err
	}
	items, err := s.items()
	if err != nil {
		return nil, nil, err
	}
	player, err := ParseEngine(g, s.Player)
	if err != nil {
		return nil, nil, err
	}
	if player.Outside == nil && !player.Deterministic() {
		return nil, nil, runs.Usagef("-player %s: give a depth or node limit, not a time limit, so that a trial is the same on any machine", s.Player)
	}
	cfg := &MatchConfig{Kit: g, A: player, B: player, Pairs: 1, Seed: s.Seed, Workers: s.Workers}
	for _, it := range items {
		cfg.Starts = append(cfg.Starts, it.start)
		if player.Resolved != nil {
			if err := g.Check(player.Resolved, it.start); err != nil {
				return nil, nil, runs.Usagef("-player %s, %s: %v", s.Player, it.row.Position, err)
			}
		}
	}
	if s.Luck == "" {
		s.Luck = LuckRef(g, s.Variant)
	}
	if s.Luck != "none" {
		ref, err := ParseEngine(g, s.Luck)
		if err != nil {
			return nil, nil, runs.Usagef("-luck: %v", err)
		}
		if err := checkReference(ref); err != nil {
			return nil, nil, err
		}
		s.Luck, cfg.LuckRef = ref.Name(), &ref
	} else if s.Truncate > 0 {
		return nil, nil, runs.Usagef("-truncate %d values the positions where trials stop by the reference; give -luck, not none", s.Truncate)
	}
	return cfg, items, nil
}

// startPositions makes Positions, when there are none, the variant's
// start before its chance event.
func (s *RolloutSettings) startPositions() error {
	if len(s.Positions) > 0 {
		return nil
	}
	if s.Variant == "" {
		s.Variant = s.Kit.DefaultVariant()
	}
	st, err := s.Kit.New(s.Variant)
	if err != nil {
		return runs.Usagef("-variant %s: %v", s.Variant, err)
	}
	s.Positions = []string{beforeChance(s.Kit, st).String()}
	return nil
}

// items parses the positions into the rows: each position, or with Plays
// each legal move of each.
func (s *RolloutSettings) items() ([]rolloutItem, error) {
	g := s.Kit
	var items []rolloutItem
	var moves []game.Move
	for i, text := range s.Positions {
		st, err := g.Parse(text)
		if err != nil {
			return nil, runs.Usagef("position %d: %v", i+1, err)
		}
		if st.Kind() == game.Over {
			return nil, runs.Usagef("position %d (%s) is over", i+1, text)
		}
		if s.Variant == "" {
			s.Variant = g.Variant(st)
		}
		if v := g.Variant(st); v != s.Variant {
			return nil, runs.Usagef("position %d (%s) is of variant %s, the rollout's is %s", i+1, text, v, s.Variant)
		}
		side := st.Mover()
		row := RolloutRow{Position: st.String(), Side: g.Sides[side]}
		if !s.Plays {
			items = append(items, rolloutItem{row: row, start: st, side: side})
			continue
		}
		if st.Kind() != game.Decision {
			return nil, runs.Usagef("position %d (%s): -plays rolls out the moves of a decision; this position is before its chance event", i+1, text)
		}
		moves = st.Legal(moves)
		for _, m := range moves {
			w := st.Clone()
			w.Play(m)
			r := row
			r.Play = g.FormatMove(st, m)
			items = append(items, rolloutItem{row: r, start: w, side: side})
		}
	}
	return items, nil
}

// loadTrials reads the trials the run in dir has played, checking that
// each is one of the run's.
func loadTrials(dir string, rows, trials int) (map[rolloutTask]rolloutTrial, error) {
	done := map[rolloutTask]rolloutTrial{}
	err := runs.LoadJournal(dir, RolloutJournal, RolloutFormat, func(line []byte) error {
		var t rolloutTrial
		if err := json.Unmarshal(line, &t); err != nil {
			return err
		}
		if t.Row < 0 || t.Row >= rows || t.Trial < 0 || t.Trial >= trials {
			return fmt.Errorf("trial %d of row %d is not one of this rollout's %d trials of %d rows", t.Trial, t.Row, trials, rows)
		}
		done[rolloutTask{t.Row, t.Trial}] = t
		return nil
	})
	return done, err
}

// playTrials plays the trials in todo on the workers, journalling each
// and adding it to done.
func (s *RolloutSettings) playTrials(ctx context.Context, cfg *MatchConfig, items []rolloutItem, todo []rolloutTask, done map[rolloutTask]rolloutTrial, total int, run *runs.Run, progress runs.Progress) error {
	journal, log, closeWork, err := openWork(run.Dir(), RolloutJournal, RolloutFormat)
	if err != nil {
		return err
	}
	defer closeWork()
	cfg.EngineLog = log
	strata := trialStrata(s.Seed)
	var ws workers[*matchWorker]
	defer ws.close()
	scale := s.Kit.PointsOf(s.Variant)
	progress(int64(total-len(todo)), int64(total), "")
	played := total - len(todo)
	return runs.Pool(ctx, s.Workers, todo,
		func() *matchWorker { return ws.keep(newTrialWorker(cfg)) },
		func(ctx context.Context, w *matchWorker, t rolloutTask) (rolloutTrial, error) {
			return w.playTrial(ctx, cfg, items[t.row], t, s, strata, scale)
		},
		func(t rolloutTrial) (bool, error) {
			done[rolloutTask{t.Row, t.Trial}] = t
			played++
			progress(int64(played), int64(total), "")
			return false, journal.Append(t)
		})
}

// newTrialWorker returns a worker of trials: its player, which plays both
// sides, and its own reference, where the reference is a search (an
// outside one starts before the first trial: startLuck).
func newTrialWorker(cfg *MatchConfig) *matchWorker {
	w := &matchWorker{a: cfg.player(cfg.A)}
	if cfg.LuckRef != nil && cfg.LuckRef.Outside == nil {
		w.luck = NewLuck(cfg.Kit.NewEngine(cfg.LuckRef.Resolved), cfg.LuckRef.Spec.Limits)
	}
	return w
}

// errTruncated stops a truncated trial's game at its first chance node
// after the decisions it plays.
var errTruncated = errors.New("truncated")

// playTrial plays one trial of a row: the row's start played out by the
// worker's player on both sides from the trial's dice (trialSeed, the
// stratified first rolls), the luck of every chance event summed by the
// reference, for the row's side, in points.
func (w *matchWorker) playTrial(ctx context.Context, cfg *MatchConfig, it rolloutItem, t rolloutTask, s *RolloutSettings, strata [stratifiedNodes][]int, scale float64) (rolloutTrial, error) {
	out := rolloutTrial{Row: t.row, Trial: t.trial}
	if err := w.startLuck(ctx, cfg); err != nil {
		return out, err
	}
	seed := PairSeed(s.Seed, 0, t.trial)
	if err := w.a.newGame(ctx, seed); err != nil {
		return out, fmt.Errorf("trial %d: %v", t.trial, err)
	}
	cs := NewChanceStream(seed)
	cs.strata = stratumFractions(strata, t.trial, seed)
	var luck float64 // side 0's view, the game's values
	var observeLuck Observer
	if w.luck != nil {
		observeLuck = w.luck.Observer(&luck)
	}
	var stopped game.State
	decisions := 0
	observe := func(ctx context.Context, st *Step) error {
		if st.State.Kind() == game.Decision {
			decisions++
		} else if s.Truncate > 0 && decisions >= s.Truncate {
			stopped = st.State.Clone()
			return errTruncated
		}
		if observeLuck != nil {
			return observeLuck(ctx, st)
		}
		return nil
	}
	t0 := time.Now()
	rec, err := Play(ctx, cfg.Kit, it.start, [2]Player{w.a, w.a}, cs, observe)
	out.Nanos = time.Since(t0).Nanoseconds()
	switch {
	case errors.Is(err, errTruncated):
		v, err := w.luck.stateValue(ctx, stopped, it.side)
		if err != nil {
			return out, fmt.Errorf("trial %d: %v", t.trial, err)
		}
		out.Result, out.Truncated = scale*v, true
	case err != nil:
		if ctx.Err() != nil {
			return out, ctx.Err()
		}
		return out, fmt.Errorf("%s, trial %d: %v", it.row.Position, t.trial, err)
	case rec.Forfeit != nil:
		// An outside player's reply that could not be played says nothing
		// of the position: the trial fails, and the run resumes it.
		return out, fmt.Errorf("%s, trial %d: %s forfeited (%s)", it.row.Position, t.trial, w.a.Name(), rec.Forfeit.Reason)
	default:
		out.Points = rec.Result * max(rec.Points, 1)
		if it.side == 1 {
			out.Points = -out.Points
		}
		out.Result = float64(out.Points)
	}
	out.Luck = scale * sideZero(luck, it.side)
	out.Decisions = decisions
	// A search cut short by a cancelled ctx returns what it has: a trial
	// whose searches were cut is not a trial.
	return out, ctx.Err()
}

// stateValue returns the reference's value of s for side: at a chance
// node the weighted mean of the values after its events.
func (l *Luck) stateValue(ctx context.Context, s game.State, side int) (float64, error) {
	if s.Kind() != game.Chance {
		return l.value(ctx, s, side)
	}
	mean, _, err := l.eventsMean(ctx, s, game.Event{})
	if err != nil {
		return 0, err
	}
	if s.Mover() != side {
		mean = -mean
	}
	return mean, nil
}

// trialStrata returns the permutations of the strata of the stratified
// chance nodes, drawn from the rollout's seed.
func trialStrata(seed uint64) [stratifiedNodes][]int {
	var p [stratifiedNodes][]int
	for k := range p {
		p[k] = rand.New(rand.NewPCG(seed, 0x57a7+uint64(k))).Perm(rolloutStrata)
	}
	return p
}

// stratumFractions returns the fractions in [0, 1) that draw trial t's
// stratified chance events: the first node's stratum is t mod 36, the
// second's (t/36 + t) mod 36 (a Latin square: every 36 trials meet all 36
// strata at both nodes, every 1,296 trials every pair once), each through
// the seed's permutation, and the place within a stratum drawn from the
// trial's seed. With 36 equally likely events (two dice), the stratum is
// the event.
func stratumFractions(strata [stratifiedNodes][]int, t int, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 0xf7ac))
	idx := [stratifiedNodes]int{t % rolloutStrata, (t/rolloutStrata + t) % rolloutStrata}
	f := make([]float64, stratifiedNodes)
	for k := range f {
		f[k] = (float64(strata[k][idx[k]]) + rng.Float64()) / rolloutStrata
	}
	return f
}

// writeRollout writes rollout.parquet and summary.json from the trials
// and returns the summary. Every figure is summed in the order of rows
// and trials, so that it is the same whatever the workers and shards.
func writeRollout(run *runs.Run, s RolloutSettings, items []rolloutItem, done map[rolloutTask]rolloutTrial) (*RolloutResult, error) {
	res := &RolloutResult{Format: RolloutFormat, Player: s.Player, Luck: s.Luck, Trials: s.Trials}
	var nanos int64
	var count int
	for r, it := range items {
		row, ns, n := s.rowOf(r, it, done)
		res.Rows = append(res.Rows, row)
		nanos += ns
		count += n
	}
	res.Seconds = float64(nanos) / 1e9
	if res.Seconds > 0 {
		res.TrialsPerSecond = float64(count) / res.Seconds
	}
	if err := runs.WriteParquet(run, RolloutFile, RolloutFormat, res.Rows); err != nil {
		return nil, err
	}
	if err := runs.WriteJSON(run, SummaryFile, res); err != nil {
		return nil, err
	}
	return res, nil
}

// rowOf returns row r of the rollout, item it, from the trials in done:
// its figures over those of its trials that are there, with the time they
// took and their number.
func (s *RolloutSettings) rowOf(r int, it rolloutItem, done map[rolloutTask]rolloutTrial) (RolloutRow, int64, int) {
	var adjusted, plain []float64
	row := it.row
	var decisions int
	var nanos int64
	for t := 0; t < s.Trials; t++ {
		tr, ok := done[rolloutTask{r, t}]
		if !ok {
			continue
		}
		adjusted, plain = append(adjusted, tr.Result-tr.Luck), append(plain, tr.Result)
		decisions += tr.Decisions
		nanos += tr.Nanos
		switch p := tr.Points; {
		case p > 0:
			row.Win++
			row.Gammon += b2f(p >= 2)
			row.Backgammon += b2f(p >= 3)
		case p < 0:
			row.LoseGammon += b2f(p <= -2)
			row.LoseBackgammon += b2f(p <= -3)
		}
	}
	n := runs.Num(len(plain)) // 0 in a shard that owns none of the row's trials: NaN shares
	row.Trials = int32(len(plain))
	row.Value, row.SE = meanSE(adjusted)
	row.Plain, row.PlainSE = meanSE(plain)
	row.Win, row.Gammon, row.Backgammon = row.Win/n, row.Gammon/n, row.Backgammon/n
	row.LoseGammon, row.LoseBackgammon = row.LoseGammon/n, row.LoseBackgammon/n
	row.Decisions = runs.Num(decisions) / n
	row.Score = runs.Num(math.NaN())
	if !s.Kit.PlayedForPoints(s.Variant) {
		row.Score = (1 + row.Value) / 2
	}
	return row, nanos, len(plain)
}

// RolledOut is row Index of a rollout run with the state it rolls out (a
// position, or with Plays the position a move leads to) and the index of
// the side whose view its values take.
type RolledOut struct {
	Index int
	Row   RolloutRow
	Start game.State
	Side  int
}

// ReadRollout returns the settings of the rollout run in dir, a run of
// game g, and its rows whose every trial (every trial of its shard) is
// journalled (a shard that owns none of the trials has none), in the
// rows' order: all of a finished run's, and what a run
// still going or stopped has rolled out so far, so that a net can be
// fitted to the rows while the rest are rolled out. It reads the run's
// manifest and journal and not its summary, and starts no engine.
func ReadRollout(g search.Kit, dir string) (RolloutSettings, []RolledOut, error) {
	var s RolloutSettings
	run, err := runs.Open(dir)
	if err != nil {
		return s, nil, err
	}
	if c := run.Manifest().Command; c != "rollout" {
		return s, nil, runs.Usagef("run %s is a %s run, not a rollout", dir, c)
	}
	if err := run.Settings(&s); err != nil {
		return s, nil, err
	}
	if s.GameName != "" && s.GameName != g.Name() {
		return s, nil, runs.Usagef("run %s rolls out %s positions, not %s", dir, s.GameName, g.Name())
	}
	s.Kit, s.GameName = g, g.Name()
	if err := s.startPositions(); err != nil {
		return s, nil, fmt.Errorf("run %s: %v", dir, err)
	}
	items, err := s.items()
	if err != nil {
		return s, nil, fmt.Errorf("run %s: %v", dir, err)
	}
	done, err := loadTrials(dir, len(items), s.Trials)
	if err != nil {
		return s, nil, err
	}
	owned := 0
	for t := 0; t < s.Trials; t++ {
		if s.Shard.Owns(t) {
			owned++
		}
	}
	var out []RolledOut
	for r, it := range items {
		if row, _, n := s.rowOf(r, it, done); n == owned && n > 0 {
			out = append(out, RolledOut{Index: r, Row: row, Start: it.start, Side: it.side})
		}
	}
	return s, out, nil
}

// meanSE returns the mean of xs and its standard error (the sample
// standard deviation over √n; NaN for fewer than two), summed in order.
func meanSE(xs []float64) (runs.Num, runs.Num) {
	if len(xs) == 0 {
		return runs.Num(math.NaN()), runs.Num(math.NaN())
	}
	n := float64(len(xs))
	var mean float64
	for _, x := range xs {
		mean += x
	}
	mean /= n
	if len(xs) < 2 {
		return runs.Num(mean), runs.Num(math.NaN())
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return runs.Num(mean), runs.Num(math.Sqrt(ss / (n - 1) / n))
}

func b2f(b bool) runs.Num {
	if b {
		return 1
	}
	return 0
}

// MergeRollout is the rollout stage's merge: it joins the journals of
// every shard of one rollout of game g (runs.CheckShards) into run, each
// trial once, checks that together they played every trial, and writes
// what the unsharded rollout would have written.
func MergeRollout(ctx context.Context, g search.Kit, sh *runs.Shards, run *runs.Run, progress runs.Progress) (*RolloutResult, error) {
	var s RolloutSettings
	if err := json.Unmarshal(sh.Settings, &s); err != nil {
		return nil, fmt.Errorf("%s: settings: %v", sh.Dirs[0], err)
	}
	s.Kit = g
	_, items, err := s.resolve()
	if err != nil {
		return nil, err
	}
	done := map[rolloutTask]rolloutTrial{}
	for i, d := range sh.Dirs {
		part, err := loadTrials(d, len(items), s.Trials)
		if err != nil {
			return nil, err
		}
		for k, t := range part {
			if _, dup := done[k]; dup || !(runs.Shard{Index: i, Count: sh.Count}).Owns(k.trial) {
				return nil, fmt.Errorf("%s: trial %d of row %d is not shard %d/%d's, or is in two shards", d, k.trial, k.row, i, sh.Count)
			}
			done[k] = t
		}
	}
	if want := len(items) * s.Trials; len(done) != want {
		return nil, fmt.Errorf("the shards played %d trials, the rollout has %d", len(done), want)
	}
	journal, err := runs.OpenJournal(run.Dir(), RolloutJournal, RolloutFormat)
	if err != nil {
		return nil, err
	}
	defer journal.Close()
	for _, k := range slices.SortedFunc(maps.Keys(done), cmpTask) {
		if err := journal.Append(done[k]); err != nil {
			return nil, err
		}
	}
	progress(int64(len(done)), int64(len(done)), "")
	return writeRollout(run, s, items, done)
}

func cmpTask(a, b rolloutTask) int {
	if a.row != b.row {
		return a.row - b.row
	}
	return a.trial - b.trial
}
