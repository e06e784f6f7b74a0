package selfplay

import (
	"fmt"
	"runtime"

	"starlab/outside"
	"starlab/runs"
	"starlab/search"
	"starlab/search/game"
)

// LuckRef returns game g's default luck reference for variant, the search
// that values the chance events: StarETC to the game's luck depth
// (Defaults.LuckDepth, 3 unless the game says otherwise) with its luck
// evaluator (Kit.LuckEval: its hand evaluator unless the game says
// otherwise) and a 1 MiB table (staretc:depth=3,eval=pairs,tt=1 in
// Dice). In Dice depth 3 reduced the variance of d5-d1 matches more than
// depth 1 (ratio 2.14 against 1.92 over 2,000 games) for about a third
// fewer games per second.
func LuckRef(g search.Kit, variant string) string {
	d := g.Defaults.LuckDepth
	if d == 0 {
		d = 3
	}
	eval := g.HandEval
	if g.LuckEval != nil {
		eval = g.LuckEval(variant)
	}
	return fmt.Sprintf("staretc:depth=%d,eval=%s,tt=1", d, eval)
}

// MatchSettings configure the match stage: two variants head to head, or
// every pair of three or more (a round robin; with Gauntlet only the first
// against the others), in a game given by the caller. They are recorded
// whole in the run's manifest, from which a resumed run reads them back,
// all but Game, which the caller looks up by GameName.
type MatchSettings struct {
	Format string `json:"format"`
	// Kit is the game played; it is not recorded, GameName is.
	Kit      search.Kit `json:"-"`
	GameName string     `json:"game"` // Game's name, filled by Resolve
	// Variant is the game's variant the match is played in (Dice
	// "5x5-4"): "" is the suite's, or the game's default without a
	// suite. Filled by Resolve.
	Variant string `json:"variant"`
	// Engines are the match's engines as canonical specs (filled by
	// Resolve); their JSON key is "variants", as in the runs of earlier
	// versions.
	Engines  []string `json:"variants"`
	Gauntlet bool     `json:"gauntlet"`
	Games    int      `json:"games"` // per pairing, even
	Seed     uint64   `json:"seed"`
	Suite    string   `json:"suite,omitempty"`
	// Starts are the start positions in the game's notation: the suite's
	// positions (a Dice position after the roll taken back to before
	// it), or the start of Variant. Filled by Resolve when empty.
	Starts []string `json:"starts"`
	Luck   string   `json:"luck"` // luck reference spec, "none", or "" for the game's (LuckRef), which Resolve fills in
	// Products are the files the specs name as {name} (a pipeline's net
	// and fit: search.Products).
	Products    search.Products `json:"products,omitempty"`
	SPRT        string          `json:"sprt,omitempty"`
	Concurrency int             `json:"concurrency"`
	Shard       runs.Shard      `json:"shard,omitzero"`
	// DiceSize is what settings of format starlab-match/2 held in place
	// of the variant, refused by their format.
	runs.DiceSize
	// Programs are where the outside engines' programs were found when
	// the run started (Prepare): a resumed run runs the same programs in
	// the same working directories, wherever it is resumed from.
	Programs []outside.Program `json:"programs,omitempty"`
	// started is set by Prepare, which started each outside program
	// once: RunMatch, in the same process, need not start them again.
	started bool
}

// DefaultMatchSettings returns the settings of a 200-game match of g from
// the start of its default variant, seed 1, with the game's luck
// reference (Luck "", which Resolve makes LuckRef(g, variant)), on every core.
func DefaultMatchSettings(g search.Kit, variants ...string) MatchSettings {
	return MatchSettings{Format: MatchFormat, Kit: g, Engines: variants, Games: 200, Seed: 1,
		Concurrency: runtime.NumCPU()}
}

// Pairing is one head-to-head of a match: indexes into the variants.
type Pairing struct{ A, B int }

// Pairings returns the head-to-heads in schedule order.
func (s *MatchSettings) Pairings() []Pairing {
	var ps []Pairing
	for i := range s.Engines {
		for j := i + 1; j < len(s.Engines); j++ {
			if s.Gauntlet && i != 0 {
				break
			}
			ps = append(ps, Pairing{i, j})
		}
	}
	return ps
}

