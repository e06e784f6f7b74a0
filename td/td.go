package td

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"time"

	"starlab/nn"
	"starlab/runs"
	"starlab/search"
	"starlab/search/game"
	"starlab/selfplay"
)

// Format versions the train stage's files: the state file and
// curve.parquet. Format 2 names the measurement's opponent, the game's hand
// evaluator (opponent: "pairs" in Dice, "material" in ChanceBreakthrough),
// scores against it as score_vs_hand where format 1 had score_vs_pairs
// whatever the game, and counts the measurement's pairs of games and how
// many of them differ (measure_pairs, distinct_pairs). Format 3 adds the
// net's error against the exact values of a held-out suite (exact_mae,
// exact_se; -judge). Files of formats 1 and 2 still load (FormatV1,
// FormatV2), their points without the error.
const Format = "starlab-train/3"

// FormatV1 and FormatV2 are the formats before Format, read but no longer
// written.
const (
	FormatV1 = "starlab-train/1"
	FormatV2 = "starlab-train/2"
)

// The train stage's files in its run directory.
const (
	NetFile   = "net.json"      // the net after the last checkpoint
	BestFile  = "best.json"     // the net with the best measured score against the hand evaluator
	StateFile = "state.json"    // games done and the learning curve so far
	CurveFile = "curve.parquet" // the learning curve
	// NextFile is the net of a point being written: measured from there,
	// it becomes NetFile once the state that counts its games is written,
	// so that the net and the state change together.
	NextFile = "net.next.json"
)

// Settings configure the train stage.
type Settings struct {
	// Game is the game trained, which must have a network (search.NetKit);
	// GameName names it in the settings' JSON, and Variant is the variant
	// trained ("" is the game's default, which Check fills in).
	Game     search.Kit `json:"-"`
	GameName string     `json:"game"`
	Variant  string     `json:"variant"`
	Games    int64      `json:"games"` // self-play games in all
	Seed     uint64     `json:"seed"`
	// Rate is the learning rate alpha; with Anneal it decays as
	// Rate*(g/1000+1)^-0.3 over games g (gnubg's schedule). 0 is the
	// game's default rate of the variant, which Check fills in.
	Rate   float64 `json:"rate"`
	Anneal bool    `json:"anneal"`
	// Lambda is TD(lambda)'s trace decay; 0 is the thesis's TD(0).
	Lambda float64 `json:"lambda"`
	// Expected makes the target of a position the mean over every roll of
	// the best 1-ply value, instead of the value after the roll that came.
	Expected bool `json:"expected"`
	// Explore is the probability of a random move instead of the 1-ply
	// best (the move is played; its update is made as for any other).
	Explore float64 `json:"explore"`
	// Hidden is the net's hidden units; 0 is the game's own size for the
	// variant. Layers are the sizes of the hidden layers after it (none:
	// the thesis's one hidden layer).
	Hidden int   `json:"hidden,omitempty"`
	Layers []int `json:"layers,omitempty"`
	// Inputs names the net's input set, one of the game's
	// (search.NetKit.Inputs): "" is the game's own, as in the thesis;
	// Dice has "threats" besides.
	Inputs string `json:"inputs,omitempty"`
	// Target is what each position moves towards: TargetTD (the default)
	// or TargetSearch, the value of a search of it by TargetSpec (an
	// engine spec with a depth; DefaultTargetSpec). Optimizer is OptSGD,
	// TD's, or OptAdam over mini-batches of MiniBatch positions, the
	// default for search targets (Rate then 0.001 by default).
	Target     string `json:"target,omitempty"`
	TargetSpec string `json:"target_spec,omitempty"`
	// PlayDepth, above 1, makes TargetSearch's self-play choose its moves
	// by the target's engine searched to that depth (with Explore's random
	// moves) instead of by the net's 1-ply values, for games that reach
	// the positions a searching player meets.
	PlayDepth int `json:"play_depth,omitempty"`
	// TreeStrap, for TargetSearch, fits every position right after a move
	// in the target search's tree (the afterstate itself included) to its
	// value there, as TreeStrap does (Veness, Silver, Uther and Blair
	// 2009), and not the afterstate alone: the tree is expectimax's to
	// TargetSpec's depth, whose values every sound algorithm shares, with
	// the net's leaves (TargetSpec must be a sound algorithm with
	// eval=mlp).
	TreeStrap bool `json:"treestrap,omitempty"`
	// StartSuite, for TargetSearch, is a file of positions (starlab gen)
	// the self-play games start from, game g from its position g modulo
	// their number, so that training meets the positions of later phases
	// as often as the openings; "" starts every game from the variant's
	// start.
	StartSuite string `json:"start_suite,omitempty"`
	Optimizer  string `json:"optimizer,omitempty"`
	MiniBatch  int    `json:"minibatch,omitempty"`
	// Init is the half-width of the uniform initial weights.
	Init float64 `json:"init"`
	// Games are played in rounds of Batch games. Batch 1 is online TD: a
	// game is played with the weights as they are, and each update is
	// made at once, the next target taken with it (a second worker has
	// nothing to do). With Batch > 1, Workers play a round's games and
	// take their TD targets with a copy of the weights made before the
	// round before is learnt (the first round after the start, a
	// checkpoint or a measurement: the weights as they are), so that they
	// play one round while the learner learns the other; the learner moves
	// the net towards those targets in game order, each update made at
	// once. TargetSearch's rounds are played and labelled with the
	// weights of their start, then fitted. Results depend on Batch but not
	// on Workers.
	Workers int `json:"workers"`
	Batch   int `json:"batch"`
	// CheckpointEvery and MeasureEvery are in games: a checkpoint saves
	// the net and the state; a measurement plays MeasureGames duplicate-dice
	// games of the net against the game's hand evaluator at depth 1.
	CheckpointEvery int64 `json:"checkpoint_every"`
	MeasureEvery    int64 `json:"measure_every"`
	MeasureGames    int   `json:"measure_games"`
	// MeasureSuite is a file of start positions for the measurements
	// (starlab gen), played in turn; "" plays every measurement game from
	// the variant's start. A game whose depth-1 players never meet chance
	// (ChanceBreakthrough, where neither rolls from the start) needs one:
	// from one start every game of the measurement would be the same.
	MeasureSuite string `json:"measure_suite,omitempty"`
	// JudgeSuite is a suite whose every position has its exact value
	// (starlab gen -exact), held out from training: at each measurement
	// the net's static mean absolute error against them is a point of the
	// learning curve (gnubg keeps a net by its error on a fixed benchmark).
	// "" judges nothing.
	JudgeSuite string `json:"judge_suite,omitempty"`
}

