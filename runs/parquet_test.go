package runs

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

type pqRow struct {
	Name  string  `parquet:"name"`
	Value float64 `parquet:"value"`
	N     int64   `parquet:"n"`
}

type pqOther struct {
	Name  string `parquet:"name"`
	Value string `parquet:"value"` // the wrong type
}

type pqMore struct {
	Name  string  `parquet:"name"`
	Value float64 `parquet:"value"`
	N     int64   `parquet:"n"`
	Extra int32   `parquet:"extra"`
}

// TestParquetRoundTripAndChecks: what WriteParquetFile writes reads back
// whole, and as rows of more columns where ReadOldParquet lets them be
// missing; a file of another format, a missing or mistyped column, a
// truncated file and a text file are refused in one line naming the file
// and what is wrong.
func TestParquetRoundTripAndChecks(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "rows.parquet")
	rows := []pqRow{{"a", 1.5, 1}, {"b", -2, 2}, {"c", 0, 3}}
	if err := WriteParquetFile(path, "test/1", rows, "extra.key", "v"); err != nil {
		t.Fatal(err)
	}
	got, err := ReadParquet[pqRow](path, "test/1")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[1] != rows[1] {
		t.Fatalf("read back %+v", got)
	}
	if f, err := ParquetFormat(path); f != "test/1" || err != nil {
		t.Fatalf("ParquetFormat = %q, %v; want test/1", f, err)
	}
	// A file of an earlier version, without a column it did not have.
	if more, err := ReadOldParquet[pqMore](path, "test/1", "extra"); err != nil || len(more) != 3 || more[1] != (pqMore{"b", -2, 2, 0}) {
		t.Fatalf("read as a file without extra: %+v, %v", more, err)
	}
	data, _ := os.ReadFile(path)
	trunc := filepath.Join(dir, "trunc.parquet")
	os.WriteFile(trunc, data[:len(data)/2], 0o644)
	text := filepath.Join(dir, "text.parquet")
	os.WriteFile(text, []byte("name,value\na,1\n"), 0o644)
	for _, c := range []struct {
		name string
		read func() error
		want string
	}{
		{"other format", func() error { _, err := ReadParquet[pqRow](path, "test/2"); return err }, `format "test/1", want "test/2"`},
		{"wrong type", func() error { _, err := ReadParquet[pqOther](path, "test/1"); return err }, `column "value"`},
		{"missing column", func() error { _, err := ReadParquet[pqMore](path, "test/1"); return err }, `missing column "extra"`},
		{"missing column of an old file", func() error { _, err := ReadOldParquet[pqMore](path, "test/1", "n"); return err }, `missing column "extra"`},
		{"truncated", func() error { _, err := ReadParquet[pqRow](trunc, "test/1"); return err }, "not a readable Parquet file"},
		{"text", func() error { _, err := ReadParquet[pqRow](text, "test/1"); return err }, "not a readable Parquet file"},
		{"missing file", func() error { _, err := ReadParquet[pqRow](filepath.Join(dir, "none"), "test/1"); return err }, "none"},
		{"format of a truncated file", func() error { _, err := ParquetFormat(trunc); return err }, "not a readable Parquet file"},
		{"format of a text file", func() error { _, err := ParquetFormat(text); return err }, "not a readable Parquet file"},
	} {
		err := c.read()
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line containing %q", c.name, err, c.want)
		}
	}
}

func TestShardAndPool(t *testing.T) {
	for _, bad := range []string{"4/4", "-1/3", "1/0", "x", "1/2/3", "1 /2"} {
		var sh Shard
		if err := sh.Set(bad); err == nil {
			t.Errorf("Shard.Set(%q) accepted", bad)
		}
	}
	var sh Shard
	err := sh.Set("1/3")
	if err != nil || !sh.Owns(4) || sh.Owns(3) || sh.String() != "1/3" {
		t.Fatalf("Shard.Set(1/3) = %+v, %v", sh, err)
	}
	if err := CheckWorkers("workers", 0); err == nil || !strings.HasPrefix(err.Error(), "-workers 0:") {
		t.Errorf("0 workers: %v, want an error naming -workers", err)
	}
	if err := CheckWorkers("concurrency", MaxWorkers+1); err == nil || !strings.HasPrefix(err.Error(), "-concurrency ") {
		t.Errorf("too many workers: %v, want an error naming -concurrency", err)
	}
}

