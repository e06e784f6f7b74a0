// Package bench measures the *-minimax algorithms against each other as the
// thesis does (Veness 2006, section 5, figures 5.2 and 5.5): every algorithm
// searches every position of a suite with an empty table by iterative
// deepening, and the nodes and time to the end of each requested depth are
// recorded, cumulative over the iterations, with the score and the cut-off
// counts. It is the bench stage; the tune stage reuses its measurement.
// Each worker's engine values its first position before the clock starts,
// so that what an engine builds once (a net's evaluator, backgammon's
// bear-off databases) is not counted as search time.
//
// Invariants: the sound algorithms must agree on every score to 1e-9
// (SoundTolerance), which Run checks after writing everything; the numbers
// are a function of the suite, the settings and the engine, whatever the
// number of workers, except the times.
package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"gonum.org/v1/gonum/stat"

	"starlab/runs"
	"starlab/search"
)

// Format versions bench.parquet (key-value metadata runs.FormatKey) and
// summary.json (field "format").
const Format = "starlab-bench/3"

// The bench stage's files in its run directory.
const (
	RowsFile    = "bench.parquet"
	SummaryFile = "summary.json"
)

// DefaultSuite is the suite bench measures when none is named; the path is
// relative to the module root.
const DefaultSuite = "search/dice/suites/dice5x5-4.suite"

// SoundTolerance is how far apart the sound algorithms' scores may be.
const SoundTolerance = 1e-9

// Settings configure the bench stage. They are recorded whole in the run's
// manifest.
type Settings struct {
	// Kit is the game the suite's positions are of; it is not recorded,
	// GameName is, and the caller fills Kit from it (the registry).
	Kit      search.Kit `json:"-"`
	GameName string     `json:"game"`
	Suite    string     `json:"suite"`
	Limit    int        `json:"limit"` // the first Limit positions; 0 = all
	Algos    []string   `json:"algos"`
	Depths   []int      `json:"depths"` // ascending, distinct
	// Engine holds every option but the algorithm, which Algos gives.
	Engine search.Config `json:"engine"`
	// Workers search positions in parallel, each with its own engines.
	// Times are measured per search, so parallel workers on a loaded
	// machine slow each other; 1 measures as the thesis did.
	Workers int        `json:"workers"`
	Shard   runs.Shard `json:"shard,omitzero"`
}

// DefaultSettings returns the thesis's comparison on g: expectimax,
// star1, star2 and staretc to g's bench depths on g's default suite
// (search.Kit.Defaults: Dice's 9, 11 and 13 on DefaultSuite), with g's
// evaluator, one worker.
func DefaultSettings(g search.Kit) Settings {
	s := Settings{Kit: g, Suite: g.Defaults.Suite, Algos: []string{"expectimax", "star1", "star2", "staretc"}, Depths: slices.Clone(g.Defaults.BenchDepths),
		Engine: search.DefaultConfig(search.StarETC), Workers: 1}
	if g.Game != nil {
		s.GameName, s.Engine = g.Name(), g.Config(search.StarETC)
	}
	return s
}

// ParseAlgos parses a comma-separated list of distinct algorithm names.
func ParseAlgos(s string) ([]string, error) {
	var algos []string
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			return nil, runs.Usagef("-algos %q: empty algorithm name", s)
		}
		a, err := search.ParseAlgorithm(name)
		if err != nil {
			return nil, runs.Usagef("-algos: %v", err)
		}
		if slices.Contains(algos, a.String()) {
			return nil, runs.Usagef("-algos %q: %s given twice", s, name)
		}
		algos = append(algos, a.String())
	}
	return algos, nil
}

// ParseDepths parses a comma-separated list of positive depths and returns
// them sorted. A depth given twice is refused, as collect refuses a pair
// and tune a depth given twice: the user may have meant another.
func ParseDepths(s string) ([]int, error) {
	var depths []int
	for _, f := range strings.Split(s, ",") {
		d, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || d < 1 || d > search.MaxDepthLimit {
			return nil, runs.Usagef("-depths %q: %q is not a depth from 1 to %d", s, strings.TrimSpace(f), search.MaxDepthLimit)
		}
		if slices.Contains(depths, d) {
			return nil, runs.Usagef("-depths %q: %d is given twice", s, d)
		}
		depths = append(depths, d)
	}
	slices.Sort(depths)
	return depths, nil
}