// DefaultSettings returns 20,000 games of online TD(0) of game g's
// default variant (Dice: 5x5/4) with the variant's default rate,
// annealed, 1% exploration.
func DefaultSettings(g search.Kit) Settings {
	s := Settings{Game: g, Games: 20000, Seed: 1, Anneal: true, Explore: 0.01, Init: 0.1,
		Workers: 1, Batch: 1, CheckpointEvery: 5000, MeasureEvery: 5000, MeasureGames: 400}
	if g.Game != nil {
		s.GameName = g.Name()
	}
	return s
}

// Check checks the settings, filling in the variant and the default
// rate; errors are runs.UsageError.
func (s *Settings) Check() error {
	if s.Game.Game == nil {
		return runs.Usagef("train settings without a game")
	}
	s.GameName = s.Game.Name()
	if s.Game.Net == nil {
		return runs.Usagef("-game %s: the game has no network to train", s.GameName)
	}
	if s.Variant == "" {
		s.Variant = s.Game.DefaultVariant()
	}
	if _, err := s.Game.New(s.Variant); err != nil {
		return runs.Usagef("-variant %s: %v", s.Variant, err)
	}
	if err := s.checkTarget(); err != nil {
		return err
	}
	if s.Rate == 0 {
		s.Rate = s.Game.Net.Rate(s.Variant)
	}
	for _, h := range s.Layers {
		if h < 1 || h > nn.MaxHidden {
			return runs.Usagef("-hidden: a layer of %d units, want 1 to %d", h, nn.MaxHidden)
		}
	}
	if len(s.Layers)+1 > nn.MaxLayers {
		return runs.Usagef("-hidden: %d layers, want at most %d", len(s.Layers)+1, nn.MaxLayers)
	}
	if s.Inputs != "" {
		if s.Game.Net.Inputs == nil {
			return runs.Usagef("-inputs %s: %s has one input set, its own", s.Inputs, s.Game.Name())
		}
		if _, err := s.Game.Net.Inputs(s.Variant, s.Inputs); err != nil {
			return runs.Usagef("-inputs %s: %v", s.Inputs, err)
		}
	}
	switch {
	case s.Games < 1:
		return runs.Usagef("-games %d: want at least 1", s.Games)
	case !(s.Rate > 0 && s.Rate < 10):
		return runs.Usagef("-rate %v: want a positive learning rate below 10", s.Rate)
	case !(s.Lambda >= 0 && s.Lambda <= 1):
		return runs.Usagef("-lambda %v: want 0 to 1", s.Lambda)
	case !(s.Explore >= 0 && s.Explore <= 1):
		return runs.Usagef("-explore %v: want 0 to 1", s.Explore)
	case s.Hidden < 0 || s.Hidden > nn.MaxHidden:
		return runs.Usagef("-hidden %d: want 0 (the game's size) to %d", s.Hidden, nn.MaxHidden)
	case !(s.Init > 0 && s.Init <= 1):
		return runs.Usagef("-init %v: want a half-width in (0, 1]", s.Init)
	case s.Batch < 1 || s.Batch > 4096:
		return runs.Usagef("-batch %d: want 1 to 4096", s.Batch)
	case s.CheckpointEvery < 1 || s.MeasureEvery < 1:
		return runs.Usagef("-checkpoint and -measure-every must be at least 1 game")
	case s.MeasureGames < 2 || s.MeasureGames%2 != 0:
		return runs.Usagef("-measure-games %d: want an even number of at least 2", s.MeasureGames)
	}
	if _, err := s.measureStarts(); err != nil {
		return err
	}
	if _, err := s.trainStarts(); err != nil {
		return err
	}
	if s.StartSuite != "" && s.Target != TargetSearch {
		return runs.Usagef("-starts: only -target search starts its games from a suite")
	}
	if _, err := s.judgeSuite(); err != nil {
		return err
	}
	return runs.CheckWorkers("workers", s.Workers)
}

// rate returns the learning rate for game g.
func (s *Settings) rate(g int64) float64 {
	if !s.Anneal {
		return s.Rate
	}
	return s.Rate * math.Pow(float64(g)/1000+1, -0.3)
}

