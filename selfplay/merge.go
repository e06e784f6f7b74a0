package selfplay

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"

	"starlab/runs"
	"starlab/search"
)

// MergeMatch is the match stage's merge: it joins the journals of every
// shard of one match of game g (runs.CheckShards) into the run, and writes
// the report and games.parquet the unsharded match would have written: the
// report is a function of the records alone. An SPRT match is not merged,
// since each shard would have stopped on its own pairs.
func MergeMatch(ctx context.Context, g search.Kit, sh *runs.Shards, run *runs.Run, progress runs.Progress) (*MatchReport, error) {
	var set MatchSettings
	if err := json.Unmarshal(sh.Settings, &set); err != nil {
		return nil, fmt.Errorf("%s: settings: %v", filepath.Join(sh.Dirs[0], runs.ManifestName), err)
	}
	set.Kit = g
	if set.SPRT != "" {
		return nil, runs.Usagef("%s is an SPRT match, which stops per shard; play it on one machine", sh.Dirs[0])
	}
	m, err := set.Resolve()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", sh.Dirs[0], err)
	}
	var recs []MatchRecord
	for i, d := range sh.Dirs {
		rs, err := LoadMatchRecords(m, d, runs.Shard{Index: i, Count: sh.Count})
		if err != nil {
			return nil, err
		}
		recs = append(recs, rs...)
	}
	slices.SortFunc(recs, func(a, b MatchRecord) int {
		if a.Pairing != b.Pairing {
			return a.Pairing - b.Pairing
		}
		return a.Pair.Index - b.Pair.Index
	})
	want := len(set.Pairings()) * set.Games / 2
	for i := 1; i < len(recs); i++ {
		if recs[i].Pairing == recs[i-1].Pairing && recs[i].Pair.Index == recs[i-1].Pair.Index {
			return nil, fmt.Errorf("pair %d of pairing %d is in two shards", recs[i].Pair.Index, recs[i].Pairing)
		}
	}
	if len(recs) != want {
		return nil, fmt.Errorf("the shards hold %d pairs, the match has %d", len(recs), want)
	}
	journal, err := runs.OpenJournal(run.Dir(), MatchJournal, MatchFormat)
	if err != nil {
		return nil, err
	}
	for _, r := range recs {
		if err := journal.Append(r); err != nil {
			journal.Close()
			return nil, err
		}
	}
	if err := journal.Close(); err != nil {
		return nil, err
	}
	return RunMatch(ctx, m.Settings, run, progress) // every pair is there: nothing is played
}