// Bench is a bench run's settings turned into values.
type Bench struct {
	Settings Settings
	Algos    []search.Algorithm
	Engines  []*search.Resolved // one per algorithm
	Suite    []search.SuitePosition
	// Positions are the 1-based suite indexes this run measures (its
	// shard's share), in order.
	Positions []int
}

// Check checks the settings without reading the suite or opening the
// files the engine names (a pipeline checks a recipe before it makes
// them); errors are runs.UsageError.
func (s *Settings) Check() error {
	if len(s.Algos) == 0 || len(s.Depths) == 0 {
		return runs.Usagef("bench needs at least one algorithm and one depth")
	}
	if s.Kit.Game == nil || s.Kit.Name() != s.GameName {
		return fmt.Errorf("bench settings of game %q given the game %v", s.GameName, s.Kit.Game)
	}
	if s.Limit < 0 {
		return runs.Usagef("-limit %d: want 0 (all) or more", s.Limit)
	}
	if err := runs.CheckWorkers("workers", s.Workers); err != nil {
		return err
	}
	for i := 1; i < len(s.Depths); i++ {
		if s.Depths[i] <= s.Depths[i-1] {
			return runs.Usagef("depths %v: want them ascending, each once", s.Depths)
		}
	}
	for _, name := range s.Algos {
		if _, err := search.ParseAlgorithm(name); err != nil {
			return runs.Usagef("%v", err)
		}
	}
	return nil
}

// Resolve checks the settings, reads the suite and resolves one engine
// configuration per algorithm.
func (s *Settings) Resolve() (*Bench, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	b := &Bench{Settings: *s}
	for _, name := range s.Algos {
		a, _ := search.ParseAlgorithm(name) // Check parsed it
		c := s.Engine
		c.Algorithm = a
		r, err := c.Resolve()
		if err != nil {
			return nil, err
		}
		b.Algos = append(b.Algos, a)
		b.Engines = append(b.Engines, r)
	}
	suite, err := search.ReadSuite(s.Kit, s.Suite)
	if err != nil {
		return nil, runs.Usage(err) // a file the user named
	}
	if s.Limit > 0 && s.Limit < len(suite) {
		suite = suite[:s.Limit]
	}
	b.Suite = suite
	for _, p := range suite {
		if err := search.Finished(s.Kit, p.Pos); err != nil {
			return nil, runs.Usagef("%s line %d: %v", s.Suite, p.Line, err)
		}
		for ai, r := range b.Engines {
			if err := s.Kit.Check(r, p.Pos); err != nil {
				return nil, runs.Usagef("%s on %s line %d: %v", b.Algos[ai], s.Suite, p.Line, err)
			}
		}
	}
	for i := range suite {
		if s.Shard.Owns(i) {
			b.Positions = append(b.Positions, i+1)
		}
	}
	return b, nil
}

// Row is one row of bench.parquet: one algorithm on one position, as
// measured at the iteration of one requested depth.
type Row struct {
	Algo     string `parquet:"algo"`
	Position int32  `parquet:"position"` // 1-based index in the suite (after -limit)
	Notation string `parquet:"notation"` // the position in the game's notation
	Depth    int32  `parquet:"depth"`    // requested depth
	// SearchedDepth is the depth of the iteration recorded: Depth, or less
	// when every line of the game ends sooner (search.MaxDepth).
	SearchedDepth int32   `parquet:"searched_depth"`
	Nodes         int64   `parquet:"nodes"`   // cumulative over iterations 1..SearchedDepth
	TimeMS        float64 `parquet:"time_ms"` // cumulative, from the start of the search
	Score         float64 `parquet:"score"`   // for the side to move
	NodesPerS     float64 `parquet:"nodes_per_s"`
	Sound         bool    `parquet:"sound"`
	// Cut-off counts, cumulative like Nodes, spelled as search.Cutoffs.
	AlphaBeta   int64 `parquet:"alpha_beta"`
	TTCutMove   int64 `parquet:"tt_cut_move"`
	TTCutChance int64 `parquet:"tt_cut_chance"`
	ETCCut      int64 `parquet:"etc_cut"`
	Star2Cut    int64 `parquet:"star2_cut"`
	Star1Cut    int64 `parquet:"star1_cut"`
	CPCCut      int64 `parquet:"cpc_cut"`
}

