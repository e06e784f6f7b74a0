package games

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"testing"

	"starlab/search"
	"starlab/search/game"
)

// TestNoHookLost: a game's facts are its Description's fields, and the Kit
// embeds game.Game, which promotes only the interface's methods. A
// method a game's Game type offers beside them would be read by nothing
// (the hooks SideName, MoveSeparator, RulesVersion and ForPoints were such
// methods before they became the Description's Sides, MoveSep,
// RulesVersion and ForPoints), so every registered game's Game type must
// have no other exported method.
func TestNoHookLost(t *testing.T) {
	for _, name := range Names() {
		g, _ := Lookup(name)
		for _, m := range hooksOf(g.Game) {
			t.Errorf("%s: its Game type %T has the method %s, which game.Game lacks and the Kit would lose: a fact of the game belongs in its search.Description", name, g.Game, m)
		}
	}
	if got := hooksOf(fakeGame{}); len(got) != 1 || got[0] != "SideName" {
		t.Errorf("the check of an extra method finds %q in a game with SideName", got)
	}
}

// hooksOf returns the exported methods of g's type that game.Game lacks.
func hooksOf(g game.Game) []string {
	contract := reflect.TypeFor[game.Game]()
	var extra []string
	typ := reflect.TypeOf(g)
	for i := range typ.NumMethod() {
		if _, ok := contract.MethodByName(typ.Method(i).Name); !ok {
			extra = append(extra, typ.Method(i).Name)
		}
	}
	return extra
}

// fakeGame is a game that names its sides by a method, as games once did.
type fakeGame struct{ game.Game }

func (fakeGame) SideName(int) string { return "north" }

// TestDescriptionComplete: every registered game gives what the commands
// need of its description, so that no command meets a silent default: two
// distinct side names, a records' separator, a rules version, a notation
// name, a hand evaluator, a default evaluator that is one of its own and
// that an engine searches the default start with, a default suite that
// reads from any working directory, a chance node for a decision where
// the roll comes first, and the engine's evaluator where the game has a
// net.
func TestDescriptionComplete(t *testing.T) {
	t.Chdir(os.TempDir()) // not the module root: the default suite is built in
	for _, name := range Names() {
		g, _ := Lookup(name)
		d := g.Description
		problem := func(format string, args ...any) { t.Errorf("%s: %s", name, fmt.Sprintf(format, args...)) }
		if d.Sides[0] == "" || d.Sides[1] == "" || d.Sides[0] == d.Sides[1] {
			problem("Sides %q: want two distinct names", d.Sides)
		}
		if d.MoveSep == "" || d.RulesVersion < 1 || d.Notation == "" || d.HandEval == "" {
			problem("MoveSep %q, RulesVersion %d, Notation %q, HandEval %q: each is required", d.MoveSep, d.RulesVersion, d.Notation, d.HandEval)
		}
		c := search.DefaultConfig(search.StarETC)
		c.Eval = d.DefaultEval
		if d.DefaultEval == "" {
			problem("DefaultEval is empty: say which evaluator an engine without eval= uses")
		} else if err := g.CheckEval(c); err != nil {
			problem("DefaultEval: %v", err)
		}
		start, err := g.New(g.DefaultVariant())
		if err != nil {
			t.Fatal(err)
		}
		if r, err := c.Resolve(); err != nil {
			problem("DefaultEval %q: %v", d.DefaultEval, err)
		} else if err := g.Check(r, start); err != nil {
			problem("an engine of the default evaluator cannot search the start: %v", err)
		} else {
			g.NewEngine(r).Search(context.Background(), start, search.Limits{Depth: 1}, nil)
		}
		if ps, err := search.ReadSuite(g, d.Defaults.Suite); err != nil || len(ps) == 0 {
			problem("the default suite does not read outside the module root: %v", err)
		}
		if d.Net != nil && (d.Net.Evaluator == nil || d.Net.New == nil || d.Net.Check == nil || d.Net.Features == nil || d.Net.Rate == nil) {
			problem("its Net lacks a function (the engine's Evaluator, New, Check, Features or Rate)")
		}
		if d.ChanceNode == nil {
			problem("ChanceNode is nil")
		}
	}
}

// TestDepthTranspositions: a game one of whose searches can meet a
// position at two depths must say so (Description.DepthTranspositions):
// with the table on, a value stored at one depth then answers a search at
// another, and bench holds the sound algorithms to agreement only with the
// table off. Random paths from the start and the default suite's first
// positions look for a position reached at two depths from one root.
func TestDepthTranspositions(t *testing.T) {
	t.Chdir(os.TempDir())
	for _, name := range Names() {
		g, _ := Lookup(name)
		start, err := g.New(g.DefaultVariant())
		if err != nil {
			t.Fatal(err)
		}
		roots := []game.State{start}
		if ps, err := search.ReadSuite(g, g.Defaults.Suite); err == nil {
			for _, p := range ps[:min(len(ps), 5)] {
				roots = append(roots, p.Pos)
			}
		}
		rng := rand.New(rand.NewPCG(1, 2))
		found := ""
		for _, root := range roots {
			if found = recurrence(root, rng, 3000, 8); found != "" {
				break
			}
		}
		switch {
		case found != "" && !g.DepthTranspositions:
			t.Errorf("%s: one search meets %s; the description must say DepthTranspositions", name, found)
		case found == "" && g.DepthTranspositions:
			t.Logf("%s: says DepthTranspositions; no position at two depths was met in these paths", name)
		}
	}
}

// recurrence plays paths random paths of at most plies plies from root
// (moves drawn evenly, events by weight) and returns a position reached at
// two depths, with the depths, or "" when none is.
func recurrence(root game.State, rng *rand.Rand, paths, plies int) string {
	depthOf := map[uint64]int{root.Key(): 0}
	var moves []game.Move
	var events []game.Event
	for range paths {
		s := root.Clone()
		for ply := 1; ply <= plies && s.Kind() != game.Over; ply++ {
			if s.Kind() == game.Decision {
				moves = s.Legal(moves)
				s.Play(moves[rng.IntN(len(moves))])
			} else {
				var total int
				events, total = s.Outcomes(events)
				u := rng.IntN(total)
				e, _ := game.EventAt(events, u)
				s.Happen(e)
			}
			if d, ok := depthOf[s.Key()]; !ok {
				depthOf[s.Key()] = ply
			} else if d != ply {
				return fmt.Sprintf("%q at plies %d and %d from %q", s.String(), d, ply, root.String())
			}
		}
	}
	return ""
}
