package regression

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/gonum/floats"

	"starlab/runs"
	"starlab/search"
	"starlab/search/game"
)

// TuneFormat names the schema of tune.parquet and tune.json. Format 3
// names the game and the variant (tune.json's game and variant, the
// Parquet metadata) and gives each record's position in the game's
// notation (notation, where format 2 had dpn); format 2 carried several
// engines (the records' engine column), standard errors, and the
// chapter's figures on our scale; format 1 had one engine and the
// chapter's errors in its own points.
const TuneFormat = "starlab-tune/3"

// Files of a tune run.
const (
	TuneRowsFile    = "tune.parquet"
	TuneSummaryFile = "tune.json"
	TunePlot        = "tune" // .png and .svg
)

// ChapterTs are the widths of tables 5.6 to 5.8 and 5.10 of the chapter.
var ChapterTs = []float64{3.2, 1.6, 0.8, 0.4, 0.2, 0.1, 0.05}

// GameName names the result's game: Game, or "dice" for a result of a
// format before 3, which names none.
func (r *TuneResult) GameName() string {
	if r.Game == "" {
		return "dice"
	}
	return r.Game
}

// Chapter returns the chapter's tuning tables of the result's game and
// variant, as Bind found them, nil for a board the chapter did not
// measure or a result not bound to its game.
func (r *TuneResult) Chapter() *search.Chapter { return r.chapter }

// Bind gives the result the chapter's tables of its board from g, the
// game that owns them (search.Kit.Chapter), when g is the result's game: a
// result read back from its file names its game, and the caller, which
// knows the games (the report is handed the registry's lookup, the
// pipeline its recipe's game), binds it, so that the figures shown are
// those of the board measured and no other's, whatever a file of an
// earlier version wrote into its rows. A result of a format before 3
// names no game and is Dice's, of its default variant.
func (r *TuneResult) Bind(g search.Kit) {
	r.chapter = nil
	if g.Game == nil || g.Name() != r.GameName() {
		return
	}
	variant := r.Variant
	if variant == "" {
		variant = g.DefaultVariant()
	}
	r.chapter = g.ChapterOf(variant)
}

// SpecList is a list of engine specs. Its JSON is a list of strings; one
// string, as settings and recipes gave tune's engine before it took
// several, reads as a list of one.
type SpecList []string