// CurvePoint is one row of the learning curve.
type CurvePoint struct {
	Games   int64   `parquet:"games" json:"games"`
	Seconds float64 `parquet:"seconds" json:"seconds"`
	TDError float64 `parquet:"td_error" json:"td_error"` // mean |delta| over the games since the last point
	// The score against the opponent, the game's hand evaluator at depth
	// 1 (NaN, null in JSON, at a checkpoint that was not measured), its
	// interval over pairs of games, and the luck-adjusted score and its
	// interval.
	Score     runs.Num `parquet:"score_vs_hand" json:"score_vs_hand"`
	ScoreCI95 runs.Num `parquet:"score_ci95_pairs" json:"score_ci95_pairs"`
	LuckScore runs.Num `parquet:"luck_score" json:"luck_score"`
	LuckCI95  runs.Num `parquet:"luck_ci95" json:"luck_ci95"`
	MeanPlies runs.Num `parquet:"mean_plies" json:"mean_plies"` // of the measurement's games, NaN where none

	GamesPerS  float64 `parquet:"games_per_s" json:"games_per_s"`
	NetID      string  `parquet:"net_id" json:"net_id"`
	Checkpoint bool    `parquet:"checkpoint" json:"checkpoint"`
	// Opponent names the hand evaluator measured against (search.Kit's
	// HandEval); "" in a point of format 1, which did not record it.
	Opponent string `parquet:"opponent" json:"opponent"`
	// MeasurePairs is the number of pairs of games of the measurement and
	// DistinctPairs how many of them differ (0 where not measured, or not
	// recorded): a measurement whose pairs are all one pair, as from one
	// start where the players never meet chance, has a score of one pair
	// of games and an interval that says nothing.
	MeasurePairs  int32 `parquet:"measure_pairs" json:"measure_pairs"`
	DistinctPairs int32 `parquet:"distinct_pairs" json:"distinct_pairs"`
	// ExactMAE is the net's static mean absolute error against the exact
	// values of the held-out suite (Settings.JudgeSuite) and ExactSE its
	// standard error; NaN where not judged.
	ExactMAE runs.Num `parquet:"exact_mae" json:"exact_mae"`
	ExactSE  runs.Num `parquet:"exact_se" json:"exact_se"`
}

// curvePointV2 is a curve point of format 2 (FormatV2), without the
// error against exact values.
type curvePointV2 struct {
	Games         int64    `parquet:"games" json:"games"`
	Seconds       float64  `parquet:"seconds" json:"seconds"`
	TDError       float64  `parquet:"td_error" json:"td_error"`
	Score         runs.Num `parquet:"score_vs_hand" json:"score_vs_hand"`
	ScoreCI95     runs.Num `parquet:"score_ci95_pairs" json:"score_ci95_pairs"`
	LuckScore     runs.Num `parquet:"luck_score" json:"luck_score"`
	LuckCI95      runs.Num `parquet:"luck_ci95" json:"luck_ci95"`
	MeanPlies     runs.Num `parquet:"mean_plies" json:"mean_plies"`
	GamesPerS     float64  `parquet:"games_per_s" json:"games_per_s"`
	NetID         string   `parquet:"net_id" json:"net_id"`
	Checkpoint    bool     `parquet:"checkpoint" json:"checkpoint"`
	Opponent      string   `parquet:"opponent" json:"opponent"`
	MeasurePairs  int32    `parquet:"measure_pairs" json:"measure_pairs"`
	DistinctPairs int32    `parquet:"distinct_pairs" json:"distinct_pairs"`
}

// upgradeV2 returns the points of format 2 as points of Format, not judged.
func upgradeV2(v2 []curvePointV2) []CurvePoint {
	curve := make([]CurvePoint, len(v2))
	for i, p := range v2 {
		curve[i] = CurvePoint{Games: p.Games, Seconds: p.Seconds, TDError: p.TDError, Score: p.Score, ScoreCI95: p.ScoreCI95,
			LuckScore: p.LuckScore, LuckCI95: p.LuckCI95, MeanPlies: p.MeanPlies, GamesPerS: p.GamesPerS, NetID: p.NetID, Checkpoint: p.Checkpoint,
			Opponent: p.Opponent, MeasurePairs: p.MeasurePairs, DistinctPairs: p.DistinctPairs,
			ExactMAE: runs.Num(math.NaN()), ExactSE: runs.Num(math.NaN())}
	}
	return curve
}

// curvePointV1 is a curve point of format 1 (FormatV1), its score named
// score_vs_pairs whatever the opponent.
type curvePointV1 struct {
	Games      int64    `parquet:"games" json:"games"`
	Seconds    float64  `parquet:"seconds" json:"seconds"`
	TDError    float64  `parquet:"td_error" json:"td_error"`
	Score      runs.Num `parquet:"score_vs_pairs" json:"score_vs_pairs"`
	ScoreCI95  runs.Num `parquet:"score_ci95_pairs" json:"score_ci95_pairs"`
	LuckScore  runs.Num `parquet:"luck_score" json:"luck_score"`
	LuckCI95   runs.Num `parquet:"luck_ci95" json:"luck_ci95"`
	MeanPlies  runs.Num `parquet:"mean_plies" json:"mean_plies"`
	GamesPerS  float64  `parquet:"games_per_s" json:"games_per_s"`
	NetID      string   `parquet:"net_id" json:"net_id"`
	Checkpoint bool     `parquet:"checkpoint" json:"checkpoint"`
}

// upgrade returns the points of format 1 as points of Format, which name
// no opponent and no count of pairs: format 1 did not record them.
func upgrade(v1 []curvePointV1) []CurvePoint {
	v2 := make([]curvePointV2, len(v1))
	for i, p := range v1 {
		v2[i] = curvePointV2{Games: p.Games, Seconds: p.Seconds, TDError: p.TDError, Score: p.Score, ScoreCI95: p.ScoreCI95,
			LuckScore: p.LuckScore, LuckCI95: p.LuckCI95, MeanPlies: p.MeanPlies, GamesPerS: p.GamesPerS, NetID: p.NetID, Checkpoint: p.Checkpoint}
	}
	return upgradeV2(v2)
}

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

