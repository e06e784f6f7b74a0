package td

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"slices"

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
// Format 5 adds the judged loss of the net's play (judge_loss,
// judge_loss_ci95; -judge-positions with -judge-by). Files of formats 1 to
// 4 still load (FormatV1 to FormatV4): their one error goes to the column
// of the run's target, and formats 1 and 2, older than search targets,
// are TD's; their points have no error against exact values, and none has
// a judged loss.
const Format = "starlab-train/5"

// FormatV1 to FormatV4 are the formats before Format, read but no longer
// written.
const (
	FormatV1 = "starlab-train/1"
	FormatV2 = "starlab-train/2"
	FormatV3 = "starlab-train/3"
	FormatV4 = "starlab-train/4"
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
	// JudgeLoss is the mean loss per decision of the net's play at depth 1
	// on the judged positions (Settings.JudgePositions), in points, as
	// Settings.JudgeBy values every legal move, and JudgeCI95 its 95%
	// interval by position; NaN where not judged.
	JudgeLoss runs.Num `parquet:"judge_loss" json:"judge_loss"`
	JudgeCI95 runs.Num `parquet:"judge_loss_ci95" json:"judge_loss_ci95"`
}

// curvePointOld is a curve point of formats 1 to 4 (FormatV1 to
// FormatV4): the columns of Format and format 1's score, of which each of
// these formats has all but those of oldLacks. Their one error is under
// td_error.
type curvePointOld struct {
	CurvePoint
	// ScoreV1 is format 1's score, score_vs_pairs whatever the opponent.
	ScoreV1 runs.Num `parquet:"score_vs_pairs" json:"score_vs_pairs"`
}

// oldLacks names the columns of curvePointOld that each earlier format did
// not have: none had the judged loss; none before format 4 had fit_error;
// format 1 named the score score_vs_pairs and recorded no opponent and no
// counts of pairs; formats 1 and 2 had no error against exact values.
var oldLacks = map[string][]string{
	FormatV1: {"fit_error", "score_vs_hand", "opponent", "measure_pairs", "distinct_pairs", "exact_mae", "exact_se", "judge_loss", "judge_loss_ci95"},
	FormatV2: {"fit_error", "score_vs_pairs", "exact_mae", "exact_se", "judge_loss", "judge_loss_ci95"},
	FormatV3: {"fit_error", "score_vs_pairs", "judge_loss", "judge_loss_ci95"},
	FormatV4: {"score_vs_pairs", "judge_loss", "judge_loss_ci95"},
}

// upgrade returns the points of format (FormatV1 to FormatV4) as points
// of Format: before format 4, their one error the fit's when the run
// fitted search targets (fit, asked only of format 3, the one that knew
// them), else TD's; not judged (NaN) where the format had no error against
// exact values, and no judged loss (NaN); format 1's score its
// score_vs_pairs.
func upgrade(old []curvePointOld, format string, fit func() (bool, error)) ([]CurvePoint, error) {
	isFit := false
	if format == FormatV3 {
		var err error
		if isFit, err = fit(); err != nil {
			return nil, err
		}
	}
	unjudged := slices.Contains(oldLacks[format], "exact_mae") // the format had no error against exact values
	curve := make([]CurvePoint, len(old))
	for i, p := range old {
		pt := p.CurvePoint
		if format != FormatV4 {
			pt.FitError = runs.Num(math.NaN())
			if isFit {
				pt.TDError, pt.FitError = pt.FitError, pt.TDError
			}
		}
		pt.JudgeLoss, pt.JudgeCI95 = runs.Num(math.NaN()), runs.Num(math.NaN())
		if unjudged {
			pt.ExactMAE, pt.ExactSE = runs.Num(math.NaN()), runs.Num(math.NaN())
		}
		if format == FormatV1 {
			pt.Score = p.ScoreV1
		}
		curve[i] = pt
	}
	return curve, nil
}

// state is the state file: what a resumed run continues from.
type state struct {
	Format  string       `json:"format"`
	Games   int64        `json:"games"`
	Seconds float64      `json:"seconds"`
	Best    float64      `json:"best_score"`
	Curve   []CurvePoint `json:"curve"`
}

// stateOld is the state file of formats 1 to 4 (FormatV1 to FormatV4).
type stateOld struct {
	state
	Curve []curvePointOld `json:"curve"`
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
	case FormatV1, FormatV2, FormatV3, FormatV4:
		var old stateOld
		if err := decodeStrict(data, &old); err != nil {
			return err
		}
		if err := checkOldKeys(data, head.Format); err != nil {
			return err
		}
		curve, err := upgrade(old.Curve, head.Format, fit)
		if err != nil {
			return err
		}
		*st = old.state
		st.Format, st.Curve = Format, curve
		return nil
	}
	if err := decodeStrict(data, st); err != nil {
		return err
	}
	if st.Format != Format {
		return fmt.Errorf("format %q, this build reads %q, %q, %q, %q and %q", st.Format, Format, FormatV4, FormatV3, FormatV2, FormatV1)
	}
	return nil
}

// checkOldKeys refuses a state file of an earlier format whose curve has a
// field that format did not have (oldLacks), as unknown to it.
func checkOldKeys(data []byte, format string) error {
	var keys struct {
		Curve []map[string]json.RawMessage `json:"curve"`
	}
	if err := json.Unmarshal(data, &keys); err != nil {
		return fmt.Errorf("not a %s state file: %v", Format, err)
	}
	for i, pt := range keys.Curve {
		for _, k := range oldLacks[format] {
			if _, ok := pt[k]; ok {
				return fmt.Errorf("not a %s state file: curve point %d has %s, unknown to %s", Format, i+1, k, format)
			}
		}
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
