package gametest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"

	"starlab/search/game"
)

// maxPlies bounds a game's states (decisions and chance nodes): far beyond
// any game the contract serves, so a game still going is one that does not
// end.
const maxPlies = 10000

// stream is the PCG stream of Check's random source, fixed so that the
// caller's seed alone picks the games.
const stream = 0x67616d6574657374 // "gametest"

// Check plays games random games of variant of g through the contract,
// drawing moves and events with a PCG seeded by seed, and fails t at the
// first state that breaks the contract (see the package documentation for
// what it checks). sep is the separator of g's moves in game records, its
// description's (search.Description.MoveSep): " " or a separator no
// move's text holds.
func Check(t *testing.T, g game.Game, sep, variant string, seed uint64, games int) {
	t.Helper()
	if err := check(g, sep, variant, seed, games, maxPlies, false); err != nil {
		t.Fatal(err)
	}
}

// CheckFixedSigns is Check with the fixed signs of game.State checked too
// at every state: a decision's children have the other side as Mover, a
// chance node's the node's own. An engine whose game.go says so
// (signsFollowMover false) reads no mover per node and is wrong on a game
// that breaks them; search/engine/enginetest calls it for such engines.
func CheckFixedSigns(t *testing.T, g game.Game, sep, variant string, seed uint64, games int) {
	t.Helper()
	if err := check(g, sep, variant, seed, games, maxPlies, true); err != nil {
		t.Fatal(err)
	}
}

// walk is what check remembers across the states it has seen.
type walk struct {
	g       game.Game
	sep     string // the separator of moves in records
	variant string
	rng     *rand.Rand
	keyOf   map[string]uint64 // String -> Key
	textOf  map[uint64]string // Key -> String
	fixed   bool              // check the fixed signs (CheckFixedSigns)
}

// check is Check (or, with fixed, CheckFixedSigns) returning the first
// violation as an error.
func check(g game.Game, sep, variant string, seed uint64, games, plies int, fixed bool) error {
	if games < 1 {
		return fmt.Errorf("gametest: %d games checks nothing; give at least 1", games)
	}
	if g.Name() == "" {
		return fmt.Errorf("gametest: the game has no Name")
	}
	if _, err := g.New(g.DefaultVariant()); err != nil {
		return fmt.Errorf("gametest: %s: New of the default variant %q: %v", g.Name(), g.DefaultVariant(), err)
	}
	first, err := g.New(variant)
	if err != nil {
		return fmt.Errorf("gametest: %s: New(%q): %v", g.Name(), variant, err)
	}
	w := &walk{
		sep:     sep,
		g:       g,
		variant: variant,
		rng:     rand.New(rand.NewPCG(seed, stream)),
		keyOf:   map[string]uint64{},
		textOf:  map[uint64]string{},
		fixed:   fixed,
	}
	for i := 0; i < games; i++ {
		s, err := g.New(variant)
		if err != nil {
			return fmt.Errorf("gametest: %s %s game %d: New: %v", g.Name(), variant, i, err)
		}
		if s.String() != first.String() {
			return fmt.Errorf("gametest: %s %s game %d: New gives %q, the first game started at %q", g.Name(), variant, i, s, first)
		}
		for ply := 0; ; ply++ {
			if ply == plies {
				return fmt.Errorf("gametest: %s %s game %d: not over after %d plies, at %q", g.Name(), variant, i, plies, s)
			}
			text := s.String()
			over, problems := w.step(s)
			if len(problems) > 0 {
				return fmt.Errorf("gametest: %s %s game %d ply %d, state %q:\n\t%s", g.Name(), variant, i, ply, text, strings.Join(problems, "\n\t"))
			}
			if over {
				break
			}
		}
	}
	return nil
}

