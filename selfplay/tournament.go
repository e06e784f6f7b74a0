package selfplay

import (
	"context"
	"fmt"
	"io"
	"time"

	"starlab/runs"
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
	states, prior := pairingStates(len(pairings), recs)
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
		f, log, err := m.openOutsiders(ctx, run.Dir())
		if err != nil {
			return nil, err
		}
		defer f.Close()
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
		todo := st.todo(npairs, set.Shard)
		if len(todo) == 0 {
			continue
		}
		cfg := &MatchConfig{Kit: set.Kit, A: m.Engines[pg.A], B: m.Engines[pg.B], Starts: m.Starts, Pairs: npairs, Seed: set.Seed,
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
	return writeMatch(m, run, recs)
}

// pairingStates returns the state of each of a match's pairings after
// the journal's records recs, and the active seconds of the processes
// that wrote them.
func pairingStates(pairings int, recs []MatchRecord) (states []*pairingState, prior float64) {
	states = make([]*pairingState, pairings)
	for i := range states {
		states[i] = &pairingState{pairs: map[int]PairRecord{}, stop: -1}
	}
	prior = 0.0 // active seconds of earlier processes
	for _, r := range recs {
		st := states[r.Pairing]
		if _, dup := st.pairs[r.Pair.Index]; !dup {
			st.all[r.Pair.Category()]++
		}
		st.pairs[r.Pair.Index] = r.Pair
		prior = max(prior, r.ElapsedS)
	}
	return states, prior
}

// writeMatch writes games.parquet and summary.json of match m from the
// journal's records recs, and returns the report.
func writeMatch(m *Match, run *runs.Run, recs []MatchRecord) (*MatchReport, error) {
	set := m.Settings
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
