package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"starlab/search"
	"starlab/search/dice"
)

// engineFlags are the flags every command that builds an engine shares.
type engineFlags struct {
	algo     string
	eval     string
	net      string
	ttMiB    int
	probcut  string
	t        float64
	r        int
	k        int
	etcDepth int
	cpcMin   int
	cpcMax   int
}

func (f *engineFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.algo, "algo", "staretc", "algorithm: "+strings.Join(search.AlgorithmNames, ", "))
	fs.StringVar(&f.eval, "eval", "pairs", "leaf evaluator: zero, pairs or mlp")
	fs.StringVar(&f.net, "net", "", "network weight file for -eval mlp")
	fs.IntVar(&f.ttMiB, "tt-mb", 64, "transposition table size in MiB")
	fs.StringVar(&f.probcut, "probcut", "", "ChanceProbCut parameter file (default: built-in defaults, not fitted)")
	fs.Float64Var(&f.t, "t", search.DefaultProbCutT, "ChanceProbCut bound width in sigmas")
	fs.IntVar(&f.r, "r", search.DefaultProbCutR, "ChanceProbCut depth reduction R")
	fs.IntVar(&f.k, "k", search.DefaultProbingFactor, "Star2 probing factor (moves probed per chance event)")
	fs.IntVar(&f.etcDepth, "etc-min-depth", search.DefaultETCMinDepth, "smallest chance-node depth for StarETC successor probing")
	fs.IntVar(&f.cpcMin, "cpc-min-depth", 0, "smallest chance-node depth where ChanceProbCut applies (0 = R+1)")
	fs.IntVar(&f.cpcMax, "cpc-max-depth", 0, "largest chance-node depth where ChanceProbCut applies (0 = no limit)")
}

// options checks the flags and returns the engine options they describe.
func (f *engineFlags) options() (search.Options, error) {
	algo, err := search.ParseAlgorithm(f.algo)
	if err != nil {
		return search.Options{}, usageError{"-algo: " + err.Error()}
	}
	if f.net != "" && f.eval != "mlp" {
		return search.Options{}, usagef("-net %s needs -eval mlp", f.net)
	}
	ev, err := search.NewEvaluator(f.eval)
	if err != nil {
		return search.Options{}, usageError{"-eval: " + err.Error()}
	}
	if f.ttMiB < 1 {
		return search.Options{}, usagef("-tt-mb %d: want at least 1", f.ttMiB)
	}
	if f.k < 1 {
		return search.Options{}, usagef("-k %d: want at least 1", f.k)
	}
	if f.r < 1 {
		return search.Options{}, usagef("-r %d: want at least 1", f.r)
	}
	if !(f.t >= 0) {
		return search.Options{}, usagef("-t %v: want a non-negative number", f.t)
	}
	if f.etcDepth < 1 {
		return search.Options{}, usagef("-etc-min-depth %d: want at least 1", f.etcDepth)
	}
	if f.cpcMin < 0 || f.cpcMax < 0 || (f.cpcMax > 0 && f.cpcMax < f.cpcMin) {
		return search.Options{}, usagef("-cpc-min-depth %d -cpc-max-depth %d: want 0 <= min <= max (0 = default)", f.cpcMin, f.cpcMax)
	}
	opt := search.Options{Algorithm: algo, Eval: ev, TTMiB: f.ttMiB, ProbingFactor: f.k, ETCMinDepth: f.etcDepth,
		ProbCut: search.ProbCutOptions{R: f.r, T: f.t, MinDepth: f.cpcMin, MaxDepth: f.cpcMax}}
	if f.probcut != "" {
		p, err := search.LoadProbCut(f.probcut)
		if err != nil {
			return search.Options{}, err
		}
		opt.ProbCut.Params = p
	}
	return opt, nil
}

