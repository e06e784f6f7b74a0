package games

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"starlab/search"
	"starlab/search/game"
	"starlab/search/game/gametest"
)

func TestLookupEveryName(t *testing.T) {
	names := Names()
	if len(names) == 0 || !slices.IsSorted(names) || len(slices.Compact(slices.Clone(names))) != len(names) {
		t.Fatalf("Names = %q, want sorted distinct names", names)
	}
	if !slices.Contains(names, Default) {
		t.Fatalf("Default %q is not among Names %q", Default, names)
	}
	games := 40
	if testing.Short() {
		games = 10
	}
	for _, name := range names {
		g, err := Lookup(name)
		if err != nil || g.Game == nil || g.NewEngine == nil || g.MaxDepth == nil || g.EndsOnChance == nil ||
			g.ChanceNode == nil {
			t.Fatalf("Lookup(%q) = %+v, %v", name, g, err)
		}
		if g.Name() != name {
			t.Errorf("Lookup(%q) gives a game named %q", name, g.Name())
		}
		t.Run(name, func(t *testing.T) {
			if g.FixedSigns {
				gametest.CheckFixedSigns(t, g, g.MoveSep, g.DefaultVariant(), 1, games)
			} else {
				gametest.Check(t, g, g.MoveSep, g.DefaultVariant(), 1, games)
			}
		})
	}
}

func TestLookupUnknown(t *testing.T) {
	for _, name := range []string{"", "chess", "Dice", " dice", "dice\n", "chancebreakthrough", "Breakthrough"} {
		g, err := Lookup(name)
		if err == nil || g.Game != nil {
			t.Errorf("Lookup(%q) = %v, %v; want an error", name, g, err)
			continue
		}
		msg := err.Error()
		if strings.ContainsAny(msg, "\n\r") || !strings.Contains(msg, "is unknown") || !strings.Contains(msg, strings.Join(Names(), ", ")) {
			t.Errorf("Lookup(%q) error %q: want one line naming the game and listing %q", name, msg, Names())
		}
	}
	if _, err := Lookup("chess"); err.Error() != `game "chess" is unknown; the games are `+strings.Join(Names(), ", ") {
		t.Errorf("Lookup(chess) error = %q", err)
	}
}

// TestNamesIsFresh checks that a caller changing the list it got cannot
// change the registry.
func TestNamesIsFresh(t *testing.T) {
	a := Names()
	a[0] = "changed"
	if b := Names(); b[0] == "changed" {
		t.Fatalf("Names returns a shared slice: %q", b)
	}
	if _, err := Lookup(Names()[0]); err != nil {
		t.Fatalf("after changing a returned list: %v", err)
	}
}

// TestEveryGameSearches: every game's engine, built through the registry
// for a configuration its Check accepts (its hand evaluator, HandEval),
// searches its default start and gives a legal move of it; another game's
// hand evaluator is refused in one line.
func TestEveryGameSearches(t *testing.T) {
	for _, name := range Names() {
		g, _ := Lookup(name)
		c := search.DefaultConfig(search.StarETC)
		c.Eval = g.HandEval
		r := c.MustResolve()
		start, err := g.New(g.DefaultVariant())
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Check(r, start); err != nil {
			t.Fatalf("%s: Check of eval=%s: %v", name, g.HandEval, err)
		}
		for _, on := range Names() {
			og, _ := Lookup(on)
			other := og.HandEval
			o := c
			o.Eval = other
			err := g.Check(o.MustResolve(), start)
			if other != g.HandEval && !slices.Contains(g.OtherEvals, other) && (err == nil || strings.Contains(err.Error(), "\n")) {
				t.Errorf("%s: Check of eval=%s, another game's: %v", name, other, err)
			}
		}
		res := g.NewEngine(r).Search(context.Background(), start, search.Limits{Depth: 3}, nil)
		if len(res.Iterations) != 3 {
			t.Fatalf("%s: %d iterations to depth 3", name, len(res.Iterations))
		}
		best := res.Last().BestMove
		if start.Kind() == game.Decision && !slices.Contains(start.Legal(nil), game.Move(best)) {
			t.Fatalf("%s: best move %d of the start is not legal", name, best)
		}
		if start.Kind() == game.Chance && best != -1 {
			t.Fatalf("%s: best move %d at a chance node", name, best)
		}
	}
}

// TestChanceNode: a decision of random games of every game has a chance
// node (ChanceNode), a new chance node of the same variant from which one
// event leads back to the decision (Dice: the roll taken back) or to
// which one of its moves leads (a roll move), unless the game rolls after
// its decisions (not RollFirst) and no move of this one leads to chance;
// the decision is left as it was; chance nodes and finished games have
// none.
func TestChanceNode(t *testing.T) {
	for _, name := range Names() {
		g, _ := Lookup(name)
		rng := rand.New(rand.NewPCG(1, 2))
		decisions := 0
		for range 20 {
			st, err := g.New(g.DefaultVariant())
			if err != nil {
				t.Fatal(err)
			}
			for ply := 0; ply < 200 && st.Kind() != game.Over; ply++ {
				if st.Kind() == game.Chance {
					if _, ok := g.ChanceNode(st); ok {
						t.Fatalf("%s: chance node %s has a chance node", name, st)
					}
					evs, _ := st.Outcomes(nil)
					st.Happen(evs[rng.IntN(len(evs))])
					continue
				}
				text := st.String()
				c, ok := g.ChanceNode(st)
				if !ok && !g.RollFirst && !rolls(st) {
					moves := st.Legal(nil)
					st.Play(moves[rng.IntN(len(moves))])
					continue
				}
				decisions++
				if !ok || c.Kind() != game.Chance || g.Variant(c) != g.Variant(st) || st.String() != text {
					t.Fatalf("%s: decision %s: chance node %v, %v (the decision is now %s)", name, text, c, ok, st)
				}
				back := false
				evs, _ := c.Outcomes(nil)
				for _, e := range evs {
					x := c.Clone()
					x.Happen(e)
					back = back || x.String() == text
				}
				for _, m := range st.Legal(nil) {
					x := st.Clone()
					x.Play(m)
					back = back || x.String() == c.String()
				}
				if !back {
					t.Fatalf("%s: decision %s: chance node %s neither leads to it nor follows it", name, text, c)
				}
				moves := st.Legal(nil)
				st.Play(moves[rng.IntN(len(moves))])
			}
			if _, ok := g.ChanceNode(st); st.Kind() == game.Over && ok {
				t.Fatalf("%s: finished game %s has a chance node", name, st)
			}
		}
		if decisions < 100 {
			t.Fatalf("%s: %d decisions checked", name, decisions)
		}
	}
}

// rolls reports whether a move of the decision st leads to a chance node.
func rolls(st game.State) bool {
	for _, m := range st.Legal(nil) {
		x := st.Clone()
		x.Play(m)
		if x.Kind() == game.Chance {
			return true
		}
	}
	return false
}
