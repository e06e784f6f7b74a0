package regression

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/gonum/stat"

	"starlab/runs"
	"starlab/search"
)

// FitSettings configure the fit stage.
type FitSettings struct {
	// Inputs are collect Parquet files or run directories (ReadRows).
	Inputs []string `json:"inputs"`
	// GameName is the game whose rows are fitted; rows of another game are
	// refused. "" takes the rows' game.
	GameName string `json:"game,omitempty"`
	// Folds is k of the k-fold cross-validation; the folds are groups of
	// games, so that no game has rows on both sides of a split.
	Folds int `json:"folds"`
	// SigmaFloor is the least sigma written: a fit with almost no residual
	// would otherwise make ChanceProbCut's bounds a point.
	SigmaFloor float64 `json:"sigma_floor"`
	// Bands is the number of equal-width bands of game phases (Row.Phase:
	// the checkers on the board in Dice) fitted apart, each when it has
	// at least MinBandRows rows; 0 or 1 fits no bands.
	Bands       int `json:"bands"`
	MinBandRows int `json:"min_band_rows"`
	// T is the width, in sigmas, of the band drawn around each fit.
	T float64 `json:"t"`
	// Partial accepts a collect run that is not done (killed, failed or
	// still running) as an input, fitting the rows it has so far.
	Partial bool `json:"partial,omitempty"`
}

// DefaultFitSettings returns 5 folds, a sigma floor of 0.01, two bands of
// at least 200 rows each, and the band drawn at t = 1.6.
func DefaultFitSettings() FitSettings {
	return FitSettings{Folds: 5, SigmaFloor: 0.01, Bands: 2, MinBandRows: 200, T: 1.6}
}

// Check checks the settings and the inputs: at least one, none reaching a
// Parquet file another input reaches too (its rows would count twice),
// every collect run among them done unless Partial, and every file
// readable as collect rows of one game, variant and evaluator. A command calls it
// before it makes the run directory, so bad input leaves no run behind.
// Errors are runs.UsageError.
func (s *FitSettings) Check() error {
	_, err := s.readInputs()
	return err
}

// CheckSyntax is Check without the inputs, which a pipeline makes before
// this stage runs.
func (s *FitSettings) CheckSyntax() error {
	switch {
	case s.Folds < 2 || s.Folds > 100:
		return runs.Usagef("-folds %d: want 2 to 100", s.Folds)
	case !(s.SigmaFloor >= 0 && s.SigmaFloor < 1):
		return runs.Usagef("-sigma-floor %v: want 0 to 1", s.SigmaFloor)
	case s.Bands < 0 || s.Bands > 20:
		return runs.Usagef("-bands %d: want 0 to 20", s.Bands)
	case s.MinBandRows < 0:
		return runs.Usagef("-min-band %d: want a number of rows, 0 or more", s.MinBandRows)
	case !(s.T > 0 && s.T < 100):
		return runs.Usagef("-t %v: want a positive width", s.T)
	}
	return nil
}

// Line is one least-squares fit v_deep ~ A*v_shallow + B over the rows of
// one depth pair, all of them (Band "all") or those of one band of phases
// (MinPhase to MaxPhase; Dice: checkers on the board).
type Line struct {
	Shallow  int     `json:"shallow" parquet:"shallow"`
	Deep     int     `json:"deep" parquet:"deep"`
	Band     string  `json:"band" parquet:"band"`
	MinPhase int     `json:"min_phase" parquet:"min_phase"`
	MaxPhase int     `json:"max_phase" parquet:"max_phase"`
	N        int     `json:"n" parquet:"n"`
	Games    int     `json:"games" parquet:"games"`
	A        float64 `json:"a" parquet:"a"`
	B        float64 `json:"b" parquet:"b"`
	// SigmaFit is the residual standard deviation of the fit (divisor
	// n-2), CVRMSE the root mean square error of predictions for games
	// left out of the fit, and Sigma, what ChanceProbCut uses, the largest
	// of the two and the floor.
	SigmaFit float64 `json:"sigma_fit" parquet:"sigma_fit"`
	CVRMSE   float64 `json:"cv_rmse" parquet:"cv_rmse"`
	Sigma    float64 `json:"sigma" parquet:"sigma"`
	// R2 is the coefficient of determination, undefined (NaN, null in
	// JSON) when the deep values do not vary.
	R2 runs.Num `json:"r2" parquet:"r2"`
	// ASE and BSE are the standard errors of A and B, clustered by game
	// (clusteredSE): the events of one position share its searches, so
	// they are not independent rows. Undefined (null) in a fit.json
	// written before they were.
	ASE runs.Num `json:"a_se" parquet:"a_se"`
	BSE runs.Num `json:"b_se" parquet:"b_se"`
}