// Dist summarises one measure over the positions, as in the thesis's
// figures 5.2 and 5.5.
type Dist struct {
	Min    runs.Num `json:"min"`
	Max    runs.Num `json:"max"`
	Mean   runs.Num `json:"mean"`
	Median runs.Num `json:"median"`
	Std    runs.Num `json:"std"`
}

// AlgoSummary is one algorithm's summary at one depth.
type AlgoSummary struct {
	Algo        string   `json:"algo"`
	Sound       bool     `json:"sound"`
	Nodes       Dist     `json:"nodes"`
	TimeMS      Dist     `json:"time_ms"`
	TotalNodes  int64    `json:"total_nodes"`
	TotalTimeMS float64  `json:"total_time_ms"`
	NodesPerS   runs.Num `json:"nodes_per_s"` // total nodes / total time
	// MeanRatio is the mean over positions of this algorithm's nodes over
	// the first algorithm's.
	MeanRatio runs.Num `json:"mean_ratio_vs_first"`
	// RatioOfMeans maps each algorithm to this one's mean nodes over its.
	RatioOfMeans map[string]runs.Num `json:"ratio_of_means"`
}

// DepthSummary is the summary at one requested depth.
type DepthSummary struct {
	Depth int `json:"depth"`
	// EndedBefore counts the positions whose every line ends before Depth,
	// searched to the end instead.
	EndedBefore int           `json:"ended_before"`
	Algos       []AlgoSummary `json:"algos"`
}

// Disagreement is a sound algorithm whose score differs from the first
// sound algorithm's.
type Disagreement struct {
	Position int     `json:"position"`
	Line     int     `json:"line"`
	Depth    int     `json:"depth"`
	Algo     string  `json:"algo"`
	Score    float64 `json:"score"`
	Ref      string  `json:"ref"`
	RefScore float64 `json:"ref_score"`
}

// Summary is summary.json and the -json output.
type Summary struct {
	Format    string         `json:"format"`
	Game      string         `json:"game"`
	Suite     string         `json:"suite"`
	Positions int            `json:"positions"`
	Algos     []string       `json:"algos"`
	Depths    []int          `json:"depths"`
	Engine    string         `json:"engine"` // the engine options in the spec grammar
	Shard     runs.Shard     `json:"shard,omitzero"`
	RunDir    string         `json:"run_dir"`
	Median    string         `json:"median_definition"`
	Std       string         `json:"std_definition"`
	Results   []DepthSummary `json:"results"`
	// SoundAlgos counts the sound algorithms compared; with fewer than two
	// there is nothing to compare and SoundAgree is trivially true.
	SoundAlgos    int            `json:"sound_algos"`
	SoundAgree    bool           `json:"sound_agree"`
	Disagreements []Disagreement `json:"disagreements"`
	// SoundCheck says what was checked of the sound algorithms' scores:
	// "agree" (every score to SoundTolerance), or "bounds" (every score
	// within [L, U]) for a game whose positions recur at other depths of
	// one search (search.Kit.DepthTranspositions) searched with the
	// table on, where a value stored at one depth answers another and the
	// algorithms may differ by the order they met it; with -tt 0 such a
	// game is held to agreement too. Empty in runs of earlier versions,
	// which always checked agreement.
	SoundCheck string `json:"sound_check,omitempty"`
}

// The checks of Summary.SoundCheck.
const (
	CheckAgree  = "agree"
	CheckBounds = "bounds"
)

// ThesisDepth is the depth of the thesis's figures 5.2 and 5.5.
const ThesisDepth = 13