func init() {
	var (
		ef       engineFlags
		depth    int
		nodes    int64
		moveTime time.Duration
		asJSON   bool
	)
	register(&Command{
		Name:      "search",
		UsageLine: "search [flags] DPN",
		Short:     "search a position by iterative deepening and print each iteration",
		Long: `Search searches a position with one of the *-minimax algorithms by
iterative deepening and prints, deepest first, the thesis table: Depth, Score
(for the side to move, in [-1, 1]), Nodes (cumulative over the iterations),
Time (seconds) and Best move (empty at a chance-node root, before the roll).

Depth counts chance plies and move plies alike. Limits combine: the search
stops at -depth, after -nodes nodes or after -movetime, whichever comes first,
and reports the last completed iteration. With no limit it searches to the
end of the game.

With -json it prints one JSON object per completed iteration as it completes,
with the fields depth, score, nodes, time_ms, best_move and the cut-off
statistics.`,
		SetFlags: func(fs *flag.FlagSet) {
			ef.register(fs)
			fs.IntVar(&depth, "depth", 0, "deepest iteration in plies (0 = no depth limit)")
			fs.Int64Var(&nodes, "nodes", 0, "node budget (0 = none)")
			fs.DurationVar(&moveTime, "movetime", 0, "time budget, e.g. 500ms (0 = none)")
			fs.BoolVar(&asJSON, "json", false, "print one JSON object per iteration")
		},
		Run: func(ctx context.Context, env *Env, args []string) error {
			if len(args) == 0 {
				return usagef("missing DPN")
			}
			if depth < 0 {
				return usagef("-depth %d: want 0 or more", depth)
			}
			if nodes < 0 {
				return usagef("-nodes %d: want 0 or more", nodes)
			}
			if moveTime < 0 {
				return usagef("-movetime %v: want 0 or more", moveTime)
			}
			opt, err := ef.options()
			if err != nil {
				return err
			}
			b, err := dice.ParseDPN(strings.Join(args, " "))
			if err != nil {
				return err
			}
			if b.Over() {
				return fmt.Errorf("position %q is over: nothing to search", b.DPN())
			}
			e := search.NewEngine(opt)
			enc := json.NewEncoder(env.Stdout)
			began := time.Now()
			res := e.Search(ctx, b, search.Limits{Depth: depth, Nodes: nodes, MoveTime: moveTime}, func(it search.Iteration) {
				if asJSON {
					_ = enc.Encode(iterationJSON(it, b.N()))
				}
			})
			if asJSON {
				return nil
			}
			fmt.Fprintf(env.Stdout, "%s, eval %s, %s\n\n", opt.Algorithm, opt.Eval.Name(), b.DPN())
			tw := tabwriter.NewWriter(env.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
			fmt.Fprintln(tw, "Depth\tScore\tNodes\tTime\tBest move\t")
			for i := len(res.Iterations) - 1; i >= 0; i-- {
				it := res.Iterations[i]
				fmt.Fprintf(tw, "%d\t%.6f\t%d\t%.3f\t%s\t\n", it.Depth, it.Score, it.Nodes, it.Time.Seconds(), moveName(it.BestMove, b.N()))
			}
			tw.Flush()
			wall := time.Since(began)
			last := res.Last()
			s := last.Stats
			el := last.Time.Seconds()
			fmt.Fprintf(env.Stdout, "\n%.0f nodes/s", float64(last.Nodes)/max(el, 1e-9))
			if res.Stopped {
				fmt.Fprintf(env.Stdout, "; stopped by a limit after %.1f ms, the deepest completed iteration is shown", float64(wall.Microseconds())/1000)
			}
			fmt.Fprintf(env.Stdout, "\ncut-offs: alpha-beta %d, table at move nodes %d, table at chance nodes %d, successor probing %d, star2 probe %d, star1 %d, cpc %d\n",
				s.AlphaBeta, s.TTCutMove, s.TTCutChance, s.ETCCut, s.Star2Cut, s.Star1Cut, s.CPCCut)
			return nil
		},
	})
}

func moveName(cell, n int) string {
	if cell < 0 {
		return ""
	}
	return dice.FormatMove(cell, n)
}

type iterJSON struct {
	Depth     int     `json:"depth"`
	Score     float64 `json:"score"`
	Nodes     int64   `json:"nodes"`
	TimeMS    float64 `json:"time_ms"`
	BestMove  string  `json:"best_move"`
	NodesPerS float64 `json:"nodes_per_s"`
	Cutoffs   struct {
		AlphaBeta   int64 `json:"alpha_beta"`
		TTMove      int64 `json:"tt_move"`
		TTChance    int64 `json:"tt_chance"`
		Successor   int64 `json:"successor_probe"`
		Star2Probe  int64 `json:"star2_probe"`
		Star1       int64 `json:"star1"`
		ChanceProbC int64 `json:"cpc"`
	} `json:"cutoffs"`
}

func iterationJSON(it search.Iteration, n int) iterJSON {
	j := iterJSON{Depth: it.Depth, Score: it.Score, Nodes: it.Nodes, TimeMS: float64(it.Time.Microseconds()) / 1000, BestMove: moveName(it.BestMove, n)}
	j.NodesPerS = float64(it.Nodes) / max(it.Time.Seconds(), 1e-9)
	s := it.Stats
	c := &j.Cutoffs
	c.AlphaBeta, c.TTMove, c.TTChance, c.Successor, c.Star2Probe, c.Star1, c.ChanceProbC = s.AlphaBeta, s.TTCutMove, s.TTCutChance, s.ETCCut, s.Star2Cut, s.Star1Cut, s.CPCCut
	return j
}