// UnmarshalJSON reads a line, its standard errors undefined when the file
// has none.
func (l *Line) UnmarshalJSON(data []byte) error {
	type plain Line
	p := plain{ASE: runs.Num(math.NaN()), BSE: runs.Num(math.NaN())}
	if err := json.Unmarshal(data, &p); err != nil {
		return err
	}
	*l = Line(p)
	return nil
}

// clusteredSE returns the standard errors of the slope a and the intercept
// b of the least-squares line y = a·x + b, clustered by group: the
// sandwich (X'X)⁻¹ (Σ_g s_g s_g') (X'X)⁻¹ with X = [1 x], s_g the sum over
// group g of the residual times [1 x_i], and the small-sample factor
// G/(G−1)·(N−1)/(N−2) (CR1: Cameron and Miller 2015, "A Practitioner's
// Guide to Cluster-Robust Inference", section IIC). Both are NaN with
// fewer than two groups or a constant x.
func clusteredSE(x, y []float64, group []int64, a, b float64) (aSE, bSE float64) {
	n := float64(len(x))
	var sx, sxx float64
	s := map[int64]*[2]float64{}
	for i := range x {
		sx += x[i]
		sxx += x[i] * x[i]
		u := y[i] - (a*x[i] + b)
		g := s[group[i]]
		if g == nil {
			g = &[2]float64{}
			s[group[i]] = g
		}
		g[0] += u
		g[1] += u * x[i]
	}
	det := n*sxx - sx*sx
	groups := float64(len(s))
	if groups < 2 || n < 3 || !(det > 0) {
		return math.NaN(), math.NaN()
	}
	inv := [2][2]float64{{sxx / det, -sx / det}, {-sx / det, n / det}} // (X'X)⁻¹
	var meat [2][2]float64
	for _, k := range slices.Sorted(maps.Keys(s)) { // in order: the same sum every run
		g := s[k]
		for r := range 2 {
			for c := range 2 {
				meat[r][c] += g[r] * g[c]
			}
		}
	}
	var v [2][2]float64 // inv · meat · inv
	for r := range 2 {
		for c := range 2 {
			for i := range 2 {
				for j := range 2 {
					v[r][c] += inv[r][i] * meat[i][j] * inv[j][c]
				}
			}
		}
	}
	f := groups / (groups - 1) * (n - 1) / (n - 2)
	return math.Sqrt(f * v[1][1]), math.Sqrt(f * v[0][0])
}

// FitResult is the fit of a set of collect rows of one game and variant.
type FitResult struct {
	Game    string `json:"game"`
	Variant string `json:"variant"`
	Eval    string `json:"eval"`
	NetID   string `json:"net_id,omitempty"`
	Lines   []Line `json:"lines"` // per pair: "all", then its bands
}

// Fit fits every depth pair of the rows, and each band of phases that has
// enough rows. The rows must come from one game and variant, of the
// settings' game if they name one, and one evaluator (and net).
func Fit(rows []Row, s FitSettings) (FitResult, error) {
	if err := s.CheckSyntax(); err != nil {
		return FitResult{}, err
	}
	if err := oneSource(rows, s.GameName); err != nil {
		return FitResult{}, err
	}
	r0 := rows[0]
	res := FitResult{Game: r0.Game, Variant: r0.Variant, Eval: r0.Eval, NetID: r0.NetID}
	pairs, byPair := groupPairs(rows)
	for _, p := range pairs {
		prs := byPair[p]
		lo, hi := math.MaxInt, 0
		for _, r := range prs {
			lo, hi = min(lo, int(r.Phase)), max(hi, int(r.Phase))
		}
		all, err := fitLine(prs, s)
		if err != nil {
			return FitResult{}, fmt.Errorf("pair %s: %v", p, err)
		}
		all.Shallow, all.Deep, all.Band, all.MinPhase, all.MaxPhase = p.Shallow, p.Deep, "all", lo, hi
		res.Lines = append(res.Lines, all)
		if s.Bands < 2 || hi-lo+1 < s.Bands {
			continue
		}
		width := float64(hi-lo+1) / float64(s.Bands)
		for k := 0; k < s.Bands; k++ {
			blo := lo + int(math.Ceil(float64(k)*width-1e-9))
			bhi := lo + int(math.Ceil(float64(k+1)*width-1e-9)) - 1
			var band []Row
			for _, r := range prs {
				if int(r.Phase) >= blo && int(r.Phase) <= bhi {
					band = append(band, r)
				}
			}
			if len(band) < max(s.MinBandRows, 3) {
				continue
			}
			l, err := fitLine(band, s)
			if err != nil {
				continue // too few games for the folds
			}
			l.Shallow, l.Deep, l.Band, l.MinPhase, l.MaxPhase = p.Shallow, p.Deep, fmt.Sprintf("%d-%d", blo, bhi), blo, bhi
			res.Lines = append(res.Lines, l)
		}
	}
	return res, nil
}

