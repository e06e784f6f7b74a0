package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// architecturePage is the page whose tables state the import rules: the
// one source of them, so that the page and this test cannot disagree.
const architecturePage = "../../docs/architecture.md"

// TestArchitecture holds every package of the module to the import rules
// of docs/architecture.md: the layers table (each package's layer, and the
// layers and packages a layer may import) and the edges table (the single
// imports beyond them: a game's engine importing its own game, and the
// exceptions). It fails naming an import the tables do not allow, a
// package they do not place or that no longer exists, and an edge the
// code no longer has or the layers already allow.
func TestArchitecture(t *testing.T) {
	page, err := os.ReadFile(architecturePage)
	if err != nil {
		t.Fatal(err)
	}
	rules, err := parseRules(page)
	if err != nil {
		t.Fatalf("%s: %v", architecturePage, err)
	}
	imports := moduleImports(t)
	for _, problem := range rules.check(imports) {
		t.Error(problem)
	}
}

// TestArchitectureRefuses: the check names an import its tables forbid,
// a package they do not place and an edge that is no longer needed, on a
// small made-up module, so that TestArchitecture's passing means something.
func TestArchitectureRefuses(t *testing.T) {
	page := "<!-- checked: layers -->\n" +
		"| layer | packages | may import |\n|---|---|---|\n" +
		"| base | `a` | — |\n" +
		"| games | `g` `h` | base |\n" +
		"| top | `c` | base |\n" +
		"\n<!-- checked: edges -->\n" +
		"| from | to | kind | why |\n|---|---|---|---|\n" +
		"| `c` | `h` | exception | a reason |\n"
	rules, err := parseRules([]byte(page))
	if err != nil {
		t.Fatal(err)
	}
	imports := map[string][]string{
		"a": nil,
		"g": {"a", "h"}, // same layer, not named
		"h": {"a"},
		"c": {"a", "g"}, // g is in no layer c may import; the edge c -> h is not used
		"x": nil,        // in no layer
	}
	got := strings.Join(rules.check(imports), "\n")
	for _, want := range []string{
		"g imports h:",
		"c imports g:",
		"x is in no layer",
		"edge c -> h: the code has no such import",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("check gave\n%s\nwant a line with %q", got, want)
		}
	}

	for _, bad := range []string{
		// a layer that names a layer below it in the table
		"<!-- checked: layers -->\n| layer | packages | may import |\n|---|---|---|\n| a | `a` | b |\n| b | `b` | — |\n<!-- checked: edges -->\n",
		// a package in two layers
		"<!-- checked: layers -->\n| layer | packages | may import |\n|---|---|---|\n| a | `a` | — |\n| b | `a` | — |\n<!-- checked: edges -->\n",
		// no edges table
		"<!-- checked: layers -->\n| layer | packages | may import |\n|---|---|---|\n| a | `a` | — |\n",
	} {
		if _, err := parseRules([]byte(bad)); err == nil {
			t.Errorf("parseRules accepted\n%s", bad)
		}
	}
}

// layerRule is one row of the layers table.
type layerRule struct {
	name     string
	index    int             // its row, from 0 at the bottom of the stack
	packages []string        // its packages, by path below the module
	allowed  map[string]bool // the packages its packages may import
	says     string          // the row's "may import", for messages
}

// edgeRule is one row of the edges table.
type edgeRule struct {
	from, to, kind string
}

// archRules are the two tables of the page.
type archRules struct {
	layers []*layerRule
	layer  map[string]*layerRule // by package
	edges  []edgeRule
}