// Thesis holds figures 5.2 (nodes) and 5.5 (time in ms) of Veness (2006):
// each algorithm on the thesis's 100 positions to depth 13, on its
// evaluator and its machine. Bench prints them beside its own at depth 13.
var Thesis = map[string]struct{ Nodes, TimeMS Dist }{
	"expectimax": {dist(5813, 2.73e8, 3.48e7, 1.28e7, 4.99e7), dist(219, 4.53e6, 5.51e5, 1.92e5, 8.15e5)},
	"star1":      {dist(3997, 1.35e8, 1.32e7, 3.91e6, 2.06e7), dist(187, 2.26e6, 2.10e5, 6.02e4, 3.39e5)},
	"star2":      {dist(8720, 3.23e7, 5.71e6, 2.95e6, 6.31e6), dist(250, 4.89e5, 8.16e4, 4.18e4, 9.25e4)},
	"staretc":    {dist(5536, 2.20e7, 3.58e6, 1.83e6, 4.12e6), dist(219, 3.65e5, 5.62e4, 2.76e4, 6.63e4)},
}

func dist(min, max, mean, median, std float64) Dist {
	return Dist{runs.Num(min), runs.Num(max), runs.Num(mean), runs.Num(median), runs.Num(std)}
}

// point is one algorithm on one position at one requested depth.
type point struct {
	searched int
	nodes    int64
	time     time.Duration
	score    float64
	stats    search.Stats
}

// measure searches every position of the run with every algorithm, each
// search with an empty table, on the run's workers, and returns
// points[algo][position index in b.Positions][depth].
func (b *Bench) measure(ctx context.Context, progress runs.Progress) ([][][]point, error) {
	deepest := b.Settings.Depths[len(b.Settings.Depths)-1]
	points := make([][][]point, len(b.Algos))
	for ai := range b.Algos {
		points[ai] = make([][]point, len(b.Positions))
	}
	type job struct{ algo, pos int }
	var jobs []job
	for ai := range b.Algos {
		for pi := range b.Positions {
			jobs = append(jobs, job{ai, pi})
		}
	}
	type result struct {
		job
		ps []point
	}
	total, done := int64(len(jobs)), int64(0)
	progress(0, total, "")
	err := runs.Pool(ctx, b.Settings.Workers, jobs,
		func() []search.Engine { return make([]search.Engine, len(b.Algos)) },
		func(ctx context.Context, engines []search.Engine, j job) (result, error) {
			p := b.Suite[b.Positions[j.pos]-1]
			if engines[j.algo] == nil {
				// A new engine values its first position before its first
				// timed search, so that what it builds once for a position's
				// kind (a net's evaluator, backgammon's bear-off databases)
				// is not counted in that search's time.
				engines[j.algo] = b.Settings.Kit.NewEngine(b.Engines[j.algo])
				engines[j.algo].Evaluate(p.Pos)
			}
			e := engines[j.algo]
			e.ClearTT()
			res := e.Search(ctx, p.Pos, search.Limits{Depth: deepest}, nil)
			if err := ctx.Err(); err != nil {
				return result{}, err
			}
			if res.Stopped || len(res.Iterations) == 0 {
				return result{}, fmt.Errorf("%s on position %d (line %d): the search stopped early", b.Algos[j.algo], b.Positions[j.pos], p.Line)
			}
			ps := make([]point, len(b.Settings.Depths))
			for di, d := range b.Settings.Depths {
				// The deepest iteration not beyond d: d itself unless the
				// search ended at search.MaxDepth before it.
				var it search.Iteration
				for _, x := range res.Iterations {
					if x.Depth <= d {
						it = x
					}
				}
				ps[di] = point{searched: it.Depth, nodes: it.Nodes, time: it.Time, score: it.Score, stats: it.Stats}
			}
			return result{j, ps}, nil
		},
		func(r result) (bool, error) {
			points[r.algo][r.pos] = r.ps
			done++
			progress(done, total, b.Algos[r.algo].String())
			return false, nil
		})
	return points, err
}

