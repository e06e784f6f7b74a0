package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"starlab/runs"
	"starlab/search"
	"starlab/search/game"
)

// searchFlags are the search command's engine and flag values, which its
// setFlags resets before every run.
type searchFlags struct {
	spec     search.Spec
	asJSON   bool
	gameName string
}

// searchCommand returns the search command, with its own flag state.
func searchCommand() *Command {
	return command(&searchFlags{}, &Command{
		UsageLine: "search [-game G] [flags] POSITION",
		Short:     "search a position by iterative deepening and print each iteration",
		Long: `Search searches a position with one of the *-minimax algorithms by
iterative deepening and prints, deepest first, the thesis table: Depth, Score
(for the side to move, in [-1, 1]), Nodes (cumulative over the iterations),
Time (seconds) and Best move (empty at a chance-node root, before the roll).

The position is in the notation of the game (-game, dice by default: DPN).
Limits combine: the search stops at -depth, after -nodes nodes or after
-movetime, whichever comes first, and reports the last completed iteration.
With no limit it searches to the end of the game. -eval defaults to mlp,
or to the game's hand evaluator in a game without built-in nets (toy:
race). How -depth counts plies is the game's:

` + depthCounting() + `

The engine flags are the keys of a match variant, with the same names,
defaults and checks: -algo staretc -depth 9 -tt 4 is the variant
staretc:depth=9,tt=4. An option the algorithm does not read is refused, and
so is -r without -multi 0 (the chapter's configuration of ChanceProbCut is
-algo cpc -multi 0 -r 4 -cpcmin 8 -cpcmax 11).

With -json it prints one JSON object per completed iteration as it completes,
with the fields depth, score, nodes, time_ms, best_move, nodes_per_s and the
cut-off counts (alpha_beta, tt_cut_move, tt_cut_chance, etc_cut, star2_cut,
star1_cut, cpc_cut).`,
	})
}

// setFlags resets the engine to the game g's defaults and declares the
// search command's flags on fs.
func (f *searchFlags) setFlags(fs *flag.FlagSet, g search.Kit) {
	f.spec = search.Spec{Config: g.Config(search.StarETC)}
	search.RegisterFlags(fs, &f.spec)
	gameFlag(fs, &f.gameName)
	fs.BoolVar(&f.asJSON, "json", false, "print one JSON object per iteration")
}

// run is the search command: the position searched by iterative deepening
// with the engine of the flags, each iteration printed.
func (f *searchFlags) run(ctx context.Context, env *Env, args []string) error {
	g, err := lookupGame(f.gameName)
	if err != nil {
		return err
	}
	if len(args) == 0 {
		return usagef("missing the position to search")
	}
	if err := search.CheckFlags(env.Flags, &f.spec, f.spec.Algorithm); err != nil {
		return runs.Usage(err)
	}
	res, err := f.spec.Config.Resolve()
	if err != nil {
		return err
	}
	b, err := g.Parse(strings.Join(args, " "))
	if err != nil {
		return runs.Usage(err)
	}
	if b.Kind() == game.Over {
		return usagef("position %q is over: nothing to search", b)
	}
	if err := g.Check(res, b); err != nil {
		return runs.Usage(err)
	}
	e := g.NewEngine(res)
	enc := json.NewEncoder(env.Stdout)
	began := time.Now()
	r := e.Search(ctx, b, f.spec.Limits, func(it search.Iteration) {
		if f.asJSON {
			_ = enc.Encode(iterationJSON(it, g, b))
		}
	})
	if f.asJSON {
		return nil
	}
	fmt.Fprintf(env.Stdout, "%s\n", f.spec.Config)
	if f.spec.Algorithm.Techniques().ProbCut {
		fmt.Fprintf(env.Stdout, "ChanceProbCut parameters: %s\n", g.ProbCutSource(res, b))
	}
	fmt.Fprintf(env.Stdout, "%s\n\n", b)
	tw := tabwriter.NewWriter(env.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "Depth\tScore\tNodes\tTime\tBest move\t")
	for i := len(r.Iterations) - 1; i >= 0; i-- {
		it := r.Iterations[i]
		fmt.Fprintf(tw, "%d\t%s\t%d\t%.3f\t%s\t\n", it.Depth, runs.Num(it.Score).Format("%.6f"), it.Nodes, it.Time.Seconds(), moveName(g, b, it.BestMove))
	}
	tw.Flush()
	last := r.Last()
	fmt.Fprintf(env.Stdout, "\n%.0f nodes/s", float64(last.Nodes)/max(last.Time.Seconds(), 1e-9))
	if r.Stopped {
		fmt.Fprintf(env.Stdout, "; stopped by a limit after %.1f ms, the deepest completed iteration is shown", float64(time.Since(began).Microseconds())/1000)
	}
	fmt.Fprintf(env.Stdout, "\ncut-offs: %s\n", last.Stats.Cutoffs())
	return nil
}

// moveName returns a search's best move of root in the game's notation,
// "" when there is none (a chance-node root).
func moveName(g search.Kit, root game.State, m int) string {
	if m < 0 {
		return ""
	}
	return g.FormatMove(root, game.Move(m))
}

type iterJSON struct {
	Depth     int            `json:"depth"`
	Score     float64        `json:"score"`
	Nodes     int64          `json:"nodes"`
	TimeMS    float64        `json:"time_ms"`
	BestMove  string         `json:"best_move"`
	NodesPerS float64        `json:"nodes_per_s"`
	Cutoffs   search.Cutoffs `json:"cutoffs"`
}

func iterationJSON(it search.Iteration, g search.Kit, root game.State) iterJSON {
	return iterJSON{Depth: it.Depth, Score: it.Score, Nodes: it.Nodes, TimeMS: float64(it.Time.Microseconds()) / 1000,
		BestMove: moveName(g, root, it.BestMove), NodesPerS: float64(it.Nodes) / max(it.Time.Seconds(), 1e-9), Cutoffs: it.Stats.Cutoffs()}
}

// depthCounting says, for every game, whether a search's depth counts
// chance nodes as plies (game.CountsChance).
func depthCounting() string {
	var says []string
	for _, g := range allGames() {
		if g.CountsChance() {
			says = append(says, "  -game "+g.Name()+": chance plies and move plies alike")
		} else {
			says = append(says, "  -game "+g.Name()+": decisions only; a chance node adds no ply")
		}
	}
	return strings.Join(says, "\n")
}