// state is the state file: what a resumed run continues from.
type state struct {
	Format  string       `json:"format"`
	Games   int64        `json:"games"`
	Seconds float64      `json:"seconds"`
	Best    float64      `json:"best_score"`
	Curve   []CurvePoint `json:"curve"`
}

// stateV2 is the state file of format 2 (FormatV2).
type stateV2 struct {
	Format  string         `json:"format"`
	Games   int64          `json:"games"`
	Seconds float64        `json:"seconds"`
	Best    float64        `json:"best_score"`
	Curve   []curvePointV2 `json:"curve"`
}

// stateV1 is the state file of format 1 (FormatV1).
type stateV1 struct {
	Format  string         `json:"format"`
	Games   int64          `json:"games"`
	Seconds float64        `json:"seconds"`
	Best    float64        `json:"best_score"`
	Curve   []curvePointV1 `json:"curve"`
}

// parse decodes a state file: one JSON object of this format, or of format
// 1 (read as this format: a resumed run goes on in it), with no unknown
// field.
func (st *state) parse(data []byte) error {
	var head struct {
		Format string `json:"format"`
	}
	err := json.Unmarshal(data, &head)
	if err == nil && head.Format == FormatV1 {
		var v1 stateV1
		if err := decodeStrict(data, &v1); err != nil {
			return err
		}
		*st = state{Format: Format, Games: v1.Games, Seconds: v1.Seconds, Best: v1.Best, Curve: upgrade(v1.Curve)}
		return nil
	}
	if err == nil && head.Format == FormatV2 {
		var v2 stateV2
		if err := decodeStrict(data, &v2); err != nil {
			return err
		}
		*st = state{Format: Format, Games: v2.Games, Seconds: v2.Seconds, Best: v2.Best, Curve: upgradeV2(v2.Curve)}
		return nil
	}
	if err := decodeStrict(data, st); err != nil {
		return err
	}
	if st.Format != Format {
		return fmt.Errorf("format %q, this build reads %q, %q and %q", st.Format, Format, FormatV2, FormatV1)
	}
	return nil
}

// decodeStrict decodes data, a state file, into v: one JSON object with no
// unknown field.
func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("not a %s state file: %v", Format, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("not a %s state file: data after the state", Format)
	}
	return nil
}

// decode reads a state file of a run of settings s and checks that it is
// one Run writes: no unknown field; the format; games done not negative,
// at most the settings' games and at a point where Run writes the state (a
// checkpoint, a measurement or the end); seconds finite and not negative;
// a best score of -1 (none yet) or 0 to 1; curve points in order of games,
// none past the games done, with finite seconds that are not negative.
func (st *state) decode(data []byte, s *Settings) error {
	if err := st.parse(data); err != nil {
		return err
	}
	for i := range st.Curve { // a point of format 1, which named none
		if st.Curve[i].Opponent == "" {
			st.Curve[i].Opponent = s.Game.HandEval
		}
	}
	switch {
	case st.Games < 0 || st.Games > s.Games:
		return fmt.Errorf("games %d: want 0 to the run's %d", st.Games, s.Games)
	case st.Games%s.CheckpointEvery != 0 && st.Games%s.MeasureEvery != 0 && st.Games != s.Games:
		return fmt.Errorf("games %d: not a point where train writes its state", st.Games)
	case !finite(st.Seconds) || st.Seconds < 0:
		return fmt.Errorf("seconds %v: want a finite time, not negative", st.Seconds)
	case st.Best != -1 && !(st.Best >= 0 && st.Best <= 1):
		return fmt.Errorf("best_score %v: want a score of 0 to 1 (or -1 before the first measurement)", st.Best)
	}
	last := int64(0)
	for i, pt := range st.Curve {
		if pt.Games <= last || pt.Games > st.Games {
			return fmt.Errorf("curve point %d: games %d, want more than the point before and at most %d", i+1, pt.Games, st.Games)
		}
		if !finite(pt.Seconds) || pt.Seconds < 0 {
			return fmt.Errorf("curve point %d: seconds %v: want a finite time, not negative", i+1, pt.Seconds)
		}
		last = pt.Games
	}
	return nil
}

// Result is what the train stage returns.
type Result struct {
	Games     int64   `json:"games"`
	Seconds   float64 `json:"seconds"`
	GamesPerS float64 `json:"games_per_s"`
	Net       string  `json:"net"`
	Best      string  `json:"best"`
	NetID     string  `json:"net_id"`
	// Opponent names the hand evaluator the last measurement played
	// against at depth 1 ("pairs" in Dice, "material" in
	// ChanceBreakthrough), and Score is the net's score against it.
	Opponent   string       `json:"opponent"`
	Score      runs.Num     `json:"score_vs_hand"`
	ScoreCI95  runs.Num     `json:"score_ci95"`
	LuckScore  runs.Num     `json:"luck_score"`
	LuckCI95   runs.Num     `json:"luck_ci95"`
	Curve      []CurvePoint `json:"-"`
	MeanPlies  runs.Num     `json:"mean_plies"`
	MeanTDErr  float64      `json:"td_error"`
	Checkpoint int64        `json:"checkpoint_games"`
	// MeasurePairs and DistinctPairs count the last measurement's pairs
	// of games and those that differ (see CurvePoint).
	MeasurePairs  int32 `json:"measure_pairs"`
	DistinctPairs int32 `json:"distinct_pairs"`
	// ExactMAE and ExactSE are the last measurement's static error
	// against the held-out suite's exact values (-judge); NaN without one.
	ExactMAE runs.Num `json:"exact_mae"`
	ExactSE  runs.Num `json:"exact_se"`
}