// Run is the bench stage: it measures, writes bench.parquet and
// summary.json into the run directory and returns the summary. It returns
// an error if the sound algorithms disagree, after writing everything.
func Run(ctx context.Context, set Settings, run *runs.Run, progress runs.Progress) (*Summary, error) {
	b, err := set.Resolve()
	if err != nil {
		return nil, err
	}
	points, err := b.measure(ctx, progress)
	if err != nil {
		return nil, err
	}
	return b.write(run, points)
}

// write writes a bench run's artifacts, a function of its points alone.
func (b *Bench) write(run *runs.Run, points [][][]point) (*Summary, error) {
	if err := runs.WriteParquet(run, RowsFile, Format, b.rows(points)); err != nil {
		return nil, err
	}
	sum := b.summarize(points, run.Dir())
	if err := runs.WriteJSON(run, SummaryFile, sum); err != nil {
		return nil, err
	}
	if !sum.SoundAgree {
		d := sum.Disagreements[0]
		if sum.SoundCheck == CheckBounds {
			return sum, fmt.Errorf("%d scores of sound algorithms out of [-1, 1], first on position %d (line %d) at depth %d: %s %.12f", len(sum.Disagreements), d.Position, d.Line, d.Depth, d.Algo, d.Score)
		}
		return sum, fmt.Errorf("sound algorithms disagree %d times, first on position %d (line %d) at depth %d: %s %.12f, %s %.12f",
			len(sum.Disagreements), d.Position, d.Line, d.Depth, d.Ref, d.RefScore, d.Algo, d.Score)
	}
	return sum, nil
}

// Merge is merge for bench runs: the rows of every shard, read back into
// the points of the unsharded run, summarised and written as it writes them.
func Merge(ctx context.Context, g search.Kit, sh *runs.Shards, run *runs.Run, progress runs.Progress) (*Summary, error) {
	var set Settings
	if err := json.Unmarshal(sh.Settings, &set); err != nil {
		return nil, fmt.Errorf("%s: settings: %v", filepath.Join(sh.Dirs[0], runs.ManifestName), err)
	}
	set.Kit = g
	b, err := set.Resolve()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", sh.Dirs[0], err)
	}
	points := make([][][]point, len(b.Algos))
	for ai := range points {
		points[ai] = make([][]point, len(b.Positions))
		for pi := range points[ai] {
			points[ai][pi] = make([]point, len(set.Depths))
		}
	}
	seen := make(map[[3]int]bool)
	for _, d := range sh.Dirs {
		rows, err := runs.ReadParquet[Row](filepath.Join(d, RowsFile), Format)
		if err != nil {
			return nil, err // the error names the file
		}
		for _, r := range rows {
			ai := slices.IndexFunc(b.Algos, func(a search.Algorithm) bool { return a.String() == r.Algo })
			di := slices.Index(set.Depths, int(r.Depth))
			pi := int(r.Position) - 1
			key := [3]int{ai, pi, di}
			if ai < 0 || di < 0 || pi < 0 || pi >= len(b.Positions) || seen[key] {
				return nil, fmt.Errorf("%s: row %s, position %d, depth %d is not one of the run's or is there twice", d, r.Algo, r.Position, r.Depth)
			}
			seen[key] = true
			points[ai][pi][di] = point{searched: int(r.SearchedDepth), nodes: r.Nodes, time: time.Duration(r.TimeMS * float64(time.Millisecond)),
				score: r.Score, stats: search.Stats{AlphaBeta: r.AlphaBeta, TTCutMove: r.TTCutMove, TTCutChance: r.TTCutChance,
					ETCCut: r.ETCCut, Star2Cut: r.Star2Cut, Star1Cut: r.Star1Cut, CPCCut: r.CPCCut}}
		}
	}
	if want := len(b.Algos) * len(b.Positions) * len(set.Depths); len(seen) != want {
		return nil, fmt.Errorf("the shards hold %d measurements, the bench has %d", len(seen), want)
	}
	progress(1, 1, "")
	return b.write(run, points)
}

