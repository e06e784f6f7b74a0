package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/parquet-go/parquet-go"
	"gonum.org/v1/gonum/stat"

	"starlab/runs"
	"starlab/search"
)

// defaultBenchSuite is the suite bench measures when none is named; the path
// is relative to the working directory (the module root for "go run").
const defaultBenchSuite = "search/testdata/dice5x5-4.suite"

// benchFormat versions bench.parquet (key-value metadata "starlab.format")
// and summary.json (field "format").
const benchFormat = "starlab-bench/1"

// benchSoundTolerance is how far apart the sound algorithms' scores may be.
const benchSoundTolerance = 1e-9

// benchRow is one row of bench.parquet: one algorithm on one position, as
// measured at the iteration of one requested depth.
type benchRow struct {
	Algo     string `parquet:"algo"`
	Position int32  `parquet:"position"` // 1-based index in the suite (after -limit)
	DPN      string `parquet:"dpn"`
	Depth    int32  `parquet:"depth"` // requested depth
	// SearchedDepth is the depth of the iteration recorded: Depth, or less
	// when every line of the game ends sooner (search.MaxDepth).
	SearchedDepth int32   `parquet:"searched_depth"`
	Nodes         int64   `parquet:"nodes"`   // cumulative over iterations 1..SearchedDepth
	TimeMS        float64 `parquet:"time_ms"` // cumulative, from the start of the search
	Score         float64 `parquet:"score"`   // for the side to move
	NodesPerS     float64 `parquet:"nodes_per_s"`
	Sound         bool    `parquet:"sound"`
	// Cut-off statistics, cumulative like Nodes (see search.Stats).
	AlphaBeta   int64 `parquet:"alpha_beta"`
	TTCutMove   int64 `parquet:"tt_cut_move"`
	TTCutChance int64 `parquet:"tt_cut_chance"`
	ETCCut      int64 `parquet:"etc_cut"`
	Star2Cut    int64 `parquet:"star2_cut"`
	Star1Cut    int64 `parquet:"star1_cut"`
	CPCCut      int64 `parquet:"cpc_cut"`
}

// benchSettings is the resolved configuration, recorded in the manifest.
type benchSettings struct {
	Suite       string   `json:"suite"`
	Positions   int      `json:"positions"`
	Limit       int      `json:"limit"`
	Algos       []string `json:"algos"`
	Depths      []int    `json:"depths"`
	Eval        string   `json:"eval"`
	Net         string   `json:"net,omitempty"`
	TTMiB       int      `json:"tt_mib"`
	K           int      `json:"k"`
	ETCMinDepth int      `json:"etc_min_depth"`
	ProbCut     string   `json:"probcut,omitempty"`
	T           float64  `json:"t"`
	R           int      `json:"r"`
}

// benchDist summarises one measure over the positions, as in the thesis's
// figures 5.2 and 5.5.
type benchDist struct {
	Min    runs.Num `json:"min"`
	Max    runs.Num `json:"max"`
	Mean   runs.Num `json:"mean"`
	Median runs.Num `json:"median"`
	Std    runs.Num `json:"std"`
}

// benchAlgo is one algorithm's summary at one depth.
type benchAlgo struct {
	Algo        string    `json:"algo"`
	Sound       bool      `json:"sound"`
	Nodes       benchDist `json:"nodes"`
	TimeMS      benchDist `json:"time_ms"`
	TotalNodes  int64     `json:"total_nodes"`
	TotalTimeMS float64   `json:"total_time_ms"`
	NodesPerS   runs.Num  `json:"nodes_per_s"` // total nodes / total time
	// MeanRatio is the mean over positions of this algorithm's nodes over
	// the first algorithm's.
	MeanRatio runs.Num `json:"mean_ratio_vs_first"`
	// RatioOfMeans maps each algorithm to this one's mean nodes over its.
	RatioOfMeans map[string]runs.Num `json:"ratio_of_means"`
}

