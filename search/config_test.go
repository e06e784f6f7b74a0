package search

import (
	"context"
	"flag"
	"math/rand/v2"
	"strings"
	"testing"

	"starlab/nn"
	"starlab/runs"
	"starlab/search/dice"
)

// searched is what a search shows of its engine: the nodes, the score
// and the iterations completed.
type searched struct {
	nodes      int64
	score      float64
	iterations int
}

// TestEveryKeyMatters: for every key of the grammar and every algorithm,
// algo:key=value is either refused as a key the algorithm does not read,
// or searches otherwise than algo alone (nodes, score or iterations), so
// that no key is accepted and ignored. A key read only with another's
// value (r with multi=0) is also tried with it, against the spec with that
// value alone. The position, the first of the committed suite before the
// roll, searched to depth 9, is one where every key can matter: a 1 MiB
// table overflows there for every algorithm, successor probing finds
// bounds from depth 3, and chance nodes of depths 3 to 9 meet the fitted
// pairs of the built-in fit. Limits are given depth 9 unless they set it.
func TestEveryKeyMatters(t *testing.T) {
	ps, err := ReadSuite("testdata/dice5x5-4.suite")
	if err != nil {
		t.Fatal(err)
	}
	root := ps[0].Board
	const depth = 9
	dir := t.TempDir()
	net, err := dice.NewNet(5, 4, rand.New(rand.NewPCG(1, 2)), 0.3)
	if err != nil {
		t.Fatal(err)
	}
	netFile := dir + "/net.json"
	if err := runs.WriteFileAtomic(netFile, net.Write); err != nil {
		t.Fatal(err)
	}
	probcut := dir + "/probcut.json"
	if err := writeFile(probcut, `{"format":"starlab-probcut","version":1,"source":"test","pairs":[`+
		`{"shallow":1,"deep":5,"a":1,"b":0,"sigma":0.05},{"shallow":3,"deep":7,"a":1,"b":0,"sigma":0.05}]}`); err != nil {
		t.Fatal(err)
	}
	// A value off the default of each key, and the spec keys it is read
	// only with.
	cases := map[string]struct{ val, with string }{
		"depth":    {"5", ""},
		"nodes":    {"20000", ""},
		"movetime": {"1ms", ""}, // each search takes over 10 ms
		"eval":     {"pairs", ""},
		"net":      {netFile, ""},
		"tt":       {"1", ""},
		"k":        {"2", ""},
		"etc":      {"5", ""},
		"t":        {"0.4", ""},
		"r":        {"4", "multi=0"},
		"probcut":  {probcut, ""},
		"cpcmin":   {"8", ""},
		"cpcmax":   {"7", ""},
		"multi":    {"0", ""},
	}
	run := func(spec string) (searched, error) {
		s, err := ParseSpec(spec)
		if err != nil {
			return searched{}, err
		}
		lim := s.Limits
		if lim.Depth == 0 {
			lim.Depth = depth
		}
		res := NewEngine(s.Config.MustResolve()).Search(context.Background(), root, lim, nil)
		return searched{res.Last().Nodes, res.Last().Score, len(res.Iterations)}, nil
	}
	for _, key := range OptionKeys() {
		c, ok := cases[key]
		if !ok {
			t.Errorf("key %s has no case here: give it a value off its default that changes the search", key)
			continue
		}
		read := false
		for _, algo := range AlgorithmNames {
			bases := []string{algo}
			if c.with != "" {
				bases = append(bases, algo+":"+c.with)
			}
			for _, base := range bases {
				spec := base + ":" + key + "=" + c.val
				if strings.Contains(base, ":") {
					spec = base + "," + key + "=" + c.val
				}
				got, err := run(spec)
				if err != nil {
					if msg := err.Error(); !strings.Contains(msg, "does not read") && !strings.Contains(msg, "is read only with") {
						t.Errorf("%s refused for another reason than not being read: %v", spec, err)
					}
					continue
				}
				read = true
				want, err := run(base)
				if err != nil {
					t.Fatal(err)
				}
				if got == want {
					t.Errorf("%s searches as %s does (%d nodes, score %v, %d iterations): the key is accepted and ignored", spec, base, got.nodes, got.score, got.iterations)
				}
			}
		}
		if !read {
			t.Errorf("%s=%s is refused by every algorithm: the case tests nothing", key, c.val)
		}
	}
}

