package td

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"

	"starlab/nn"
	"starlab/runs"
)

// Format versions the train stage's files: the state file and
// curve.parquet. Format 2 names the measurement's opponent, the game's hand
// evaluator (opponent: "pairs" in Dice, "material" in ChanceBreakthrough),
// scores against it as score_vs_hand where format 1 had score_vs_pairs
// whatever the game, and counts the measurement's pairs of games and how
// many of them differ (measure_pairs, distinct_pairs). Format 3 adds the
// net's error against the exact values of a held-out suite (exact_mae,
// exact_se; -judge). Format 4 names the training's error by what it is:
// td_error is TD's, fit_error the fit's to search targets, the other NaN,
// where format 3 put a search-target run's fit error under td_error.
// Files of formats 1 to 3 still load (FormatV1, FormatV2, FormatV3): their
// one error goes to the column of the run's target, and formats 1 and 2,
// older than search targets, are TD's; their points have no error against
// exact values.
const Format = "starlab-train/4"

// FormatV1, FormatV2 and FormatV3 are the formats before Format, read but
// no longer written.
const (
	FormatV1 = "starlab-train/1"
	FormatV2 = "starlab-train/2"
	FormatV3 = "starlab-train/3"
)

// CurvePoint is one row of the learning curve.
type CurvePoint struct {
	Games   int64   `parquet:"games" json:"games"`
	Seconds float64 `parquet:"seconds" json:"seconds"`
	// TDError is TD's mean |delta| over the games since the last point,
	// and FitError the mean |value - target| of the positions fitted to
	// search targets since then, each of the positions before their step;
	// a run has the one of its target (Settings.Target), the other NaN.
	TDError  runs.Num `parquet:"td_error" json:"td_error"`
	FitError runs.Num `parquet:"fit_error" json:"fit_error"`
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

// curvePointV3 is a curve point of format 3 (FormatV3), whose one error,
// td_error, is the fit's in a run of search targets.
type curvePointV3 struct {
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
	ExactMAE      runs.Num `parquet:"exact_mae" json:"exact_mae"`
	ExactSE       runs.Num `parquet:"exact_se" json:"exact_se"`
}

// upgradeV3 returns the points of format 3 as points of Format, their
// error the fit's when fit (a run of search targets), else TD's.
func upgradeV3(v3 []curvePointV3, fit bool) []CurvePoint {
	curve := make([]CurvePoint, len(v3))
	for i, p := range v3 {
		curve[i] = CurvePoint{Games: p.Games, Seconds: p.Seconds, TDError: runs.Num(p.TDError), FitError: runs.Num(math.NaN()),
			Score: p.Score, ScoreCI95: p.ScoreCI95, LuckScore: p.LuckScore, LuckCI95: p.LuckCI95, MeanPlies: p.MeanPlies,
			GamesPerS: p.GamesPerS, NetID: p.NetID, Checkpoint: p.Checkpoint, Opponent: p.Opponent,
			MeasurePairs: p.MeasurePairs, DistinctPairs: p.DistinctPairs, ExactMAE: p.ExactMAE, ExactSE: p.ExactSE}
		if fit {
			curve[i].TDError, curve[i].FitError = curve[i].FitError, curve[i].TDError
		}
	}
	return curve
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

// upgradeV2 returns the points of format 2 as points of Format, not
// judged, their error TD's: format 2 is older than search targets.
func upgradeV2(v2 []curvePointV2) []CurvePoint {
	v3 := make([]curvePointV3, len(v2))
	for i, p := range v2 {
		v3[i] = curvePointV3{Games: p.Games, Seconds: p.Seconds, TDError: p.TDError, Score: p.Score, ScoreCI95: p.ScoreCI95,
			LuckScore: p.LuckScore, LuckCI95: p.LuckCI95, MeanPlies: p.MeanPlies, GamesPerS: p.GamesPerS, NetID: p.NetID, Checkpoint: p.Checkpoint,
			Opponent: p.Opponent, MeasurePairs: p.MeasurePairs, DistinctPairs: p.DistinctPairs,
			ExactMAE: runs.Num(math.NaN()), ExactSE: runs.Num(math.NaN())}
	}
	return upgradeV3(v3, false)
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

// state is the state file: what a resumed run continues from.
type state struct {
	Format  string       `json:"format"`
	Games   int64        `json:"games"`
	Seconds float64      `json:"seconds"`
	Best    float64      `json:"best_score"`
	Curve   []CurvePoint `json:"curve"`
}

// stateV3 is the state file of format 3 (FormatV3).
type stateV3 struct {
	Format  string         `json:"format"`
	Games   int64          `json:"games"`
	Seconds float64        `json:"seconds"`
	Best    float64        `json:"best_score"`
	Curve   []curvePointV3 `json:"curve"`
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

// parse decodes a state file: one JSON object of this format, or of an
// earlier one (read as this format: a resumed run goes on in it), with no
// unknown field. fit says whether the run fitted search targets, for the
// one error of format 3; it is asked only of a file of that format.
func (st *state) parse(data []byte, fit func() (bool, error)) error {
	var head struct {
		Format string `json:"format"`
	}
	_ = json.Unmarshal(data, &head) // a file that is not JSON is refused below, as one of this format
	switch head.Format {
	case FormatV1:
		var v1 stateV1
		if err := decodeStrict(data, &v1); err != nil {
			return err
		}
		*st = state{Format: Format, Games: v1.Games, Seconds: v1.Seconds, Best: v1.Best, Curve: upgrade(v1.Curve)}
		return nil
	case FormatV2:
		var v2 stateV2
		if err := decodeStrict(data, &v2); err != nil {
			return err
		}
		*st = state{Format: Format, Games: v2.Games, Seconds: v2.Seconds, Best: v2.Best, Curve: upgradeV2(v2.Curve)}
		return nil
	case FormatV3:
		var v3 stateV3
		if err := decodeStrict(data, &v3); err != nil {
			return err
		}
		isFit, err := fit()
		if err != nil {
			return err
		}
		*st = state{Format: Format, Games: v3.Games, Seconds: v3.Seconds, Best: v3.Best, Curve: upgradeV3(v3.Curve, isFit)}
		return nil
	}
	if err := decodeStrict(data, st); err != nil {
		return err
	}
	if st.Format != Format {
		return fmt.Errorf("format %q, this build reads %q, %q, %q and %q", st.Format, Format, FormatV3, FormatV2, FormatV1)
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
	if err := st.parse(data, func() (bool, error) { return s.Target == TargetSearch, nil }); err != nil {
		return err
	}
	for i := range st.Curve { // a point of format 1, which named none
		if st.Curve[i].Opponent == "" {
			st.Curve[i].Opponent = s.Kit.HandEval
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
