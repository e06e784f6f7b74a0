package regression

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/stat"

	"starlab/runs"
	"starlab/search"
	"starlab/search/dice"
)

// TuneFormat names the schema of tune.parquet and tune.json.
const TuneFormat = "starlab-tune/1"

// Files of a tune run.
const (
	TuneRowsFile    = "tune.parquet"
	TuneSummaryFile = "tune.json"
	TunePlot        = "tune" // .png and .svg
)

// ChapterTs are the widths of tables 5.6 to 5.8 of the chapter.
var ChapterTs = []float64{3.2, 1.6, 0.8, 0.4, 0.2, 0.1, 0.05}

// TuneSettings configure the tune stage: every position of Suite is
// searched to every depth by Base and by CPC with each t.
type TuneSettings struct {
	Suite  string    `json:"suite"`
	Limit  int       `json:"limit"` // the first Limit positions; 0 = all
	Depths []int     `json:"depths"`
	Ts     []float64 `json:"ts"`
	// CPC is the cpc engine without limits (t is set per row); the base
	// is the same engine as staretc.
	CPC     string `json:"cpc"`
	Workers int    `json:"workers"`
	// Shard limits the run to the positions whose index is i modulo N;
	// starlab merge joins the shards' records.
	Shard runs.Shard `json:"shard,omitzero"`
}

// DefaultTuneSettings returns the chapter's tables 5.6 to 5.8: depths 9,
// 11 and 13, the t of the tables, cpc with its defaults.
func DefaultTuneSettings(suite string) TuneSettings {
	return TuneSettings{Suite: suite, Depths: []int{9, 11, 13}, Ts: slices.Clone(ChapterTs), CPC: "cpc", Workers: 1}
}

// ParseTs parses "3.2,1.6".
func ParseTs(s string) ([]float64, error) {
	var ts []float64
	for _, f := range strings.Split(s, ",") {
		t, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || !(t >= 0 && t < 100) {
			return nil, fmt.Errorf("-t %q: %q is not a width from 0 to 100", s, f)
		}
		ts = append(ts, t)
	}
	return ts, nil
}

// Check checks the settings and everything the stage will read: the cpc
// engine's net and parameters, and the suite, whose positions must fit the
// engines' board and not be finished. A command calls it before it makes
// the run directory, so bad input leaves no run behind. Errors are
// runs.UsageError.
func (s *TuneSettings) Check() error {
	base, cpcs, err := s.resolve()
	if err != nil {
		return err
	}
	_, err = s.positions(append([]*search.Resolved{base}, cpcs...))
	return err
}

// positions reads the suite, keeps its first Limit positions, and checks
// that each fits the engines and is not finished.
func (s *TuneSettings) positions(engines []*search.Resolved) ([]search.SuitePosition, error) {
	ps, err := search.ReadSuite(s.Suite)
	if err != nil {
		return nil, runs.Usagef("-suite: %v", err)
	}
	if s.Limit > 0 && s.Limit < len(ps) {
		ps = ps[:s.Limit]
	}
	for _, p := range ps {
		for _, r := range engines {
			if err := r.CheckBoard(p.Board.N(), p.Board.M()); err != nil {
				return nil, runs.Usagef("-suite %s: %v", s.Suite, err)
			}
		}
		if p.Board.Over() {
			return nil, runs.Usagef("-suite %s: line %d is a finished position", s.Suite, p.Line)
		}
	}
	return ps, nil
}

// CheckSyntax checks the settings but does not open the files the cpc
// engine names (the net, the parameters), which a pipeline makes before
// this stage runs.
func (s *TuneSettings) CheckSyntax() error {
	_, err := s.cpcSpec()
	return err
}