// Repeated says whether the last measurement's pairs of games were not all
// different, "" when they were (see the function Repeated).
func (r *Result) Repeated() string { return Repeated(r.MeasurePairs, r.DistinctPairs) }

// The positions TD values are the afterstates of the 1-ply search: the
// start, every position a move leads to (in Dice the chance node before
// the opponent's roll; in a game whose chance is optional a decision of
// the opponent, or the chance node a roll leads to) and a position an
// event ends the game in. The net's value of one is from its mover's
// view.

// player is a worker's self-play state: the net's value function over a
// frozen copy of the weights, and the exploration of the game in play.
type player struct {
	val     search.NetValue
	rng     *rand.Rand
	explore float64
	moves   []game.Move
	work    game.State // the scratch state best plays each move on
}

// valueFor returns the value of s for side: the rules' value when the game
// is over, otherwise the net's.
func (p *player) valueFor(s game.State, side int) float64 {
	var v float64
	if s.Kind() == game.Over {
		v = s.Result()
	} else {
		v = p.val.Value(s)
	}
	if s.Mover() != side {
		v = -v
	}
	return v
}

// best returns the 1-ply best move of the decision s and its value for
// the mover: a win in one is valued by its result (so always found
// where a win is worth 1, not always in backgammon's money play, where a
// single game's is 1/3); of equal values the first
// move in the game's order is kept.
func (p *player) best(s game.State) (game.Move, float64) {
	moves := s.Legal(p.moves)
	p.moves = moves
	bestMove, bestV := moves[0], math.Inf(-1)
	for _, m := range moves {
		w := scratch(&p.work, s)
		w.Play(m)
		if v := p.valueFor(w, s.Mover()); v > bestV {
			bestMove, bestV = m, v
		}
	}
	return bestMove, bestV
}

// scratch makes *work a copy of s, cloning s the first time, and returns
// it.
func scratch(work *game.State, s game.State) game.State {
	if *work == nil {
		*work = s.Clone()
	} else {
		(*work).CopyFrom(s)
	}
	return *work
}

// Name returns "td".
func (*player) Name() string { return "td" }

// Choose returns the 1-ply best move of the decision s, or with
// probability Explore a random one (the rng is the game's, so a game is a
// function of its index).
func (p *player) Choose(_ context.Context, s game.State) selfplay.Choice {
	m, _ := p.best(s)
	if p.explore > 0 && p.rng.Float64() < p.explore {
		moves := s.Legal(p.moves)
		m = moves[p.rng.IntN(len(moves))]
	}
	return selfplay.Choice{Move: m}
}

// play plays game g by self-play with 1-ply searches.
func (p *player) play(ctx context.Context, s *Settings, g int64) (selfplay.Record, error) {
	p.rng, p.explore = runs.Stream(s.Seed, "train/explore", uint64(g)), s.Explore
	start, err := s.Game.New(s.Variant)
	if err != nil {
		return selfplay.Record{}, err
	}
	return selfplay.Play(ctx, s.Game, start, [2]selfplay.Player{p, p}, selfplay.NewChanceStream(runs.StreamSeed(s.Seed, "train/dice", uint64(g))), nil)
}

// learner applies TD updates to the net it owns.
type learner struct {
	s      *Settings
	net    *nn.Net
	p      player // evaluates targets with the current weights
	x, h   []float64
	g      *nn.Grad
	trace  *nn.Grad
	sumErr float64
	nErr   int64
	start  game.State // the start of every game
	cur    game.State // the state of the game being replayed
	before game.State // the afterstate being learnt
	// expected's scratch, by depth of its recursion: the state after an
	// event, and the chance node's events.
	stack  []game.State
	events [][]game.Event
}

func newLearner(s *Settings, net *nn.Net) (*learner, error) {
	val, err := s.Game.Net.Evaluator(net)
	if err != nil {
		return nil, err
	}
	start, err := s.Game.New(s.Variant)
	if err != nil {
		return nil, err
	}
	l := &learner{s: s, net: net, x: make([]float64, net.In), h: make([]float64, 2*net.H), g: net.NewGrad(), trace: net.NewGrad(), start: start}
	l.p = player{val: val}
	return l, nil
}

// sideZero returns the sign that turns a value for the mover of s into one
// for side 0: TD(lambda) runs on values of one fixed perspective, so that
// a trace can add gradients of positions of both sides.
func sideZero(s game.State) float64 {
	if s.Mover() == 0 {
		return 1
	}
	return -1
}

// target returns the TD target of the afterstate before, in side 0's view:
// the rules' value when the game ended, otherwise the net's value of the
// next afterstate, after (sampled), or the expected 1-ply value of before
// (Expected).
func (l *learner) target(before, after game.State) float64 {
	if l.s.Expected {
		return sideZero(before) * l.expected(before)
	}
	return sideZero(after) * l.p.valueFor(after, after.Mover())
}

// expected returns the 1-ply value of s for its mover: over a chance node
// the mean, by the events' weights, of the values after each event; at a
// decision the best move's value; the rules' value when s is over.
func (l *learner) expected(s game.State) float64 { return l.expectedAt(s, 0) }

func (l *learner) expectedAt(s game.State, depth int) float64 {
	switch s.Kind() {
	case game.Over:
		return s.Result()
	case game.Decision:
		_, v := l.p.best(s)
		return v
	}
	if depth == len(l.stack) {
		l.stack, l.events = append(l.stack, nil), append(l.events, nil)
	}
	var total int
	l.events[depth], total = s.Outcomes(l.events[depth])
	sum := 0.0
	for _, e := range l.events[depth] {
		w := scratch(&l.stack[depth], s)
		w.Happen(e)
		v := l.expectedAt(w, depth+1)
		if w.Mover() != s.Mover() {
			v = -v
		}
		sum += float64(e.Weight) * v
	}
	return sum / float64(total)
}

