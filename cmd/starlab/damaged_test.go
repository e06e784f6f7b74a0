package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// damage is one way of spoiling a file a command reads.
type damage struct {
	name string
	edit func(data []byte) []byte
}

// replace1 is a damage that replaces the first occurrence of old.
func replace1(name, old, new string) damage {
	return damage{name, func(d []byte) []byte { return bytes.Replace(d, []byte(old), []byte(new), 1) }}
}

// generic are the damages every kind of file gets.
var generic = []damage{
	{"truncated", func(d []byte) []byte { return d[:len(d)/2] }},
	{"empty", func([]byte) []byte { return nil }},
	{"binary garbage", func([]byte) []byte { return []byte("\x00\xff\xfe\x89PNG garbage\n\x01") }},
}

// copyTree copies the directory src to dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// unfinish marks the finished run in dir failed, so that -resume takes it.
func unfinish(t *testing.T, dir string, drop ...string) {
	t.Helper()
	p := filepath.Join(dir, "manifest.json")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, bytes.Replace(data, []byte(`"status": "done"`), []byte(`"status": "failed"`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range drop {
		os.Remove(filepath.Join(dir, f))
	}
}

// TestDamagedInputs: no input file edited by hand makes a command panic.
// For each kind of file a command reads (match journal record, manifest,
// train state, collect part file, net, probcut file, recipe, report plot;
// and the journal, games.parquet and bench.parquet, which the report reads
// whole though its page does not show them), a valid one made by the
// commands is damaged in several ways and the command that reads it is run
// as the CLI runs it; it must exit with one line on stderr naming the
// file.
//
// The exit code follows one rule: 2 when the damaged file is one the user
// named on the command line (a net or probcut file in a spec, a recipe),
// as for any bad input; 1 when it is a file starlab wrote into a run
// directory (journal, manifest, state, part file, plot), found damaged
// while working on that run, whether it resumes, merges, fits or reports
// it; 0 when the report can make its page without the file (a file the
// page does not show), the line then a warning.
func TestDamagedInputs(t *testing.T) {
	root := t.TempDir()
	at := func(name string) string { return filepath.Join(root, name) }
	must := func(args ...string) {
		t.Helper()
		if code, _, stderr := runCmd(t, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
	}
	match := []string{"match", "staretc:depth=1,eval=pairs", "staretc:depth=1,eval=zero", "-games", "4", "-seed", "3", "-luck", "none", "-concurrency", "1"}
	must(append(match, "-out", at("M"))...)
	must(append(match, "-shard", "0/2", "-out", at("S0"))...)
	must(append(match, "-shard", "1/2", "-out", at("S1"))...)
	must("train", "-games", "40", "-checkpoint", "20", "-measure-every", "20", "-measure-games", "2", "-out", at("T"))
	must("collect", "-count", "4", "-min", "5", "-max", "8", "-seed", "3", "-pairs", "1:3", "-chunk", "2", "-engine", "staretc:eval=pairs,tt=1", "-out", at("C"))
	must("fit", at("C"), "-folds", "2", "-bands", "0", "-out", at("F"))
	must("bench", "-depths", "1,3", "-limit", "2", "-out", at("B"), benchTestSuite)
	recipe, err := os.ReadFile("../../runs/pipeline/recipes/default.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(at("recipe.json"), recipe, 0o644); err != nil {
		t.Fatal(err)
	}
	part := filepath.Join("rows", "part-00000.parquet")
	if _, err := os.Stat(filepath.Join(at("C"), part)); err != nil {
		t.Fatal(err)
	}
	scatter, _ := filepath.Glob(filepath.Join(at("F"), "*.png"))
	if len(scatter) == 0 {
		t.Fatal("fit wrote no plot")
	}

	// journal damages edit the second line, the first record, and keep
	// its newline: a torn last line is what a kill leaves, not damage.
	journalLine := func(d damage) damage {
		return damage{d.name, func(data []byte) []byte {
			lines := bytes.SplitAfter(data, []byte("\n"))
			rec := bytes.TrimSuffix(lines[1], []byte("\n"))
			rec = d.edit(rec)
			if len(rec) == 0 {
				rec = []byte("{}")
			}
			lines[1] = append(bytes.ReplaceAll(rec, []byte("\n"), nil), '\n')
			return bytes.Join(lines, nil)
		}}
	}
	var journal, journalRecord []damage
	for _, d := range append([]damage{
		{"result 7", func(d []byte) []byte {
			i := regexp.MustCompile(`"result":-?\d`).FindIndex(d) // the first game's only
			return slices.Concat(d[:i[0]], []byte(`"result":7`), d[i[1]:])
		}},
		replace1("negative plies", `"plies":`, `"plies":-`),
		{"wrong type", func(d []byte) []byte { return regexp.MustCompile(`"plies":\d+`).ReplaceAll(d, []byte(`"plies":"12"`)) }},
		replace1("pairing out of range", `"pairing":0`, `"pairing":9`),
		replace1("huge luck", `"luck":0`, `"luck":1e999`),
		replace1("unknown field", `"pairing"`, `"x":1,"pairing"`),
	}, generic...) {
		journal = append(journal, journalLine(d))
	}
	// The report reads each record as one of the match's kind, and a
	// finished run's journal whole; what a record says is resume's and
	// merge's to check.
	for _, d := range journal {
		if d.name == "wrong type" || d.name == "unknown field" || d.name == "truncated" || d.name == "binary garbage" {
			journalRecord = append(journalRecord, damage{"record " + d.name, d.edit})
		}
	}
	jsonDamages := func(ds ...damage) []damage { return append(ds, generic...) }

	type kind struct {
		name    string
		base    string // file or run directory copied for each case
		file    string // the file damaged, relative to the copy ("" for base itself)
		code    int
		damages []damage
		prepare func(copy string) // before the damage
		args    func(copy string) []string
	}
	kinds := []kind{
		{"journal (resume)", at("M"), "pairs.jsonl", 1, journal,
			func(c string) { unfinish(t, c, "summary.json", "games.parquet") },
			func(c string) []string { return []string{"match", "-resume", c} }},
		{"journal (merge)", at("S1"), "pairs.jsonl", 1, journal, nil,
			func(c string) []string { return []string{"merge", "-out", c + "-merged", at("S0"), c} }},
		{"manifest", at("M"), "manifest.json", 1, jsonDamages(
			replace1("wrong type", `"seed": 3,
  "build"`, `"seed": "3",
  "build"`),
			replace1("negative seed", `"seed": 3,
  "build"`, `"seed": -3,
  "build"`),
			replace1("unknown field", `"build"`, `"buid": 1, "build"`),
			replace1("unknown status", `"status": "done"`, `"status": "dancing"`),
			replace1("huge version", `"version": 1`, `"version": 1e999`)), nil,
			func(c string) []string { return []string{"report", c} }},
		{"manifest settings (resume)", at("M"), "manifest.json", 1, []damage{
			replace1("wrong type", `"games": 4`, `"games": "4"`),
			replace1("unknown field", `"games"`, `"gamez": 1, "games"`)},
			func(c string) { unfinish(t, c, "summary.json", "games.parquet") },
			func(c string) []string { return []string{"match", "-resume", c} }},
		{"state", at("T"), "state.json", 1, jsonDamages(
			replace1("games 1e12", `"games": 40`, `"games": 1000000000000`),
			replace1("negative games", `"games": 40`, `"games": -20`),
			replace1("wrong type", `"games": 40`, `"games": "40"`),
			replace1("negative seconds", `"seconds": `, `"seconds": -`),
			replace1("NaN seconds", `"seconds": `, `"seconds": NaN, "x": `),
			replace1("unknown field", `"games"`, `"gamez": 1, "games"`)),
			func(c string) { unfinish(t, c) },
			func(c string) []string { return []string{"train", "-resume", c} }},
		{"part file (fit)", at("C"), part, 1, generic, nil,
			func(c string) []string { return []string{"fit", c, "-out", c + "-fit"} }},
		{"part file (resume)", at("C"), part, 1, generic,
			func(c string) { unfinish(t, c) },
			func(c string) []string { return []string{"collect", "-resume", c} }},
		{"net", filepath.Join(at("T"), "net.json"), "", 2, jsonDamages(
			replace1("weight changed", `"b2": `, `"b2": 1`),
			replace1("wrong type", `"inputs": 62`, `"inputs": "62"`),
			replace1("negative games", `"games": 40`, `"games": -40`),
			replace1("NaN weight", `"b2": `, `"b2": NaN, "x": `),
			replace1("other game", `"game": "dice"`, `"game": "chess"`),
			replace1("other variant", `"variant": "5x5-4"`, `"variant": "7x7-5"`),
			replace1("unknown field", `"variant"`, `"variantz": 1, "variant"`)), nil,
			func(c string) []string {
				return []string{"search", "-net", c, "-depth", "1", "5 4 b 0 - - - - - - - - - - - - - - - - - - - - - - - - -"}
			}},
		{"probcut", filepath.Join(at("F"), "probcut.json"), "", 2, jsonDamages(
			replace1("duplicated pair", `"pairs": [`, `"pairs": [{"shallow": 1, "deep": 3, "a": 1, "b": 0, "sigma": 0.1}, `),
			replace1("a 1e300", `"a": `, `"a": 1e300, "x": `),
			replace1("negative sigma", `"sigma": `, `"sigma": -`),
			replace1("wrong type", `"shallow": 1`, `"shallow": "1"`),
			replace1("unknown field", `"pairs"`, `"pears": 1, "pairs"`)), nil,
			func(c string) []string {
				return []string{"match", "cpc:depth=3,eval=pairs,probcut=" + c, "staretc:depth=1,eval=pairs", "-games", "2", "-luck", "none", "-out", c + "-m"}
			}},
		{"recipe", at("recipe.json"), "", 2, jsonDamages(
			replace1("wrong type", `"seed": 1`, `"seed": "1"`),
			replace1("negative games", `"games": 200000`, `"games": -200000`),
			replace1("huge games", `"games": 200000`, `"games": 1e300`),
			replace1("unknown field", `"seed"`, `"sead": 1, "seed"`)), nil,
			func(c string) []string { return []string{"run", "-out", c + "-run", c} }},
		{"plot", at("F"), filepath.Base(scatter[0]), 1, generic, nil,
			func(c string) []string { return []string{"report", c} }},
		{"journal (report)", at("M"), "pairs.jsonl", 0, append(journalRecord, generic...), nil,
			func(c string) []string { return []string{"report", c} }},
		{"games.parquet (report)", at("M"), "games.parquet", 0, generic, nil,
			func(c string) []string { return []string{"report", c} }},
		{"bench.parquet (report)", at("B"), "bench.parquet", 0, generic, nil,
			func(c string) []string { return []string{"report", c} }},
	}
	for i, k := range kinds {
		for j, d := range k.damages {
			name := fmt.Sprintf("%s/%s", k.name, d.name)
			c := filepath.Join(root, fmt.Sprintf("case-%d-%d", i, j))
			var path string
			if fi, err := os.Stat(k.base); err == nil && fi.IsDir() {
				copyTree(t, k.base, c)
				path = filepath.Join(c, k.file)
			} else {
				c += filepath.Ext(k.base)
				path = c
			}
			if k.prepare != nil {
				k.prepare(c)
			}
			data, err := os.ReadFile(orBase(path, k.base))
			if err != nil {
				t.Fatal(err)
			}
			bad := d.edit(data)
			if bytes.Equal(bad, data) {
				t.Fatalf("%s: the damage changes nothing", name)
			}
			if err := os.WriteFile(path, bad, 0o644); err != nil {
				t.Fatal(err)
			}
			code, stderr := runNoPanic(t, k.args(c))
			// Stages announce their run directory first; then one line.
			var lines []string
			for _, l := range strings.Split(strings.TrimSpace(stderr), "\n") {
				if !strings.Contains(l, ": run directory ") {
					lines = append(lines, l)
				}
			}
			if code != k.code || len(lines) != 1 || !strings.Contains(lines[0], path) {
				t.Errorf("%s: exit %d, stderr %q; want exit %d and one line naming %s", name, code, stderr, k.code, path)
			}
			// A merge has no resume: a failed one leaves no run behind.
			if _, err := os.Stat(c + "-merged"); err == nil {
				t.Errorf("%s: the failed merge left %s-merged", name, c)
			}
		}
	}
}

// orBase is path if it exists, else base: a single file is read from the
// original before its copy exists.
func orBase(path, base string) string {
	if _, err := os.Stat(path); err == nil {
		return path
	}
	return base
}

// runNoPanic runs a command line in process, turning a panic into a test
// failure; it returns the exit code and stderr.
func runNoPanic(t *testing.T, args []string) (code int, stderr string) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("%v: panic: %v", args, r)
			code = -1
		}
	}()
	code, _, stderr = runCmd(t, args...)
	return code, stderr
}