// groupPairs returns the depth pairs of the rows, by deep then shallow
// depth, and each pair's rows.
func groupPairs(rows []Row) ([]Pair, map[Pair][]Row) {
	byPair := map[Pair][]Row{}
	var pairs []Pair
	for _, r := range rows {
		p := Pair{int(r.ShallowDepth), int(r.DeepDepth)}
		if _, ok := byPair[p]; !ok {
			pairs = append(pairs, p)
		}
		byPair[p] = append(byPair[p], r)
	}
	slices.SortFunc(pairs, func(a, b Pair) int {
		if a.Deep != b.Deep {
			return a.Deep - b.Deep
		}
		return a.Shallow - b.Shallow
	})
	return pairs, byPair
}

// tooFew says why rows are too few for a line cross-validated over folds
// folds of games: fewer than 3 rows, or fewer games than folds; nil when
// they are enough.
func tooFew(rows []Row, folds int) error {
	if len(rows) < 3 {
		return fmt.Errorf("%d rows: want at least 3", len(rows))
	}
	games := map[int64]bool{}
	for _, r := range rows {
		games[r.GameID] = true
	}
	if len(games) < folds {
		return fmt.Errorf("%d games: want at least %d, one per fold", len(games), folds)
	}
	return nil
}

// oneSource checks that there are rows and that they come from one game
// and variant, gameName's unless it is "", and one evaluator (and net).
func oneSource(rows []Row, gameName string) error {
	if len(rows) == 0 {
		return fmt.Errorf("no rows to fit")
	}
	r0 := rows[0]
	for _, r := range rows {
		if r.Game != r0.Game || r.Variant != r0.Variant || r.Eval != r0.Eval || r.NetID != r0.NetID {
			return fmt.Errorf("rows of %s %s, eval %s net %q beside rows of %s %s, eval %s net %q: fit one game, variant and evaluator at a time",
				r.Game, r.Variant, r.Eval, r.NetID, r0.Game, r0.Variant, r0.Eval, r0.NetID)
		}
	}
	if gameName != "" && r0.Game != gameName {
		return fmt.Errorf("the rows are of %s, not %s: give -game %s", r0.Game, gameName, r0.Game)
	}
	return nil
}

// readInputs checks the settings and reads the rows of the inputs (see
// Check).
func (s *FitSettings) readInputs() ([]Row, error) {
	if err := s.CheckSyntax(); err != nil {
		return nil, err
	}
	if len(s.Inputs) == 0 {
		return nil, runs.Usagef("missing input: give collect Parquet files or run directories")
	}
	if !s.Partial {
		for _, in := range s.Inputs {
			if err := finishedCollect(in); err != nil {
				return nil, err
			}
		}
	}
	rows, err := ReadRows(s.Inputs...)
	if err != nil {
		return nil, err
	}
	if err := oneSource(rows, s.GameName); err != nil {
		return nil, runs.Usage(err)
	}
	// Every pair's line over all its rows is fitted, so too few rows
	// for one is bad input, found before the run directory is made.
	pairs, byPair := groupPairs(rows)
	for _, p := range pairs {
		if err := tooFew(byPair[p], s.Folds); err != nil {
			return nil, runs.Usagef("pair %s: %v (-folds %d): give more rows or fewer folds", p, err, s.Folds)
		}
	}
	return rows, nil
}

// finishedCollect refuses an input that is, or lies inside, a run
// directory other than a done collect run: an unfinished collect has only
// some of its rows.
func finishedCollect(in string) error {
	fi, err := os.Stat(in)
	if err != nil {
		return runs.Usagef("collect rows: %v", err)
	}
	dir := in
	if !fi.IsDir() {
		dir = filepath.Dir(in)
	}
	if _, err := os.Stat(filepath.Join(dir, runs.ManifestName)); err != nil && filepath.Base(filepath.Clean(dir)) == RowsDir {
		dir = filepath.Dir(filepath.Clean(dir)) // the run of a rows/ directory
	}
	if _, err := os.Stat(filepath.Join(dir, runs.ManifestName)); err != nil {
		return nil // Parquet files outside any run
	}
	run, err := runs.Open(dir)
	if err != nil {
		return runs.Usagef("input %s: %v", in, err)
	}
	m := run.Manifest()
	switch st := runs.StateOf(dir, m); {
	case m.Command != "collect":
		return runs.Usagef("input %s: %s is a %s run, not a collect run", in, dir, m.Command)
	case st != runs.Done:
		what, how := "failed", "finish it with starlab collect -resume "+dir
		switch st {
		case runs.Working:
			what, how = "is still running", "wait for it"
		case runs.Stopped:
			what = "is not finished (stopped)"
		}
		return runs.Usagef("input %s: collect run %s %s, so it has only some of its rows; %s, or fit the rows it has with -partial", in, dir, what, how)
	}
	return nil
}