// benchDepth is the summary at one requested depth.
type benchDepth struct {
	Depth int `json:"depth"`
	// EndedBefore counts the positions whose every line ends before Depth,
	// searched to the end instead.
	EndedBefore int         `json:"ended_before"`
	Algos       []benchAlgo `json:"algos"`
}

// benchDisagreement is a sound algorithm whose score differs from the first
// sound algorithm's.
type benchDisagreement struct {
	Position int     `json:"position"`
	Line     int     `json:"line"`
	Depth    int     `json:"depth"`
	Algo     string  `json:"algo"`
	Score    float64 `json:"score"`
	Ref      string  `json:"ref"`
	RefScore float64 `json:"ref_score"`
}

// benchSummary is summary.json and the -json output.
type benchSummary struct {
	Format    string       `json:"format"`
	Suite     string       `json:"suite"`
	Positions int          `json:"positions"`
	Algos     []string     `json:"algos"`
	Depths    []int        `json:"depths"`
	Eval      string       `json:"eval"`
	TTMiB     int          `json:"tt_mib"`
	RunDir    string       `json:"run_dir"`
	Median    string       `json:"median_definition"`
	Std       string       `json:"std_definition"`
	Results   []benchDepth `json:"results"`
	// SoundAlgos counts the sound algorithms compared; with fewer than two
	// there is nothing to compare and SoundAgree is trivially true.
	SoundAlgos    int                 `json:"sound_algos"`
	SoundAgree    bool                `json:"sound_agree"`
	Disagreements []benchDisagreement `json:"disagreements"`
}

// benchPoint is one algorithm on one position at one requested depth.
type benchPoint struct {
	searched int
	nodes    int64
	time     time.Duration
	score    float64
	stats    search.Stats
}