// parseRules reads the tables that follow the markers
// "<!-- checked: layers -->" and "<!-- checked: edges -->" in page.
// Packages are written in backquotes, by path below the module; layer
// names without; "—" is none.
func parseRules(page []byte) (*archRules, error) {
	layerRows, err := tableAfter(page, "<!-- checked: layers -->", 3)
	if err != nil {
		return nil, err
	}
	edgeRows, err := tableAfter(page, "<!-- checked: edges -->", 4)
	if err != nil {
		return nil, err
	}
	r := &archRules{layer: map[string]*layerRule{}}
	byName := map[string]*layerRule{}
	for i, row := range layerRows {
		l := &layerRule{name: row[0], index: i, allowed: map[string]bool{}, says: row[2]}
		if l.name == "" || strings.ContainsAny(l.name, "` ") {
			return nil, fmt.Errorf("layers table, row %d: %q is not a layer name", i+1, row[0])
		}
		if byName[l.name] != nil {
			return nil, fmt.Errorf("layers table: layer %s twice", l.name)
		}
		if l.packages, err = packageList(row[1]); err != nil || len(l.packages) == 0 {
			return nil, fmt.Errorf("layers table, layer %s: packages %q: want packages in backquotes", l.name, row[1])
		}
		for _, p := range l.packages {
			if other := r.layer[p]; other != nil {
				return nil, fmt.Errorf("layers table: %s is in layers %s and %s", p, other.name, l.name)
			}
			r.layer[p] = l
		}
		byName[l.name] = l
		r.layers = append(r.layers, l)
	}
	for _, l := range r.layers {
		if r.layer[l.name] != nil {
			return nil, fmt.Errorf("layers table: %s is both a layer and a package", l.name)
		}
		if strings.TrimSpace(l.says) == "—" {
			continue
		}
		for _, item := range strings.Split(l.says, ",") {
			item = strings.TrimSpace(item)
			if p, ok := strings.CutPrefix(item, "`"); ok && strings.HasSuffix(p, "`") {
				p = strings.TrimSuffix(p, "`")
				target := r.layer[p]
				if target == nil || target.index > l.index {
					return nil, fmt.Errorf("layers table, layer %s: package %s is not in its row or an earlier one", l.name, p)
				}
				l.allowed[p] = true
				continue
			}
			target := byName[item]
			if target == nil || target.index >= l.index {
				return nil, fmt.Errorf("layers table, layer %s: %q is not a layer earlier in the table", l.name, item)
			}
			for _, p := range target.packages {
				l.allowed[p] = true
			}
		}
	}
	for i, row := range edgeRows {
		from, err1 := packageList(row[0])
		to, err2 := packageList(row[1])
		if err1 != nil || err2 != nil || len(from) != 1 || len(to) != 1 {
			return nil, fmt.Errorf("edges table, row %d: want one package in backquotes in from and in to", i+1)
		}
		e := edgeRule{from: from[0], to: to[0], kind: row[2]}
		if e.kind != "own game" && e.kind != "exception" {
			return nil, fmt.Errorf("edges table, %s -> %s: kind %q, want \"own game\" or \"exception\"", e.from, e.to, e.kind)
		}
		if strings.TrimSpace(row[3]) == "" {
			return nil, fmt.Errorf("edges table, %s -> %s: no reason given", e.from, e.to)
		}
		lf, lt := r.layer[e.from], r.layer[e.to]
		if lf == nil || lt == nil || lt.index >= lf.index {
			return nil, fmt.Errorf("edges table, %s -> %s: want two packages of the layers table, the second in a layer earlier in the table than the first's", e.from, e.to)
		}
		r.edges = append(r.edges, e)
	}
	return r, nil
}

