package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"strings"

	"starlab/runs"
	"starlab/runs/pipeline"
)

func init() {
	var out string
	var asJSON bool
	register(&Command{
		Name:      "run",
		UsageLine: "run [-out DIR] [-json] [RECIPE]",
		Short:     "run a recipe end to end: train, collect, fit, matches, report",
		Long: `Run runs a recipe's stages in process, each in a numbered sub-directory of
one run directory, in this order, each if the recipe has it: train a net by
self-play, collect paired searches (with that net) and fit ChanceProbCut's
parameters, bench the algorithms, tune t, play the matches; then it writes
report.html. The default recipe trains, fits and plays; paper-5x5 and
paper-11x11 reproduce the papers' tables, and take hours. RECIPE is the name of a built-in recipe (` + strings.Join(pipeline.Names(), ", ") + `;
default ` + pipeline.DefaultRecipe + `) or a path to a recipe file (JSON, format
"starlab-recipe/1").

Run again after a kill or Ctrl-C, it finds the unfinished run of the same
recipe under out/ and finishes it: stages that are done are not redone,
the stage that was cut resumes. It ends with a summary (the net's score,
the fit, the bench and tune figures beside the papers', each match with its
intervals) and the path of the report.`,
		SetFlags: func(fs *flag.FlagSet) {
			out, asJSON = "", false
			fs.StringVar(&out, "out", "", "run directory (default: the unfinished run of the recipe, or a new one under out/)")
			fs.BoolVar(&asJSON, "json", false, "print the result as JSON")
		},
		Run: func(ctx context.Context, env *Env, args []string) error {
			name := pipeline.DefaultRecipe
			switch len(args) {
			case 0:
			case 1:
				name = args[0]
			default:
				return usagef("give one recipe")
			}
			recipe, err := pipeline.LoadRecipe(name)
			if err != nil {
				return err
			}
			// The run to finish: -out's, if it is an unfinished run of
			// this recipe; without -out, the newest such run under out/.
			sameRecipe := func(d string) bool {
				r, err := runs.Open(d)
				if err != nil || r.Manifest().Command != "run" || r.Manifest().Status == runs.StatusDone {
					return false
				}
				var got pipeline.Recipe
				return json.Unmarshal(r.Manifest().Settings, &got) == nil && got.Name == recipe.Name
			}
			resume := ""
			if out != "" {
				if sameRecipe(out) {
					resume, out = out, ""
				} else if r, err := runs.Open(out); err == nil && r.Manifest().Status != runs.StatusDone {
					return fmt.Errorf("-out %s holds an unfinished starlab %s, not one of recipe %s; finish it with its own command, or give another -out", out, r.Manifest().Command, recipe.Name)
				}
			} else {
				dirs, err := runs.FindUnfinished("out", "run")
				if err != nil {
					return err
				}
				for _, d := range dirs {
					if sameRecipe(d) {
						resume = d
						break
					}
				}
			}
			run, resumed, err := runs.Start("out", out, resume, "run", env.Args, recipe, recipe.Seed)
			if err != nil {
				return err
			}
			if resumed {
				fmt.Fprintf(env.Stderr, "starlab run: finishing the unfinished %s run %s\n", recipe.Name, run.Dir())
			}
			var res *pipeline.Result
			kept := "finished stages are kept: run starlab run " + name + " again to finish " + run.Dir()
			err = runStage(env, run, "", asJSON, kept, func(p runs.Progress) (err error) {
				res, err = pipeline.Run(ctx, recipe, run, func(stage string, done, total int64, status string) {
					p(done, total, strings.TrimSpace(stage+" "+status))
				})
				return err
			})
			if err != nil {
				return err
			}
			if asJSON {
				return json.NewEncoder(env.Stdout).Encode(res)
			}
			res.WriteSummary(env.Stdout)
			return nil
		},
	})
}