func (b *Bench) rows(points [][][]point) []Row {
	algos, depths := b.Algos, b.Settings.Depths
	rows := make([]Row, 0, len(algos)*len(b.Positions)*len(depths))
	for ai, algo := range algos {
		for pi, pos := range b.Positions {
			text := b.Suite[pos-1].Pos.String()
			for di, d := range depths {
				pt := points[ai][pi][di]
				s := pt.stats
				ms := durationMS(pt.time)
				rows = append(rows, Row{
					Algo: algo.String(), Position: int32(pos), Notation: text, Depth: int32(d), SearchedDepth: int32(pt.searched),
					Nodes: pt.nodes, TimeMS: ms, Score: pt.score, NodesPerS: nodesPerSecond(float64(pt.nodes), ms), Sound: algo.Sound(),
					AlphaBeta: s.AlphaBeta, TTCutMove: s.TTCutMove, TTCutChance: s.TTCutChance, ETCCut: s.ETCCut,
					Star2Cut: s.Star2Cut, Star1Cut: s.Star1Cut, CPCCut: s.CPCCut,
				})
			}
		}
	}
	return rows
}

func durationMS(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// nodesPerSecond is NaN, not infinite, for a zero time.
func nodesPerSecond(nodes, ms float64) float64 {
	if ms <= 0 {
		return math.NaN()
	}
	return nodes / (ms / 1000)
}

func (b *Bench) summarize(points [][][]point, dir string) *Summary {
	algos, depths, set := b.Algos, b.Settings.Depths, b.Settings
	suite := b.Positions
	sum := &Summary{
		Format: Format, Game: set.GameName, Suite: set.Suite, Positions: len(suite), Algos: set.Algos, Depths: depths,
		Engine: options(set.Engine), RunDir: dir, Shard: set.Shard,
		Median:        "middle value of the sorted sample; the mean of the two middle values for an even count",
		Std:           "sample standard deviation (divisor n-1)",
		Disagreements: []Disagreement{},
	}
	for di, d := range depths {
		bd := DepthSummary{Depth: d}
		for pi := range suite {
			if points[0][pi][di].searched < d {
				bd.EndedBefore++
			}
		}
		nodes := make([][]float64, len(algos))
		means := make([]float64, len(algos))
		for ai, algo := range algos {
			nodes[ai] = make([]float64, len(suite))
			times := make([]float64, len(suite))
			for pi := range suite {
				pt := points[ai][pi][di]
				nodes[ai][pi] = float64(pt.nodes)
				times[pi] = durationMS(pt.time)
			}
			ba := AlgoSummary{Algo: algo.String(), Sound: algo.Sound(), Nodes: distribution(nodes[ai]), TimeMS: distribution(times)}
			tn, tt := floats(nodes[ai]), floats(times)
			ba.TotalNodes, ba.TotalTimeMS = int64(tn), tt
			ba.NodesPerS = runs.Num(nodesPerSecond(tn, tt))
			means[ai] = float64(ba.Nodes.Mean)
			bd.Algos = append(bd.Algos, ba)
		}
		for ai := range algos {
			ba := &bd.Algos[ai]
			ba.RatioOfMeans = map[string]runs.Num{}
			for bi, other := range algos {
				ba.RatioOfMeans[other.String()] = runs.Num(ratio(means[ai], means[bi]))
			}
			// Positions where the first algorithm searched no node (a
			// finished game) have no ratio and are left out.
			var rs []float64
			for pi := range suite {
				if nodes[0][pi] > 0 {
					rs = append(rs, nodes[ai][pi]/nodes[0][pi])
				}
			}
			ba.MeanRatio = runs.Num(math.NaN())
			if len(rs) > 0 {
				ba.MeanRatio = runs.Num(stat.Mean(rs, nil))
			}
		}
		sum.Results = append(sum.Results, bd)
	}

	sum.SoundCheck = CheckAgree
	if b.Settings.Kit.DepthTranspositions && b.Settings.Engine.TTMiB > 0 {
		sum.SoundCheck = CheckBounds
	}
	ref := -1 // the first sound algorithm, the reference of the check
	for ai, algo := range algos {
		if !algo.Sound() {
			continue
		}
		sum.SoundAlgos++
		if ref < 0 && sum.SoundCheck == CheckAgree {
			ref = ai
			continue
		}
		for pi, pos := range suite {
			p := b.Suite[pos-1]
			for di, d := range depths {
				v := points[ai][pi][di].score
				if sum.SoundCheck == CheckBounds {
					if !(v >= search.L && v <= search.U) {
						sum.Disagreements = append(sum.Disagreements, Disagreement{Position: pos, Line: p.Line, Depth: d,
							Algo: algo.String(), Score: v, Ref: "bound", RefScore: math.Copysign(1, v)})
					}
					continue
				}
				w := points[ref][pi][di].score
				if !(math.Abs(v-w) <= SoundTolerance) {
					sum.Disagreements = append(sum.Disagreements, Disagreement{Position: pos, Line: p.Line, Depth: d,
						Algo: algo.String(), Score: v, Ref: algos[ref].String(), RefScore: w})
				}
			}
		}
	}
	sum.SoundAgree = len(sum.Disagreements) == 0
	return sum
}

func floats(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return math.NaN()
	}
	return a / b
}