// step checks the contract at s and, unless s is over or broken, plays a
// move or event drawn at random on it. It returns whether s is over and
// the problems found.
func (w *walk) step(s game.State) (over bool, problems []string) {
	bad := func(format string, args ...any) {
		problems = append(problems, fmt.Sprintf(format, args...))
	}
	g := w.g
	text, key := s.String(), s.Key()
	kind, mover := s.Kind(), s.Mover()
	if kind != game.Decision && kind != game.Chance && kind != game.Over {
		bad("Kind is %d, not Decision, Chance or Over", kind)
		return false, problems
	}
	if mover != 0 && mover != 1 {
		bad("Mover is %d, not 0 or 1", mover)
	}
	if v := g.Variant(s); v != w.variant {
		bad("Variant is %q in a game of %q", v, w.variant)
	}
	phase := g.Phase(s)
	if phase < 0 {
		bad("Phase is %d, negative", phase)
	}
	if lo, hi := g.PhaseRange(s); kind != game.Over && (phase < lo || phase > hi) {
		bad("Phase is %d, outside PhaseRange's %d to %d", phase, lo, hi)
	}

	w.checkHooks(s, kind, bad)

	moves := s.Legal(nil)
	events, total := s.Outcomes(nil)
	if stale := s.Legal([]game.Move{1, 2, 3}); !slices.Equal(stale, moves) {
		bad("Legal into a buffer holding [1 2 3] gives %v, into nil %v: Legal must append to dst[:0]", stale, moves)
	}
	if stale, st := s.Outcomes([]game.Event{{ID: 1, Weight: 1}}); !slices.Equal(stale, events) || st != total {
		bad("Outcomes into a buffer holding [{1 1}] gives %v, %d, into nil %v, %d: Outcomes must append to dst[:0]", stale, st, events, total)
	}
	switch kind {
	case game.Decision:
		if len(moves) == 0 {
			bad("a decision without legal moves")
		}
		if len(events) != 0 || total != 0 {
			bad("a decision with chance events %v (total %d)", events, total)
		}
	case game.Chance:
		if len(events) == 0 {
			bad("a chance node without events")
		}
		if len(moves) != 0 {
			bad("a chance node with legal moves %v", moves)
		}
		sum := 0
		for _, e := range events {
			if e.Weight == 0 {
				bad("event %d has weight 0", e.ID)
			}
			sum += int(e.Weight)
		}
		if sum != total {
			bad("event weights sum to %d, Outcomes says the total is %d", sum, total)
		}
	case game.Over:
		if len(moves) != 0 || len(events) != 0 || total != 0 {
			bad("a state that is over has legal moves %v or chance events %v (total %d)", moves, events, total)
		}
		if r := s.Result(); math.IsNaN(r) || r < -1 || r > 1 {
			bad("Result is %v, not in [-1, 1]", r)
		}
	}
	if d, ok := duplicate(moves, func(m game.Move) game.Move { return m }); ok {
		bad("move %d is legal twice", d)
	}
	if d, ok := duplicate(events, func(e game.Event) uint16 { return e.ID }); ok {
		bad("event %d happens twice", d)
	}

	if p, err := g.Parse(text); err != nil {
		bad("Parse of String fails: %v", err)
	} else if p == nil {
		bad("Parse of String gives a nil state and no error")
	} else {
		if p.String() != text {
			bad("Parse of String gives %q", p.String())
		}
		if p.Key() != key {
			bad("Parse of String gives Key %#x, the state has %#x", p.Key(), key)
		}
		if p.Kind() != kind || p.Mover() != mover {
			bad("Parse of String gives a %v with mover %d, the state is a %v with mover %d", p.Kind(), p.Mover(), kind, mover)
		}
		if pp := g.Phase(p); pp != phase {
			bad("Parse of String gives Phase %d, the state has %d", pp, phase)
		}
	}

	for _, m := range moves {
		mt := g.FormatMove(s, m)
		if sep := w.sep; sep == " " {
			if mt == "" || strings.IndexFunc(mt, unicode.IsSpace) >= 0 {
				bad("FormatMove(%d) is %q, not one word", m, mt)
			}
		} else if strings.TrimSpace(mt) != mt || mt == "" || strings.Contains(mt, sep) || strings.ContainsAny(mt, "\n\r") {
			bad("FormatMove(%d) is %q: not one line, or holds the records' separator %q", m, mt, sep)
		}
		back, err := g.ParseMove(s, mt)
		if err != nil {
			bad("ParseMove(%q), the text of move %d, fails: %v", mt, m, err)
		} else if back != m {
			bad("ParseMove(%q), the text of move %d, gives move %d", mt, m, back)
		}
	}
	eventText := map[string]uint16{}
	for _, e := range events {
		et := g.FormatEvent(s, e)
		if et == "" || strings.ContainsAny(et, "\n\r") {
			bad("FormatEvent(%d) is %q, not one non-empty line", e.ID, et)
		}
		// A game record keeps the last word of the text (selfplay's
		// Notation), so the last words must tell the events apart.
		words := strings.Fields(et)
		last := et
		if len(words) > 0 {
			last = words[len(words)-1]
		}
		if id, ok := eventText[last]; ok {
			bad("FormatEvent gives events %d and %d the same last word %q, which stands for an event in game records", id, e.ID, last)
		}
		eventText[last] = e.ID
	}

	if s.String() != text || s.Key() != key {
		bad("the calls that only read changed the state to %q (key %#x from %#x)", s.String(), s.Key(), key)
	}
	if k, ok := w.keyOf[text]; ok && k != key {
		bad("Key is %#x, an earlier state with the same String had %#x", key, k)
	}
	if t, ok := w.textOf[key]; ok && t != text {
		bad("Key %#x is also the Key of %q: two states with different Strings share a Key", key, t)
	}
	w.keyOf[text] = key
	w.textOf[key] = text

	c, d := s.Clone(), s.Clone()
	if c.String() != text || c.Key() != key || c.Kind() != kind || c.Mover() != mover {
		bad("Clone is %q (key %#x, %v, mover %d), the state %q (key %#x, %v, mover %d)", c.String(), c.Key(), c.Kind(), c.Mover(), text, key, kind, mover)
	}
	if len(problems) == 0 && w.fixed {
		w.checkSigns(s, mover, moves, events, bad)
	}
	if len(problems) > 0 || kind == game.Over {
		return kind == game.Over, problems
	}

	apply := w.draw(kind, moves, events, total)
	apply(c)
	if s.String() != text || s.Key() != key {
		bad("playing on a Clone changed the original to %q (key %#x)", s.String(), s.Key())
		return false, problems
	}
	apply(s)
	if s.String() != c.String() || s.Key() != c.Key() {
		bad("the same step gives %q (key %#x) on the state, %q (key %#x) on its Clone", s.String(), s.Key(), c.String(), c.Key())
	}
	if d.String() != text || d.Key() != key {
		bad("playing on the original changed its Clone to %q (key %#x)", d.String(), d.Key())
	}
	d.CopyFrom(s)
	if d.String() != s.String() || d.Key() != s.Key() || d.Kind() != s.Kind() || d.Mover() != s.Mover() {
		bad("CopyFrom gives %q (key %#x, %v, mover %d) for %q (key %#x, %v, mover %d)", d.String(), d.Key(), d.Kind(), d.Mover(), s.String(), s.Key(), s.Kind(), s.Mover())
	}
	return false, problems
}