// TestPoolWorkersOwnState: each worker gets its own state, every job is
// done once, an error stops the pool, and so does done's stop.
func TestPoolWorkersOwnState(t *testing.T) {
	jobs := make([]int, 200)
	for i := range jobs {
		jobs[i] = i
	}
	type state struct{ seen []int }
	var states []*state
	var mu sync.Mutex
	sum := 0
	err := Pool(context.Background(), 3, jobs, func() *state {
		s := &state{}
		mu.Lock()
		states = append(states, s)
		mu.Unlock()
		return s
	}, func(_ context.Context, s *state, j int) (int, error) {
		s.seen = append(s.seen, j)
		return j, nil
	}, func(r int) (bool, error) { sum += r; return false, nil })
	if err != nil || sum != 199*200/2 || len(states) != 3 {
		t.Fatalf("pool: err %v, sum %d, %d workers", err, sum, len(states))
	}
	boom := errors.New("boom")
	err = Pool(context.Background(), 2, jobs, func() int { return 0 }, func(_ context.Context, _ int, j int) (int, error) {
		if j == 50 {
			return 0, boom
		}
		return j, nil
	}, func(int) (bool, error) { return false, nil })
	if !errors.Is(err, boom) {
		t.Fatalf("pool with a failing job: %v", err)
	}
	n := 0
	err = Pool(context.Background(), 2, jobs, func() int { return 0 }, func(_ context.Context, _ int, j int) (int, error) { return j, nil },
		func(int) (bool, error) { n++; return n == 10, nil })
	if err != nil || n != 10 {
		t.Fatalf("pool stopped by done: err %v, %d results taken", err, n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err = Pool(ctx, 2, jobs, func() int { return 0 }, func(ctx context.Context, _ int, j int) (int, error) { return j, ctx.Err() },
		func(int) (bool, error) { return false, nil })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled pool: %v", err)
	}
}

// TestCreateAtAfterEarlyKill: a run killed in its first milliseconds leaves
// its directory with only a lock file and a temporary manifest; starting
// a run there again works and clears the litter.
func TestCreateAtAfterEarlyKill(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, LockName), []byte("12345\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "."+ManifestName+".tmp-777"), []byte("{"), 0o644)
	r, err := CreateAt(dir, "match", nil, nil, 1)
	if err != nil {
		t.Fatalf("CreateAt over an early-killed run: %v", err)
	}
	defer r.Close()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("litter %s left", e.Name())
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ManifestName)); err != nil {
		t.Fatal(err)
	}
}

// TestStartResumeFillsSettings: resuming a run replaces the caller's
// settings, field by field, by those its manifest recorded.
func TestStartResumeFillsSettings(t *testing.T) {
	type settings struct {
		Games int    `json:"games"`
		Name  string `json:"name,omitempty"`
	}
	root := t.TempDir()
	dir := filepath.Join(root, "r")
	r, resumed, err := Start(root, dir, "", "match", nil, &settings{Games: 7}, 1)
	if err != nil || resumed {
		t.Fatalf("Start: %v, resumed %v", err, resumed)
	}
	r.Finish(context.Canceled)
	got := settings{Games: 99, Name: "flag value"}
	r, resumed, err = Start(root, "", dir, "match", nil, &got, 1)
	if err != nil || !resumed {
		t.Fatalf("resume: %v, resumed %v", err, resumed)
	}
	defer r.Close()
	if got != (settings{Games: 7}) {
		t.Fatalf("resumed settings %+v, want the manifest's {Games: 7}", got)
	}
	if _, _, err := Start(root, "", dir, "train", nil, &got, 1); err == nil || !strings.Contains(err.Error(), "not a train run") {
		t.Fatalf("resume as another command: %v", err)
	}
}