func init() {
	var (
		ef        engineFlags
		algosFlag string
		depthFlag string
		limit     int
		out       string
		asJSON    bool
	)
	register(&Command{
		Name:      "bench",
		UsageLine: "bench [-algos A,B,...] [-depths D,E,...] [-limit N] [-out DIR] [-json] [engine flags] [SUITE]",
		Short:     "measure nodes and time to depth of several algorithms on a suite",
		Long: `Bench measures the *-minimax algorithms against each other, as in the
thesis's section 5 (figures 5.2 and 5.5): each algorithm of -algos searches
each position of SUITE (default ` + defaultBenchSuite + `, relative
to the working directory; -limit N keeps its first N) with an empty table by
iterative deepening to the deepest of -depths. For each requested depth it
records the nodes and the time to the end of that iteration, cumulative over
the iterations as in the thesis, with the score and cut-off statistics. A
position whose every line ends sooner is searched to the end of the game and
its last iteration stands for the deeper depths.

It prints, per depth, min, max, mean, median (the mean of the two middle
values for an even count) and sample standard deviation over the positions
of the nodes (like 3.58e+06) and of the time in milliseconds per algorithm,
the nodes per second (total nodes over total time), the ratios of the mean
nodes of each algorithm to each other (row over column) and the mean over
the positions of each algorithm's nodes over the first algorithm's. Last it
checks that the sound algorithms (all but cpc) agree on every score to 1e-9,
and fails if they do not. With -json it prints the summary as one JSON
object instead.

Everything goes to a run directory (-out DIR, default a new one under out/):
manifest.json; bench.parquet, one row per algorithm, position (1-based) and
depth with the columns algo, position, dpn, depth, searched_depth, nodes,
time_ms, score, nodes_per_s, sound and the cut-off counts alpha_beta,
tt_cut_move, tt_cut_chance, etc_cut, star2_cut, star1_cut, cpc_cut; and
summary.json, the object -json prints. A progress bar goes to stderr when it
is a terminal. The engine flags are those of search, but for -algo.`,
		SetFlags: func(flags *flag.FlagSet) {
			// The shared engine flags but -algo: bench takes a list instead.
			all := flag.NewFlagSet("engine", flag.ContinueOnError)
			ef.register(all)
			all.VisitAll(func(f *flag.Flag) {
				if f.Name != "algo" {
					flags.Var(f.Value, f.Name, f.Usage)
				}
			})
			flags.StringVar(&algosFlag, "algos", "expectimax,star1,star2,staretc", "comma-separated algorithms to compare: "+strings.Join(search.AlgorithmNames, ", "))
			flags.StringVar(&depthFlag, "depths", "9,11,13", "comma-separated depths in plies to record")
			flags.IntVar(&limit, "limit", 0, "use only the first N positions (0 = all)")
			flags.StringVar(&out, "out", "", "run directory (default: a new one under out/)")
			flags.BoolVar(&asJSON, "json", false, "print the summary as one JSON object instead of tables")
		},
		Run: func(ctx context.Context, env *Env, args []string) error {
			if len(args) > 1 {
				return usagef("want at most one SUITE, got %q", strings.Join(args, " "))
			}
			algos, err := parseAlgoList(algosFlag)
			if err != nil {
				return err
			}
			depths, err := parseDepthList(depthFlag)
			if err != nil {
				return err
			}
			if limit < 0 {
				return usagef("-limit %d: want 0 (all) or more", limit)
			}
			base, err := ef.options()
			if err != nil {
				return err
			}
			path := defaultBenchSuite
			if len(args) == 1 {
				path = args[0]
			} else if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("default suite %s not found: run from the module root or name a SUITE", path)
			}
			suite, err := search.ReadSuite(path)
			if err != nil {
				return err
			}
			if limit > 0 && limit < len(suite) {
				suite = suite[:limit]
			}
			set := benchSettings{Suite: path, Positions: len(suite), Limit: limit, Depths: depths,
				Eval: ef.eval, Net: ef.net, TTMiB: ef.ttMiB, K: ef.k, ETCMinDepth: ef.etcDepth, ProbCut: ef.probcut, T: ef.t, R: ef.r}
			for _, a := range algos {
				set.Algos = append(set.Algos, a.String())
			}
			cmdline := env.Args
			var run *runs.Run
			if out == "" {
				run, err = runs.Create("out", "bench", cmdline, set, 0)
			} else {
				run, err = runs.CreateAt(out, "bench", cmdline, set, 0)
			}
			if err != nil {
				return err
			}
			err = bench(ctx, env, run, base, algos, depths, suite, set, asJSON)
			if ferr := run.Finish(err); err == nil {
				err = ferr
			}
			return err
		},
	})
}

// parseAlgoList parses -algos: distinct algorithm names, comma-separated.
func parseAlgoList(s string) ([]search.Algorithm, error) {
	var algos []search.Algorithm
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			return nil, usagef("-algos %q: empty algorithm name", s)
		}
		a, err := search.ParseAlgorithm(name)
		if err != nil {
			return nil, usageError{"-algos: " + err.Error()}
		}
		if slices.Contains(algos, a) {
			return nil, usagef("-algos %q: %s given twice", s, name)
		}
		algos = append(algos, a)
	}
	return algos, nil
}

// parseDepthList parses -depths: positive depths, comma-separated; it
// returns them sorted and without repeats.
func parseDepthList(s string) ([]int, error) {
	var depths []int
	for _, f := range strings.Split(s, ",") {
		d, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || d < 1 {
			return nil, usagef("-depths %q: %q is not a positive depth", s, strings.TrimSpace(f))
		}
		depths = append(depths, d)
	}
	slices.Sort(depths)
	return slices.Compact(depths), nil
}