// checkSigns checks the fixed signs of game.State on every child of s: a
// decision's children have the other side as Mover, a chance node's the
// node's own, whatever their kind, over included.
func (w *walk) checkSigns(s game.State, mover int, moves []game.Move, events []game.Event, bad func(string, ...any)) {
	for _, m := range moves {
		c := s.Clone()
		c.Play(m)
		if c.Mover() != 1-mover {
			bad("move %s: its child (%v) has mover %d, the decision's own: a decision's children have the other side as Mover (values are negated on the way up)", w.g.FormatMove(s, m), c.Kind(), c.Mover())
		}
	}
	for _, e := range events {
		c := s.Clone()
		c.Happen(e)
		if c.Mover() != mover {
			bad("event %q: its child (%v) has mover %d, the chance node's is %d: a chance node's children have its Mover (values are not negated on the way up)", w.g.FormatEvent(s, e), c.Kind(), c.Mover(), mover)
		}
	}
}

// draw picks a move uniformly or an event by weight and returns the step
// that plays it.
func (w *walk) draw(kind game.Kind, moves []game.Move, events []game.Event, total int) func(game.State) {
	if kind == game.Decision {
		m := moves[w.rng.IntN(len(moves))]
		return func(s game.State) { s.Play(m) }
	}
	e, ok := game.EventAt(events, w.rng.IntN(total))
	if !ok {
		e = events[len(events)-1]
	}
	return func(s game.State) { s.Happen(e) }
}

// duplicate returns the first key of xs that repeats.
func duplicate[T any, K comparable](xs []T, key func(T) K) (K, bool) {
	seen := make(map[K]bool, len(xs))
	for _, x := range xs {
		k := key(x)
		if seen[k] {
			return k, true
		}
		seen[k] = true
	}
	var zero K
	return zero, false
}

// checkHooks checks the optional behaviour a state offers (the hooks of
// package game): a Picture is whole lines, a description is not empty, a
// finished game says why it is over, and its points are not negative and
// none where the game is not over.
func (w *walk) checkHooks(s game.State, kind game.Kind, bad func(string, ...any)) {
	if p, ok := s.(game.Picturer); ok {
		if pic := p.Picture(); pic == "" || !strings.HasSuffix(pic, "\n") {
			bad("Picture is %q: not one or more lines ending in a newline", pic)
		}
	}
	if d, ok := s.(game.Describer); ok && strings.TrimSpace(d.Describe()) == "" {
		bad("Describe is empty")
	}
	if e, ok := s.(game.Ender); ok && kind == game.Over {
		if end := e.End(); strings.TrimSpace(end) == "" || strings.ContainsAny(end, "\n\r") {
			bad("End of a finished game is %q, not a few words on one line", end)
		}
	}
	if p, ok := s.(game.Pointer); ok && kind == game.Over && p.Points() < 0 {
		bad("Points of a finished game is %d, negative", p.Points())
	}
}
