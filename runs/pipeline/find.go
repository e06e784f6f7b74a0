package pipeline

import (
	"encoding/json"
	"strings"

	"starlab/runs"
)

// Found is the run FindRun found for a recipe.
type Found struct {
	// Dir is the unfinished run of the recipe to finish, "" for none.
	Dir string
	// Stale, when Dir is "", is the newest unfinished run of a recipe of
	// the same name that has changed since it started, and Changes the
	// recipe's fields that changed: a new run starts beside it.
	Stale   string
	Changes []string
}

// FindRun finds the run starlab run finishes for the recipe r: with out
// given, the unfinished run in out if it is of the same recipe (same name
// and the same content, as Changes compares them); without it, the newest
// unfinished run under root of the same recipe that no process holds. A
// run whose recipe has changed since it started is never finished with
// the new recipe: in out it is refused, under root a new run starts and
// Found names the old one. An unfinished run in out of another command or
// another recipe is refused.
func FindRun(root, out string, r *Recipe) (Found, error) {
	// changes reports whether run is an unfinished run of a recipe of r's
	// name (ours), and how r differs from its recipe.
	changes := func(run *runs.Run) (c []string, ours bool) {
		m := run.Manifest()
		var got struct {
			Name string `json:"name"`
		}
		if m.Command != "run" || m.Status == runs.StatusDone || json.Unmarshal(m.Settings, &got) != nil || got.Name != r.Name {
			return nil, false
		}
		c, err := r.Changes(m.Settings)
		return c, err == nil
	}
	if out != "" {
		run, err := runs.Open(out)
		if err != nil || run.Manifest().Status == runs.StatusDone {
			return Found{}, nil // a new run in out, or the error of making it
		}
		c, ours := changes(run)
		switch {
		case !ours:
			return Found{}, runs.Usagef("-out %s holds an unfinished starlab %s, not one of recipe %s; finish it with its own command, or give another -out", out, run.Manifest().Command, r.Name)
		case len(c) > 0:
			return Found{}, runs.Usagef("-out %s holds an unfinished run of recipe %s as it was before changes to %s; it is not finished with the changed recipe: give another -out to start afresh", out, r.Name, strings.Join(c, ", "))
		}
		return Found{Dir: out}, nil
	}
	dirs, err := runs.FindUnfinished(root, "run")
	if err != nil {
		return Found{}, err
	}
	var f Found
	for _, d := range dirs {
		run, err := runs.Open(d)
		if err != nil {
			continue
		}
		if c, ours := changes(run); ours && len(c) == 0 {
			return Found{Dir: d}, nil
		} else if ours && f.Stale == "" {
			f.Stale, f.Changes = d, c
		}
	}
	return f, nil
}
