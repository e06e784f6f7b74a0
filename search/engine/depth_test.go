package engine

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// toyWith runs the go command with args on the toy engine as it would be
// with its game.go edited by the replacements old, new, ... and with the
// extra files (name in the toy's directory: source) added, through the go
// command's -overlay, so that the source tree is left alone. It returns
// the command's output and whether it succeeded.
func toyWith(t *testing.T, replace []string, extra map[string]string, args ...string) (string, bool) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the toy engine with the go command")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	game, err := filepath.Abs(filepath.Join("toy", GameFile))
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(game)
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	for i := 0; i < len(replace); i += 2 {
		if !strings.Contains(text, replace[i]) {
			t.Fatalf("toy/game.go has no %q to replace", replace[i])
		}
		text = strings.Replace(text, replace[i], replace[i+1], 1)
	}
	dir := t.TempDir()
	files := map[string]string{game: text}
	for name, src := range extra {
		files[filepath.Join(filepath.Dir(game), name)] = src
	}
	overlay := map[string]map[string]string{"Replace": {}}
	for path, src := range files {
		tmp := filepath.Join(dir, strconv.Itoa(len(overlay["Replace"]))+".go")
		if err := os.WriteFile(tmp, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		overlay["Replace"][path] = tmp
	}
	data, err := json.Marshal(overlay)
	if err != nil {
		t.Fatal(err)
	}
	o := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(o, data, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(goTool, append(append([]string{args[0], "-overlay", o}, args[1:]...), "./toy")...)
	out, err := cmd.CombinedOutput()
	return string(out), err == nil
}

// TestShortMaxPlyDoesNotBuild: a game whose per-ply arrays (maxPly) cannot
// hold its deepest search (maxDepth) does not build, and the compiler
// points at the line of the template's demands.go that names both. The
// game is the toy as it once was, its arrays as long as a global 582 and
// nothing relating them to its depth: a decision and a chance node per
// unit of its depth, and a chance root, need 2*maxDepth+1 plies, so 290
// builds and 291, which reached ply 582 in starlab gen -exact, does not.
func TestShortMaxPlyDoesNotBuild(t *testing.T) {
	at := regexp.MustCompile(`\.\./dice/demands\.go:(\d+):\d+: (.*)`)
	demands, err := os.ReadFile(filepath.Join(Template, "demands.go"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(demands), "\n")
	for _, c := range []struct {
		depth int
		ok    bool
	}{{290, true}, {291, false}} {
		out, ok := toyWith(t, []string{"maxPly = 2*maxDepth + 1", "maxPly = 582", "maxDepth = 40", fmt.Sprintf("maxDepth = %d", c.depth)}, nil, "build")
		if ok != c.ok {
			t.Fatalf("maxPly 582, maxDepth %d: built %v, want %v: %s", c.depth, ok, c.ok, out)
		}
		if ok {
			continue
		}
		m := at.FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("maxPly 582, maxDepth %d: the error names no line of the template's demands.go: %s", c.depth, out)
		}
		n, _ := strconv.Atoi(m[1])
		line := lines[n-1]
		if !strings.Contains(line, "maxPly") || !strings.Contains(line, "maxDepth") || !strings.Contains(lines[n-2], "lengthen maxPly or lower maxDepth") {
			t.Errorf("maxPly 582, maxDepth %d: the error %q points at line %d, %q, which does not name maxPly and maxDepth under its explanation", c.depth, m[2], n, line)
		}
	}
}

// TestSearchStopsAtMaxDepth: where a game's MaxDepth, known only at run
// time, says more than maxDepth, the search stops at maxDepth, and the
// game's Kit says so, rather than indexing its per-ply arrays past their
// end. The toy whose MaxDepth says 1,000 searched its race to 15 from
// 15 3 2 0 down to ply 582 of the 582 its arrays then held, and panicked.
func TestSearchStopsAtMaxDepth(t *testing.T) {
	deep := `package toy

import (
	"context"
	"testing"

	"starlab/search"
)

func TestDeepMaxDepth(t *testing.T) {
	g := Game()
	pos, err := g.Parse("15 3 2 0")
	if err != nil {
		t.Fatal(err)
	}
	if MaxDepth(boardOf(pos)) != 1000 || g.MaxDepth(pos) != maxDepth {
		t.Fatalf("MaxDepth %d, the Kit's %d: want 1000 and %d", MaxDepth(boardOf(pos)), g.MaxDepth(pos), maxDepth)
	}
	for _, eval := range []string{"zero", "race"} {
		c := g.Config(search.StarETC)
		c.Eval, c.TTMiB = eval, 1
		res := g.NewEngine(c.MustResolve()).Search(context.Background(), pos, search.Limits{}, nil)
		if len(res.Iterations) != maxDepth {
			t.Errorf("eval=%s: %d iterations, want %d", eval, len(res.Iterations), maxDepth)
		}
	}
}
`
	out, ok := toyWith(t, []string{"func MaxDepth(*Board) int { return maxDepth }", "func MaxDepth(*Board) int { return 1000 }"},
		map[string]string{"deep_test.go": deep}, "test", "-count=1", "-run=TestDeepMaxDepth")
	if !ok || !strings.Contains(out, "ok ") {
		t.Fatalf("the toy whose MaxDepth says 1000: %s", out)
	}
}
