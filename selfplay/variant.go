package selfplay

import (
	"starlab/outside"
	"starlab/outside/engines"
	"starlab/runs"
	"starlab/search"
	"starlab/search/game"
)

// Engine is an engine configuration under test: a search.Spec with at
// least one limit, for a game, resolved (its files loaded) once so that
// every worker builds its own engine from it. Its name is the canonical
// spec, whatever order the keys were given in:
//
//	staretc:depth=9,eval=pairs
//	cpc:movetime=100ms,eval=pairs,t=1.6
//	star2:nodes=200000,eval=zero
//
// An outside engine (ext:, gnubg:; outside.Engine) has Outside set and no Spec.
type Engine struct {
	Kit      search.Kit
	Spec     search.Spec
	Resolved *search.Resolved
	Outside  outside.Engine
}

// ParseEngine parses an engine spec of game g (the grammar of
// search.ParseSpec) and resolves it. Errors are usage errors
// (runs.UsageError), in one line naming the spec. A depth that ends on a
// chance ply is refused (ParseEngineSpec).
func ParseEngine(g search.Kit, spec string) (Engine, error) {
	return ParseEngineIn(g, spec, nil)
}

// ParseEngineIn is ParseEngine with the files a spec names as products
// ({net}, {probcut}: search.Products) taken from products; the engine's
// name keeps the products' names.
func ParseEngineIn(g search.Kit, spec string, products search.Products) (Engine, error) {
	if engines.IsOutside(spec) {
		o, err := engines.Parse(g, spec)
		if err != nil {
			return Engine{}, runs.Usage(err)
		}
		return Engine{Kit: g, Outside: o}, nil
	}
	s, err := ParseEngineSpec(g, spec)
	if err != nil {
		return Engine{}, err
	}
	r, err := s.Config.ResolveIn(products)
	if err != nil {
		return Engine{}, runs.Usagef("spec %q: %w", spec, err)
	}
	return Engine{Kit: g, Spec: s, Resolved: r}, nil
}

// ParseEngineSpec is ParseEngine without opening the files the spec
// names (a pipeline checks the variants before it makes them): the
// grammar, a limit, and a depth that does not end on a chance ply. A
// player searches decisions, and where a search to such a depth ends on a
// chance ply (g.EndsOnChance: Dice, whose depth counts the rolls and whose
// evaluators do not read them, at an even depth) it has the value of the
// depth below at two to three times the cost.
func ParseEngineSpec(g search.Kit, spec string) (search.Spec, error) {
	return parseSpec(g, spec, someDecision(g))
}

// ParseTargetSpec is ParseEngineSpec for a search of afterstates, the
// positions a move leads to, as training's target searches are: no depth
// is refused. From an afterstate before the roll (Dice, Backgammon) an
// even depth ends on a move and an odd one on a chance ply, which values
// as the depth below at two to three times the cost; both are taken, so
// that the odd depths runs have used (Dice's default target, depth=5)
// stay valid.
func ParseTargetSpec(g search.Kit, spec string) (search.Spec, error) {
	return parseSpec(g, spec, nil)
}

// parseSpec parses and checks spec for searches from roots of root's
// kind (nil: no depth is refused).
func parseSpec(g search.Kit, spec string, root game.State) (search.Spec, error) {
	s, err := g.ParseSpec(spec)
	if err != nil {
		return s, runs.Usagef("%v", err)
	}
	if err := g.CheckEval(s.Config); err != nil {
		return s, runs.Usagef("spec %q: %v", spec, err)
	}
	if s.Limits == (search.Limits{}) {
		return s, runs.Usagef("spec %q: no limit (give depth=, nodes= or movetime=)", spec)
	}
	if d := s.Limits.Depth; d > 0 && root != nil && g.EndsOnChance(root, d) {
		return s, runs.Usagef("spec %q: depth=%d ends on a chance ply and plays as depth=%d at two to three times the cost (no evaluator reads the chance event); give depth=%d or depth=%d", spec, d, d-1, d-1, d+1)
	}
	return s, nil
}

// someDecision returns a decision of g, the kind of root a player
// searches: the first reached from the start of g's default variant
// through the first event of every chance node on the way, or nil if none
// is (a game whose start is over).
func someDecision(g search.Kit) game.State {
	s, err := g.New(g.DefaultVariant())
	if err != nil {
		return nil
	}
	var events []game.Event
	for s.Kind() == game.Chance {
		if events, _ = s.Outcomes(events); len(events) == 0 {
			return nil
		}
		s.Happen(events[0])
	}
	if s.Kind() != game.Decision {
		return nil
	}
	return s
}

// Name returns the canonical spec, the variant's identity.
func (v Engine) Name() string {
	if v.Outside != nil {
		return v.Outside.Name()
	}
	return v.Spec.String()
}

// Deterministic reports whether the variant's games are a pure function of
// their seed: true unless a time limit is set.
func (v Engine) Deterministic() bool {
	if v.Outside != nil {
		return v.Outside.Deterministic()
	}
	return v.Spec.Limits.MoveTime == 0
}

// NewPlayer returns a player with its own engine for the variant, a
// search engine's (not an outside engine's: Outside is nil).
func (v Engine) NewPlayer() *EnginePlayer {
	return NewEnginePlayer(v.Name(), v.Kit.NewEngine(v.Resolved), v.Spec.Limits)
}