// UnmarshalJSON reads a list of specs or a single one.
func (l *SpecList) UnmarshalJSON(data []byte) error {
	var one string
	if err := json.Unmarshal(data, &one); err == nil && string(bytes.TrimSpace(data)) != "null" {
		*l = SpecList{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(data, &many); err != nil {
		return fmt.Errorf("cpc: %s is not an engine spec or a list of them", bytes.TrimSpace(data))
	}
	*l = many
	return nil
}

// TuneSettings configure the tune stage: every position of Suite is
// searched to every depth by staretc and by each engine of CPC with each
// t. They are recorded whole in the run's manifest, from which a resumed
// run reads them back, all but Game, which the caller looks up by
// GameName.
type TuneSettings struct {
	// Kit is the game of the suite's positions; it is not recorded,
	// GameName is (filled by Check when empty).
	Kit      search.Kit `json:"-"`
	GameName string     `json:"game"`
	// Variant is the variant of the suite's positions, which must be one
	// ("5x5-4" in Dice); filled by Check when empty.
	Variant string    `json:"variant"`
	Suite   string    `json:"suite"`
	Limit   int       `json:"limit"` // the first Limit positions; 0 = all
	Depths  []int     `json:"depths"`
	Ts      []float64 `json:"ts"`
	// CPC are the cpc engines without limits (t is set per row), each
	// once; the table compares each with the first. Their staretc base,
	// the same engine as staretc, must be one: one full search per
	// position and depth measures them all.
	CPC SpecList `json:"cpc"`
	// ProbCut is the parameter file of every engine of CPC that names
	// none itself (tune's -probcut; "" for none). It reaches the engines
	// as a value, as search's -probcut does, not spliced into their
	// specs, whose grammar separates keys by commas: any path works.
	ProbCut string `json:"probcut,omitempty"`
	// Products are the files the engines name as {name} (a pipeline's
	// net and fit: search.Products).
	Products search.Products `json:"products,omitempty"`
	Workers  int             `json:"workers"`
	// Shard limits the run to the positions whose index is i modulo N;
	// starlab merge joins the shards' records.
	Shard runs.Shard `json:"shard,omitzero"`
}

// DefaultTuneSettings returns the default tuning of g: its default
// suite and tune depths (search.Kit.Defaults: Dice's chapter depths 9, 11
// and 13, ChanceBreakthrough's 5), the chapter's t, cpc with its defaults;
// suite, when not empty, replaces the game's.
func DefaultTuneSettings(g search.Kit, suite string) TuneSettings {
	if suite == "" {
		suite = g.Defaults.Suite
	}
	return TuneSettings{Kit: g, GameName: g.Name(), Suite: suite, Depths: slices.Clone(g.Defaults.TuneDepths), Ts: slices.Clone(ChapterTs), CPC: SpecList{"cpc"}, Workers: 1}
}

// SetProbCut gives the parameter file path to every engine that names
// none itself (probcut=), as ProbCut: tune's -probcut. A path no engine
// takes is refused.
func (s *TuneSettings) SetProbCut(path string) error {
	if !slices.ContainsFunc(s.CPC, func(c string) bool { return !search.SpecGives(c, "probcut") }) {
		return runs.Usagef("-probcut %s: every -cpc names its own probcut=, so none would use it", path)
	}
	s.ProbCut = path
	return nil
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
// engines' nets and parameters, and the suite, whose positions must be of
// one variant, fit the engines and not be finished. It fills in GameName
// and Variant. A command calls it before it makes the run directory, so
// bad input leaves no run behind. Errors are runs.UsageError.
func (s *TuneSettings) Check() error {
	base, cpcs, err := s.resolve()
	if err != nil {
		return err
	}
	_, err = s.positions(base, cpcs)
	return err
}

// checkGame checks that the settings have a game, of the name recorded,
// and fills in GameName.
func (s *TuneSettings) checkGame() error {
	return s.Kit.Bind("tune settings", &s.GameName)
}

// positions reads the suite, keeps its first Limit positions, and checks
// that they are of one variant (Variant, filled in when empty) and that
// each fits the engines and is not finished.
func (s *TuneSettings) positions(base *search.Resolved, cpcs [][]*search.Resolved) ([]search.SuitePosition, error) {
	ps, err := search.ReadSuite(s.Kit, s.Suite)
	if err != nil {
		return nil, runs.Usagef("-suite: %v", err)
	}
	if s.Limit > 0 && s.Limit < len(ps) {
		ps = ps[:s.Limit]
	}
	if s.Variant == "" {
		s.Variant = s.Kit.Variant(ps[0].Pos)
	}
	engines := []*search.Resolved{base}
	for _, ts := range cpcs {
		engines = append(engines, ts...)
	}
	for _, p := range ps {
		if v := s.Kit.Variant(p.Pos); v != s.Variant {
			return nil, runs.Usagef("-suite %s: line %d is of variant %s, not %s: one variant per tune", s.Suite, p.Line, v, s.Variant)
		}
		for _, r := range engines {
			if err := s.Kit.Check(r, p.Pos); err != nil {
				return nil, runs.Usagef("-suite %s: %v", s.Suite, err)
			}
		}
		if p.Pos.Kind() == game.Over {
			return nil, runs.Usagef("-suite %s: line %d is a finished position", s.Suite, p.Line)
		}
	}
	return ps, nil
}

// CheckSyntax checks the settings but does not open the files the cpc
// engines name (the nets, the parameters), which a pipeline makes before
// this stage runs.
func (s *TuneSettings) CheckSyntax() error {
	_, err := s.cpcSpecs()
	return err
}

// cpcSpecs checks the settings and parses the cpc engines, which must
// carry no limits, differ from each other, and have one staretc base.
func (s *TuneSettings) cpcSpecs() ([]search.Spec, error) {
	if err := s.checkGame(); err != nil {
		return nil, err
	}
	if len(s.Depths) == 0 || len(s.Ts) == 0 {
		return nil, runs.Usagef("-depths and -t need at least one value each")
	}
	for i, d := range s.Depths {
		if d < 2 || d > search.MaxDepthLimit {
			return nil, runs.Usagef("-depths: %d is not a depth from 2 to %d", d, search.MaxDepthLimit)
		}
		if slices.Contains(s.Depths[:i], d) {
			return nil, runs.Usagef("-depths: %d is given twice: its row would count every position twice", d)
		}
	}
	for i, t := range s.Ts {
		if slices.Contains(s.Ts[:i], t) {
			return nil, runs.Usagef("-t: %g is given twice: its row would count every position twice", t)
		}
	}
	if s.Limit < 0 {
		return nil, runs.Usagef("-limit %d: want 0 (all) or more", s.Limit)
	}
	if err := runs.CheckWorkers("workers", s.Workers); err != nil {
		return nil, err
	}
	if len(s.CPC) == 0 {
		return nil, runs.Usagef("-cpc: give at least one cpc engine")
	}
	var specs []search.Spec
	for i, c := range s.CPC {
		spec, err := s.Kit.ParseSpec(c)
		if err == nil && s.ProbCut != "" && !search.SpecGives(c, "probcut") {
			spec.ProbCutFile = s.ProbCut
		}
		switch {
		case err != nil:
		case !spec.Algorithm.Techniques().ProbCut:
			err = fmt.Errorf("%s is not cpc", c)
		case spec.Limits != (search.Limits{}):
			err = fmt.Errorf("give no limits: -depths sets them")
		case search.SpecGives(c, "t"):
			err = fmt.Errorf("give no t: -t sets it")
		case spec.Noise != 0:
			err = fmt.Errorf("give no noise=: the staretc searches it is measured against are noiseless, so its error would measure the noise")
		}
		for j := 0; err == nil && j < i; j++ {
			switch first := specs[j]; {
			case first.Config == spec.Config:
				err = fmt.Errorf("the same engine as -cpc %s (both are %s): give each engine once", s.CPC[j], spec.Config)
			case baseOf(first) != baseOf(spec):
				err = fmt.Errorf("its staretc base %s is not that of -cpc %s (%s): the engines share one full search per position and depth, so give them the same eval, net, tt, k and etc", baseOf(spec), s.CPC[j], baseOf(first))
			}
		}
		if err != nil {
			return nil, runs.Usagef("-cpc %s: %v", c, err)
		}
		specs = append(specs, spec)
	}
	return specs, nil
}

// baseOf is the staretc engine cpc's searches are measured against: cpc's
// own options but ChanceProbCut's.
func baseOf(spec search.Spec) search.Config {
	b := search.DefaultConfig(search.StarETC)
	b.Eval, b.Net, b.TTMiB, b.ProbingFactor, b.ETCMinDepth = spec.Eval, spec.Net, spec.TTMiB, spec.ProbingFactor, spec.ETCMinDepth
	return b
}

// resolve checks the settings and resolves the staretc base and each cpc
// engine at each t (cpcs[engine][t]).
func (s *TuneSettings) resolve() (base *search.Resolved, cpcs [][]*search.Resolved, err error) {
	specs, err := s.cpcSpecs()
	if err != nil {
		return nil, nil, err
	}
	if base, err = baseOf(specs[0]).ResolveIn(s.Products); err != nil {
		return nil, nil, runs.Usagef("-cpc %s: %v", s.CPC[0], err)
	}
	for i, spec := range specs {
		var ts []*search.Resolved
		for _, t := range s.Ts {
			c := spec.Config
			c.ProbCutT = t
			r, err := c.ResolveIn(s.Products)
			if err != nil {
				return nil, nil, runs.Usagef("-cpc %s: %v", s.CPC[i], err)
			}
			ts = append(ts, r)
		}
		cpcs = append(cpcs, ts)
	}
	return base, cpcs, nil
}

// engineNames are the canonical specs of the cpc engines (resolve checked
// them).
func (s *TuneSettings) engineNames() []string {
	specs, _ := s.cpcSpecs()
	var names []string
	for _, spec := range specs {
		names = append(names, spec.Config.String())
	}
	return names
}

// TuneRecord is one position searched to one depth by one engine with
// one t.
type TuneRecord struct {
	Position int32  `parquet:"position" json:"position"` // index in the suite (after Limit), from 0
	Notation string `parquet:"notation" json:"notation"` // the position in the game's notation (Dice: DPN)
	Depth    int32  `parquet:"depth" json:"depth"`
	// Engine is the cpc engine's index in the settings' list (from 0).
	Engine    int32   `parquet:"engine" json:"engine"`
	T         float64 `parquet:"t" json:"t"`
	Nodes     int64   `parquet:"nodes" json:"nodes"`
	BaseNodes int64   `parquet:"base_nodes" json:"base_nodes"`
	// Value is cpc's value of its move (of the root, at a chance node:
	// in Dice, before the roll), Actual that move's (the root's) value in
	// a full staretc search, and Error their difference. Rolled says
	// whether there was a move: the position is a decision (in Dice,
	// after the roll).
	Value       float64 `parquet:"value" json:"value"`
	Actual      float64 `parquet:"actual" json:"actual"`
	Error       float64 `parquet:"error" json:"error"`
	Rolled      bool    `parquet:"rolled" json:"rolled"`
	MoveChanged bool    `parquet:"move_changed" json:"move_changed"`
}

// TuneRow is one line of the table: one depth, one t and one engine over
// the suite. Every figure with an error carries its standard error over
// the positions (see meanSE, sdSE, reductionSE); a figure that is
// undefined (no position, or too few for the error) is NaN, null in JSON.
type TuneRow struct {
	Depth int     `json:"depth"`
	T     float64 `json:"t"`
	// Engine is the cpc engine's canonical spec, one of TuneResult.CPC.
	Engine    string `json:"engine"`
	Nodes     int64  `json:"nodes"`
	BaseNodes int64  `json:"base_nodes"`
	// Reduction is the share of staretc's nodes cpc saves over the
	// suite, 1 - Σ nodes / Σ base_nodes.
	Reduction   runs.Num `json:"reduction"`
	ReductionSE runs.Num `json:"reduction_se"`
	// ACPCME and DCPCME are the mean and the sample standard deviation
	// (divisor n-1) of the absolute error of the chosen move's value (the
	// chapter's average ChanceProbCut move error and its deviation).
	ACPCME      runs.Num `json:"acpcme"`
	ACPCMESE    runs.Num `json:"acpcme_se"`
	DCPCME      runs.Num `json:"dcpcme"`
	DCPCMESE    runs.Num `json:"dcpcme_se"`
	MaxError    runs.Num `json:"max_error"`
	MoveChanged runs.Num `json:"move_changed"` // share of rolled positions whose move differs
	Positions   int      `json:"positions"`
	// ACPCMEMinusFirst is the paired difference of the absolute errors of
	// this engine and the first engine (the first row of the depth and t)
	// over the same positions, the mean of |error| - |first's error|,
	// which is this ACPCME minus the first's; ACPCMEMinusFirstSE is the
	// standard deviation of the per-position differences over sqrt(n).
	// Both are NaN for the first engine.
	ACPCMEMinusFirst   runs.Num `json:"acpcme_minus_first"`
	ACPCMEMinusFirstSE runs.Num `json:"acpcme_minus_first_se"`
	// ChapterFigures are the chapter's figures for this depth and t, nil
	// (no keys in JSON) on a board the chapter did not measure.
	*ChapterFigures
}

// ChapterFigures are the chapter's figures for a row's depth and t (for
// the game's search.Chapter: tables 5.6 to 5.8 in Dice on 5x5-4, table
// 5.10 in ChanceBreakthrough on 8x8), or NaN where its tables have none:
// its reduction, and its ACPCME and DCPCME on our scale, as ChapterScale
// says.
type ChapterFigures struct {
	ChapterScale     string   `json:"chapter_scale"`
	ChapterReduction runs.Num `json:"chapter_reduction"`
	ChapterACPCME    runs.Num `json:"chapter_acpcme"`
	ChapterDCPCME    runs.Num `json:"chapter_dcpcme"`
}

// chapterFigures returns ch's figures at depth d and width t, nil when ch
// is nil.
func chapterFigures(ch *search.Chapter, d int, t float64) *ChapterFigures {
	if ch == nil {
		return nil
	}
	r, a, dc := ch.Figures(d, t)
	return &ChapterFigures{ChapterScale: ch.Scale(), ChapterReduction: runs.Num(r), ChapterACPCME: runs.Num(a), ChapterDCPCME: runs.Num(dc)}
}

// TuneResult is the tune stage's result.
type TuneResult struct {
	Format string `json:"format"`
	// Game and Variant name the game and the variant of the positions.
	Game    string `json:"game"`
	Variant string `json:"variant"`
	// CPC are the engines' canonical specs in the settings' order, and
	// ProbCut the source of each one's parameters.
	CPC       []string `json:"cpc"`
	ProbCut   []string `json:"probcut"`
	Positions int      `json:"positions"`
	// The chapter's figures in the rows are those of ChapterEngine, on
	// the scale ChapterScale says; both are absent on a board the chapter
	// did not measure.
	ChapterScale  string    `json:"chapter_scale,omitempty"`
	ChapterEngine string    `json:"chapter_engine,omitempty"`
	Rows          []TuneRow `json:"rows"`
	Seconds       float64   `json:"seconds"`
	// chapter is the chapter's tables of the board (Bind).
	chapter *search.Chapter
}

type tuneWorker struct {
	base search.Engine
	cpc  [][]search.Engine // [engine][t]
}

// Tune searches every position of the suite to every depth with staretc
// and with each cpc engine at every t, and measures the nodes cpc saves
// and the error of the value of the move it chooses, as tables 5.6 to 5.8
// of the chapter: the value cpc gives its move against that move's value
// in the full search (for a position before the roll, the root's values).
// One staretc search per position and depth serves every engine, so the
// engines are compared over the same positions and base. It writes
// tune.parquet (one record per position, depth, engine and t), tune.json
// and the plot of reduction against error.
func Tune(ctx context.Context, s TuneSettings, run *runs.Run, progress runs.Progress) (*TuneResult, error) {
	start := time.Now()
	base, cpcs, err := s.resolve()
	if err != nil {
		return nil, err
	}
	ps, err := s.positions(base, cpcs)
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
			w := &tuneWorker{base: s.Kit.NewEngine(base)}
			for _, ts := range cpcs {
				var es []search.Engine
				for _, r := range ts {
					es = append(es, s.Kit.NewEngine(r))
				}
				w.cpc = append(w.cpc, es)
			}
			return w
		},
		func(ctx context.Context, w *tuneWorker, i int) ([]TuneRecord, error) {
			return s.position(ctx, w, i, ps[i].Pos)
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
	res := &TuneResult{Format: TuneFormat, Game: s.GameName, Variant: s.Variant, CPC: s.engineNames(), Positions: len(idx), Seconds: time.Since(start).Seconds()}
	for _, ts := range cpcs {
		res.ProbCut = append(res.ProbCut, s.Kit.ProbCutSource(ts[0], ps[0].Pos))
	}
	return res, writeTune(run, s, res, all)
}

// writeTune summarises the records into res and writes tune.parquet,
// tune.json and the plot: a tune run's artifacts, which are a function of
// its records alone.
func writeTune(run *runs.Run, s TuneSettings, res *TuneResult, all []TuneRecord) error {
	res.Bind(s.Kit)
	ch := res.Chapter()
	if ch != nil {
		res.ChapterScale, res.ChapterEngine = ch.Scale(), ch.Engine
	}
	res.Rows = summarize(all, s.Depths, s.Ts, res.CPC, ch)
	engines, err := json.Marshal(res.CPC)
	if err != nil {
		return err
	}
	if err := runs.WriteParquet(run, TuneRowsFile, TuneFormat, all, "starlab.game", res.Game, "starlab.variant", res.Variant, "starlab.cpc", string(engines)); err != nil {
		return err
	}
	if err := runs.WriteJSON(run, TuneSummaryFile, res); err != nil {
		return err
	}
	return WriteTunePlot(run, res)
}

// MergeTune is merge for tune runs of the game g: the records of every
// shard, in the order of the suite, summarised and written as the
// unsharded run writes them.
func MergeTune(ctx context.Context, g search.Kit, sh *runs.Shards, run *runs.Run, progress runs.Progress) (*TuneResult, error) {
	var s TuneSettings
	if err := json.Unmarshal(sh.Settings, &s); err != nil {
		return nil, fmt.Errorf("%s: settings: %v", filepath.Join(sh.Dirs[0], runs.ManifestName), err)
	}
	s.Kit = g
	if err := s.checkGame(); err != nil {
		return nil, fmt.Errorf("%s: %w", sh.Dirs[0], err)
	}
	var all []TuneRecord
	res := &TuneResult{Format: TuneFormat, Game: s.GameName, Variant: s.Variant, CPC: s.engineNames()}
	for _, d := range sh.Dirs {
		rs, err := runs.ReadParquet[TuneRecord](filepath.Join(d, TuneRowsFile), TuneFormat)
		if err != nil {
			return nil, err // the error names the file
		}
		var part TuneResult
		if err := runs.ReadJSON(filepath.Join(d, TuneSummaryFile), &part); err != nil {
			return nil, err // the error names the file
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

// position measures one position at every depth, t and engine.
func (s *TuneSettings) position(ctx context.Context, w *tuneWorker, i int, b game.State) ([]TuneRecord, error) {
	var out []TuneRecord
	rolled, text := b.Kind() == game.Decision, b.String()
	for _, d := range s.Depths {
		full, err := searchFresh(ctx, w.base, b, d)
		if err != nil {
			return nil, err
		}
		actual := map[int]float64{full.BestMove: full.Score} // move -> its full value
		for k, t := range s.Ts {
			for e, ts := range w.cpc {
				it, err := searchFresh(ctx, ts[k], b, d)
				if err != nil {
					return nil, err
				}
				rec := TuneRecord{Position: int32(i), Notation: text, Depth: int32(d), Engine: int32(e), T: t, Nodes: it.Nodes, BaseNodes: full.Nodes,
					Value: it.Score, Actual: full.Score, Rolled: rolled}
				if rolled {
					v, ok := actual[it.BestMove]
					if !ok {
						child := b.Clone()
						child.Play(game.Move(it.BestMove))
						c, err := searchFresh(ctx, w.base, child, d-1)
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
	}
	return out, nil
}

// summarize makes the table from the records: a row per depth, t and
// engine, in that order.
func summarize(all []TuneRecord, depths []int, ts []float64, engines []string, ch *search.Chapter) []TuneRow {
	type key struct {
		depth, engine int
		t             float64
	}
	by := map[key][]TuneRecord{}
	for _, r := range all {
		k := key{int(r.Depth), int(r.Engine), r.T}
		by[k] = append(by[k], r)
	}
	var rows []TuneRow
	for _, d := range depths {
		for _, t := range ts {
			// first is each position's absolute error with the first engine.
			first := map[int32]float64{}
			for _, r := range by[key{d, 0, t}] {
				first[r.Position] = math.Abs(r.Error)
			}
			for e, name := range engines {
				rs := by[key{d, e, t}]
				row := TuneRow{Depth: d, T: t, Engine: name, Positions: len(rs),
					MaxError: runs.Num(math.NaN()), MoveChanged: runs.Num(math.NaN()),
					ACPCMEMinusFirst: runs.Num(math.NaN()), ACPCMEMinusFirstSE: runs.Num(math.NaN())}
				var errs, nodes, base, diffs []float64
				rolled, changed := 0, 0
				for _, r := range rs {
					row.Nodes += r.Nodes
					row.BaseNodes += r.BaseNodes
					nodes = append(nodes, float64(r.Nodes))
					base = append(base, float64(r.BaseNodes))
					errs = append(errs, math.Abs(r.Error))
					diffs = append(diffs, math.Abs(r.Error)-first[r.Position])
					if r.Rolled {
						rolled++
						if r.MoveChanged {
							changed++
						}
					}
				}
				row.Reduction, row.ReductionSE = reductionSE(nodes, base)
				row.ACPCME, row.ACPCMESE = meanSE(errs)
				row.DCPCME, row.DCPCMESE = sdSE(errs)
				if len(errs) > 0 {
					row.MaxError = runs.Num(floats.Max(errs))
				}
				if rolled > 0 {
					row.MoveChanged = runs.Num(float64(changed) / float64(rolled))
				}
				if e > 0 {
					row.ACPCMEMinusFirst, row.ACPCMEMinusFirstSE = meanSE(diffs)
				}
				row.ChapterFigures = chapterFigures(ch, d, t)
				rows = append(rows, row)
			}
		}
	}
	return rows
}

// Caption says what the tune table's figures are and on what scale: the
// terminal prints it above the table, the report as its caption. Its
// lines are short enough for a terminal.
func (r *TuneResult) Caption() string {
	c := `Errors are on our evaluation's scale, [-1, 1]; ± is one standard error
over the positions; DCPCME is the sample standard deviation (divisor n-1)
of |error|; "vs 1" is the paired difference of |error| against engine 1
over the same positions.`
	if ch := r.Chapter(); ch != nil {
		c += fmt.Sprintf(` The chapter's lines are its %s
(Schadd et al. 2009) for %s
over %s, its errors in its points / %d
(its evaluation is on [-%d, %d]).`, ch.Tables, ch.Engine, ch.Positions, ch.Points, ch.Points, ch.Points)
	}
	return c
}

// Table returns the tune table as text: the header and a line per depth,
// t and engine (numbered from 1 as in CPC), each depth and t followed by
// the chapter's line where the chapter has figures. With one engine the
// paired columns are left out. Undefined figures are "-" (runs.Num.Format).
func (r *TuneResult) Table() (head []string, lines [][]string) {
	paired := len(r.CPC) > 1
	head = []string{"depth", "t", "engine", "nodes", "staretc", "reduction", "±", "ACPCME", "±", "DCPCME", "±", "max err", "moved"}
	if paired {
		head = append(head, "vs 1", "±")
	}
	pct := func(x runs.Num) string { return (100 * x).Format("%.1f%%") }
	ch := r.Chapter()
	for i, x := range r.Rows {
		e := slices.Index(r.CPC, x.Engine)
		line := []string{fmt.Sprint(x.Depth), fmt.Sprint(x.T), fmt.Sprint(e + 1), fmt.Sprint(x.Nodes), fmt.Sprint(x.BaseNodes),
			pct(x.Reduction), pct(x.ReductionSE), x.ACPCME.Format("%.4f"), x.ACPCMESE.Format("%.4f"),
			x.DCPCME.Format("%.4f"), x.DCPCMESE.Format("%.4f"), x.MaxError.Format("%.3f"), pct(x.MoveChanged)}
		if paired {
			line = append(line, x.ACPCMEMinusFirst.Format("%+.4f"), x.ACPCMEMinusFirstSE.Format("%.4f"))
		}
		lines = append(lines, line)
		last := i == len(r.Rows)-1 || r.Rows[i+1].Depth != x.Depth || r.Rows[i+1].T != x.T
		red, acpcme, dcpcme := ch.Figures(x.Depth, x.T)
		if !last || math.IsNaN(red) {
			continue
		}
		line = []string{fmt.Sprint(x.Depth), fmt.Sprint(x.T), "chapter", "-", "-", pct(runs.Num(red)), "-",
			runs.Num(acpcme).Format("%.3f"), "-", runs.Num(dcpcme).Format("%.3f"), "-", "-", "-"}
		if paired {
			line = append(line, "-", "-")
		}
		lines = append(lines, line)
	}
	return head, lines
}
