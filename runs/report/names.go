package report

import (
	"path/filepath"
	"regexp"
	"strings"

	"starlab/regression"
	"starlab/runs"
	"starlab/search"
	"starlab/td"
)

// namer gives variant specs and texts short names in place of the paths
// they hold: a pipeline's products by their names in the recipe ({net},
// {probcut}), other files by their base names, and paths into a stage's
// directory from the stage's directory on.
type namer struct {
	products map[string]string // stage/file -> {net} or {probcut}
	stages   []*regexp.Regexp  // a path through a stage's directory
}

// newNamer knows the products of the train and fit stages among dirs. A
// run whose manifest does not read names nothing: its section says why.
func newNamer(dirs []string) *namer {
	n := &namer{products: map[string]string{}}
	for _, d := range dirs {
		run, err := runs.Open(d)
		if err != nil {
			continue
		}
		base := filepath.Base(filepath.Clean(d))
		switch run.Manifest().Command {
		case "train":
			n.products[base+"/"+td.BestFile] = "{net}"
		case "fit":
			n.products[base+"/"+regression.ProbCutFile] = "{probcut}"
		case "run":
			continue
		}
		n.stages = append(n.stages, regexp.MustCompile(`[^\s,=()"']*/(`+regexp.QuoteMeta(base)+`)\b`))
	}
	return n
}

// path is the short name of a path in a spec.
func (n *namer) path(p string) string {
	p = filepath.ToSlash(filepath.Clean(p))
	for suffix, name := range n.products {
		if p == suffix || strings.HasSuffix(p, "/"+suffix) {
			return name
		}
	}
	return filepath.Base(p)
}

// probcutSource shortens where ChanceProbCut parameters come from: the
// file of "FILE: its source" as path does; the built-in fit and the
// defaults, which name no file of the run, stay as they are.
func (n *namer) probcutSource(src string) string {
	file, rest, ok := strings.Cut(src, ": ")
	if strings.HasPrefix(src, "built-in fit ") || !ok {
		return src
	}
	return n.path(file) + ": " + rest
}

// spec shortens the paths among a spec's options (name:key=value,...).
func (n *namer) spec(spec string) string {
	return search.MapSpecFiles(spec, func(v string) string {
		if strings.Contains(v, "/") {
			return n.path(v)
		}
		return v
	})
}

// specs shortens each spec; specs whose short names would coincide keep
// their full names.
func (n *namer) specs(specs []string) []string {
	short := make([]string, len(specs))
	count := map[string]map[string]bool{}
	for i, s := range specs {
		short[i] = n.spec(s)
		if count[short[i]] == nil {
			count[short[i]] = map[string]bool{}
		}
		count[short[i]][s] = true
	}
	for i, s := range specs {
		if len(count[short[i]]) > 1 {
			short[i] = s
		}
	}
	return short
}

// text writes each path through a stage's directory from that directory
// on (1-train/best.json).
func (n *namer) text(t string) string {
	for _, re := range n.stages {
		t = re.ReplaceAllString(t, "$1")
	}
	return t
}