// bench measures, writes the artifacts and prints the summary. It returns
// an error if the sound algorithms disagree, after writing everything.
func bench(ctx context.Context, env *Env, run *runs.Run, base search.Options, algos []search.Algorithm, depths []int, suite []search.SuitePosition, set benchSettings, asJSON bool) error {
	points, err := benchMeasure(ctx, env, base, algos, depths, suite, asJSON)
	if err != nil {
		return err
	}
	rows := benchRows(points, algos, depths, suite)
	if err := run.WriteArtifact("bench.parquet", func(w io.Writer) error {
		return parquet.Write(w, rows, parquet.KeyValueMetadata("starlab.format", benchFormat), parquet.Compression(&parquet.Snappy))
	}); err != nil {
		return err
	}
	sum := benchSummarize(points, algos, depths, suite, set, run.Dir())
	data, err := json.MarshalIndent(sum, "", "  ")
	if err != nil {
		return fmt.Errorf("encode summary: %v", err)
	}
	if err := run.WriteArtifact("summary.json", func(w io.Writer) error {
		_, err := w.Write(append(data, '\n'))
		return err
	}); err != nil {
		return err
	}
	if asJSON {
		if err := json.NewEncoder(env.Stdout).Encode(sum); err != nil {
			return err
		}
	} else {
		printBench(env.Stdout, sum)
	}
	if !sum.SoundAgree {
		d := sum.Disagreements[0]
		return fmt.Errorf("sound algorithms disagree %d times, first on position %d (line %d) at depth %d: %s %.12f, %s %.12f",
			len(sum.Disagreements), d.Position, d.Line, d.Depth, d.Ref, d.RefScore, d.Algo, d.Score)
	}
	return nil
}

// benchMeasure searches every position with every algorithm, each with an
// empty table, and returns points[algo][position][depth].
func benchMeasure(ctx context.Context, env *Env, base search.Options, algos []search.Algorithm, depths []int, suite []search.SuitePosition, quiet bool) ([][][]benchPoint, error) {
	bar := newProgress(env.Stderr, int64(len(algos)*len(suite)), "bench", quiet)
	deepest := depths[len(depths)-1]
	points := make([][][]benchPoint, len(algos))
	for ai, algo := range algos {
		opt := base
		opt.Algorithm = algo
		e := search.NewEngine(opt)
		bar.Describe(fmt.Sprintf("%-10s", algo))
		points[ai] = make([][]benchPoint, len(suite))
		for pi, p := range suite {
			if err := ctx.Err(); err != nil {
				stopProgress(bar)
				return nil, err
			}
			e.ClearTT()
			res := e.Search(ctx, p.Board, search.Limits{Depth: deepest}, nil)
			if err := ctx.Err(); err != nil {
				stopProgress(bar)
				return nil, err
			}
			if res.Stopped || len(res.Iterations) == 0 {
				stopProgress(bar)
				return nil, fmt.Errorf("%s on position %d (line %d): the search stopped early", algo, pi+1, p.Line)
			}
			ps := make([]benchPoint, len(depths))
			for di, d := range depths {
				// The deepest iteration not beyond d: d itself unless
				// the search ended at search.MaxDepth before it.
				var it search.Iteration
				for _, x := range res.Iterations {
					if x.Depth <= d {
						it = x
					}
				}
				ps[di] = benchPoint{searched: it.Depth, nodes: it.Nodes, time: it.Time, score: it.Score, stats: it.Stats}
			}
			points[ai][pi] = ps
			_ = bar.Add(1)
		}
	}
	_ = bar.Finish()
	return points, nil
}

