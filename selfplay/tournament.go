package selfplay

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"starlab/outside"
	"strings"
	"sync"
	"time"

	"starlab/runs"
	"starlab/search"
	"starlab/search/game"
)

// MatchFormat versions the match stage's files: games.parquet (key-value
// metadata runs.FormatKey, beside GameKey and VariantKey), the journal's
// header and summary.json. Version 3 records the game and its variant in
// the settings and in every game, and a game as its actions; a journal of
// an earlier version is refused.
const MatchFormat = "starlab-match/3"

// The key-value metadata of games.parquet that name the match's game and
// variant.
const (
	GameKey    = "starlab.game"
	VariantKey = "starlab.variant"
)

// The match stage's files in its run directory.
const (
	MatchJournal = "pairs.jsonl"   // one MatchRecord per finished pair
	GamesFile    = "games.parquet" // one GameRow per game
	SummaryFile  = "summary.json"  // the MatchReport
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
	// Game is the game played; it is not recorded, GameName is.
	Game     search.Kit `json:"-"`
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
	// N and M are the Dice board size and win length that settings of
	// format starlab-match/2 held in place of the variant. They are read
	// so that such settings (a run to resume) are refused by their
	// format, in one line, and are not written.
	N int `json:"n,omitzero"`
	M int `json:"m,omitzero"`
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
	return MatchSettings{Format: MatchFormat, Game: g, Engines: variants, Games: 200, Seed: 1,
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
	g := s.Game
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
	if len(s.Starts) == 0 {
		if s.Suite != "" && open != openNone {
			ps, err := search.ReadSuite(g, s.Suite)
			if err != nil {
				return nil, runs.Usage(err) // a file the user named
			}
			for _, p := range ps {
				s.Starts = append(s.Starts, beforeChance(p.Pos).String())
			}
		} else {
			if s.Variant == "" {
				s.Variant = g.DefaultVariant()
			}
			st, err := g.New(s.Variant)
			if err != nil {
				return nil, runs.Usagef("-variant %s: %v", s.Variant, err)
			}
			s.Starts = []string{st.String()}
		}
	}
	for i, text := range s.Starts {
		st, err := g.Parse(text)
		if err != nil {
			return nil, fmt.Errorf("start position %d: %v", i+1, err)
		}
		if st.Kind() == game.Over {
			return nil, runs.Usagef("start position %d (%s) is over", i+1, text)
		}
		if s.Variant == "" {
			s.Variant = g.Variant(st)
		}
		if v := g.Variant(st); v != s.Variant {
			return nil, runs.Usagef("start position %d (%s) is of variant %s, the match's is %s", i+1, text, v, s.Variant)
		}
		m.Starts = append(m.Starts, st)
		for _, v := range m.Engines {
			if v.Resolved == nil { // an outside engine, or one checked without its files
				continue
			}
			if err := g.Check(v.Resolved, st); err != nil {
				return nil, runs.Usagef("variant %s, start position %d: %v", v.Name(), i+1, err)
			}
		}
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

// MatchRecord is one line of the match journal: a finished pair of games of
// one pairing, with the run's active time when it was written.
type MatchRecord struct {
	Pairing  int        `json:"pairing"`
	Pair     PairRecord `json:"pair"`
	ElapsedS float64    `json:"elapsed_s"`
}

// MatchReport is summary.json: the settings and the statistics of every
// pairing, and for three or more variants the ranking.
type MatchReport struct {
	Format   string        `json:"format"`
	Run      string        `json:"run"`
	Settings MatchSettings `json:"settings"`
	// Pairings holds one Summary per head-to-head, in schedule order.
	Pairings []Summary   `json:"pairings"`
	Ranking  []RankEntry `json:"ranking,omitempty"`
}

// RankEntry is a variant's result over all its games in a tournament.
type RankEntry struct {
	Variant string   `json:"variant"`
	Games   int      `json:"games"`
	Score   float64  `json:"score"`
	CI95    float64  `json:"score_ci95"` // over pairs
	Elo     runs.Num `json:"elo"`        // against the field it met
}

// counted groups finished records by pairing and returns, for each, the
// pairs its statistics count, by index: all of them, or with an SPRT those
// before the first prefix where it decided. games is the number of games
// finished in all, counted or not.
func (m *Match) counted(recs []MatchRecord) (pairs [][]PairRecord, games int) {
	byPairing := make([]map[int]PairRecord, len(m.Settings.Pairings()))
	for i := range byPairing {
		byPairing[i] = map[int]PairRecord{}
	}
	for _, r := range recs {
		byPairing[r.Pairing][r.Pair.Index] = r.Pair
	}
	pairs = make([][]PairRecord, len(byPairing))
	for pi, prs := range byPairing {
		games += 2 * len(prs)
		st := pairingState{pairs: prs, stop: -1}
		if m.SPRT != nil {
			st.advance(m.SPRT)
		}
		for _, pr := range prs {
			if st.stop < 0 || pr.Index < st.stop {
				pairs[pi] = append(pairs[pi], pr)
			}
		}
		sort.Slice(pairs[pi], func(a, b int) bool { return pairs[pi][a].Index < pairs[pi][b].Index })
	}
	return pairs, games
}

// Report computes the statistics of a match from its finished records: a
// pure function, so a resumed run, an uninterrupted one and merged shards
// report alike. With an SPRT, each pairing counts the pairs up to the point
// where the test decided.
func Report(m *Match, dir string, recs []MatchRecord) *MatchReport {
	set := m.Settings
	pairings := set.Pairings()
	counted, games := m.counted(recs)
	elapsed := 0.0
	for _, r := range recs {
		elapsed = max(elapsed, r.ElapsedS)
	}
	rep := &MatchReport{Format: MatchFormat, Run: dir, Settings: set}
	for pi, pg := range pairings {
		s := Summarize(set.Engines[pg.A], set.Engines[pg.B], counted[pi], m.Luck != nil, m.SPRT)
		gameShape(set.Game.Game, &s, counted[pi])
		timePerMove(&s, counted[pi])
		s.Seconds = elapsed
		s.GamesPerSec = float64(games) / max(elapsed, 1e-9)
		rep.Pairings = append(rep.Pairings, s)
	}
	if len(pairings) > 1 {
		rep.Ranking = rank(set.Engines, pairings, rep.Pairings)
	}
	return rep
}

// rank orders the variants by their score over all their games, with an
// interval over the pairs they played: the pentanomials of their pairings,
// pooled, which is honest because every pairing has dice of its own.
func rank(variants []string, pairings []Pairing, sums []Summary) []RankEntry {
	type acc struct {
		pen   Pentanomial
		games int
	}
	accs := make([]acc, len(variants))
	for k, pg := range pairings {
		s := sums[k]
		for q := 0; q < 5; q++ {
			accs[pg.A].pen[q] += s.Pentanomial[q]
			accs[pg.B].pen[4-q] += s.Pentanomial[q]
		}
		accs[pg.A].games += s.Games
		accs[pg.B].games += s.Games
	}
	out := make([]RankEntry, len(variants))
	for i, v := range variants {
		p := accs[i].pen
		out[i] = RankEntry{Variant: v, Games: accs[i].games, Score: p.Score(), CI95: p.ScoreCI95(), Elo: runs.Num(p.Elo())}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	return out
}

// pairingState follows one pairing while it plays. The SPRT's prefix and
// its pentanomial grow incrementally, so a long test costs one likelihood
// ratio per pair, not one per pair and prefix.
type pairingState struct {
	pairs  map[int]PairRecord
	all    Pentanomial // every finished pair, for the progress line
	prefix int         // pairs 0..prefix-1 are all finished
	head   Pentanomial // the pentanomial of that prefix
	stop   int         // SPRT stop: pairs 0..stop-1 count; -1 while undecided
}

// advance extends the prefix of consecutive finished pairs and reports
// whether the SPRT has decided within it.
func (st *pairingState) advance(sp *SPRT) bool {
	for st.stop < 0 {
		pr, ok := st.pairs[st.prefix]
		if !ok {
			break
		}
		st.head[pr.Category()]++
		st.prefix++
		if sp.Decision(sp.LLRPentanomial(st.head)) != Continue {
			st.stop = st.prefix
		}
	}
	return st.stop >= 0
}

// LoadMatchRecords reads the journal of a match run whose records belong to
// shard of match m, checking every record with DecodeMatchRecord. A record
// that fails is an error naming the journal, the line and the problem:
// resume and merge read records through here alone, so no hand-edited
// line reaches the statistics.
func LoadMatchRecords(m *Match, dir string, shard runs.Shard) ([]MatchRecord, error) {
	var recs []MatchRecord
	err := runs.LoadJournal(dir, MatchJournal, MatchFormat, func(line []byte) error {
		r, err := m.DecodeMatchRecord(line, shard)
		if err != nil {
			return err
		}
		recs = append(recs, r)
		return nil
	})
	return recs, err
}

// DecodeMatchRecord decodes one journal line and checks it against the
// match: no unknown field; a pairing and pair of the match that shard owns;
// each game of the pair in its round and seat, with the pair's chance seed,
// the match's game, variant and start position; a game that replays
// legally from that start to its end, with the plies, turns and result the
// replay gives; counts, times and elapsed seconds not negative; luck and
// times finite. The journal is the run's own file, so anything else is
// damage.
func (m *Match) DecodeMatchRecord(line []byte, shard runs.Shard) (MatchRecord, error) {
	var r MatchRecord
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return r, fmt.Errorf("bad record: %v", err)
	}
	if dec.More() {
		return r, fmt.Errorf("bad record: more than one JSON value on the line")
	}
	set := &m.Settings
	npairs := set.Games / 2
	if r.Pairing < 0 || r.Pairing >= len(set.Pairings()) {
		return r, fmt.Errorf("pairing %d: the match has %d", r.Pairing, len(set.Pairings()))
	}
	if i := r.Pair.Index; i < 0 || i >= npairs || !shard.Owns(i) {
		return r, fmt.Errorf("pair %d of pairing %d is outside this match (%d pairs, shard %q)", i, r.Pairing, npairs, shard)
	}
	if math.IsNaN(r.ElapsedS) || math.IsInf(r.ElapsedS, 0) || r.ElapsedS < 0 {
		return r, fmt.Errorf("elapsed_s %v: want a finite number of seconds, not negative", r.ElapsedS)
	}
	seed := PairSeed(set.Seed, r.Pairing, r.Pair.Index)
	si := r.Pair.Index % len(m.Starts)
	for k, g := range r.Pair.Games {
		where := fmt.Sprintf("pair %d game %d", r.Pair.Index, k)
		switch {
		case g.Pair != r.Pair.Index:
			return r, fmt.Errorf("%s: pair %d", where, g.Pair)
		case g.Round != k:
			return r, fmt.Errorf("%s: round %d", where, g.Round)
		case g.AIsBlue != (k == 0):
			return r, fmt.Errorf("%s: a_is_blue %v in round %d", where, g.AIsBlue, k)
		case g.Seed != seed:
			return r, fmt.Errorf("%s: seed %d, the match gives it %d", where, g.Seed, seed)
		case g.Start != si:
			return r, fmt.Errorf("%s: start %d, the match gives it %d", where, g.Start, si)
		}
		if err := m.checkGame(&g.Game, m.Starts[si]); err != nil {
			return r, fmt.Errorf("%s: %v", where, err)
		}
		if f := g.Game.Forfeit; f != nil {
			pg := set.Pairings()[r.Pairing]
			v := pg.A
			if g.AIsBlue != (f.Side == 0) {
				v = pg.B
			}
			if m.Engines[v].Outside == nil {
				return r, fmt.Errorf("%s: a forfeit by %s, one of starlab's own engines, which cannot forfeit", where, m.Engines[v].Name())
			}
		}
	}
	return r, nil
}

// checkGame checks a game record against a replay from start.
func (m *Match) checkGame(rec *Record, start game.State) error {
	set := &m.Settings
	switch {
	case rec.Name != set.GameName:
		return fmt.Errorf("game %q, the match's is %q", rec.Name, set.GameName)
	case rec.Variant != set.Variant:
		return fmt.Errorf("variant %q, the match's is %q", rec.Variant, set.Variant)
	case rec.Start != start.String():
		return fmt.Errorf("start %q, the match gives %q", rec.Start, start)
	}
	for c := 0; c < 2; c++ {
		if rec.Nodes[c] < 0 || rec.Depth[c] < 0 || rec.Time[c] < 0 {
			return fmt.Errorf("negative nodes, depth or time (%v, %v, %v)", rec.Nodes, rec.Depth, rec.Time)
		}
	}
	if math.IsNaN(rec.Luck) || math.IsInf(rec.Luck, 0) {
		return fmt.Errorf("luck %v: want a finite number", rec.Luck)
	}
	var turns [2]int
	end, err := rec.Replay(set.Game, func(_ int, s game.State) bool {
		if s.Kind() == game.Decision {
			turns[s.Mover()]++
		}
		return true
	})
	if err != nil {
		return err
	}
	if plies := turns[0] + turns[1]; rec.Plies != plies {
		return fmt.Errorf("plies %d for %d moves", rec.Plies, plies)
	}
	if rec.Turns != turns {
		return fmt.Errorf("turns %v, the moves give %v", rec.Turns, turns)
	}
	if f := rec.Forfeit; f != nil {
		switch {
		case end.Kind() != game.Decision || end.Mover() != f.Side:
			return fmt.Errorf("forfeit by side %d after %d plies, where it is not to move", f.Side, rec.Plies)
		case !slices.Contains(outside.ForfeitReasons, f.Reason):
			return fmt.Errorf("forfeit reason %q (want one of %s)", f.Reason, strings.Join(outside.ForfeitReasons, ", "))
		case rec.Result != int(sideZero(-1, f.Side)) || rec.Points != 0:
			return fmt.Errorf("result %d (%d points) for a forfeit by side %d", rec.Result, rec.Points, f.Side)
		}
		return nil
	}
	if end.Kind() != game.Over {
		return fmt.Errorf("the game stops after %d plies before its end", rec.Plies)
	}
	result := sideZero(end.Result(), end.Mover())
	if pts := game.EndPoints(end); pts > 0 || rec.Points > 0 {
		if pts != rec.Points || (result > 0) != (rec.Result > 0) || rec.Result == 0 {
			return fmt.Errorf("result %d for %d points, the moves give %v for %d", rec.Result, rec.Points, result, pts)
		}
	} else if float64(rec.Result) != result {
		return fmt.Errorf("result %d, the moves give %v", rec.Result, result)
	}
	return nil
}

// RunMatch is the match stage: it plays the pairs of every pairing that
// the run's journal does not hold yet (the shard's share of them), journals
// each as it finishes, stops a pairing when its SPRT decides, and writes
// games.parquet and summary.json from the journal. Cancelled, it returns
// ctx's error, leaving a journal that a later RunMatch on the same run
// continues. progress gets games done of the total and a status line.
func RunMatch(ctx context.Context, set MatchSettings, run *runs.Run, progress runs.Progress) (*MatchReport, error) {
	m, err := set.Resolve()
	if err != nil {
		return nil, err
	}
	set = m.Settings
	pairings := set.Pairings()
	npairs := set.Games / 2
	recs, err := LoadMatchRecords(m, run.Dir(), set.Shard)
	if err != nil {
		return nil, err
	}
	states := make([]*pairingState, len(pairings))
	for i := range states {
		states[i] = &pairingState{pairs: map[int]PairRecord{}, stop: -1}
	}
	prior := 0.0 // active seconds of earlier processes
	for _, r := range recs {
		st := states[r.Pairing]
		if _, dup := st.pairs[r.Pair.Index]; !dup {
			st.all[r.Pair.Category()]++
		}
		st.pairs[r.Pair.Index] = r.Pair
		prior = max(prior, r.ElapsedS)
	}
	journal, err := runs.OpenJournal(run.Dir(), MatchJournal, MatchFormat)
	if err != nil {
		return nil, err
	}
	defer journal.Close()
	journal.SetSyncInterval(time.Second)

	var engineLog io.Writer
	var total, done int64
	for i := 0; i < npairs; i++ {
		if set.Shard.Owns(i) {
			total += int64(2 * len(pairings))
		}
	}
	for _, st := range states {
		done += int64(2 * len(st.pairs))
	}
	if done < total && len(m.outsiders()) > 0 {
		if err := m.locate(); err != nil {
			return nil, err
		}
		f, log, err := openEnginesLog(run.Dir())
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if !set.started {
			if err := m.startOutsiders(ctx, log); err != nil {
				return nil, err
			}
		}
		engineLog = log
	}
	progress(done, total, "")
	start := time.Now()
	played := 0
	for pi, pg := range pairings {
		st := states[pi]
		if m.SPRT != nil && st.advance(m.SPRT) {
			continue
		}
		var todo []int
		for i := 0; i < npairs; i++ {
			if _, ok := st.pairs[i]; !ok && set.Shard.Owns(i) {
				todo = append(todo, i)
			}
		}
		if len(todo) == 0 {
			continue
		}
		cfg := &MatchConfig{Game: set.Game, A: m.Engines[pg.A], B: m.Engines[pg.B], Starts: m.Starts, Pairs: npairs, Seed: set.Seed,
			Pairing: pi, Workers: set.Concurrency, LuckRef: m.Luck, EngineLog: engineLog}
		err := PlayPairs(ctx, cfg, todo, func(pr PairRecord) (bool, error) {
			el := time.Since(start).Seconds()
			rec := MatchRecord{Pairing: pi, Pair: pr, ElapsedS: prior + el}
			if err := journal.Append(rec); err != nil {
				return true, fmt.Errorf("journal: %v", err)
			}
			recs = append(recs, rec)
			st.pairs[pr.Index] = pr
			st.all[pr.Category()]++
			played += 2
			done += 2
			progress(done, total, fmt.Sprintf("%s vs %s  %.1f%% ± %.1f%%  %.0f games/s", cfg.A.Name(), cfg.B.Name(),
				100*st.all.Score(), 100*st.all.ScoreCI95(), float64(played)/max(el, 1e-9)))
			return m.SPRT != nil && st.advance(m.SPRT), nil
		})
		if err != nil {
			return nil, err
		}
	}
	if err := journal.Close(); err != nil {
		return nil, err
	}
	rep := Report(m, run.Dir(), recs)
	rows, err := GameRows(m, recs)
	if err != nil {
		return nil, err
	}
	if err := runs.WriteParquet(run, GamesFile, MatchFormat, rows, GameKey, set.GameName, VariantKey, set.Variant); err != nil {
		return nil, err
	}
	if err := runs.WriteJSON(run, SummaryFile, rep); err != nil {
		return nil, err
	}
	return rep, nil
}

// EnginesLog is the file in a match's run directory that keeps what its
// outside engines write to their standard error, appended, at most
// outside.EnginesLogBytes in all.
const EnginesLog = "engines.log"

// Prepare resolves the settings (Resolve), finds the outside engines'
// programs and records where (Programs), and starts each program once
// and stops it, so that a match whose engine cannot run is refused in one
// line (a usage error, exit 2) before anything is written: a command
// calls it before it makes the run directory.
func (s *MatchSettings) Prepare(ctx context.Context) (*Match, error) {
	m, err := s.Resolve()
	if err != nil {
		return nil, err
	}
	if err := m.locate(); err != nil {
		return nil, err
	}
	if err := m.startChecked(ctx); err != nil {
		return nil, err
	}
	s.Programs, s.started = m.Settings.Programs, true
	m.Settings.started = true
	return m, nil
}

// startChecked starts each outside program once (startOutsiders) with no
// log but its last line on standard error, which a failure names.
func (m *Match) startChecked(ctx context.Context) error {
	tail := &tailWriter{}
	err := m.startOutsiders(ctx, tail)
	if last := tail.lastLine(); err != nil && last != "" && ctx.Err() == nil {
		err = fmt.Errorf("%w; its last line on standard error: %q", err, outside.Clip(last, outside.MaxReplyBytes))
	}
	return err
}

// outsiders returns the match's outside engines: its players' and an
// outside luck reference.
func (m *Match) outsiders() []outside.Engine {
	var list []outside.Engine
	for _, v := range m.Engines {
		if v.Outside != nil {
			list = append(list, v.Outside)
		}
	}
	if m.Luck != nil && m.Luck.Outside != nil {
		list = append(list, m.Luck.Outside)
	}
	return list
}

// locate finds each outside engine's program where the settings recorded
// it, or else from the working directory, and records it.
func (m *Match) locate() error {
	s := &m.Settings
	for _, o := range m.outsiders() {
		var known *outside.Program
		for i := range s.Programs {
			if s.Programs[i].Spec == o.Name() {
				known = &s.Programs[i]
			}
		}
		p, err := o.Locate(known)
		if err != nil {
			return runs.Usage(err)
		}
		if known == nil {
			s.Programs = append(s.Programs, p)
		}
	}
	return nil
}

// openEnginesLog opens the run's engines.log for appending, bounded.
func openEnginesLog(dir string) (*os.File, *outside.BoundedLog, error) {
	f, err := os.OpenFile(filepath.Join(dir, EnginesLog), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, outside.NewBoundedLog(f, fi.Size(), outside.EnginesLogBytes), nil
}

// startOutsiders starts each outside program of the match once (its
// players and an outside luck reference) and stops it with all it
// started, so that one that cannot start fails the match in one line (a
// usage error, exit 2) before its first game.
func (m *Match) startOutsiders(ctx context.Context, log io.Writer) error {
	g, variant := m.Settings.Game, m.Settings.Variant
	for _, o := range m.outsiders() {
		var p interface{ Close() error }
		var err error
		if m.Luck != nil && o == m.Luck.Outside {
			if p, err = o.(outside.ValuerEngine).StartValuer(ctx, g, variant, log); err != nil {
				err = fmt.Errorf("-luck: %v", err)
			}
		} else {
			p, err = o.Start(ctx, g, variant, log)
		}
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return runs.Usage(err)
		}
		p.Close()
	}
	return nil
}

// tailWriter keeps the last bytes written to it: a program's last words
// on standard error, for the one line that says why it did not start.
type tailWriter struct {
	mu  sync.Mutex
	buf []byte
}

const tailBytes = 4 << 10

func (t *tailWriter) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > tailBytes {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-tailBytes:]...)
	}
	return len(b), nil
}

