package main

import (
	"bufio"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"starlab/runs/pipeline"
	"starlab/search/games"
	"starlab/selfplay"
)

// docSessions returns the terminal sessions of the code blocks of page
// (README.md, or a page of docs/, from the module root): each
// "$ starlab ..." line's arguments and the lines printed after it, up to
// the next prompt or the end of the block.
func docSessions(t *testing.T, page string) map[string][]string {
	t.Helper()
	f, err := os.Open(filepath.Join("../..", page))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string][]string{}
	cmd, inBlock := "", false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "```"):
			inBlock, cmd = !inBlock, ""
		case !inBlock:
		case strings.HasPrefix(line, "$ starlab "):
			cmd = strings.TrimPrefix(line, "$ starlab ")
			out[cmd] = nil
		case cmd != "":
			out[cmd] = append(out[cmd], line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestReadmeFit runs the tour's collect and fit as the README gives them,
// in a directory of their own, and checks that they print what the
// README shows (the collect's time aside).
func TestReadmeFit(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("collects 100 positions to depth 9: run without -short and without the race detector (make test does)")
	}
	sessions := docSessions(t, "README.md")
	var collect, fit string
	for cmd := range sessions {
		switch {
		case strings.HasPrefix(cmd, "collect -count 100 "):
			collect = cmd
		case strings.HasPrefix(cmd, "fit c "):
			fit = cmd
		}
	}
	if collect == "" || fit == "" {
		t.Fatalf("README.md: the tour's collect (%q) or fit (%q) is missing", collect, fit)
	}
	t.Chdir(t.TempDir())
	clock := regexp.MustCompile(`in [0-9.]+ s;`)
	for _, cmd := range []string{collect, fit} {
		code, stdout, stderr := runCmd(t, strings.Fields(cmd)...)
		if code != 0 {
			t.Fatalf("starlab %s: exit %d: %s", cmd, code, stderr)
		}
		got := strings.Split(strings.TrimRight(clock.ReplaceAllString(stdout, "in _ s;"), "\n"), "\n")
		want := strings.Split(clock.ReplaceAllString(strings.Join(sessions[cmd], "\n"), "in _ s;"), "\n")
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("starlab %s prints\n%s\nthe README shows\n%s", cmd, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

// TestPaper5x5Time checks that run -h, the recipe's description and
// docs/reproducing.md say the same of how long paper-5x5 takes: what
// run -h says in its parentheses.
func TestPaper5x5Time(t *testing.T) {
	words := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	_, help, _ := runCmd(t, "run", "-h")
	_, said, ok := strings.Cut(words(help), "paper-5x5 (")
	said, _, _ = strings.Cut(said, ")")
	if !ok || said == "" {
		t.Fatalf("run -h says nothing of paper-5x5's time: %q", help)
	}
	r, err := pipeline.LoadRecipe("paper-5x5", games.Lookup)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(r.Description, "; "+said) {
		t.Errorf("the recipe paper-5x5 says %q; run -h says %q", r.Description, said)
	}
	page, err := os.ReadFile("../../docs/reproducing.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(words(string(page)), "paper-5x5 was "+said) {
		t.Errorf("docs/reproducing.md does not say %q of paper-5x5, as run -h does", "paper-5x5 was "+said)
	}
}

// TestReadmeGamesColumns checks that the games.parquet table of
// docs/files.md names every column the match writes, in order, and no
// other.
func TestReadmeGamesColumns(t *testing.T) {
	page, err := os.ReadFile("../../docs/files.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(page), "**games.parquet** (match;")
	table, _, _ = strings.Cut(table, "\n\n`summary.json`")
	var got []string
	for _, line := range strings.Split(table, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 4 || strings.HasPrefix(line, "|---") || strings.TrimSpace(cells[1]) == "column" {
			continue
		}
		for _, c := range strings.Split(cells[1], ",") {
			got = append(got, strings.TrimSpace(c))
		}
	}
	var want []string
	rt := reflect.TypeFor[selfplay.GameRow]()
	for i := range rt.NumField() {
		want = append(want, rt.Field(i).Tag.Get("parquet"))
	}
	if !ok || !slices.Equal(got, want) {
		t.Errorf("docs/files.md's games.parquet columns are %v; the match writes %v", got, want)
	}
}

// TestReadmeShort checks that README.md stays a front page: at most 400
// lines, its "Start here" block giving make run and make test, and a link
// to every page at the top of docs/, so that none is left unreachable.
func TestReadmeShort(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	if n := strings.Count(text, "\n"); n > 400 {
		t.Errorf("README.md has %d lines; keep it to 400 and move the rest to a page of docs/", n)
	}
	_, start, ok := strings.Cut(text, "\n## Start here\n\n```\n")
	start, _, _ = strings.Cut(start, "```")
	if !ok || !strings.HasPrefix(start, "make run ") || !strings.Contains(start, "\nmake test ") {
		t.Errorf("README.md: no \"## Start here\" block opening with make run and make test:\n%s", start)
	}
	linked := map[string]bool{}
	for _, m := range regexp.MustCompile(`\]\(docs/([^)#\s]+)`).FindAllStringSubmatch(text, -1) {
		linked[m[1]] = true
	}
	pages, err := os.ReadDir("../../docs")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, p := range pages {
		if p.IsDir() || !strings.HasSuffix(p.Name(), ".md") {
			continue
		}
		n++
		if !linked[p.Name()] {
			t.Errorf("README.md does not link docs/%s", p.Name())
		}
	}
	if n == 0 {
		t.Error("docs/ holds no pages")
	}
}
