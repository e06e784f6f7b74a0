package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"starlab/runs"
)

// TestRunChangedRecipe: starlab run finishes an unfinished run only with
// the recipe it started with. A changed recipe starts a new run, saying
// so in one line, or, in -out's run, is refused; the hint after an
// interruption names a command that finishes that same run.
func TestRunChangedRecipe(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	recipe := filepath.Join(dir, "r.json")
	write := func(games int) {
		text := `{"format": "starlab-recipe/1", "name": "t", "n": 5, "m": 4, "seed": 2, "matches": [
			{"name": "a", "games": ` + map[int]string{2: "2", 4: "4"}[games] + `, "luck": "none", "variants": ["staretc:depth=1,eval=pairs,tt=1", "star1:depth=1,eval=pairs,tt=1"]}]}`
		if err := os.WriteFile(recipe, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	status := func(d string) runs.Status {
		t.Helper()
		r, err := runs.Open(d)
		if err != nil {
			t.Fatal(err)
		}
		return r.Manifest().Status
	}

	write(2)
	code, _, stderr := runCtx(t, canceled, "run", recipe)
	m := regexp.MustCompile(`run starlab run -out (\S+) `).FindStringSubmatch(stderr)
	if code != 1 || m == nil {
		t.Fatalf("interrupted run: exit %d, %q", code, stderr)
	}
	old := m[1]

	// Changed: a new run, and a line that says so.
	write(4)
	code, _, stderr = runCmd(t, "run", recipe)
	if code != 0 || !strings.Contains(stderr, "recipe t changed (matches) since the unfinished run "+old+" started; starting a new run out/") {
		t.Fatalf("changed recipe: exit %d, %q", code, stderr)
	}
	if status(old) != runs.StatusFailed {
		t.Errorf("the old run %s was touched", old)
	}

	// -out: the hint names -out; a changed recipe is refused there.
	y := filepath.Join(dir, "y")
	code, _, stderr = runCtx(t, canceled, "run", "-out", y, recipe)
	if code != 1 || !strings.Contains(stderr, "run starlab run -out "+y+" "+recipe+" again") {
		t.Fatalf("interrupted run -out: exit %d, %q", code, stderr)
	}
	write(2)
	checkBadInput(t, []badInput{{[]string{"run", "-out", y, recipe}, 2, "-out " + y + " holds an unfinished run of recipe t as it was before changes to matches"}})
	if status(y) != runs.StatusFailed {
		t.Errorf("the refused run %s was touched", y)
	}

	// Unchanged: finished where it stopped.
	code, _, stderr = runCmd(t, "run", recipe)
	if code != 0 || !strings.Contains(stderr, "finishing the unfinished t run "+old) || status(old) != runs.StatusDone {
		t.Fatalf("unchanged recipe: exit %d, %q", code, stderr)
	}
	write(4)
	code, _, stderr = runCmd(t, "run", "-out", y, recipe)
	if code != 0 || !strings.Contains(stderr, "finishing the unfinished t run "+y) || status(y) != runs.StatusDone {
		t.Fatalf("unchanged recipe in -out: exit %d, %q", code, stderr)
	}
}

// TestRunChecksBeforeStart: a recipe a check can find wrong leaves no run
// directory, whichever stage would have met the problem.
func TestRunChecksBeforeStart(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	const head = `{"format": "starlab-recipe/1", "name": "t", "n": 5, "m": 4, "seed": 2, "train": {"games": 100}, `
	match := func(name, luck string) string {
		return `"matches": [{"name": "` + name + `", "games": 2, "luck": "` + luck + `", "variants": ["staretc:depth=1,eval=pairs", "staretc:depth=1,net={net}"]}]}`
	}
	var cases []badInput
	for name, c := range map[string]struct{ text, want string }{
		"escape": {head + match("../../escaped", "none"), "../../escaped"},
		"luck":   {head + match("a", "staretc:depth=1,eval=pairs"), "luck"},
		"bench":  {head + `"bench": {"suite": "missing.suite", "depths": [1]}, ` + match("a", "none"), "missing.suite"},
	} {
		path := filepath.Join(dir, name+".json")
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, badInput{[]string{"run", path}, 2, c.want})
	}
	checkBadInput(t, cases)
	if entries, err := os.ReadDir("."); err != nil || len(entries) != 3 {
		t.Errorf("a refused recipe left %v (%v)", entries, err)
	}
}