// cpcSpec checks the settings and parses the cpc engine, which must carry
// no limits.
func (s *TuneSettings) cpcSpec() (search.Spec, error) {
	var none search.Spec
	if len(s.Depths) == 0 || len(s.Ts) == 0 {
		return none, runs.Usagef("-depths and -t need at least one value each")
	}
	for _, d := range s.Depths {
		if d < 2 || d > search.MaxDepthLimit {
			return none, runs.Usagef("-depths: %d is not a depth from 2 to %d", d, search.MaxDepthLimit)
		}
	}
	if s.Limit < 0 {
		return none, runs.Usagef("-limit %d: want 0 (all) or more", s.Limit)
	}
	if err := runs.CheckWorkers("workers", s.Workers); err != nil {
		return none, err
	}
	spec, err := search.ParseSpec(s.CPC)
	switch {
	case err != nil:
	case spec.Algorithm != search.CPC:
		err = fmt.Errorf("%s is not cpc", s.CPC)
	case spec.Limits != (search.Limits{}):
		err = fmt.Errorf("give no limits: -depths sets them")
	case search.SpecGives(s.CPC, "t"):
		err = fmt.Errorf("give no t: -t sets it")
	}
	if err != nil {
		return none, runs.Usagef("-cpc %s: %v", s.CPC, err)
	}
	return spec, nil
}

// resolve checks the settings and resolves the staretc base and the cpc
// engine of each t.
func (s *TuneSettings) resolve() (base *search.Resolved, cpcs []*search.Resolved, err error) {
	spec, err := s.cpcSpec()
	if err != nil {
		return nil, nil, err
	}
	bad := func(err error) error { return runs.Usagef("-cpc %s: %v", s.CPC, err) }
	b := search.DefaultConfig(search.StarETC)
	b.Eval, b.Net, b.TTMiB, b.ProbingFactor, b.ETCMinDepth = spec.Eval, spec.Net, spec.TTMiB, spec.ProbingFactor, spec.ETCMinDepth
	if base, err = b.Resolve(); err != nil {
		return nil, nil, bad(err)
	}
	for _, t := range s.Ts {
		c := spec.Config
		c.ProbCutT = t
		r, err := c.Resolve()
		if err != nil {
			return nil, nil, bad(err)
		}
		cpcs = append(cpcs, r)
	}
	return base, cpcs, nil
}

// TuneRecord is one position searched to one depth with one t.
type TuneRecord struct {
	Position  int32   `parquet:"position" json:"position"`
	DPN       string  `parquet:"dpn" json:"dpn"`
	Depth     int32   `parquet:"depth" json:"depth"`
	T         float64 `parquet:"t" json:"t"`
	Nodes     int64   `parquet:"nodes" json:"nodes"`
	BaseNodes int64   `parquet:"base_nodes" json:"base_nodes"`
	// Value is cpc's value of its move (of the root, before the roll),
	// Actual that move's (the root's) value in a full staretc search, and
	// Error their difference. Rolled says whether there was a move.
	Value       float64 `parquet:"value" json:"value"`
	Actual      float64 `parquet:"actual" json:"actual"`
	Error       float64 `parquet:"error" json:"error"`
	Rolled      bool    `parquet:"rolled" json:"rolled"`
	MoveChanged bool    `parquet:"move_changed" json:"move_changed"`
}

// TuneRow is one line of the table: one depth and one t over the suite.
type TuneRow struct {
	Depth     int     `json:"depth"`
	T         float64 `json:"t"`
	Nodes     int64   `json:"nodes"`
	BaseNodes int64   `json:"base_nodes"`
	Reduction float64 `json:"reduction"`
	// ACPCME and DCPCME are the mean and the standard deviation of the
	// absolute error of the chosen move's value (the chapter's average
	// ChanceProbCut move error and its deviation).
	ACPCME      float64 `json:"acpcme"`
	DCPCME      float64 `json:"dcpcme"`
	MaxError    float64 `json:"max_error"`
	MoveChanged float64 `json:"move_changed"` // share of rolled positions whose move differs
	Positions   int     `json:"positions"`
	// The chapter's figures for this depth and t (tables 5.6 to 5.8), or
	// null.
	ChapterReduction runs.Num `json:"chapter_reduction"`
	ChapterACPCME    runs.Num `json:"chapter_acpcme"`
}

// TuneResult is the tune stage's result.
type TuneResult struct {
	Format    string    `json:"format"`
	CPC       string    `json:"cpc"`
	ProbCut   string    `json:"probcut"` // the parameters' source
	Positions int       `json:"positions"`
	Rows      []TuneRow `json:"rows"`
	Seconds   float64   `json:"seconds"`
}

