package selfplay

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"starlab/runs"
)

// TestMatchLuckForPoints: a match whose games are played for points
// (backgammon's money) reports no luck-adjusted score, so it runs no luck
// reference by default, and one given is refused in one line saying why;
// the game's reference, which earlier builds recorded for such matches,
// is read as none, so that their runs resume. A one-point match keeps the
// game's reference.
func TestMatchLuckForPoints(t *testing.T) {
	bg := lookupGame("backgammon")
	set := func(variant, luck string) MatchSettings {
		s := DefaultMatchSettings(bg, "staretc:depth=1,eval=contact", "staretc:depth=1,eval=race")
		s.Variant, s.Luck, s.Games, s.Concurrency = variant, luck, 2, 1
		return s
	}
	for _, luck := range []string{"", "none", "staretc:tt=1,depth=1,eval=mlp"} {
		s := set("money", luck)
		m, err := s.Resolve()
		if err != nil || m.Luck != nil || m.Settings.Luck != "none" {
			t.Errorf("money, luck %q: %v, settings' luck %q", luck, err, s.Luck)
		}
	}
	for _, check := range []func(MatchSettings) error{
		func(s MatchSettings) error { _, err := s.Resolve(); return err },
		MatchSettings.CheckSpecs, MatchSettings.CheckPending,
	} {
		err := check(set("money", "staretc:depth=3,eval=contact"))
		if err == nil || !strings.Contains(err.Error(), "-luck staretc:depth=3,eval=contact: backgammon money games are played for points, and a match of them reports no luck-adjusted score") || strings.Contains(err.Error(), "\n") {
			t.Errorf("money with a luck reference: %v", err)
		}
	}
	s := set("1pt", "")
	if m, err := s.Resolve(); err != nil || m.Luck == nil || m.Settings.Luck != LuckRef(bg, "1pt") {
		t.Errorf("1pt: %v, luck %q", err, s.Luck)
	}
}

// TestMatchChecksShareResolve: CheckSpecs (no file opened) and
// CheckPending (all but the products) refuse a match's engines and luck
// reference by Resolve's rules, each spec read by the one parser match
// reads it with; CheckPending leaves a product's file unopened and opens
// the others, CheckSpecs none.
func TestMatchChecksShareResolve(t *testing.T) {
	for name, c := range map[string]struct {
		variants         []string
		luck             string
		specs, pending   string // the error each check gives, "" for none
		resolveSeesItToo bool   // Resolve, with no products, refuses it as well
	}{
		"luck with a time limit": {[]string{"staretc:depth=1", "star1:depth=1"}, "staretc:movetime=10ms", "needs a depth or node limit", "needs a depth or node limit", true},
		"luck a variant":         {[]string{"staretc:depth=1,eval=pairs", "star1:depth=1"}, "staretc:eval=pairs,depth=1", "one of the variants under test", "one of the variants under test", true},
		"luck's grammar":         {[]string{"staretc:depth=1", "star1:depth=1"}, "staretc:depht=1", "-luck: ", "-luck: ", true},
		"variant's grammar":      {[]string{"staretc:depth=1", "star9:depth=1"}, "none", "star9", "star9", true},
		"even depth":             {[]string{"staretc:depth=2", "star1:depth=1"}, "none", "ends on a chance ply", "ends on a chance ply", true},
		"tournament twice":       {[]string{"staretc:depth=1", "star1:depth=1", "staretc:depth=1"}, "none", "given twice", "given twice", true},
		"missing net":            {[]string{"staretc:depth=1,net=missing.json", "star1:depth=1"}, "none", "", "missing.json", true},
		"missing luck net":       {[]string{"staretc:depth=1", "star1:depth=1"}, "staretc:depth=3,net=missing.json", "", "missing.json", true},
		"a product":              {[]string{"staretc:depth=1,net={net}", "star1:depth=1"}, "staretc:depth=3,net={net}", "", "", true},
	} {
		s := matchSettings(c.variants...)
		s.Luck = c.luck
		for _, k := range []struct {
			what string
			err  error
			want string
		}{{"CheckSpecs", s.CheckSpecs(), c.specs}, {"CheckPending", s.CheckPending(), c.pending}} {
			if k.want == "" && k.err != nil || k.want != "" && (k.err == nil || !strings.Contains(k.err.Error(), k.want) || strings.Contains(k.err.Error(), "\n")) {
				t.Errorf("%s: %s: %v; want %q", name, k.what, k.err, k.want)
			}
		}
		if _, err := s.Resolve(); (err != nil) != c.resolveSeesItToo {
			t.Errorf("%s: Resolve: %v", name, err)
		}
		if s.Engines[0] != c.variants[0] {
			t.Errorf("%s: the checks changed the settings' engines: %v", name, s.Engines)
		}
	}
}

// TestSampleExactBounded: an exact solve is bounded by ExactNodes, so
// that -exact on a position far from the end of its game is refused,
// naming it, rather than searched for ever; within the bound the values
// are those of an unbounded solve.
func TestSampleExactBounded(t *testing.T) {
	s := DefaultSampleSettings(diceGame)
	s.Count, s.Min, s.Max, s.Seed, s.Exact = 3, 17, 19, 7, true
	bounded, err := SampleSuite(context.Background(), s, runs.NoProgress)
	if err != nil {
		t.Fatal(err)
	}
	s.ExactNodes = math.MaxInt64
	if whole, err := SampleSuite(context.Background(), s, runs.NoProgress); err != nil || !slices.Equal(bounded, whole) {
		t.Errorf("bounded %q, unbounded %q (%v)", bounded, whole, err)
	}
	s.ExactNodes = 1000
	_, err = SampleSuite(context.Background(), s, runs.NoProgress)
	if !runs.IsUsage(err) || !strings.HasPrefix(err.Error(), "-exact: position \"5 4 ") || !strings.Contains(err.Error(), "is not solved within 1000 nodes (-exact-nodes)") {
		t.Errorf("a solve past its bound: %v", err)
	}
	s.ExactNodes = 0
	if _, err := SampleSuite(context.Background(), s, runs.NoProgress); !runs.IsUsage(err) || !strings.Contains(err.Error(), "-exact-nodes 0") {
		t.Errorf("-exact-nodes 0: %v", err)
	}
}
