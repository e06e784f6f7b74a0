package enginetest

import (
	"context"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"starlab/search"
	"starlab/search/games"
)

// hotLoop are the engine source's functions that run once or more per
// node.
var hotLoop = []string{"moveNode", "chance", "expectimaxChance", "tableCut", "successorProbing", "probCut",
	"star2Probing", "star1", "storeChance", "orderMoves", "max", "probe", "evaluate", "make", "unmake",
	"happen", "unhappen", "tick", "ttProbe", "fill", "setLo", "setHi", "window"}

// TestHotLoopCallsDirectly: no function of the hot loop of any engine in
// the starlab binary (every registered game's) makes an indirect call
// (through a register: an interface method, a function value, a method on
// a type parameter), read from the disassembly with go tool objdump. Every
// call into the board, the table and the network is direct.
func TestHotLoopCallsDirectly(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skipf("the check reads amd64 disassembly; this is %s", runtime.GOARCH)
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH: no objdump")
	}
	pattern := `search/engine/[a-z]+\.\(\*(Engine|chanceFrame)\)\.(` + strings.Join(hotLoop, "|") + `)$`
	out, err := exec.Command(goTool, "tool", "objdump", "-s", pattern, starlabBinary(t, goTool)).CombinedOutput()
	if err != nil {
		t.Fatalf("go tool objdump: %v\n%s", err, out)
	}
	text := string(out)
	for _, game := range games.Names() {
		seen := regexp.MustCompile(`(?m)^TEXT starlab/search/engine/`+regexp.QuoteMeta(game)+`\.\(\*Engine\)\.(moveNode|chance|star1)\(SB\)`).FindAllString(text, -1)
		if len(seen) != 3 {
			t.Fatalf("the disassembly lacks the %s engine's moveNode, chance or star1 (found %q): the pattern no longer names the engines", game, seen)
		}
	}
	direct := regexp.MustCompile(`CALL \S+\(SB\)\s*$`)
	fn := ""
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "TEXT ") {
			fn = strings.Fields(line)[1]
		}
		if i := strings.Index(line, "CALL "); i >= 0 && !direct.MatchString(line[i:]) {
			t.Errorf("%s: indirect call: %s", fn, strings.TrimSpace(line))
		}
	}
}

// starlabBinary builds the starlab command (as make build does, with its
// profile-guided optimisation) and returns its path: the disassembly is
// the one users run, and a test binary has no symbol table.
func starlabBinary(t *testing.T, goTool string) string {
	path := filepath.Join(t.TempDir(), "starlab")
	if out, err := exec.Command(goTool, "build", "-o", path, "starlab/cmd/starlab").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return path
}

// TestSearchAllocations: a StarETC search allocates nothing per node, in
// every engine, with every evaluator its game takes at its default
// variant, from the start and from a position of random play: a handful
// of allocations for the iterations' list over a search of 10,000 nodes
// or more (at least 1,000 where the table has the whole game by depth 30,
// as in the toy game).
func TestSearchAllocations(t *testing.T) {
	for _, g := range engines(t) {
		start, err := g.New(g.DefaultVariant())
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range append(Positions(g, g.DefaultVariant(), 1, 2), start) {
			for _, eval := range evaluators(g, Options{}, p) {
				e := newEngine(g, search.StarETC, eval, "", 16, nil)
				depth := 1
				for ; depth < 30; depth++ {
					e.ClearTT()
					if e.Search(context.Background(), p, search.Limits{Depth: depth}, nil).Last().Nodes >= 10000 {
						break
					}
				}
				var nodes int64
				allocs := testing.AllocsPerRun(2, func() {
					e.ClearTT()
					nodes = e.Search(context.Background(), p, search.Limits{Depth: depth}, nil).Last().Nodes
				})
				if nodes < 1000 || allocs > 10 {
					t.Errorf("%s eval=%s on %s: a search of %d nodes (depth %d) made %.0f allocations", g.Name(), eval, p, nodes, depth, allocs)
				}
			}
		}
	}
}