// chapter holds tables 5.6 to 5.8: reduction and ACPCME per depth and t.
var chapter = map[int]map[float64][2]float64{
	9:  {3.2: {0.141, 0.00}, 1.6: {0.274, 0.01}, 0.8: {0.410, 0.05}, 0.4: {0.527, 0.10}, 0.2: {0.619, 0.14}, 0.1: {0.666, 0.16}, 0.05: {0.690, 0.18}},
	11: {3.2: {0.162, 0.01}, 1.6: {0.305, 0.02}, 0.8: {0.443, 0.05}, 0.4: {0.561, 0.09}, 0.2: {0.643, 0.12}, 0.1: {0.686, 0.14}, 0.05: {0.708, 0.15}},
	13: {3.2: {0.166, 0.01}, 1.6: {0.315, 0.03}, 0.8: {0.457, 0.06}, 0.4: {0.574, 0.10}, 0.2: {0.659, 0.13}, 0.1: {0.697, 0.14}, 0.05: {0.714, 0.15}},
}

type tuneWorker struct {
	base *search.Engine
	cpc  []*search.Engine // one per t
}

// Tune searches every position of the suite to every depth with staretc
// and with cpc at every t, and measures the nodes cpc saves and the error
// of the value of the move it chooses, as tables 5.6 to 5.8 of the
// chapter: the value cpc gives its move against that move's value in the
// full search (for a position before the roll, the root's values). It
// writes tune.parquet (one record per position, depth and t), tune.json
// and the plot of reduction against error.
func Tune(ctx context.Context, s TuneSettings, run *runs.Run, progress runs.Progress) (*TuneResult, error) {
	start := time.Now()
	base, cpcs, err := s.resolve()
	if err != nil {
		return nil, err
	}
	ps, err := s.positions(append([]*search.Resolved{base}, cpcs...))
	if err != nil {
		return nil, err
	}
	var idx []int
	for i := range ps {
		if s.Shard.Owns(i) {
			idx = append(idx, i)
		}
	}
	records := make([][]TuneRecord, len(ps))
	done := int64(0)
	progress(0, int64(len(idx)), "")
	err = runs.Pool(ctx, s.Workers, idx,
		func() *tuneWorker {
			w := &tuneWorker{base: search.NewEngine(base)}
			for _, r := range cpcs {
				w.cpc = append(w.cpc, search.NewEngine(r))
			}
			return w
		},
		func(ctx context.Context, w *tuneWorker, i int) ([]TuneRecord, error) {
			return s.position(ctx, w, i, ps[i].Board)
		},
		func(rs []TuneRecord) (bool, error) {
			records[rs[0].Position] = rs
			done++
			progress(done, int64(len(idx)), "")
			return false, nil
		})
	if err != nil {
		return nil, err
	}
	var all []TuneRecord
	for _, rs := range records {
		all = append(all, rs...)
	}
	res := &TuneResult{Format: TuneFormat, CPC: s.cpcName(), ProbCut: cpcs[0].ProbCutSource(ps[0].Board.N(), ps[0].Board.M()),
		Positions: len(idx), Seconds: time.Since(start).Seconds()}
	return res, writeTune(run, s, res, all)
}

// cpcName is the canonical name of the cpc engine (resolve checked it).
func (s *TuneSettings) cpcName() string {
	spec, _ := search.ParseSpec(s.CPC)
	return spec.Config.String()
}

// writeTune summarises the records into res and writes tune.parquet,
// tune.json and the plot: a tune run's artifacts, which are a function of
// its records alone.
func writeTune(run *runs.Run, s TuneSettings, res *TuneResult, all []TuneRecord) error {
	res.Rows = summarize(all, s.Depths, s.Ts)
	if err := runs.WriteParquet(run, TuneRowsFile, TuneFormat, all, "starlab.cpc", res.CPC); err != nil {
		return err
	}
	if err := runs.WriteJSON(run, TuneSummaryFile, res); err != nil {
		return err
	}
	return WriteTunePlot(run, res)
}