// fitLine fits one line with gonum's least squares and cross-validates it
// over folds of games.
func fitLine(rows []Row, s FitSettings) (Line, error) {
	if err := tooFew(rows, s.Folds); err != nil {
		return Line{}, err
	}
	n := len(rows)
	x, y := make([]float64, n), make([]float64, n)
	games := map[int64]int{} // game -> fold
	for i, r := range rows {
		x[i], y[i] = r.VShallow, r.VDeep
		if _, ok := games[r.GameID]; !ok {
			games[r.GameID] = 0
		}
	}
	ids := make([]int64, 0, len(games))
	for g := range games {
		ids = append(ids, g)
	}
	slices.Sort(ids)
	for i, g := range ids {
		games[g] = i % s.Folds
	}
	b, a := stat.LinearRegression(x, y, nil, false) // intercept first
	l := Line{N: n, Games: len(games), A: a, B: b, R2: runs.Num(stat.RSquared(x, y, nil, b, a))}
	gameOf := make([]int64, n)
	for i, r := range rows {
		gameOf[i] = r.GameID
	}
	aSE, bSE := clusteredSE(x, y, gameOf, a, b)
	l.ASE, l.BSE = runs.Num(aSE), runs.Num(bSE)
	ss := 0.0
	for i := range x {
		d := y[i] - (a*x[i] + b)
		ss += d * d
	}
	l.SigmaFit = math.Sqrt(ss / float64(n-2))
	cv := 0.0
	for f := 0; f < s.Folds; f++ {
		var tx, ty []float64
		for i, r := range rows {
			if games[r.GameID] != f {
				tx, ty = append(tx, x[i]), append(ty, y[i])
			}
		}
		fb, fa := stat.LinearRegression(tx, ty, nil, false)
		for i, r := range rows {
			if games[r.GameID] == f {
				d := y[i] - (fa*x[i] + fb)
				cv += d * d
			}
		}
	}
	l.CVRMSE = math.Sqrt(cv / float64(n))
	l.Sigma = max(l.SigmaFit, l.CVRMSE, s.SigmaFloor)
	if math.IsNaN(l.A) || math.IsNaN(l.B) || math.IsNaN(l.Sigma) {
		return Line{}, fmt.Errorf("the fit is undefined (all shallow values equal?)")
	}
	return l, nil
}

// ProbCut returns the parameter file of the fit: the "all" line of every
// pair, the file cpc reads with probcut=FILE, naming the game and variant
// of the rows.
func (f FitResult) ProbCut(source string) *search.ProbCutParams {
	p := &search.ProbCutParams{Format: search.ProbCutFormat, Version: search.ProbCutVersion, Source: source,
		Eval: f.Eval, NetID: f.NetID, Game: f.Game, Variant: f.Variant}
	for _, l := range f.Lines {
		if l.Band == "all" {
			p.Pairs = append(p.Pairs, search.DepthPair{Shallow: l.Shallow, Deep: l.Deep, A: l.A, B: l.B, Sigma: l.Sigma, N: l.N, R2: l.R2})
		}
	}
	return p
}

// Files of a fit run.
const (
	ProbCutFile = "probcut.json" // what cpc reads: probcut=FILE
	FitFile     = "fit.json"     // every line, bands included
)

// RunFit is the fit stage: it fits the collect rows of the inputs and
// writes probcut.json, fit.json and the scatter plots into the run
// directory.
func RunFit(ctx context.Context, s FitSettings, run *runs.Run, progress runs.Progress) (FitResult, error) {
	progress(0, 1, "reading rows")
	rows, err := s.readInputs()
	if err != nil {
		return FitResult{}, err
	}
	if err := ctx.Err(); err != nil {
		return FitResult{}, err
	}
	f, err := Fit(rows, s)
	if err != nil {
		return FitResult{}, err
	}
	defer progress(1, 1, "")
	pc := f.ProbCut(fmt.Sprintf("starlab fit of %d rows from %s", len(rows), strings.Join(s.Inputs, ", ")))
	if err := runs.WriteJSON(run, ProbCutFile, pc); err != nil {
		return f, err
	}
	if err := runs.WriteJSON(run, FitFile, f); err != nil {
		return f, err
	}
	_, err = WriteScatterPlots(run, rows, f, s.T)
	return f, err
}