// check returns one line per breach of the rules by imports (package ->
// the module's packages it imports, all by path below the module).
func (r *archRules) check(imports map[string][]string) []string {
	var problems []string
	pkgs := make([]string, 0, len(imports))
	for p := range imports {
		pkgs = append(pkgs, p)
	}
	slices.Sort(pkgs)
	edge := map[[2]string]bool{}
	for _, e := range r.edges {
		edge[[2]string{e.from, e.to}] = true
	}
	used := map[[2]string]bool{}
	for _, p := range pkgs {
		l := r.layer[p]
		if l == nil {
			problems = append(problems, fmt.Sprintf("%s is in no layer of %s: add it to the layers table", p, architecturePage))
			continue
		}
		for _, q := range imports[p] {
			switch {
			case q == p:
			case l.allowed[q]:
				if edge[[2]string{p, q}] {
					problems = append(problems, fmt.Sprintf("edge %s -> %s: layer %s allows it already; remove it from the edges table", p, q, l.name))
				}
				used[[2]string{p, q}] = true
			case edge[[2]string{p, q}]:
				used[[2]string{p, q}] = true
			default:
				where := "in no layer"
				if lq := r.layer[q]; lq != nil {
					where = "of layer " + lq.name
				}
				problems = append(problems, fmt.Sprintf("%s imports %s: %s (layer %s) may import %s, and %s is %s (%s)", p, q, p, l.name, l.says, q, where, architecturePage))
			}
		}
	}
	for _, e := range r.edges {
		if !used[[2]string{e.from, e.to}] {
			problems = append(problems, fmt.Sprintf("edge %s -> %s: the code has no such import; remove it from the edges table", e.from, e.to))
		}
	}
	for _, l := range r.layers {
		for _, p := range l.packages {
			if _, ok := imports[p]; !ok {
				problems = append(problems, fmt.Sprintf("%s, of layer %s, is no package of the module: remove it from the layers table", p, l.name))
			}
		}
	}
	return problems
}

// tableAfter returns the body rows of the Markdown table that starts on
// the line after marker, each with exactly columns cells, trimmed.
func tableAfter(page []byte, marker string, columns int) ([][]string, error) {
	at := bytes.Index(page, []byte(marker))
	if at < 0 {
		return nil, fmt.Errorf("no %s", marker)
	}
	sc := bufio.NewScanner(bytes.NewReader(page[at+len(marker):]))
	sc.Scan() // the rest of the marker's line
	var rows [][]string
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(line, "|") {
			break
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) != columns {
			return nil, fmt.Errorf("after %s: %q has %d cells, want %d", marker, line, len(cells), columns)
		}
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		rows = append(rows, cells)
	}
	if len(rows) < 3 {
		return nil, fmt.Errorf("after %s: no table with a header, its rule and a row", marker)
	}
	return rows[2:], nil // the header and its rule
}

// packageList reads the backquoted package paths of a cell, separated by
// spaces.
func packageList(cell string) ([]string, error) {
	var pkgs []string
	for _, w := range strings.Fields(cell) {
		p, ok := strings.CutPrefix(w, "`")
		if !ok || !strings.HasSuffix(p, "`") || len(p) < 2 {
			return nil, fmt.Errorf("%q is not a package in backquotes", w)
		}
		pkgs = append(pkgs, strings.TrimSuffix(p, "`"))
	}
	return pkgs, nil
}

// moduleImports lists, with go list, every package of the module and the
// module's packages its non-test files import, all by path below the
// module. go list marks the packages built with cmd/starlab's profile
// (default.pgo) with " [starlab/cmd/starlab]"; the mark is dropped.
func moduleImports(t *testing.T) map[string][]string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatal("no go command on PATH: the import rules are read from go list")
	}
	cmd := exec.Command(goTool, "list", "-json=ImportPath,Imports", "./...")
	cmd.Dir = "../.."
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.Bytes())
	}
	const module = "starlab"
	below := func(path string) (string, bool) {
		path, _, _ = strings.Cut(path, " ")
		if path == module {
			return ".", true
		}
		return strings.CutPrefix(path, module+"/")
	}
	imports := map[string][]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("go list: %v", err)
		}
		path, ok := below(p.ImportPath)
		if !ok {
			t.Fatalf("go list: %s is not of module %s", p.ImportPath, module)
		}
		imports[path] = []string{}
		for _, q := range p.Imports {
			if q, ok := below(q); ok {
				imports[path] = append(imports[path], q)
			}
		}
	}
	if len(imports) < 10 {
		t.Fatalf("go list gave %d packages: too few to be the module's", len(imports))
	}
	return imports
}