// learn replays one game and applies its TD updates: for each afterstate
// s_k, delta = target - U(s_k), trace = lambda*trace + grad U(s_k), and
// weights += rate*delta*trace; the trace is reset every game. With sampled
// targets the last target is the game's result, never the net's value;
// with Expected every target, the last included, is the expected 1-ply
// value, which is the rules' value only where the game ends.
// TD(0) needs no trace: its update touches only the rows of the inputs a
// position sets (nn.Net.Update).
//
// The game is one this stage just played from the settings' start, so its
// actions are applied without the checks of selfplay.Record.Replay, which
// would cost a twentieth of the training's time.
func (l *learner) learn(gm *selfplay.Record, rate float64) {
	l.trace.Zero()
	l.replay(gm, func(before, after game.State) { l.update(before, after, rate) })
}

// replay replays game gm and calls visit with each afterstate and the next
// one, in the order of the game: the start, every position a move leads
// to, and the position an event ends the game in.
func (l *learner) replay(gm *selfplay.Record, visit func(before, after game.State)) {
	s := scratch(&l.cur, l.start)
	scratch(&l.before, s) // the start is an afterstate
	afterMove := false
	for _, a := range gm.Actions {
		if afterMove {
			visit(l.before, s)
			l.before.CopyFrom(s)
		}
		afterMove = s.Kind() == game.Decision
		if afterMove {
			s.Play(game.Move(a))
		} else {
			s.Happen(game.Event{ID: uint16(a)})
		}
	}
	if afterMove || s.Kind() == game.Over {
		visit(l.before, s)
	}
}

// update applies the TD update of the afterstate before, whose next
// afterstate is after.
func (l *learner) update(before, after game.State, rate float64) {
	l.s.Game.Net.Features(before, l.x)
	l.step(l.x, sideZero(before), l.target(before, after), rate)
}

// step moves the net's value of an afterstate, whose inputs are x and
// whose sideZero is sign, towards target (in side 0's view), through the
// trace with TD(lambda).
func (l *learner) step(x []float64, sign, target, rate float64) {
	var delta float64
	if l.s.Lambda == 0 && len(l.net.Deep) == 0 {
		v := l.net.Forward(x, l.h)
		delta = target - sign*v
		l.net.Update(x, l.h, v, sign*rate*delta)
	} else {
		v := l.net.Backward(x, l.h, l.g)
		l.trace.Scale(l.s.Lambda)
		l.trace.AddScaled(l.g, sign)
		delta = target - sign*v
		l.net.Step(l.trace, rate*delta)
	}
	l.sumErr += math.Abs(delta)
	l.nErr++
}