// Match is a match's settings turned into values.
type Match struct {
	Settings MatchSettings
	Engines  []Engine
	Starts   []game.State
	Luck     *Engine
	SPRT     *SPRT
}

// Resolve checks the settings, puts the variant and luck specs in canonical
// form, fills the game's name, the variant and the start positions, and
// returns the resolved match. Bad settings give a one-line runs.UsageError
// naming what is wrong.
func (s *MatchSettings) Resolve() (*Match, error) { return s.resolve(openAll) }

// resolve is Resolve opening the files open says (see CheckSpecs and
// CheckPending): without files (openNone) the suite is not read, and the
// start is the variant's; an engine resolved without its files is checked
// on no start position.
func (s *MatchSettings) resolve(open opening) (*Match, error) {
	if s.Format == "" {
		s.Format = MatchFormat
	}
	if s.Format != MatchFormat {
		return nil, fmt.Errorf("match settings of format %q, this build reads %q", s.Format, MatchFormat)
	}
	if s.N != 0 || s.M != 0 {
		return nil, runs.Usagef("match settings with n %d and m %d: give the variant (Dice %q)", s.N, s.M, "<n>x<n>-<m>")
	}
	g := s.Kit
	if err := g.Bind("match settings", &s.GameName); err != nil {
		return nil, err
	}
	if len(s.Engines) < 2 {
		return nil, runs.Usagef("need at least two variants")
	}
	if s.Games < 2 || s.Games%2 != 0 {
		return nil, runs.Usagef("-games %d: want an even number of at least 2 (games come in pairs)", s.Games)
	}
	if err := runs.CheckWorkers("concurrency", s.Concurrency); err != nil {
		return nil, err
	}
	m := &Match{}
	seen, err := s.parseEngines(m, open)
	if err != nil {
		return nil, err
	}
	if err := s.resolveStarts(m, open); err != nil {
		return nil, err
	}
	if err := s.parseLuck(m, seen, open); err != nil {
		return nil, err
	}
	if s.SPRT != "" {
		sp, err := ParseSPRT(s.SPRT)
		if err != nil {
			return nil, runs.Usagef("-sprt: %v", err)
		}
		if len(s.Engines) != 2 {
			return nil, runs.Usagef("-sprt needs exactly two variants")
		}
		if s.Shard.Count > 1 {
			return nil, runs.Usagef("-sprt cannot run on a shard: its stopping point needs every pair in order")
		}
		m.SPRT = &sp
	}
	m.Settings = *s
	return m, nil
}

// resolveStarts fills in the start positions when the settings give none
// (the suite's, when open reads it, or else the variant's start), and the
// variant from the first when the settings give none; it checks each
// position against the match's variant and engines, and puts it in m.
func (s *MatchSettings) resolveStarts(m *Match, open opening) error {
	g := s.Kit
	if len(s.Starts) == 0 {
		if s.Suite != "" && open != openNone {
			ps, err := search.ReadSuite(g, s.Suite)
			if err != nil {
				return runs.Usage(err) // a file the user named
			}
			for _, p := range ps {
				s.Starts = append(s.Starts, beforeChance(g, p.Pos).String())
			}
		} else {
			if s.Variant == "" {
				s.Variant = g.DefaultVariant()
			}
			st, err := g.New(s.Variant)
			if err != nil {
				return runs.Usagef("-variant %s: %v", s.Variant, err)
			}
			s.Starts = []string{st.String()}
		}
	}
	for i, text := range s.Starts {
		st, err := g.Parse(text)
		if err != nil {
			return fmt.Errorf("start position %d: %v", i+1, err)
		}
		if st.Kind() == game.Over {
			return runs.Usagef("start position %d (%s) is over", i+1, text)
		}
		if s.Variant == "" {
			s.Variant = g.Variant(st)
		}
		if v := g.Variant(st); v != s.Variant {
			return runs.Usagef("start position %d (%s) is of variant %s, the match's is %s", i+1, text, v, s.Variant)
		}
		m.Starts = append(m.Starts, st)
		for _, v := range m.Engines {
			if v.Resolved == nil { // an outside engine, or one checked without its files
				continue
			}
			if err := g.Check(v.Resolved, st); err != nil {
				return runs.Usagef("variant %s, start position %d: %v", v.Name(), i+1, err)
			}
		}
	}
	return nil
}