func benchRows(points [][][]benchPoint, algos []search.Algorithm, depths []int, suite []search.SuitePosition) []benchRow {
	rows := make([]benchRow, 0, len(algos)*len(suite)*len(depths))
	for ai, algo := range algos {
		for pi, p := range suite {
			dpn := p.Board.DPN()
			for di, d := range depths {
				pt := points[ai][pi][di]
				s := pt.stats
				ms := durationMS(pt.time)
				rows = append(rows, benchRow{
					Algo: algo.String(), Position: int32(pi + 1), DPN: dpn, Depth: int32(d), SearchedDepth: int32(pt.searched),
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

func benchSummarize(points [][][]benchPoint, algos []search.Algorithm, depths []int, suite []search.SuitePosition, set benchSettings, dir string) benchSummary {
	sum := benchSummary{
		Format: benchFormat, Suite: set.Suite, Positions: len(suite), Algos: set.Algos, Depths: depths,
		Eval: set.Eval, TTMiB: set.TTMiB, RunDir: dir,
		Median:        "middle value of the sorted sample; the mean of the two middle values for an even count",
		Std:           "sample standard deviation (divisor n-1)",
		Disagreements: []benchDisagreement{},
	}
	for di, d := range depths {
		bd := benchDepth{Depth: d}
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
			ba := benchAlgo{Algo: algo.String(), Sound: algo.Sound(), Nodes: distribution(nodes[ai]), TimeMS: distribution(times)}
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

	ref := -1 // the first sound algorithm, the reference of the check
	for ai, algo := range algos {
		if !algo.Sound() {
			continue
		}
		sum.SoundAlgos++
		if ref < 0 {
			ref = ai
			continue
		}
		for pi, p := range suite {
			for di, d := range depths {
				v, w := points[ai][pi][di].score, points[ref][pi][di].score
				if !(math.Abs(v-w) <= benchSoundTolerance) {
					sum.Disagreements = append(sum.Disagreements, benchDisagreement{Position: pi + 1, Line: p.Line, Depth: d,
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
func distribution(xs []float64) benchDist {
	nan := runs.Num(math.NaN())
	d := benchDist{Min: nan, Max: nan, Mean: nan, Median: nan, Std: nan}
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

func printBench(w io.Writer, sum benchSummary) {
	fmt.Fprintf(w, "bench: %d positions of %s, eval %s, table %d MiB, fresh table per position\n", sum.Positions, sum.Suite, sum.Eval, sum.TTMiB)
	fmt.Fprintf(w, "run directory %s\n", sum.RunDir)
	for _, bd := range sum.Results {
		fmt.Fprintf(w, "\nDepth %d", bd.Depth)
		if bd.EndedBefore > 0 {
			fmt.Fprintf(w, " (%d of %d positions end sooner and are searched to the end)", bd.EndedBefore, sum.Positions)
		}
		fmt.Fprintln(w)
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
		rows := func(get func(a benchAlgo) benchDist) {
			for _, r := range []struct {
				name string
				val  func(benchDist) runs.Num
			}{
				{"min", func(d benchDist) runs.Num { return d.Min }},
				{"max", func(d benchDist) runs.Num { return d.Max }},
				{"mean", func(d benchDist) runs.Num { return d.Mean }},
				{"median", func(d benchDist) runs.Num { return d.Median }},
				{"std", func(d benchDist) runs.Num { return d.Std }},
			} {
				fmt.Fprintf(tw, "%s\t", r.name)
				for _, a := range bd.Algos {
					fmt.Fprintf(tw, "%s\t", fmtNum(r.val(get(a))))
				}
				fmt.Fprintln(tw)
			}
		}
		header("nodes")
		rows(func(a benchAlgo) benchDist { return a.Nodes })
		blank()
		header("time (ms)")
		rows(func(a benchAlgo) benchDist { return a.TimeMS })
		blank()
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
	fmt.Fprintln(w)
	switch {
	case sum.SoundAlgos < 2:
		fmt.Fprintln(w, "fewer than two sound algorithms: no agreement to check")
	case sum.SoundAgree:
		fmt.Fprintf(w, "sound algorithms agree on all %d positions x %d depths (to 1e-9)\n", sum.Positions, len(sum.Depths))
	default:
		fmt.Fprintf(w, "sound algorithms DISAGREE %d times:\n", len(sum.Disagreements))
		for _, d := range sum.Disagreements {
			fmt.Fprintf(w, "  position %d (line %d) depth %d: %s %.12f, %s %.12f\n", d.Position, d.Line, d.Depth, d.Ref, d.RefScore, d.Algo, d.Score)
		}
	}
}