// Run is the train stage: TD self-play training of a net for the board of
// the settings, from scratch or, when the run directory holds a
// checkpoint, from it. It checkpoints every CheckpointEvery games (the net
// and the state, atomically), measures the net against the game's hand
// evaluator every
// MeasureEvery games with the match library (duplicate dice, luck
// adjusted), keeps the best net by that score, and writes the learning
// curve. Cancelled, it returns ctx's error; a later Run on the run
// continues from the last checkpoint, losing only the games since.
func Run(ctx context.Context, s Settings, run *runs.Run, progress runs.Progress) (*Result, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	st := state{Format: Format, Best: -1}
	judge, err := s.judgeSuite()
	if err != nil {
		return nil, err
	}
	var net *nn.Net
	if _, err := os.Stat(run.Path(StateFile)); err == nil {
		if st, err = readState(run.Path(StateFile), &s); err != nil {
			return nil, err
		}
		if err := commitNext(run, st.Games); err != nil {
			return nil, err
		}
		if net, err = nn.Load(run.Path(NetFile)); err != nil {
			return nil, err
		}
		if err := s.Game.Net.Check(net, s.Variant); err != nil {
			return nil, fmt.Errorf("net file %s: %v", run.Path(NetFile), err)
		}
	} else {
		var err error
		if net, err = s.Game.Net.New(s.Variant, runs.Stream(s.Seed, "train/init", 0), s.Init); err != nil {
			return nil, err
		}
		if (s.Hidden != 0 && s.Hidden != net.H) || len(s.Layers) > 0 || s.Inputs != "" {
			// The game's variant, with the inputs and layers asked for
			// drawn afresh from the same stream.
			in := net.In
			if s.Inputs != "" {
				if in, err = s.Game.Net.Inputs(s.Variant, s.Inputs); err != nil {
					return nil, err
				}
			}
			layout := append([]int{cmp.Or(s.Hidden, net.H)}, s.Layers...)
			sized, err := nn.NewLayout(in, layout, runs.Stream(s.Seed, "train/init", 0), s.Init)
			if err != nil {
				return nil, runs.Usagef("-hidden %d: %v", s.Hidden, err)
			}
			sized.Game, sized.Variant, sized.VariantKey = net.Game, net.Variant, net.VariantKey
			net = sized
		}
	}
	settingsMap := map[string]any{}
	raw, _ := json.Marshal(s)
	_ = json.Unmarshal(raw, &settingsMap)
	l, err := newLearner(&s, net)
	if err != nil {
		return nil, err
	}
	var spec search.Spec
	var starts []game.State // the search targets' self-play starts
	var fit *fitter
	var cr *crew
	if s.Target == TargetSearch {
		if spec, err = s.targetSpec(); err != nil {
			return nil, err
		}
		if starts, err = s.trainStarts(); err != nil {
			return nil, err
		}
		fit = newFitter(&s, net)
	} else if s.Batch > 1 {
		if cr, err = newCrew(&s, l); err != nil {
			return nil, err
		}
		defer cr.stop()
	}
	start := time.Now()
	prior := st.Seconds
	elapsed := func() float64 { return prior + time.Since(start).Seconds() }
	g := st.Games
	progress(g, s.Games, "")
	round := int64(s.Batch)
	for g < s.Games {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// A round: games g..g+n-1, learnt in game order; the round after,
		// of next games, is the one before the same stop (0: none).
		stop := min(s.Games, nextStop(g, s.CheckpointEvery), nextStop(g, s.MeasureEvery))
		n := min(round, stop-g)
		end := g + n
		measure := end%s.MeasureEvery == 0 || end == s.Games
		checkpoint := end%s.CheckpointEvery == 0 || end == s.Games
		if fit != nil {
			if err := searchRound(ctx, &s, spec, starts, fit, g, n, measure || checkpoint); err != nil {
				return nil, err
			}
			// The error is the fit's, of each position's value before
			// its step against its target.
			l.sumErr, l.nErr = fit.sumErr, fit.nErr
			if checkpoint { // Adam starts afresh from a checkpoint, as a resumed run does
				fit = newFitter(&s, net)
			}
		} else if err := playRound(ctx, &s, g, n, min(round, stop-end), l, cr); err != nil {
			return nil, err
		}
		g = end
		status := fmt.Sprintf("TD error %.4f  %.0f games/s", l.sumErr/math.Max(1, float64(l.nErr)), float64(g-st.Games)/math.Max(time.Since(start).Seconds(), 1e-9))
		if fit != nil {
			status = fmt.Sprintf("fit error %.4f  %.0f games/s", l.sumErr/math.Max(1, float64(l.nErr)), float64(g-st.Games)/math.Max(time.Since(start).Seconds(), 1e-9))
		}
		progress(g, s.Games, status)
		if !measure && !checkpoint {
			continue
		}
		pt := CurvePoint{Games: g, Seconds: elapsed(), TDError: l.sumErr / math.Max(1, float64(l.nErr)), NetID: net.ID(), Checkpoint: checkpoint,
			Score: runs.Num(math.NaN()), ScoreCI95: runs.Num(math.NaN()), LuckScore: runs.Num(math.NaN()), LuckCI95: runs.Num(math.NaN()),
			MeanPlies: runs.Num(math.NaN()), Opponent: s.Game.HandEval, ExactMAE: runs.Num(math.NaN()), ExactSE: runs.Num(math.NaN())}
		pt.GamesPerS = float64(g) / math.Max(pt.Seconds, 1e-9)
		l.sumErr, l.nErr = 0, 0
		if fit != nil {
			fit.sumErr, fit.nErr = 0, 0
		}
		net.Meta = nn.Meta{Games: g, Source: s.source(), Settings: settingsMap}
		if err := runs.WriteFileAtomic(run.Path(NextFile), net.Write); err != nil {
			return nil, err
		}
		if measure {
			sum, distinct, err := measureVsHand(ctx, &s, run.Path(NextFile), g)
			if err != nil {
				return nil, err
			}
			pt.MeasurePairs, pt.DistinctPairs = int32(s.MeasureGames/2), int32(distinct)
			pt.Score, pt.ScoreCI95, pt.MeanPlies = runs.Num(sum.Score), runs.Num(sum.ScoreCI95Pairs), runs.Num(sum.MeanPlies)
			pt.LuckScore, pt.LuckCI95 = sum.LuckScore, sum.LuckCI95
			if judge != nil {
				j, err := judge.judge(run.Path(NextFile))
				if err != nil {
					return nil, err
				}
				pt.ExactMAE, pt.ExactSE = runs.Num(j.MAE), runs.Num(j.SE)
			}
			if sum.Score > st.Best {
				st.Best = sum.Score
				if err := runs.WriteFileAtomic(run.Path(BestFile), net.Write); err != nil {
					return nil, err
				}
			}
		}
		st.Games, st.Seconds = g, pt.Seconds
		st.Curve = append(st.Curve, pt)
		if err := runs.WriteJSON(run, StateFile, st); err != nil {
			return nil, err
		}
		if err := os.Rename(run.Path(NextFile), run.Path(NetFile)); err != nil {
			return nil, err
		}
	}
	if err := runs.WriteParquet(run, CurveFile, Format, st.Curve); err != nil {
		return nil, err
	}
	if err := WriteCurvePlots(run, st.Curve); err != nil {
		return nil, err
	}
	last := st.Curve[len(st.Curve)-1]
	res := &Result{Games: g, Seconds: st.Seconds, GamesPerS: float64(g) / math.Max(st.Seconds, 1e-9), Net: run.Path(NetFile),
		Best: run.Path(BestFile), NetID: net.ID(), Opponent: s.Game.HandEval, MeasurePairs: last.MeasurePairs, DistinctPairs: last.DistinctPairs, Score: last.Score, ScoreCI95: last.ScoreCI95, LuckScore: last.LuckScore,
		LuckCI95: last.LuckCI95, Curve: st.Curve, MeanPlies: last.MeanPlies, MeanTDErr: last.TDError, Checkpoint: g,
		ExactMAE: last.ExactMAE, ExactSE: last.ExactSE}
	return res, nil
}

// readState reads the state file at path; an undefined figure of the
// curve (a score never measured) comes back undefined.
func readState(path string, s *Settings) (state, error) {
	var st state
	data, err := os.ReadFile(path)
	if err != nil {
		return st, err
	}
	if err := st.decode(data, s); err != nil {
		return st, fmt.Errorf("%s: %v", path, err)
	}
	return st, nil
}

