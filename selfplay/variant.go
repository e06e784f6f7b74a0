package selfplay

import (
	"starlab/runs"
	"starlab/search"
	diceengine "starlab/search/engine/dice"
)

// Variant is an engine configuration under test: a search.Spec with at
// least one limit, resolved (its files loaded) once so that every worker
// builds its own engine from it. Its name is the canonical spec, whatever
// order the keys were given in:
//
//	staretc:depth=9,eval=pairs
//	cpc:movetime=100ms,eval=pairs,t=1.6
//	star2:nodes=200000,eval=zero
type Variant struct {
	Spec     search.Spec
	Resolved *search.Resolved
}

// ParseVariant parses a variant spec (the grammar of search.ParseSpec) and
// resolves it. Errors are usage errors (runs.UsageError), in one line naming
// the spec. A depth that ends on a chance ply is refused: a player searches
// rolled positions, so an even depth has the value of the odd depth below it
// at two to three times the cost.
func ParseVariant(spec string) (Variant, error) {
	s, err := ParseVariantSpec(spec)
	if err != nil {
		return Variant{}, err
	}
	r, err := s.Config.Resolve()
	if err != nil {
		return Variant{}, runs.Usagef("spec %q: %w", spec, err)
	}
	return Variant{Spec: s, Resolved: r}, nil
}

// ParseVariantSpec is ParseVariant without opening the files the spec
// names (a pipeline checks the variants before it makes them): the
// grammar, a limit, and a depth that does not end on a chance ply.
func ParseVariantSpec(spec string) (search.Spec, error) {
	s, err := search.ParseSpec(spec)
	if err != nil {
		return s, runs.Usagef("%v", err)
	}
	if s.Limits == (search.Limits{}) {
		return s, runs.Usagef("spec %q: no limit (give depth=, nodes= or movetime=)", spec)
	}
	if d := s.Limits.Depth; d > 0 && search.EndsOnChance(true, d) { // players search rolled positions
		return s, runs.Usagef("spec %q: depth=%d ends on a chance ply and plays as depth=%d at two to three times the cost (no evaluator reads the roll); give an odd depth", spec, d, d-1)
	}
	return s, nil
}

// Name returns the canonical spec, the variant's identity.
func (v Variant) Name() string { return v.Spec.String() }

// Deterministic reports whether the variant's games are a pure function of
// their seed: true unless a time limit is set.
func (v Variant) Deterministic() bool { return v.Spec.Limits.MoveTime == 0 }

// NewPlayer returns a player with its own engine for the variant.
func (v Variant) NewPlayer() *EnginePlayer {
	return NewEnginePlayer(v.Name(), diceengine.New(v.Resolved), v.Spec.Limits)
}
