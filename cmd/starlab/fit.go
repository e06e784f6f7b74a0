package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"starlab/regression"
	"starlab/runs"
	"starlab/search"
	"starlab/search/games"
)

// fitFlags are the fit command's settings and flag values, which its
// setFlags resets before every run.
type fitFlags struct {
	outputFlags
	set regression.FitSettings
}

// fitCommand returns the fit command, with its own flag state.
func fitCommand() *Command {
	return command(&fitFlags{}, &Command{
		UsageLine: "fit [-game G] [flags] PARQUET|RUN... [-out DIR]",
		Short:     "fit ChanceProbCut's a, b and sigma per depth pair from collect rows",
		Long: `Fit reads the rows of starlab collect (Parquet files, or collect run
directories), all of one game, variant, evaluator and net (the rows name
them; -game G refuses rows of another game), and fits v_deep = a*v_shallow + b by least squares for every depth
pair (Schadd et al. 2009, equations 5.6 and 5.7), over all rows and over
-bands bands of game phases (Dice: checkers on the board) that have at
least -min-band rows. Each fit is cross-validated over -folds folds of games, so
that no game is on both sides of a split; sigma is the largest of the fit's
residual deviation (divisor n-2), the cross-validated error, and
-sigma-floor.

It prints n, a, b, sigma, R² and the cross-validated error per pair and
band, and writes into the run directory probcut.json (the pairs over all
rows, with the game, variant, evaluator and net id they were fitted for;
cpc reads it with probcut=FILE and refuses it for another), fit.json (every line, bands
included, with the standard errors of a and b clustered by position) and
scatter-S-D.png and .svg, each pair's values with the fitted line, a and b
± their standard errors, and the band ± t sigma.

An input reached twice (a run directory given twice, or with one of its
own part files) is refused, as its rows would count twice, and so is a
collect run that is not done (killed, failed or still running), which has
only some of its rows: finish it with starlab collect -resume, or give
-partial to fit the rows it has. Every input is read and checked before
the run directory is made.`,
		Interspersed: true,
	})
}

// setFlags resets the settings to their defaults and declares the fit
// command's flags on fs.
func (f *fitFlags) setFlags(fs *flag.FlagSet, _ search.Kit) {
	f.set = regression.DefaultFitSettings()
	f.outputFlags.set(fs, newRunUsage, "", "print the fit as JSON")
	fs.StringVar(&f.set.GameName, "game", "", "the game the rows must be of: "+strings.Join(games.Names(), ", ")+" (default: the game the rows name)")
	fs.IntVar(&f.set.Folds, "folds", f.set.Folds, "cross-validation folds (grouped by game)")
	fs.Float64Var(&f.set.SigmaFloor, "sigma-floor", f.set.SigmaFloor, "least sigma written")
	fs.IntVar(&f.set.Bands, "bands", f.set.Bands, "bands of phases (Dice: checkers) fitted apart (0: none)")
	fs.IntVar(&f.set.MinBandRows, "min-band", f.set.MinBandRows, "fewest rows of a band fit")
	fs.Float64Var(&f.set.T, "t", f.set.T, "width of the band drawn, in sigmas")
	fs.BoolVar(&f.set.Partial, "partial", false, "fit the rows of a collect run that is not done")
}

// run is the fit command: the settings from the flags, regression.RunFit
// into a run directory, the result printed.
func (f *fitFlags) run(ctx context.Context, env *Env, args []string) error {
	if len(args) == 0 {
		return usagef("missing input: give collect Parquet files or run directories")
	}
	f.set.Inputs = args
	run, _, err := f.start(env, &f.set, 0, f.settings)
	if errors.Is(err, runs.ErrUnfinished) {
		if r, oerr := runs.Open(f.out); oerr == nil && r.Manifest().Command == "fit" {
			// fit has no -resume, which Start's message suggests:
			// it is quick to run again.
			return usagef("-out %s holds a fit that did not finish; fit has no resume: remove it, or give another -out", f.out)
		}
	}
	if err != nil {
		return err
	}
	var res regression.FitResult
	err = runStage(env, run, "", f.asJSON, "", func(p runs.Progress) (err error) {
		res, err = regression.RunFit(ctx, f.set, run, p)
		return err
	})
	if err != nil {
		return err
	}
	return f.print(env, res, func(w io.Writer) { writeFit(w, res, run.Path(regression.ProbCutFile)) })
}

// settings checks the settings the flags give.
func (f *fitFlags) settings(*Env) error {
	if f.set.GameName != "" {
		if _, err := lookupGame(f.set.GameName); err != nil {
			return err
		}
	}
	return f.set.Check()
}

// writeFit writes the fit's table, a line per pair and band, and the
// parameter file's path, which cpc reads.
func writeFit(w io.Writer, res regression.FitResult, probcut string) {
	net := ""
	if res.NetID != "" {
		net = ", net " + res.NetID
	}
	fmt.Fprintf(w, "fit: %s %s, eval=%s%s\n", res.Game, res.Variant, res.Eval, net)
	fmt.Fprintf(w, "%-7s %-7s %6s %6s %8s %8s %7s %7s %7s %7s\n", "pair", "band", "n", "games", "a", "b", "sigma", "fit σ", "cv rmse", "R²")
	for _, l := range res.Lines {
		f := func(x float64, format string) string { return runs.Num(x).Format(format) }
		fmt.Fprintf(w, "%-7s %-7s %6d %6d %s %s %s %s %s %7s\n",
			fmt.Sprintf("%d:%d", l.Shallow, l.Deep), l.Band, l.N, l.Games, f(l.A, "%8.4f"), f(l.B, "%8.4f"),
			f(l.Sigma, "%7.4f"), f(l.SigmaFit, "%7.4f"), f(l.CVRMSE, "%7.4f"), l.R2.Format("%.4f"))
	}
	fmt.Fprintf(w, "wrote %s (use cpc:probcut=%s)\n", probcut, probcut)
}
