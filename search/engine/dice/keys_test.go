package dice

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"starlab/nn"
	"starlab/runs"
	"starlab/search"
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
	ps, err := search.ReadSuite(Game(), "../../dice/suites/dice5x5-4.suite")
	if err != nil {
		t.Fatal(err)
	}
	root := ps[0].Pos.(*dice.Board)
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
		"cpcstep":  {"3", ""}, // chance nodes here are at depths 3, 5, 7 and 9
		"multi":    {"0", ""},
		// The root's plays valued at depth 1, one kept: the search finds
		// the depth-1 play; one within 0.01 of the best.
		"filter":      {"1", ""},
		"filterwidth": {"0.01", "filter=8"},
	}
	// Keys searched from the decision after the root's first roll: the
	// move filter narrows a decision's plays, and the root is a chance
	// node.
	rolled := root.Clone().(*dice.Board)
	evs, _ := rolled.Outcomes(nil)
	rolled.Happen(evs[0])
	atDecision := map[string]bool{"filter": true, "filterwidth": true}
	at := root
	// Keys Dice's engines cannot honour, which its Game's Check refuses in
	// one line before any search.
	refused := map[string]struct{ val, why string }{
		"noise": {"0.01", "dice has no evaluation noise"},
	}
	run := func(spec string) (searched, error) {
		s, err := search.ParseSpec(spec)
		if err != nil {
			return searched{}, err
		}
		lim := s.Limits
		if lim.Depth == 0 {
			lim.Depth = depth
		}
		res := New(s.Config.MustResolve()).Search(context.Background(), at, lim, nil)
		return searched{res.Last().Nodes, res.Last().Score, len(res.Iterations)}, nil
	}
	for _, key := range search.OptionKeys() {
		at = root
		if atDecision[key] {
			at = rolled
		}
		if r, ok := refused[key]; ok {
			for _, algo := range search.AlgorithmNames() {
				spec := algo + ":" + key + "=" + r.val
				s, err := search.ParseSpec(spec)
				if err != nil {
					t.Fatalf("%s: %v", spec, err)
				}
				if err := Game().Check(s.Config.MustResolve(), root); err == nil || !strings.Contains(err.Error(), r.why) {
					t.Errorf("%s: Check gave %v, want a refusal with %q", spec, err, r.why)
				}
			}
			continue
		}
		c, ok := cases[key]
		if !ok {
			t.Errorf("key %s has no case here: give it a value off its default that changes the search", key)
			continue
		}
		read := false
		for _, algo := range search.AlgorithmNames() {
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

// TestChapterCPC: the chapter's configuration is a spec of the grammar,
// and the engine it builds uses exactly the depth pairs (3, 7) and (5, 9)
// (the chapter's R = 4 at d in {7, 9}), at chance-node depths 8 to 11,
// with the built-in fit's models (its other six pairs unused) and, without
// a fit, the identity guess's.
func TestChapterCPC(t *testing.T) {
	s, err := search.ParseSpec(dice.ChapterCPC)
	if err != nil {
		t.Fatal(err)
	}
	fit := dice.BuiltinFit("5x5-4")
	for _, eval := range []string{"mlp", "pairs"} {
		c := s.Config
		c.Eval = eval
		e := New(c.MustResolve())
		b, _ := dice.New(5, 4)
		e.setBoard(b)
		params := Game().ProbCutFor(e.res, dice.Variant(5, 4))
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

// TestMultiChanceProbCut: with one depth pair per deep depth, Multi (the
// default) is plain ChanceProbCut node for node; with two, it searches
// otherwise than either pair alone.
func TestMultiChanceProbCut(t *testing.T) {
	dir := t.TempDir()
	one, two := dir+"/one.json", dir+"/two.json"
	pair := func(s, d int) string {
		return `{"shallow":` + strconv.Itoa(s) + `,"deep":` + strconv.Itoa(d) + `,"a":1,"b":0,"sigma":0.05}`
	}
	if err := writeFile(one, `{"format":"starlab-probcut","version":1,"source":"test","pairs":[`+pair(3, 5)+`,`+pair(5, 7)+`]}`); err != nil {
		t.Fatal(err)
	}
	if err := writeFile(two, `{"format":"starlab-probcut","version":1,"source":"test","pairs":[`+pair(3, 5)+`,`+pair(5, 7)+`,`+pair(1, 5)+`,`+pair(3, 7)+`]}`); err != nil {
		t.Fatal(err)
	}
	run := func(spec string) (nodes, cuts, shallow int64) {
		s, err := search.ParseSpec(spec)
		if err != nil {
			t.Fatal(err)
		}
		e := New(s.Config.MustResolve())
		ps, err := search.ReadSuite(Game(), "../../dice/suites/dice5x5-4.suite")
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ps[:20] {
			e.ClearTT()
			it := e.Search(context.Background(), p.Pos.(*dice.Board), search.Limits{Depth: 8}, nil).Last()
			nodes += it.Nodes
			cuts += it.Stats.CPCCut
			shallow += it.Stats.CPCSearches
		}
		return
	}
	n1, c1, _ := run("cpc:eval=pairs,tt=1,multi=0,probcut=" + one)
	m1, d1, _ := run("cpc:eval=pairs,tt=1,probcut=" + one)
	if n1 != m1 || c1 != d1 || c1 == 0 {
		t.Fatalf("one pair per depth: cpc %d nodes %d cuts, multi %d nodes %d cuts", n1, c1, m1, d1)
	}
	n4, _, s4 := run("cpc:eval=pairs,tt=1,r=4,multi=0,probcut=" + two)
	nm, cm, sm := run("cpc:eval=pairs,tt=1,probcut=" + two)
	n2, _, s2 := run("cpc:eval=pairs,tt=1,multi=0,probcut=" + two)
	if cm == 0 || nm == n2 || nm == n4 || sm == s2 || sm == s4 {
		t.Fatalf("multi: %d nodes, %d cuts, %d shallow searches; r=2 alone %d nodes, %d searches; r=4 alone %d nodes, %d searches", nm, cm, sm, n2, s2, n4, s4)
	}
}

// TestCheckBoardChecksTheNet: a net=FILE that is a sound weight file but
// no Dice net of a legal board is refused before any board is searched,
// in one line naming the file; a Dice net of another board is refused for
// the board searched.
func TestCheckBoardChecksTheNet(t *testing.T) {
	dir := t.TempDir()
	b54, err := dice.New(5, 4)
	if err != nil {
		t.Fatal(err)
	}
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
		c := search.DefaultConfig(search.StarETC)
		c.Net = path
		r, err := c.Resolve()
		if err == nil {
			err = Game().Check(r, b54)
		}
		if err == nil || !strings.Contains(err.Error(), "net file "+path+": ") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line naming %s", name, err, path)
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
	c := search.DefaultConfig(search.StarETC)
	c.Net = path
	r, err := c.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	b54, _ = dice.New(5, 4)
	b75, _ := dice.New(7, 5)
	if err := Game().Check(r, b54); err != nil {
		t.Fatal(err)
	}
	if err := Game().Check(r, b75); err == nil || !strings.Contains(err.Error(), "net "+path+": made for 5x5 boards with win length 4, not 7x7/5") {
		t.Errorf("Check of 7x7/5: %v", err)
	}
}

// TestEveryBuiltinNetHasItsFit: cpc with each built-in net runs on a fit
// made for that net, not on the identity guess.
func TestEveryBuiltinNetHasItsFit(t *testing.T) {
	names, err := filepath.Glob("../../dice/nets/*.json")
	if err != nil || len(names) == 0 {
		t.Fatalf("no built-in nets: %v", err)
	}
	r := search.DefaultConfig(search.CPC).MustResolve()
	for _, name := range names {
		var n, n2, m int
		if _, err := fmt.Sscanf(filepath.Base(name), "%dx%d-%d.json", &n, &n2, &m); err != nil || n != n2 {
			t.Fatalf("%s: not a net of the built-in naming: %v", name, err)
		}
		b, err := dice.New(n, m)
		if err != nil {
			t.Fatal(err)
		}
		id := Game().NetID(r, b)
		p := Game().ProbCutFor(r, dice.Variant(n, m))
		if p.Eval != "mlp" || p.NetID != id || p.Game != "dice" || p.Variant != dice.Variant(n, m) || p != dice.BuiltinFit(dice.Variant(n, m)) {
			t.Errorf("built-in net %s: cpc uses %q, not a fit for its net %s", name, p.Source, id)
		}
	}
}
