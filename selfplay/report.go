package selfplay

import (
	"sort"

	"starlab/runs"
)

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
		gameShape(set.Kit.Game, &s, counted[pi])
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

// todo returns the pairs of the pairing, of npairs in all, that shard owns
// and that are not finished, in order.
func (st *pairingState) todo(npairs int, shard runs.Shard) []int {
	var todo []int
	for i := 0; i < npairs; i++ {
		if _, ok := st.pairs[i]; !ok && shard.Owns(i) {
			todo = append(todo, i)
		}
	}
	return todo
}