// distribution returns min, max, mean, median and sample standard deviation
// of xs; NaN where xs is too small to have them.
func distribution(xs []float64) Dist {
	nan := runs.Num(math.NaN())
	d := Dist{Min: nan, Max: nan, Mean: nan, Median: nan, Std: nan}
	n := len(xs)
	if n == 0 {
		return d
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	d.Min, d.Max = runs.Num(s[0]), runs.Num(s[n-1])
	d.Mean = runs.Num(stat.Mean(s, nil))
	d.Median = runs.Num(median(s))
	if n > 1 {
		d.Std = runs.Num(stat.StdDev(s, nil))
	}
	return d
}

// median returns the middle value of sorted, or the mean of the two middle
// values for an even count (stat.Quantile with stat.Empirical would return
// the lower of the two).
func median(sorted []float64) float64 {
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

// FormatCount formats a count or a time as the bench's tables print it:
// "-" when undefined or unbounded, otherwise as fmtNum does.
func FormatCount(x runs.Num) string { return fmtNum(x) }

// fmtNum formats a count or a time as the thesis does: whole below 1e5,
// three significant digits in e-notation from there, like 3.58e+06.
func fmtNum(x runs.Num) string {
	f := float64(x)
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		return "-"
	case math.Abs(f) >= 1e5:
		return strconv.FormatFloat(f, 'e', 2, 64)
	case math.Abs(f) >= 100 || f == math.Trunc(f):
		return strconv.FormatFloat(f, 'f', 0, 64)
	default:
		return strconv.FormatFloat(f, 'g', 3, 64)
	}
}

func fmtRatio(x runs.Num) string {
	f := float64(x)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "-"
	}
	return strconv.FormatFloat(f, 'f', 3, 64)
}

// WriteText writes the summary as the thesis's tables, one block per depth.
func (sum *Summary) WriteText(w io.Writer) {
	fmt.Fprintf(w, "bench: %d positions of %s, engine %s, fresh table per position\n", sum.Positions, sum.Suite, sum.Engine)
	fmt.Fprintf(w, "run directory %s\n", sum.RunDir)
	for _, bd := range sum.Results {
		fmt.Fprintf(w, "\nDepth %d", bd.Depth)
		if bd.EndedBefore > 0 {
			fmt.Fprintf(w, " (%d of %d positions end sooner and are searched to the end)", bd.EndedBefore, sum.Positions)
		}
		fmt.Fprintln(w)
		writeDepth(w, bd)
	}
	fmt.Fprintln(w)
	switch {
	case sum.SoundAlgos < 2:
		fmt.Fprintln(w, "fewer than two sound algorithms: no agreement to check")
	case sum.SoundAgree && sum.SoundCheck == CheckBounds:
		fmt.Fprintf(w, "sound algorithms' scores within [-1, 1] on all %d positions x %d depths; not compared with each other: in %s a position recurs at other depths of one search, and with the table on a value stored at one depth answers another (-tt 0 compares them to 1e-9)\n",
			sum.Positions, len(sum.Depths), sum.Game)
	case sum.SoundAgree:
		fmt.Fprintf(w, "sound algorithms agree on all %d positions x %d depths (to 1e-9)\n", sum.Positions, len(sum.Depths))
	default:
		fmt.Fprintf(w, "sound algorithms DISAGREE %d times:\n", len(sum.Disagreements))
		for _, d := range sum.Disagreements {
			fmt.Fprintf(w, "  position %d (line %d) depth %d: %s %.12f, %s %.12f\n", d.Position, d.Line, d.Depth, d.Ref, d.RefScore, d.Algo, d.Score)
		}
	}
}