// MergeTune is merge for tune runs: the records of every shard, in the
// order of the suite, summarised and written as the unsharded run writes
// them.
func MergeTune(ctx context.Context, sh *runs.Shards, run *runs.Run, progress runs.Progress) (*TuneResult, error) {
	var s TuneSettings
	if err := json.Unmarshal(sh.Settings, &s); err != nil {
		return nil, fmt.Errorf("merge: settings: %v", err)
	}
	var all []TuneRecord
	res := &TuneResult{Format: TuneFormat, CPC: s.cpcName()}
	for _, d := range sh.Dirs {
		rs, err := runs.ReadParquet[TuneRecord](filepath.Join(d, TuneRowsFile), TuneFormat)
		if err != nil {
			return nil, fmt.Errorf("merge: %v", err)
		}
		var part TuneResult
		data, err := os.ReadFile(filepath.Join(d, TuneSummaryFile))
		if err == nil {
			err = json.Unmarshal(data, &part)
		}
		if err != nil {
			return nil, fmt.Errorf("merge: %s: %v", d, err)
		}
		res.ProbCut = part.ProbCut
		res.Positions += part.Positions
		res.Seconds += part.Seconds // the shards' time, not the merge's
		all = append(all, rs...)
	}
	// Each position's records stay in the order its worker made them.
	slices.SortStableFunc(all, func(a, b TuneRecord) int { return cmp.Compare(a.Position, b.Position) })
	progress(1, 1, "")
	return res, writeTune(run, s, res, all)
}

// position measures one position at every depth and t.
func (s *TuneSettings) position(ctx context.Context, w *tuneWorker, i int, b *dice.Board) ([]TuneRecord, error) {
	var out []TuneRecord
	rolled := b.Roll() != dice.NoRoll
	for _, d := range s.Depths {
		full, err := searchFresh(ctx, w.base, b, d)
		if err != nil {
			return nil, err
		}
		actual := map[int]float64{full.BestMove: full.Score} // move -> its full value
		for k, t := range s.Ts {
			it, err := searchFresh(ctx, w.cpc[k], b, d)
			if err != nil {
				return nil, err
			}
			rec := TuneRecord{Position: int32(i), DPN: b.DPN(), Depth: int32(d), T: t, Nodes: it.Nodes, BaseNodes: full.Nodes,
				Value: it.Score, Actual: full.Score, Rolled: rolled}
			if rolled {
				v, ok := actual[it.BestMove]
				if !ok {
					child := *b
					child.Make(it.BestMove)
					c, err := searchFresh(ctx, w.base, &child, d-1)
					if err != nil {
						return nil, err
					}
					v = -c.Score
					actual[it.BestMove] = v
				}
				rec.Actual, rec.MoveChanged = v, it.BestMove != full.BestMove
			}
			rec.Error = rec.Value - rec.Actual
			out = append(out, rec)
		}
	}
	return out, nil
}

// summarize makes the table from the records.
func summarize(all []TuneRecord, depths []int, ts []float64) []TuneRow {
	var rows []TuneRow
	for _, d := range depths {
		for _, t := range ts {
			row := TuneRow{Depth: d, T: t, ChapterReduction: runs.Num(math.NaN()), ChapterACPCME: runs.Num(math.NaN())}
			var errs []float64
			rolled, changed := 0, 0
			for _, r := range all {
				if int(r.Depth) != d || r.T != t {
					continue
				}
				row.Nodes += r.Nodes
				row.BaseNodes += r.BaseNodes
				errs = append(errs, math.Abs(r.Error))
				if r.Rolled {
					rolled++
					if r.MoveChanged {
						changed++
					}
				}
			}
			row.Positions = len(errs)
			if row.BaseNodes > 0 {
				row.Reduction = 1 - float64(row.Nodes)/float64(row.BaseNodes)
			}
			if len(errs) > 0 {
				row.ACPCME, row.DCPCME = stat.PopMeanStdDev(errs, nil)
				row.MaxError = floats.Max(errs)
			}
			if rolled > 0 {
				row.MoveChanged = float64(changed) / float64(rolled)
			}
			if c, ok := chapter[d][t]; ok {
				row.ChapterReduction, row.ChapterACPCME = runs.Num(c[0]), runs.Num(c[1])
			}
			rows = append(rows, row)
		}
	}
	return rows
}
