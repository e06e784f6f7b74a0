package main

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"starlab/runs"
	"starlab/runs/pipeline"
	"starlab/search"
	"starlab/search/games"
)

// pipelineFlags are the run command's flag values, which its setFlags
// resets before every run.
type pipelineFlags struct {
	outputFlags
}

// pipelineCommand returns the pipeline command, with its own flag state.
func pipelineCommand() *Command {
	return command(&pipelineFlags{}, &Command{
		UsageLine: "run [-out DIR] [-json] [RECIPE]",
		Short:     "run a recipe end to end: train, collect, fit, matches, report",
		Long: `Run runs a recipe's stages in process, each in a numbered sub-directory of
one run directory, in this order, each if the recipe has it: train a net by
self-play, collect paired searches (with that net) and fit ChanceProbCut's
parameters, bench the algorithms, tune t, play the matches; then it writes
report.html. The default recipe trains, fits and plays in a few minutes;
paper-5x5 (not timed end to end: its tune alone comes to
about 15 minutes on two cores) and paper-11x11 (many hours: a
cluster or a night) reproduce the papers' Dice tables, paper-breakthrough
(an hour and a half) the chapter's ChanceBreakthrough tables, and
backgammon (21 minutes on two cores) trains, fits, benches, tunes and
plays backgammon. RECIPE is the name of a
built-in recipe (` + strings.Join(pipeline.Names(), ", ") + `) or a path to a recipe
file (JSON, format "starlab-recipe/2", naming its "game" and "variant"; a
"starlab-recipe/1" file, Dice's with "n" and "m", is read too); without it, ` + pipeline.DefaultRecipe + `.

Every problem of the recipe a check can see (its settings, match names,
luck references, the suites, nets and parameter files it names) is
reported before the run directory is made. Match names are directory
names: letters, digits, '.', '-' and '_'.

Run again after a kill or Ctrl-C, it finds the unfinished run of the same
recipe under out/ (or in -out DIR) and finishes it: stages that are done
are not redone, the stage that was cut resumes. The same recipe means the
same name and the same content: the run's manifest records the recipe as
resolved, and a recipe changed since (any field, defaults filled in) is
never finished with the old run's stages. Without -out a new run starts
and a line names the old one and the fields that changed; with -out DIR
holding the old run, it is refused (give another -out). It ends with a
summary (the net's score, the fit, the bench and tune figures beside the
papers', each match with its intervals) and the path of the report.`,
		Interspersed: true,
	})
}

// setFlags declares the run command's flags on fs.
func (f *pipelineFlags) setFlags(fs *flag.FlagSet, _ search.Kit) {
	f.outputFlags.set(fs, "run directory (default: the unfinished run of the recipe, or a new one under out/)", "", "print the result as JSON")
}

// run is the run command: the recipe loaded and checked, the run to finish
// found, pipeline.Run into it, the summary printed.
func (f *pipelineFlags) run(ctx context.Context, env *Env, args []string) error {
	name := pipeline.DefaultRecipe
	switch len(args) {
	case 0:
	case 1:
		name = args[0]
	default:
		return usagef("give one recipe")
	}
	recipe, err := pipeline.LoadRecipe(name, games.Lookup)
	if err != nil {
		return runs.Usage(err)
	}
	if err := recipe.Check(); err != nil {
		return runs.Usagef("recipe %s: %v", name, err)
	}
	if err := recipe.StartOutsiders(ctx); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("interrupted while starting the engines; nothing was written")
		}
		return runs.Usagef("recipe %s: %v", name, err)
	}
	found, err := pipeline.FindRun("out", f.out, recipe)
	if err != nil {
		return err
	}
	if found.Dir != "" {
		f.out = ""
	}
	g := recipe.Kit
	run, resumed, err := runs.Start("out", f.out, found.Dir, "run", env.Args, recipe, recipe.Seed)
	if err != nil {
		return err
	}
	recipe.Kit = g // a resumed run's recipe is read back from its manifest, which names the same game
	switch {
	case resumed:
		fmt.Fprintf(env.Stderr, "starlab run: finishing the unfinished %s run %s\n", recipe.Name, run.Dir())
	case found.Stale != "":
		fmt.Fprintf(env.Stderr, "starlab run: recipe %s changed (%s) since the unfinished run %s started; starting a new run %s\n",
			recipe.Name, strings.Join(found.Changes, ", "), found.Stale, run.Dir())
	}
	var res *pipeline.Result
	kept := "finished stages are kept: run starlab run -out " + run.Dir() + " " + name + " again to finish it"
	err = runStage(env, run, "", f.asJSON, kept, func(p runs.Progress) (err error) {
		res, err = pipeline.Run(ctx, recipe, run, p)
		return err
	})
	if err != nil {
		return err
	}
	return f.print(env, res, res.WriteSummary)
}