// commitNext finishes the point that a stopped run had written the state
// of but not yet its net (NextFile, made NetFile), or drops the net of a
// point whose state was never written: afterwards NetFile is the net after
// games games, those the state counts.
func commitNext(run *runs.Run, games int64) error {
	next := run.Path(NextFile)
	if _, err := os.Stat(next); err != nil {
		return nil
	}
	net, err := nn.Load(next)
	if err == nil && net.Meta.Games == games {
		return os.Rename(next, run.Path(NetFile))
	}
	return os.Remove(next)
}

// playRound plays and learns games g..g+n-1: with Batch 1 (online TD, one
// game a round) on the calling goroutine with the weights as they are,
// each update made at once; otherwise by the crew, which starts playing
// the next round, of next games, before it learns this one.
func playRound(ctx context.Context, s *Settings, g, n, next int64, l *learner, cr *crew) error {
	if cr != nil {
		return cr.round(ctx, g, n, next)
	}
	for i := range n {
		gm, err := l.p.play(ctx, s, g+i)
		if err != nil {
			return err
		}
		l.learn(&gm, s.rate(g+i))
	}
	return nil
}

// measureStarts returns the start positions of a measurement: the
// suite's, each of the variant and not over, or the variant's start.
// Errors are runs.UsageError naming the suite.
func (s *Settings) measureStarts() ([]game.State, error) {
	return s.suiteStarts("measure-suite", s.MeasureSuite)
}

// trainStarts returns the start positions of the self-play games: the
// suite of StartSuite, game g starting from its position g modulo its
// length, or the variant's start.
func (s *Settings) trainStarts() ([]game.State, error) {
	return s.suiteStarts("starts", s.StartSuite)
}

// suiteStarts reads the suite of flag -name: positions of the variant, none
// over; without one, the variant's start.
func (s *Settings) suiteStarts(name, path string) ([]game.State, error) {
	if path == "" {
		start, err := s.Game.New(s.Variant)
		return []game.State{start}, err
	}
	ps, err := search.ReadSuite(s.Game, path)
	if err != nil {
		return nil, runs.Usagef("-%s: %v", name, err)
	}
	var starts []game.State
	for _, p := range ps {
		switch {
		case s.Game.Variant(p.Pos) != s.Variant:
			return nil, runs.Usagef("-%s %s: line %d is of variant %s, the training's is %s", name, path, p.Line, s.Game.Variant(p.Pos), s.Variant)
		case p.Pos.Kind() == game.Over:
			return nil, runs.Usagef("-%s %s: line %d is a finished game", name, path, p.Line)
		}
		starts = append(starts, p.Pos)
	}
	return starts, nil
}

// judgement is a held-out suite with exact values that judges nets.
type judgement struct {
	s     *Settings
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
	ps, err := search.ReadSuite(s.Game, s.JudgeSuite)
	if err != nil {
		return nil, runs.Usagef("-judge: %v", err)
	}
	j := &judgement{s: s}
	for _, p := range ps {
		switch {
		case s.Game.Variant(p.Pos) != s.Variant:
			return nil, runs.Usagef("-judge %s: line %d is of variant %s, the training's is %s", s.JudgeSuite, p.Line, s.Game.Variant(p.Pos), s.Variant)
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
	_, res, err := j.s.netSpec(file)
	if err != nil {
		return search.Judgement{}, err
	}
	e := j.s.Game.NewEngine(res)
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

// source says what made the net, for its weight file.
func (s *Settings) source() string {
	if s.Target == TargetSearch {
		return fmt.Sprintf("starlab train, self-play with 1-ply searches, each afterstate fitted to its value by %s (%s)", s.TargetSpec, s.Optimizer)
	}
	return fmt.Sprintf("starlab train, TD(%g) self-play with 1-ply searches", s.Lambda)
}

// nextStop returns the first multiple of every after g.
func nextStop(g, every int64) int64 { return (g/every + 1) * every }

// netSpec returns the depth-1 StarETC spec of the net in file, resolved:
// the player the measurements play and the evaluator the judgement reads.
func (s *Settings) netSpec(file string) (search.Spec, *search.Resolved, error) {
	spec, err := selfplay.ParseEngineSpec(s.Game, "staretc:depth=1,tt=1,eval=mlp")
	if err != nil {
		return spec, nil, err
	}
	spec.Net = file // in the fields, not the text, where a path with a comma would break the grammar
	res, err := spec.Config.Resolve()
	return spec, res, err
}

// measureVsHand plays the net in file at depth 1 against the game's hand
// evaluator at depth 1 with duplicate dice and the match stage's default
// luck reference, seeded by the games trained, and returns the net's
// statistics and how many of the pairs of games differ.
func measureVsHand(ctx context.Context, s *Settings, file string, g int64) (selfplay.Summary, int, error) {
	dg := s.Game
	spec, res, err := s.netSpec(file)
	if err != nil {
		return selfplay.Summary{}, 0, err
	}
	a := selfplay.Engine{Game: dg, Spec: spec, Resolved: res}
	b, err := selfplay.ParseEngine(dg, "staretc:depth=1,tt=1,eval="+dg.HandEval)
	if err != nil {
		return selfplay.Summary{}, 0, err
	}
	luck, err := selfplay.ParseEngine(dg, selfplay.LuckRef(dg, s.Variant))
	if err != nil {
		return selfplay.Summary{}, 0, err
	}
	starts, err := s.measureStarts()
	if err != nil {
		return selfplay.Summary{}, 0, err
	}
	cfg := &selfplay.MatchConfig{Game: dg, A: a, B: b, Starts: starts, Pairs: s.MeasureGames / 2, Seed: runs.StreamSeed(s.Seed, "train/measure", uint64(g)), Workers: s.Workers, LuckRef: &luck}
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
