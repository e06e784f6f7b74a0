package selfplay

import (
	"context"
	"slices"
	"strings"

	"starlab/outside"
	"starlab/outside/engines"
	"starlab/runs"
	"starlab/search"
)

// opening says which files a check of a match's settings opens: every one
// (Resolve, before a match is played), all but the products a pipeline's
// earlier stages have yet to make (CheckPending), or none (CheckSpecs).
// The rules are the same in all three: one parser of a match's engines
// and one of its luck reference, whoever gives them (match's arguments
// and -luck, a recipe's variants and luck).
type opening int

const (
	openAll  opening = iota // every file the specs name, the products from Products
	openMade                // every file but those of the products ({net}, {probcut})
	openNone                // no file, and no suite: the specs' grammar and the rules alone
)

// CheckSpecs checks the match's engines and luck reference by the rules
// Resolve applies, without opening a file they name or reading the suite:
// what a pipeline checks of each match when it loads a recipe. Engines
// are parsed as match parses them (an outside engine, ext: or gnubg:, as
// well as a search), and the luck reference as match's -luck is.
func (s MatchSettings) CheckSpecs() error {
	s.Engines = slices.Clone(s.Engines)
	_, err := s.resolve(openNone)
	return err
}

// CheckPending is Resolve for a match that a pipeline plays after the
// stages that make the products its specs may name ({net}, {probcut}):
// every engine and the luck reference parsed and checked, those that name
// a product without its file, the others resolved on the start positions
// as match resolves them. A pipeline calls it for every match of a recipe
// before its run directory exists, so that no recipe is half run for a
// spec it could have refused. Outside engines' programs are looked for
// as match looks for them (Prepare), but not started.
func (s MatchSettings) CheckPending() error {
	_, err := s.pending()
	return err
}

// pending resolves a copy of s as CheckPending does and locates its
// programs, returning the match.
func (s MatchSettings) pending() (*Match, error) {
	s.Engines = slices.Clone(s.Engines)
	s.Programs = slices.Clone(s.Programs)
	m, err := s.resolve(openMade)
	if err != nil {
		return nil, err
	}
	return m, m.locate()
}

// StartPending is CheckPending that also starts each outside program
// once and stops it, as Prepare does: a pipeline calls it before its run
// directory exists, so that a recipe whose engine cannot play is refused
// before its first stage, in one line with the program's last words.
func (s MatchSettings) StartPending(ctx context.Context) error {
	m, err := s.pending()
	if err != nil {
		return err
	}
	return m.startChecked(ctx)
}

// parseEngine parses an engine spec of the match, a player's or the luck
// reference's: an outside engine (ext:, gnubg:), or a search resolved with
// its files and the settings' products (ParseEngineIn), or, where open
// says so, checked without them (ParseEngineSpec), its Resolved nil.
func (s *MatchSettings) parseEngine(spec string, open opening) (Engine, error) {
	g := s.Kit
	if engines.IsOutside(spec) || open == openAll || open == openMade && len(search.SpecProducts(spec)) == 0 {
		return ParseEngineIn(g, spec, s.Products)
	}
	sp, err := ParseEngineSpec(g, spec)
	if err != nil {
		return Engine{}, err
	}
	return Engine{Kit: g, Spec: sp}, nil
}

// parseEngines parses the match's engines into m, each spec put in its
// canonical form, and refuses one given twice in a tournament; it returns
// the engines' names.
func (s *MatchSettings) parseEngines(m *Match, open opening) (map[string]bool, error) {
	seen := map[string]bool{}
	for i, spec := range s.Engines {
		v, err := s.parseEngine(spec, open)
		if err != nil {
			return nil, err
		}
		s.Engines[i] = v.Name()
		if seen[v.Name()] && len(s.Engines) > 2 {
			return nil, runs.Usagef("variant %s given twice in a tournament", v.Name())
		}
		seen[v.Name()] = true
		m.Engines = append(m.Engines, v)
	}
	return seen, nil
}

// DefaultLuck returns the luck reference of a match of g's variant that
// names none: the game's (LuckRef), or "none" where the variant's games
// are played for points (search.Kit.PlayedForPoints), whose luck no match reports.
func DefaultLuck(g search.Kit, variant string) string {
	if g.PlayedForPoints(variant) {
		return "none"
	}
	return LuckRef(g, variant)
}

// parseLuck parses the match's luck reference into m, after its engines
// and start positions: "" is DefaultLuck, "none" is none, and any other is
// an engine spec that values positions (a search, or gnubg), apart from
// the players (no program under test, no variant of the match), with a
// depth or node limit, that can search the start positions. A match whose
// games are played for points reports no luck-adjusted score (see
// Summarize): its luck, valued on the points' scale, does not subtract
// from a win-or-loss score, so a reference for it is refused rather than
// run to no purpose.
func (s *MatchSettings) parseLuck(m *Match, seen map[string]bool, open opening) error {
	g := s.Kit
	if s.Luck == "" {
		s.Luck = DefaultLuck(g, s.Variant)
	}
	if s.Luck == "none" {
		return nil
	}
	if g.PlayedForPoints(s.Variant) {
		if sameSpec(g, s.Luck, LuckRef(g, s.Variant)) {
			// Earlier builds recorded the game's reference for a match
			// played for points, unused; such a run resumes without it.
			s.Luck = "none"
			return nil
		}
		return runs.Usagef("-luck %s: %s %s games are played for points, and a match of them reports no luck-adjusted score (their luck is valued in points, not in the win-or-loss score); leave -luck out", s.Luck, g.Name(), s.Variant)
	}
	v, err := s.parseEngine(s.Luck, open)
	if err != nil {
		return runs.Usagef("-luck: %v", err)
	}
	if err := checkReference(v); err != nil {
		return err
	}
	if v.Outside != nil {
		kind, _, _ := strings.Cut(v.Name(), ":")
		for _, e := range m.Engines {
			if strings.HasPrefix(e.Name(), kind+":") {
				return runs.Usagef("-luck %s: %s is under test; the reference must be a program apart from the players", v.Name(), e.Name())
			}
		}
	}
	if seen[v.Name()] {
		return runs.Usagef("-luck %s is one of the variants under test; the reference must be fixed apart from them", v.Name())
	}
	for i, st := range m.Starts {
		if v.Resolved == nil {
			break
		}
		if err := g.Check(v.Resolved, st); err != nil {
			return runs.Usagef("-luck %s, start position %d: %v", v.Name(), i+1, err)
		}
	}
	s.Luck = v.Name()
	m.Luck = &v
	return nil
}

// checkReference refuses, as -luck, a luck reference that cannot value
// positions (an outside engine other than gnubg) or whose values depend on
// the machine (a time limit): the rules of a match's reference and a
// rollout's alike.
func checkReference(v Engine) error {
	if _, ok := v.Outside.(outside.ValuerEngine); v.Outside != nil && !ok {
		return runs.Usagef("-luck %s: this outside engine cannot value positions; give one of starlab's searches (or gnubg)", v.Name())
	}
	if !v.Deterministic() {
		return runs.Usagef("-luck %s: the reference needs a depth or node limit, not a time limit", v.Name())
	}
	return nil
}

// sameSpec reports whether a and b are one search of g, whatever the
// order of their keys.
func sameSpec(g search.Kit, a, b string) bool {
	x, err := ParseEngineSpec(g, a)
	y, err2 := ParseEngineSpec(g, b)
	return err == nil && err2 == nil && x.String() == y.String()
}