// lastLine returns the last line written that is neither empty nor
// starlab's own.
func (t *tailWriter) lastLine() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(string(t.buf), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" && !strings.HasPrefix(l, "starlab: ") {
			return l
		}
	}
	return ""
}

// GameRow is one row of games.parquet: one game of a match. Blue is side
// 0, who moves first in Dice, and red side 1; rolls are the game's chance
// events and moves its moves, each in the game's notation (Record.Notation).
//
// A side's mean depth is NaN where its engine reported no depth in the
// game (an outside engine that gives no search figures, as gnubg, or an
// ext: engine without info lines), and 0 where the side made no move; its
// nodes are 0 in both cases (starlab's searches count at least one a
// move), and math.MaxInt64 where the count would exceed it.
type GameRow struct {
	MatchSeed     uint64  `parquet:"match_seed"`
	Pairing       int32   `parquet:"pairing"`
	Pair          int32   `parquet:"pair"`
	Round         int32   `parquet:"round"` // 0: variant_a is blue, 1: variant_b is blue
	DiceSeed      uint64  `parquet:"dice_seed"`
	VariantA      string  `parquet:"variant_a"`
	VariantB      string  `parquet:"variant_b"`
	Blue          string  `parquet:"blue"`
	Red           string  `parquet:"red"`
	AIsBlue       bool    `parquet:"a_is_blue"`
	Start         string  `parquet:"start"`
	Result        int32   `parquet:"result"` // blue's (side 0's) view: 1 won, 0 drawn, -1 lost; in games played for points (backgammon's money), the points won (+) or lost (-)
	ScoreA        float64 `parquet:"score_a"`
	Plies         int32   `parquet:"plies"`
	Rolls         string  `parquet:"rolls"`
	Moves         string  `parquet:"moves"`
	MeanDepthBlue float64 `parquet:"mean_depth_blue"` // NaN: no depth reported
	MeanDepthRed  float64 `parquet:"mean_depth_red"`
	NodesBlue     int64   `parquet:"nodes_blue"` // 0: none reported
	NodesRed      int64   `parquet:"nodes_red"`
	TimeMSBlue    float64 `parquet:"time_ms_blue"`
	TimeMSRed     float64 `parquet:"time_ms_red"`
	Luck          float64 `parquet:"luck"` // sum of the chance events' luck, blue's view, value units
	LuckScoreA    float64 `parquet:"luck_adjusted_score_a"`
	// Forfeit is empty, or the side that lost by forfeit and why
	// ("red: timeout: no move within 1s; ..."), the game's last word.
	Forfeit string `parquet:"forfeit"`
}

