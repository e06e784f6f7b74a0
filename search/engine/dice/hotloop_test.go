package dice

import (
	"context"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"starlab/search"
)

// hotLoop are the engine's functions that run once or more per node.
var hotLoop = []string{"moveNode", "chance", "expectimaxChance", "tableCut", "successorProbing", "probCut",
	"star2Probing", "star1", "storeChance", "orderMoves", "max", "probe", "evaluate", "make", "unmake",
	"happen", "unhappen", "tick", "ttProbe", "fill", "setLo", "setHi", "window"}

// TestHotLoopCallsDirectly: no function of the hot loop of any engine in
// the binary (Dice's and every generated one) makes an indirect
// call (through a register: an interface method, a function value, a
// method on a type parameter), read from the disassembly of the starlab
// binary with go tool objdump. Every call into the board, the table and
// the network is direct.
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
	for _, game := range []string{"dice", "breakthrough"} {
		seen := regexp.MustCompile(`(?m)^TEXT starlab/search/engine/`+game+`\.\(\*Engine\)\.(moveNode|chance|star1)\(SB\)`).FindAllString(text, -1)
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

// TestDefaultPathAllocations: a StarETC search with the default evaluator
// (the built-in net) allocates nothing per node: a handful of allocations
// for the iterations' list over a search of tens of thousands of nodes.
func TestDefaultPathAllocations(t *testing.T) {
	b := mustDPN(t, example)
	e := New(search.DefaultConfig(search.StarETC).MustResolve())
	var nodes int64
	allocs := testing.AllocsPerRun(3, func() {
		e.ClearTT()
		nodes = e.Search(context.Background(), b, search.Limits{Depth: 9}, nil).Last().Nodes
	})
	if nodes < 10000 || allocs > 10 {
		t.Fatalf("search of %d nodes made %.0f allocations", nodes, allocs)
	}
}