// writeDepth writes the tables of one depth: each measure's distribution
// per algorithm, the nodes per second and the ratios of mean nodes.
func writeDepth(w io.Writer, bd DepthSummary) {
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', tabwriter.AlignRight)
	// Blank lines keep every cell, so that all the blocks share columns.
	blank := func() { fmt.Fprintln(tw, strings.Repeat("\t", len(bd.Algos)+1)) }
	header := func(title string) {
		fmt.Fprintf(tw, "%s\t", title)
		for _, a := range bd.Algos {
			fmt.Fprintf(tw, "%s\t", a.Algo)
		}
		fmt.Fprintln(tw)
	}
	rows := func(get func(a AlgoSummary) (Dist, bool)) {
		for _, r := range []struct {
			name string
			val  func(Dist) runs.Num
		}{
			{"min", func(d Dist) runs.Num { return d.Min }},
			{"max", func(d Dist) runs.Num { return d.Max }},
			{"mean", func(d Dist) runs.Num { return d.Mean }},
			{"median", func(d Dist) runs.Num { return d.Median }},
			{"std", func(d Dist) runs.Num { return d.Std }},
		} {
			fmt.Fprintf(tw, "%s\t", r.name)
			for _, a := range bd.Algos {
				if d, ok := get(a); ok {
					fmt.Fprintf(tw, "%s\t", fmtNum(r.val(d)))
				} else {
					fmt.Fprint(tw, "-\t")
				}
			}
			fmt.Fprintln(tw)
		}
	}
	// Each measure, and at the thesis's depth the thesis's figure of it.
	for _, m := range []struct {
		title, thesis string
		pick          func(nodes, timeMS Dist) Dist
	}{
		{"nodes", "thesis fig. 5.2", func(nodes, _ Dist) Dist { return nodes }},
		{"time (ms)", "thesis fig. 5.5", func(_, timeMS Dist) Dist { return timeMS }},
	} {
		header(m.title)
		rows(func(a AlgoSummary) (Dist, bool) { return m.pick(a.Nodes, a.TimeMS), true })
		blank()
		if bd.Depth == ThesisDepth {
			header(m.thesis)
			rows(func(a AlgoSummary) (Dist, bool) { t, ok := Thesis[a.Algo]; return m.pick(t.Nodes, t.TimeMS), ok })
			blank()
		}
	}
	fmt.Fprint(tw, "nodes/s\t")
	for _, a := range bd.Algos {
		fmt.Fprintf(tw, "%s\t", fmtNum(a.NodesPerS))
	}
	fmt.Fprintln(tw)
	blank()
	header("mean nodes, row/column")
	for _, a := range bd.Algos {
		fmt.Fprintf(tw, "%s\t", a.Algo)
		for _, b := range bd.Algos {
			fmt.Fprintf(tw, "%s\t", fmtRatio(a.RatioOfMeans[b.Algo]))
		}
		fmt.Fprintln(tw)
	}
	fmt.Fprintf(tw, "mean of ratios to %s\t", bd.Algos[0].Algo)
	for _, a := range bd.Algos {
		fmt.Fprintf(tw, "%s\t", fmtRatio(a.MeanRatio))
	}
	fmt.Fprintln(tw)
	tw.Flush()
	for _, line := range strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n") {
		fmt.Fprintln(w, strings.TrimRight(line, " "))
	}
}

// options returns the options of c in the spec grammar, without the
// algorithm: "eval=pairs,tt=64".
func options(c search.Config) string {
	_, opts, _ := strings.Cut(c.String(), ":")
	return opts
}