// GameRows returns the rows of games.parquet for the records the report
// counts (with an SPRT, those before its stop), by pairing, pair and round.
func GameRows(m *Match, recs []MatchRecord) ([]GameRow, error) {
	set := m.Settings
	counted, _ := m.counted(recs)
	var rows []GameRow
	for pi, pg := range set.Pairings() {
		for _, pr := range counted[pi] {
			for _, g := range pr.Games {
				row, err := newGameRow(set.Game, set.Seed, pi, set.Engines[pg.A], set.Engines[pg.B], g)
				if err != nil {
					return nil, err
				}
				rows = append(rows, row)
			}
		}
	}
	return rows, nil
}

func newGameRow(gg game.Game, seed uint64, pairing int, a, b string, g PairGame) (GameRow, error) {
	blue, red := a, b
	if !g.AIsBlue {
		blue, red = b, a
	}
	gm := &g.Game
	rolls, moves, err := gm.Notation(gg)
	if err != nil {
		return GameRow{}, fmt.Errorf("pairing %d pair %d round %d: %v", pairing, g.Pair, g.Round, err)
	}
	mean := func(d, t int) float64 {
		switch {
		case t == 0:
			return 0
		case d == 0:
			return math.NaN() // no depth reported
		}
		return float64(d) / float64(t)
	}
	row := GameRow{
		MatchSeed: seed, Pairing: int32(pairing), Pair: int32(g.Pair), Round: int32(g.Round), DiceSeed: g.Seed,
		VariantA: a, VariantB: b, Blue: blue, Red: red, AIsBlue: g.AIsBlue, Start: gm.Start,
		Result: int32(gm.Result), ScoreA: g.ScoreA(), Plies: int32(gm.Plies),
		Rolls: rolls, Moves: moves,
		MeanDepthBlue: mean(gm.Depth[0], gm.Turns[0]), MeanDepthRed: mean(gm.Depth[1], gm.Turns[1]),
		NodesBlue: gm.Nodes[0], NodesRed: gm.Nodes[1],
		TimeMSBlue: float64(gm.Time[0].Microseconds()) / 1000, TimeMSRed: float64(gm.Time[1].Microseconds()) / 1000,
		Luck: gm.Luck, LuckScoreA: g.ScoreA() - g.LuckA(),
	}
	if f := gm.Forfeit; f != nil {
		row.Forfeit = game.SideName(gg, f.Side) + ": " + f.String()
	}
	if gm.Points > 0 {
		// Played for points: the result is the points, and the luck
		// (on the value scale, points over the most a game can be
		// worth) does not subtract from the score.
		row.Result = int32(gm.Result * gm.Points)
		row.LuckScoreA = math.NaN()
	}
	return row, nil
}

// num formats a statistic that may be undefined: "-" when it is, as every
// table and summary prints it (runs.Num.Format).
func num(x runs.Num, format string) string { return x.Format(format) }
