package regression

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"starlab/runs"
	"starlab/search"
)

// MergeCollect is the collect stage's merge: it gathers the part files of
// every shard of one collect (runs.CheckShards) of the game g into the
// run, which then holds the rows of the unsharded collect.
func MergeCollect(ctx context.Context, g search.Kit, sh *runs.Shards, run *runs.Run, progress runs.Progress) (CollectResult, error) {
	var set CollectSettings
	if err := json.Unmarshal(sh.Settings, &set); err != nil {
		return CollectResult{}, fmt.Errorf("%s: settings: %v", filepath.Join(sh.Dirs[0], runs.ManifestName), err)
	}
	set.Kit = g
	if err := set.checkGame(); err != nil {
		return CollectResult{}, fmt.Errorf("%s: %w", sh.Dirs[0], err)
	}
	suite, err := os.ReadFile(filepath.Join(sh.Dirs[0], SuiteFile))
	if err != nil {
		return CollectResult{}, fmt.Errorf("%s: %w", sh.Dirs[0], err)
	}
	if err := os.MkdirAll(run.Path(RowsDir), 0o755); err != nil {
		return CollectResult{}, err
	}
	for _, d := range sh.Dirs {
		s, err := os.ReadFile(filepath.Join(d, SuiteFile))
		if err != nil || !bytes.Equal(s, suite) {
			return CollectResult{}, fmt.Errorf("%s has other positions than %s", d, sh.Dirs[0])
		}
		parts, err := filepath.Glob(filepath.Join(d, RowsDir, "part-*.parquet"))
		if err != nil {
			return CollectResult{}, err
		}
		for _, p := range parts {
			dst := run.Path(filepath.Join(RowsDir, filepath.Base(p)))
			if _, err := os.Stat(dst); err == nil {
				return CollectResult{}, fmt.Errorf("%s is in two shards", filepath.Base(p))
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return CollectResult{}, err
			}
			if err := runs.WriteBytesAtomic(dst, data); err != nil {
				return CollectResult{}, err
			}
		}
	}
	ps, err := search.ParseSuite(g, bytes.NewReader(suite))
	if err != nil {
		return CollectResult{}, fmt.Errorf("%s: %v", filepath.Join(sh.Dirs[0], SuiteFile), err)
	}
	parts, _ := filepath.Glob(run.Path(filepath.Join(RowsDir, "part-*.parquet")))
	if want := (len(ps) + set.Chunk - 1) / set.Chunk; len(parts) != want {
		return CollectResult{}, fmt.Errorf("the shards hold %d part files, the collect has %d", len(parts), want)
	}
	if err := runs.WriteBytesAtomic(run.Path(SuiteFile), suite); err != nil {
		return CollectResult{}, err
	}
	return Collect(ctx, set, run, progress) // every part is there: nothing is searched
}