// TestRReadOnlyWithoutMulti: r is the single depth pair's reduction of
// multi=0, so under multi=1 (the default) it is refused in one line, as a
// spec key, as a flag and in a configuration built in Go, with the spec
// that reads it; r's default is the reduction the default cpc is made of.
func TestRReadOnlyWithoutMulti(t *testing.T) {
	for spec, want := range map[string]string{
		"cpc:r=4":                 "cpc:multi=0,r=4",
		"cpc:multi=1,r=2":         "cpc:multi=0,r=2",
		"cpc:depth=3,r=4,t=0.4":   "cpc:depth=3,multi=0,r=4,t=0.4",
		"cpc:r=4,multi=1,depth=3": "cpc:r=4,multi=0,depth=3",
	} {
		_, err := ParseSpec(spec)
		if err == nil || !strings.Contains(err.Error(), "multi=1 (the default)") || !strings.Contains(err.Error(), "(want "+want+")") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line suggesting %s", spec, err, want)
		}
		if _, err := ParseSpec(want); err != nil {
			t.Errorf("%s, the suggestion for %s: %v", want, spec, err)
		}
	}
	for _, args := range [][]string{{"-algo", "cpc", "-r", "4"}, {"-algo", "cpc", "-multi", "1", "-r", "2"}} {
		fs := flag.NewFlagSet("search", flag.ContinueOnError)
		s := DefaultSpec(StarETC)
		RegisterFlags(fs, &s)
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		err := CheckFlags(fs, &s, s.Algorithm)
		if err == nil || !strings.Contains(err.Error(), "want -multi 0 -r ") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: %v, want one line suggesting -multi 0", args, err)
		}
	}
	fs := flag.NewFlagSet("search", flag.ContinueOnError)
	s := DefaultSpec(StarETC)
	RegisterFlags(fs, &s)
	if err := fs.Parse([]string{"-algo", "cpc", "-r", "4", "-multi", "0"}); err != nil {
		t.Fatal(err)
	}
	if err := CheckFlags(fs, &s, s.Algorithm); err != nil || s.ProbCutR != 4 || s.Multi {
		t.Errorf("-r 4 -multi 0: %v (%+v)", err, s.Config)
	}
	c := DefaultConfig(CPC)
	c.ProbCutR = 4
	if _, err := c.Resolve(); err == nil || !strings.Contains(err.Error(), "r=4 is read only with multi=0") {
		t.Errorf("a Go configuration of cpc with r=4 under multi=1: %v", err)
	}
	if DefaultProbCutR != 2 || !DefaultProbCutMulti {
		t.Errorf("the default cpc is Multi-ChanceProbCut on the pairs of R = 2, not multi=%v, r=%d", DefaultProbCutMulti, DefaultProbCutR)
	}
}

// TestChapterCPC: the chapter's configuration is a spec of the grammar,
// and the engine it builds uses exactly the depth pairs (3, 7) and (5, 9)
// (the chapter's R = 4 at d in {7, 9}), at chance-node depths 8 to 11,
// with the built-in fit's models (its other six pairs unused) and, without
// a fit, the identity guess's.
func TestChapterCPC(t *testing.T) {
	s, err := ParseSpec(ChapterCPC)
	if err != nil {
		t.Fatal(err)
	}
	fit := builtinFits()[[2]int{5, 4}]
	for _, eval := range []string{"mlp", "pairs"} {
		c := s.Config
		c.Eval = eval
		e := NewEngine(c.MustResolve())
		e.setBoard(5, 4)
		params := e.res.ProbCutFor(5, 4)
		if (eval == "mlp") != (params == fit) {
			t.Fatalf("eval=%s: parameters %q", eval, params.Source)
		}
		want := map[int][2]int{8: {3, 7}, 9: {3, 7}, 10: {5, 9}, 11: {5, 9}}
		for d, models := range e.cpc {
			pair, ok := want[d]
			if !ok {
				if len(models) != 0 {
					t.Errorf("eval=%s: %d models at chance-node depth %d, want none", eval, len(models), d)
				}
				continue
			}
			dp, found := params.Lookup(pair[0], pair[1])
			if !found {
				t.Fatalf("eval=%s: the parameters have no pair %v", eval, pair)
			}
			wantModel := cpcModel{shallow: dp.Shallow, a: dp.A, b: dp.B, tSigma: c.ProbCutT * dp.Sigma}
			if len(models) != 1 || models[0] != wantModel {
				t.Errorf("eval=%s: chance-node depth %d has models %+v, want the pair %v alone: %+v", eval, d, models, pair, wantModel)
			}
		}
	}
	if got := s.String(); got != "cpc:eval=mlp,r=4,cpcmin=8,cpcmax=11,multi=0" {
		t.Errorf("canonical %s", got)
	}
}

// TestResolveChecksTheNet: a net=FILE that is a sound weight file but no
// Dice net of a legal board is refused when the configuration is
// resolved, in one line naming the file, before any board is searched;
// a Dice net of another board is refused for the board searched.
func TestResolveChecksTheNet(t *testing.T) {
	dir := t.TempDir()
	for name, mod := range map[string]func(*nn.Net){
		"other game":    func(net *nn.Net) { net.Game = "chess" },
		"other variant": func(net *nn.Net) { net.Variant = "7x7-5" },
		"no Dice size":  func(net *nn.Net) { net.Variant, net.VariantKey = "19x19-5", []int{19, 5} },
	} {
		net, err := dice.NewNet(5, 4, rand.New(rand.NewPCG(1, 2)), 0.3)
		if err != nil {
			t.Fatal(err)
		}
		mod(net)
		path := dir + "/" + strings.ReplaceAll(name, " ", "-") + ".json"
		if err := runs.WriteFileAtomic(path, net.Write); err != nil {
			t.Fatal(err)
		}
		c := DefaultConfig(StarETC)
		c.Net = path
		if _, err := c.Resolve(); err == nil || !strings.Contains(err.Error(), "net file "+path+": ") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: Resolve error %v, want one line naming %s", name, err, path)
		}
	}
	net, err := dice.NewNet(5, 4, rand.New(rand.NewPCG(1, 2)), 0.3)
	if err != nil {
		t.Fatal(err)
	}
	path := dir + "/5x5-4.json"
	if err := runs.WriteFileAtomic(path, net.Write); err != nil {
		t.Fatal(err)
	}
	c := DefaultConfig(StarETC)
	c.Net = path
	r, err := c.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	if err := r.CheckBoard(5, 4); err != nil {
		t.Fatal(err)
	}
	if err := r.CheckBoard(7, 5); err == nil || !strings.Contains(err.Error(), "net "+path+": made for 5x5 boards with win length 4, not 7x7/5") {
		t.Errorf("CheckBoard(7, 5): %v", err)
	}
}
