package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"

	"starlab/runs"
	"starlab/search"
	"starlab/search/game"
)

// evalFlags are the eval command's flag values, which its setFlags resets
// before every run.
type evalFlags struct {
	evals, net, suite, gameName string
	depth                       int
	asJSON                      bool
}

// evalCommand returns the eval command, with its own flag state.
func evalCommand() *Command {
	return command(&evalFlags{}, &Command{
		UsageLine: "eval [-game G] [-eval mlp,pairs,...] [-net FILE] [-depth D] [-json] POSITION... | eval -suite FILE",
		Short:     "print what each evaluator thinks of positions",
		Long: `Eval prints the static value of each position (each argument one DPN, or
every position of -suite) under each evaluator of -eval, from the side to
move's view in [-1, 1], and with -depth D also its value searched to D plies
by staretc with that evaluator (D at most the game's depth bound for the
positions, past which no search of them goes). mlp uses -net FILE, a weight file from
starlab train, or else the built-in net of the board size. A finished position has its rules' value. With -json it
prints one object per position: {"dpn": "...", "pairs": 0.12, "mlp": 0.31},
with "pairs_d5" and so on for the searched values. -game plays another
game's positions, in its notation ("position" in place of "dpn"); -eval
defaults to mlp and the game's hand evaluator (pairs in Dice, material in
ChanceBreakthrough), and to the hand evaluator alone in a game without
built-in nets unless -net names one (toy: race).

A suite whose every position has its exact value (gen -exact writes them)
is a benchmark of judgement: eval then reports each column's mean absolute
error against the exact values with its standard error, and that of the
best constant guess (the values' median); with -json each position's
object has "exact" and a last object "exact_error" lists the errors.`,
	})
}

// setFlags declares the eval command's flags on fs.
func (f *evalFlags) setFlags(fs *flag.FlagSet, _ search.Kit) {
	gameFlag(fs, &f.gameName)
	fs.StringVar(&f.evals, "eval", "", "comma-separated evaluators: "+strings.Join(search.EvaluatorNames(), ", ")+" (default: mlp and the game's hand evaluator)")
	fs.StringVar(&f.net, "net", "", "weight file of the mlp evaluator")
	fs.StringVar(&f.suite, "suite", "", "evaluate every position of this suite file")
	fs.IntVar(&f.depth, "depth", 0, "also search each position to this depth (0 = static only)")
	fs.BoolVar(&f.asJSON, "json", false, "print one JSON object per position")
}

// run is the eval command: each position's value under each evaluator,
// static and searched, printed, and against a suite's exact values each
// column's error.
func (f *evalFlags) run(ctx context.Context, env *Env, args []string) error {
	g, err := lookupGame(f.gameName)
	if err != nil {
		return err
	}
	if f.evals == "" { // the hand evaluator, and mlp where it has a net to read
		f.evals = g.HandEval
		if g.Eval() == "mlp" || f.net != "" {
			f.evals = "mlp," + f.evals
		}
	}
	key, head := strings.ToLower(g.NotationName()), strings.ToUpper(g.NotationName())
	boards, exact, err := evalPositions(g, f.suite, args, head)
	if err != nil {
		return err
	}
	if f.depth < 0 || f.depth > search.MaxDepthLimit {
		return usagef("-depth %d: want 0 to %d", f.depth, search.MaxDepthLimit)
	}
	if err := search.CheckDepth(g, "-depth", f.depth, boards); err != nil {
		return runs.Usage(err)
	}
	if f.net != "" && !slices.Contains(strings.Split(f.evals, ","), "mlp") {
		return usagef("-net is the mlp evaluator's, and -eval %s has no mlp", f.evals)
	}
	names, engines, err := evalEngines(g, f.evals, f.net, boards)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 0, 2, ' ', 0)
	if !f.asJSON {
		fmt.Fprintf(tw, "%s", strings.Join(names, "\t"))
		if f.depth > 0 {
			for _, n := range names {
				fmt.Fprintf(tw, "\t%s d%d", n, f.depth)
			}
		}
		fmt.Fprintln(tw, "\t"+head)
	}
	colNames := slices.Clone(names) // each column's name, and its values for the judgement
	if f.depth > 0 {
		for _, n := range names {
			colNames = append(colNames, fmt.Sprintf("%s_d%d", n, f.depth))
		}
	}
	cols := make([][]float64, len(colNames))
	for bi, b := range boards {
		obj := map[string]any{key: b.String()}
		if exact != nil {
			obj["exact"] = exact[bi]
		}
		cells := evalRow(ctx, b, names, engines, f.depth, obj, cols)
		if f.asJSON {
			if err := json.NewEncoder(env.Stdout).Encode(obj); err != nil {
				return err
			}
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\n", strings.Join(cells, "\t"), b.String())
	}
	if err := tw.Flush(); err != nil || exact == nil {
		return err
	}
	return writeJudgement(env, colNames, cols, exact, f.asJSON)
}

