package runs

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
)

// Shards is a complete set of shard runs of one stage, checked by
// CheckShards.
type Shards struct {
	Command string
	Dirs    []string // by shard index
	Count   int
	// Settings are the shards' common settings with the shard taken out:
	// those of the unsharded run.
	Settings json.RawMessage
	Seed     uint64
	Build    string
}

// CheckShards checks that dirs are every shard of one run, each once and
// finished: the same command, seed, build and settings apart from the
// shard and the keys in ignore (such as the number of workers, which
// changes no result), and shards i/N for every i from 0 to N-1. Errors are
// one line naming the run that does not fit.
func CheckShards(dirs []string, ignore ...string) (*Shards, error) {
	if len(dirs) == 0 {
		return nil, Usagef("give the shard run directories")
	}
	var sh *Shards
	var want map[string]any
	byIndex := map[int]string{}
	var unsharded json.RawMessage // shard 0's settings, shard taken out: the unsharded run's
	for _, d := range dirs {
		r, err := Open(d)
		if err != nil {
			return nil, err
		}
		m := r.Manifest()
		switch StateOf(d, m) {
		case Done:
		case Working:
			return nil, Usagef("shard %s is still being worked on by another process; merge it when it is done", d)
		case Failed:
			return nil, Usagef("shard %s failed (%s); finish it with starlab %s -resume %s", d, m.Error, m.Command, d)
		case Stopped:
			return nil, Usagef("shard %s is unfinished (it was stopped while running); finish it with starlab %s -resume %s", d, m.Command, d)
		}
		var set map[string]any
		if err := json.Unmarshal(m.Settings, &set); err != nil {
			return nil, fmt.Errorf("%s: settings: %v", filepath.Join(d, ManifestName), err)
		}
		var sharded struct {
			Shard Shard `json:"shard"`
		}
		_ = json.Unmarshal(m.Settings, &sharded) // the settings decoded above
		s := sharded.Shard
		if s != (Shard{}) && (s.Index < 0 || s.Index >= s.Count) {
			return nil, fmt.Errorf("%s: shard %d/%d: want 0 <= i < N", filepath.Join(d, ManifestName), s.Index, s.Count)
		}
		delete(set, "shard")
		if s.Index == 0 {
			unsharded, _ = json.Marshal(set) // before the ignored keys go
		}
		for _, k := range ignore {
			delete(set, k)
		}
		if s.Count < 1 {
			s = Shard{Index: 0, Count: 1}
		}
		if sh == nil {
			sh = &Shards{Command: m.Command, Count: s.Count, Seed: m.Seed, Build: m.Build}
			want = set
		}
		switch {
		case m.Command != sh.Command:
			return nil, Usagef("%s is a %s run, %s a %s run", d, m.Command, dirs[0], sh.Command)
		case m.Seed != sh.Seed:
			return nil, Usagef("%s has seed %d, %s seed %d", d, m.Seed, dirs[0], sh.Seed)
		case m.Build != sh.Build:
			return nil, Usagef("%s was made by build %q, %s by %q", d, m.Build, dirs[0], sh.Build)
		case s.Count != sh.Count:
			return nil, Usagef("%s is shard %d/%d, %s one of %d", d, s.Index, s.Count, dirs[0], sh.Count)
		case !reflect.DeepEqual(set, want):
			return nil, Usagef("%s has other settings than %s (%s)", d, dirs[0], differing(set, want))
		}
		if prev, dup := byIndex[s.Index]; dup {
			return nil, Usagef("shard %d/%d given twice (%s and %s)", s.Index, s.Count, prev, d)
		}
		byIndex[s.Index] = d
	}
	var missing []string
	for i := 0; i < sh.Count; i++ {
		d, ok := byIndex[i]
		if !ok {
			missing = append(missing, fmt.Sprintf("%d/%d", i, sh.Count))
		}
		sh.Dirs = append(sh.Dirs, d)
	}
	if len(missing) > 0 {
		return nil, Usagef("shard %s missing", strings.Join(missing, ", "))
	}
	sh.Settings = unsharded
	return sh, nil
}

// differing names the keys whose values differ.
func differing(a, b map[string]any) string {
	var keys []string
	for k := range a {
		if !reflect.DeepEqual(a[k], b[k]) {
			keys = append(keys, k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return strings.Join(slices.Compact(keys), ", ")
}

// DiceSize is the Dice board size and win length that settings of an
// earlier format held in place of the game and the variant. Settings embed
// it so that such settings (a run to resume or merge) are read and refused
// in one line; it is never written.
type DiceSize struct {
	N int `json:"n,omitzero"`
	M int `json:"m,omitzero"`
}
