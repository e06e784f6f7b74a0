package selfplay

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"starlab/outside"
	"starlab/runs"
	"starlab/search/game"
)

// MatchRecord is one line of the match journal: a finished pair of games of
// one pairing, with the run's active time when it was written.
type MatchRecord struct {
	Pairing  int        `json:"pairing"`
	Pair     PairRecord `json:"pair"`
	ElapsedS float64    `json:"elapsed_s"`
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
	end, err := rec.Replay(set.Kit, func(_ int, s game.State) bool {
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