// evalPositions returns the positions to evaluate: the suite's, with its
// exact values when every position has one, or the arguments', each one
// position in the game's notation (head names it).
func evalPositions(g search.Kit, suite string, args []string, head string) ([]game.State, []float64, error) {
	var boards []game.State
	var exact []float64 // the suite's exact values, when every position has one
	switch {
	case suite != "" && len(args) > 0:
		return nil, nil, usagef("give positions or -suite, not both")
	case suite != "":
		ps, err := search.ReadSuite(g, suite)
		if err != nil {
			return nil, nil, runs.Usage(err)
		}
		for _, p := range ps {
			boards = append(boards, p.Pos)
			if p.HasExact {
				exact = append(exact, p.Exact)
			}
		}
		if len(exact) != len(ps) {
			exact = nil
		}
	case len(args) == 0:
		return nil, nil, usagef("missing %s (each argument one position, quoted) or -suite FILE", head)
	}
	for _, a := range args {
		b, err := g.Parse(a)
		if err != nil {
			return nil, nil, usagef("%v (each argument is one whole position; quote it)", err)
		}
		boards = append(boards, b)
	}
	return boards, exact, nil
}

// evalEngines returns an engine of each evaluator of evals (mlp with the
// net in file net, "" for the built-in one), checked on every position of
// boards, and the evaluators' names.
func evalEngines(g search.Kit, evals, net string, boards []game.State) ([]string, []search.Engine, error) {
	var names []string
	var engines []search.Engine
	for _, name := range strings.Split(evals, ",") {
		spec, err := search.ParseSpec("staretc:eval=" + name)
		if err != nil {
			return nil, nil, usagef("-eval: %v", err)
		}
		if name == "mlp" {
			spec.Net = net
		}
		r, err := spec.Config.Resolve()
		if err != nil {
			return nil, nil, err
		}
		for _, b := range boards {
			if err := g.Check(r, b); err != nil {
				return nil, nil, runs.Usage(err)
			}
		}
		names = append(names, name)
		engines = append(engines, g.NewEngine(r))
	}
	return names, engines, nil
}

// evalRow returns the table's cells of position b: its value under each
// engine, static, then searched to depth (0: not searched), each also put
// in obj, the JSON object, and appended to its column of cols.
func evalRow(ctx context.Context, b game.State, names []string, engines []search.Engine, depth int, obj map[string]any, cols [][]float64) []string {
	var cells []string
	for i, e := range engines {
		var v float64
		if b.Kind() == game.Over {
			v = b.Result()
		} else {
			v = e.Evaluate(b)
		}
		obj[names[i]] = v
		cols[i] = append(cols[i], v)
		cells = append(cells, runs.Num(v).Format("%+.4f"))
	}
	for i, e := range engines {
		if depth == 0 {
			break
		}
		e.ClearTT()
		v := e.Search(ctx, b, search.Limits{Depth: depth}, nil).Last().Score
		obj[fmt.Sprintf("%s_d%d", names[i], depth)] = v
		cols[len(names)+i] = append(cols[len(names)+i], v)
		cells = append(cells, runs.Num(v).Format("%+.4f"))
	}
	return cells
}

// writeJudgement writes, against the suite's exact values, each column's
// mean absolute error with its standard error, and the best constant's.
func writeJudgement(env *Env, colNames []string, cols [][]float64, exact []float64, asJSON bool) error {
	var judged []search.Judgement
	for i, n := range colNames {
		judged = append(judged, search.Judge(n, cols[i], exact))
	}
	c := search.BestConstant(exact)
	flat := make([]float64, len(exact))
	for i := range flat {
		flat[i] = c
	}
	judged = append(judged, search.Judge(fmt.Sprintf("constant %+.4f", c), flat, exact))
	if asJSON {
		return json.NewEncoder(env.Stdout).Encode(map[string]any{"exact_error": judged})
	}
	fmt.Fprintf(env.Stdout, "\nmean absolute error against the suite's exact values, ± its standard error, over %d positions:\n", len(exact))
	tw := tabwriter.NewWriter(env.Stdout, 0, 0, 2, ' ', 0)
	for _, j := range judged {
		fmt.Fprintf(tw, "  %s\t%.4f ± %.4f\n", j.Name, j.MAE, j.SE)
	}
	fmt.Fprintln(tw, "  (the constant is the exact values' median, the constant of least error, fitted on these positions)")
	return tw.Flush()
}
