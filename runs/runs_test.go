package runs

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

type record struct {
	I    int    `json:"i"`
	Note string `json:"note"`
}

func readManifestFile(t *testing.T, dir string) Manifest {
	t.Helper()
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return r.Manifest()
}

func loadRecords(t *testing.T, dir, name string) []record {
	t.Helper()
	var recs []record
	err := LoadJournal(dir, name, "test/1", func(line []byte) error {
		var r record
		if err := json.Unmarshal(line, &r); err != nil {
			return err
		}
		recs = append(recs, r)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func checkSequence(t *testing.T, recs []record, n int) {
	t.Helper()
	if len(recs) != n {
		t.Fatalf("got %d records, want %d", len(recs), n)
	}
	for i, r := range recs {
		if r.I != i {
			t.Fatalf("record %d has i=%d", i, r.I)
		}
	}
}

func TestManifestRoundTrip(t *testing.T) {
	root := t.TempDir()
	settings := map[string]any{"games": 400, "variant": "star2", "tt_mib": 64.5}
	args := []string{"match", "-games", "400"}
	const seed = math.MaxUint64 - 1 // not representable as float64: must survive exactly
	r, err := Create(root, "match", args, settings, seed)
	if err != nil {
		t.Fatal(err)
	}
	args[0] = "changed" // Create must have copied args
	m := readManifestFile(t, r.Dir())
	if m.Version != FormatVersion || m.Command != "match" || m.Seed != seed || m.Status != StatusRunning {
		t.Errorf("manifest = %+v", m)
	}
	if !reflect.DeepEqual(m.Args, []string{"match", "-games", "400"}) {
		t.Errorf("args = %q", m.Args)
	}
	var got map[string]any
	if err := json.Unmarshal(m.Settings, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"games": 400.0, "variant": "star2", "tt_mib": 64.5}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("settings = %v, want %v", got, want)
	}
	if m.Build == "" || m.GoVersion != runtime.Version() {
		t.Errorf("build %q, go version %q", m.Build, m.GoVersion)
	}
	if !m.Start.Equal(r.Manifest().Start) || time.Since(m.Start) > time.Minute {
		t.Errorf("start = %v, in memory %v", m.Start, r.Manifest().Start)
	}
	if !m.End.IsZero() || m.Error != "" || len(m.Resumes) != 0 {
		t.Errorf("running manifest has end %v, error %q, resumes %v", m.End, m.Error, m.Resumes)
	}
	raw, err := os.ReadFile(r.Path(ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), `"end"`) {
		t.Errorf("running manifest has an end field:\n%s", raw)
	}

	if err := r.Finish(errors.New("boom")); err != nil {
		t.Fatal(err)
	}
	m = readManifestFile(t, r.Dir())
	if m.Status != StatusFailed || m.Error != "boom" || m.End.Before(m.Start) {
		t.Errorf("after Finish(boom): status %q, error %q, start %v, end %v", m.Status, m.Error, m.Start, m.End)
	}
	if !reflect.DeepEqual(m, r.Manifest()) {
		t.Errorf("file manifest %+v differs from memory %+v", m, r.Manifest())
	}
}

func TestCreateUniqueNames(t *testing.T) {
	root := filepath.Join(t.TempDir(), "out") // Create makes the root
	const n = 20
	dirs := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			r, err := Create(root, "match", nil, nil, uint64(i))
			if err != nil {
				t.Error(err)
				return
			}
			dirs[i] = r.Dir()
		})
	}
	wg.Wait()
	re := regexp.MustCompile(`^\d{8}-\d{6}-match(-\d+)?$`)
	seen := map[string]bool{}
	for _, d := range dirs {
		if seen[d] {
			t.Errorf("directory %s handed out twice", d)
		}
		seen[d] = true
		if filepath.Dir(d) != root || !re.MatchString(filepath.Base(d)) {
			t.Errorf("bad run directory name %s", d)
		}
		if m := readManifestFile(t, d); m.Command != "match" {
			t.Errorf("%s: command %q", d, m.Command)
		}
	}
	if _, err := Create(root, "../evil", nil, nil, 0); err == nil {
		t.Error("Create accepted a command with a path separator")
	}
}

func TestWriteFileAtomicKeepsOld(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "net.json")
	if err := WriteBytesAtomic(path, []byte("old")); err != nil {
		t.Fatal(err)
	}
	errWrite := errors.New("disk on fire")
	err := WriteFileAtomic(path, func(w io.Writer) error {
		fmt.Fprint(w, strings.Repeat("partial", 10000)) // more than the buffer
		return errWrite
	})
	if !errors.Is(err, errWrite) || !strings.Contains(err.Error(), path) {
		t.Errorf("error %v: want it to wrap the write error and name %s", err, path)
	}
	if got, _ := os.ReadFile(path); string(got) != "old" {
		t.Errorf("after failed write content = %.20q, want old", got)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != "net.json" {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("directory holds %q, want only net.json", names)
	}
	if err := WriteBytesAtomic(path, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "new" {
		t.Errorf("after write content = %q, want new", got)
	}
	if err := WriteBytesAtomic(filepath.Join(dir, "missing", "x"), nil); err == nil {
		t.Error("write into a missing directory succeeded")
	}
}

func TestOpenErrors(t *testing.T) {
	root := t.TempDir()
	mk := func(name, manifest string) string {
		dir := filepath.Join(root, name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if manifest != "" {
			if err := os.WriteFile(filepath.Join(dir, ManifestName), []byte(manifest), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	good := `{"version":1,"command":"fit","settings":{"folds":5},"start":"2026-11-22T22:34:01Z","status":"done"}`
	tests := []struct {
		dir, wantPath, wantText string
	}{
		{filepath.Join(root, "nope"), filepath.Join(root, "nope"), "does not exist"},
		{mk("empty", ""), filepath.Join(root, "empty", ManifestName), "not a run directory"},
		{mk("badjson", `{"version":1,`), filepath.Join(root, "badjson", ManifestName), "bad JSON"},
		{mk("v2", strings.Replace(good, `"version":1`, `"version":2`, 1)), filepath.Join(root, "v2", ManifestName), "unsupported version 2"},
		{mk("noversion", `{"command":"fit","status":"done"}`), filepath.Join(root, "noversion", ManifestName), "unsupported version 0"},
		{mk("status", strings.Replace(good, "done", "dancing", 1)), filepath.Join(root, "status", ManifestName), "unknown status"},
		{mk("unknownfield", strings.Replace(good, `"status"`, `"statuss":1,"status"`, 1)), filepath.Join(root, "unknownfield", ManifestName), "unknown field"},
		{mk("trailing", good+"{}"), filepath.Join(root, "trailing", ManifestName), "data after"},
		{mk("wrongtype", strings.Replace(good, `"version":1`, `"version":"1"`, 1)), filepath.Join(root, "wrongtype", ManifestName), "bad JSON"},
		{mk("negseed", strings.Replace(good, `"status"`, `"seed":-1,"status"`, 1)), filepath.Join(root, "negseed", ManifestName), "bad JSON"},
		{mk("command", strings.Replace(good, `"fit"`, `"../fit"`, 1)), filepath.Join(root, "command", ManifestName), "bad command"},
		{mk("nostart", strings.Replace(good, `"start":"2026-11-22T22:34:01Z",`, ``, 1)), filepath.Join(root, "nostart", ManifestName), "no start"},
		{mk("settings", strings.Replace(good, `{"folds":5}`, `[5]`, 1)), filepath.Join(root, "settings", ManifestName), "not a JSON object"},
		{mk("garbage", "\x00\xff"), filepath.Join(root, "garbage", ManifestName), "bad JSON"},
		{mk("zero", "\n"), filepath.Join(root, "zero", ManifestName), "bad JSON"},
	}
	for _, tt := range tests {
		_, err := Open(tt.dir)
		if err == nil {
			t.Errorf("Open(%s) succeeded", tt.dir)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, tt.wantPath) || !strings.Contains(msg, tt.wantText) || strings.Contains(msg, "\n") {
			t.Errorf("Open(%s) error %q: want one line naming %s and saying %q", tt.dir, msg, tt.wantPath, tt.wantText)
		}
	}
	if _, err := Open(mk("good", good)); err != nil {
		t.Errorf("Open of a valid manifest: %v", err)
	}
}

func TestCreateAt(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "a", "b", "run")
	r, err := CreateAt(dir, "collect", nil, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	// A run some process works on is not offered for resuming: its
	// owner is still at it.
	_, err = CreateAt(dir, "collect", nil, nil, 1)
	if errors.Is(err, ErrUnfinished) || !strings.Contains(err.Error(), "another process is working on now") || !strings.Contains(err.Error(), dir) {
		t.Errorf("CreateAt on a run in progress: %v, want an error naming %s that does not offer a resume", err, dir)
	}
	if err := r.Finish(errors.New("interrupted")); err != nil {
		t.Fatal(err)
	}
	if _, err = CreateAt(dir, "collect", nil, nil, 1); !errors.Is(err, ErrUnfinished) {
		t.Errorf("CreateAt on a failed run: %v, want ErrUnfinished", err)
	}
	if err := r.Resume(); err != nil {
		t.Fatal(err)
	}
	if m := readManifestFile(t, dir); m.Status != StatusRunning || m.Error != "" || !m.End.IsZero() || len(m.Resumes) != 1 {
		t.Errorf("failed run after Resume: status %q, error %q, end %v, resumes %v", m.Status, m.Error, m.End, m.Resumes)
	}
	if err := r.Finish(nil); err != nil {
		t.Fatal(err)
	}
	_, err = CreateAt(dir, "collect", nil, nil, 1)
	if !errors.Is(err, ErrFinished) || errors.Is(err, ErrUnfinished) {
		t.Errorf("CreateAt on a done run: %v, want ErrFinished", err)
	}
	if err := r.Resume(); !errors.Is(err, ErrFinished) {
		t.Errorf("Resume of a done run: %v, want ErrFinished", err)
	}

	empty := filepath.Join(root, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := CreateAt(empty, "fit", nil, nil, 1); err != nil {
		t.Errorf("CreateAt on an empty directory: %v", err)
	}
	if m := readManifestFile(t, empty); m.Command != "fit" || m.Status != StatusRunning {
		t.Errorf("manifest in the empty directory: %+v", m)
	}

	file := filepath.Join(root, "file")
	if err := os.WriteFile(file, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := CreateAt(file, "fit", nil, nil, 1); !IsUsage(err) || !strings.Contains(err.Error(), file+" exists and is not a directory") {
		t.Errorf("CreateAt on a file: %v, want a usage error saying it is not a directory", err)
	}

	busy := filepath.Join(root, "busy")
	if err := os.Mkdir(busy, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(busy, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := CreateAt(busy, "fit", nil, nil, 1); err == nil || !strings.Contains(err.Error(), busy) {
		t.Errorf("CreateAt on a non-empty directory without a manifest: %v", err)
	}
	if _, err := os.Stat(filepath.Join(busy, ManifestName)); err == nil {
		t.Error("CreateAt wrote a manifest into a non-empty directory")
	}
}

// TestStartOutUnmakeable: an -out that cannot be made, under a file, is
// a usage error naming -out, and nothing is made.
func TestStartOutUnmakeable(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "file")
	if err := os.WriteFile(file, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(file, "run")
	r, _, err := Start(filepath.Join(root, "out"), out, "", "match", nil, &struct{}{}, 1)
	if r != nil || !IsUsage(err) || !strings.HasPrefix(err.Error(), "-out "+out+": cannot make the run directory: ") || strings.Contains(err.Error(), "\n") {
		t.Errorf("Start with -out under a file: %v, want a usage error naming -out", err)
	}
	if entries, err := os.ReadDir(root); err != nil || len(entries) != 1 {
		t.Errorf("Start left %v (%v)", entries, err)
	}
}

func TestJournalTruncatedLastLine(t *testing.T) {
	dir := t.TempDir()
	const name = "pairs.jsonl"
	const header = `{"journal":"test/1"}` + "\n"
	content := header + `{"i":0,"note":"a"}` + "\n" + `{"i":1,"note":"b"}` + "\n" + `{"i":2,"no`
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	checkSequence(t, loadRecords(t, dir, name), 2)

	j, err := OpenJournal(dir, name, "test/1")
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Append(record{I: 2, Note: "c"}); err != nil {
		t.Fatal(err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	if err := j.Append(record{I: 3}); err == nil {
		t.Error("Append after Close succeeded")
	}
	got, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	want := header + `{"i":0,"note":"a"}` + "\n" + `{"i":1,"note":"b"}` + "\n" + `{"i":2,"note":"c"}` + "\n"
	if string(got) != want {
		t.Errorf("journal after reopen and append:\n%s\nwant:\n%s", got, want)
	}
	checkSequence(t, loadRecords(t, dir, name), 3)

	// A record in the middle that fn rejects names the file and line.
	err = LoadJournal(dir, name, "test/1", func(line []byte) error {
		if strings.Contains(string(line), `"b"`) {
			return errors.New("rejected")
		}
		return nil
	})
	if err == nil || !strings.Contains(err.Error(), name+":3: rejected") {
		t.Errorf("LoadJournal error %v, want it to name %s line 3", err, name)
	}
	// A journal of another format is refused, on load and on reopen.
	if err := LoadJournal(dir, name, "test/2", func([]byte) error { return nil }); err == nil || !strings.Contains(err.Error(), `"test/1"`) {
		t.Errorf("LoadJournal of another format: %v", err)
	}
	if _, err := OpenJournal(dir, name, "test/2"); err == nil || !strings.Contains(err.Error(), `"test/1"`) {
		t.Errorf("OpenJournal of another format: %v", err)
	}
	if err := LoadJournal(dir, "missing.jsonl", "test/1", func([]byte) error { return errors.New("called") }); err != nil {
		t.Errorf("LoadJournal of a missing journal: %v", err)
	}
}

// fiveRuns creates runs of match, collect, match, match and match under
// root, in that order; the third finishes (done) and the fifth is
// interrupted, and the others stay held by this process until the test
// ends, or are let go at once with release.
func fiveRuns(t *testing.T, root string, release bool) []string {
	t.Helper()
	var dirs []string
	for _, cmd := range []string{"match", "collect", "match", "match", "match"} {
		r, err := Create(root, cmd, nil, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, r.Dir())
		switch len(dirs) {
		case 3: // done: not to be resumed
			err = r.Finish(nil)
		case 5: // interrupted: resumable
			err = r.Finish(context.Canceled)
		default:
			if release {
				r.Close()
			} else {
				t.Cleanup(r.Close)
			}
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return dirs
}

func TestFindUnfinishedOrder(t *testing.T) {
	root := t.TempDir()
	dirs := fiveRuns(t, root, false)
	got, err := FindUnfinished(root, "match")
	if err != nil {
		t.Fatal(err)
	}
	// dirs[3] and dirs[0] are still held by this process: not listed.
	if want := []string{dirs[4]}; !slices.Equal(got, want) {
		t.Errorf("FindUnfinished = %q, want %q", got, want)
	}
	// A second owner is refused in one line.
	r0, err := Open(dirs[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := r0.Resume(); !errors.Is(err, ErrLocked) || strings.Contains(err.Error(), "\n") {
		t.Errorf("Resume of a held run: %v, want one line wrapping ErrLocked", err)
	}
}

// TestFindUnfinishedReleased: runs whose process let go (or died) are found
// again, newest first.
func TestFindUnfinishedReleased(t *testing.T) {
	root := t.TempDir()
	dirs := fiveRuns(t, root, true)
	got, err := FindUnfinished(root, "match")
	if err != nil {
		t.Fatal(err)
	}
	if m := readManifestFile(t, dirs[4]); m.Error != Interrupted {
		t.Errorf("interrupted run records error %q, want %q", m.Error, Interrupted)
	}
	if want := []string{dirs[4], dirs[3], dirs[0]}; !slices.Equal(got, want) {
		t.Errorf("FindUnfinished = %q, want %q", got, want)
	}
	if got, _ := FindUnfinished(filepath.Join(root, "none"), "match"); len(got) != 0 {
		t.Errorf("FindUnfinished on a missing root = %q", got)
	}
}

const (
	helperRootEnv    = "RUNS_TEST_HELPER_ROOT"
	helperRecordsEnv = "RUNS_TEST_HELPER_RECORDS"
)

// TestHelperProcess is not a test: TestKilledHalfWay runs the test binary
// with it as a stage that writes some records and then waits to be killed.
func TestHelperProcess(t *testing.T) {
	root := os.Getenv(helperRootEnv)
	if root == "" {
		t.Skip("helper process for TestKilledHalfWay")
	}
	n, err := strconv.Atoi(os.Getenv(helperRecordsEnv))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	r, err := Create(root, "match", os.Args, map[string]int{"games": 2 * n}, 7)
	if err != nil {
		fail(err)
	}
	j, err := OpenJournal(r.Dir(), "games.jsonl", "test/1")
	if err != nil {
		fail(err)
	}
	for i := range n {
		if err := j.Append(record{I: i, Note: "pair"}); err != nil {
			fail(err)
		}
	}
	// A torn write, as a crash in the middle of an append could leave.
	f, err := os.OpenFile(r.Path("games.jsonl"), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		fail(err)
	}
	if _, err := f.WriteString(`{"i":` + strconv.Itoa(n) + `,"no`); err != nil {
		fail(err)
	}
	fmt.Printf("wrote %d records in %s\n", n, r.Dir())
	time.Sleep(time.Minute) // until killed
	os.Exit(4)
}

func TestKilledHalfWay(t *testing.T) {
	root := t.TempDir()
	const k = 25
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), helperRootEnv+"="+root, helperRecordsEnv+"="+strconv.Itoa(k))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var dir string
	sc := bufio.NewScanner(stdout)
	for dir == "" && sc.Scan() {
		dir, _ = strings.CutPrefix(sc.Text(), fmt.Sprintf("wrote %d records in ", k))
	}
	if dir == "" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("helper did not report its records; stderr:\n%s", stderr.String())
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, stdout) // EOF once the process is gone; Wait must come after
	if err := cmd.Wait(); err == nil || cmd.ProcessState.Success() {
		t.Fatalf("helper exited normally: %v", err)
	}

	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if m := r.Manifest(); m.Status != StatusRunning || m.Command != "match" || m.Seed != 7 {
		t.Fatalf("killed run manifest: %+v", m)
	}
	found, err := FindUnfinished(root, "match")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(found, []string{dir}) {
		t.Fatalf("FindUnfinished = %q, want [%s]", found, dir)
	}
	if found, _ := FindUnfinished(root, "train"); len(found) != 0 {
		t.Errorf("FindUnfinished for another command = %q", found)
	}
	done := loadRecords(t, dir, "games.jsonl")
	checkSequence(t, done, k)

	if err := r.Resume(); err != nil {
		t.Fatal(err)
	}
	j, err := OpenJournal(dir, "games.jsonl", "test/1")
	if err != nil {
		t.Fatal(err)
	}
	for i := len(done); i < 2*k; i++ {
		if err := j.Append(record{I: i, Note: "pair"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	if err := r.Finish(nil); err != nil {
		t.Fatal(err)
	}

	checkSequence(t, loadRecords(t, dir, "games.jsonl"), 2*k)
	m := readManifestFile(t, dir)
	if m.Status != StatusDone || m.End.IsZero() || len(m.Resumes) != 1 || m.Resumes[0].Before(m.Start) {
		t.Errorf("finished manifest: status %q, end %v, resumes %v", m.Status, m.End, m.Resumes)
	}
	if found, _ := FindUnfinished(root, "match"); len(found) != 0 {
		t.Errorf("FindUnfinished after finishing = %q", found)
	}
}

// TestCheckShardsUnfinished checks that merge tells a shard that was
// stopped (resume it) from one still being worked on (wait for it).
func TestCheckShardsUnfinished(t *testing.T) {
	root := t.TempDir()
	var dirs []string
	var held *Run
	for i := range 2 {
		dir := filepath.Join(root, fmt.Sprintf("s%d", i))
		r, err := CreateAt(dir, "match", nil, map[string]any{"shard": fmt.Sprintf("%d/2", i)}, 1)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			if err := r.Finish(nil); err != nil {
				t.Fatal(err)
			}
		} else {
			held = r
		}
		dirs = append(dirs, dir)
	}
	_, err := CheckShards(dirs)
	if !IsUsage(err) || !strings.Contains(err.Error(), "still being worked on") {
		t.Errorf("a shard in progress: %v, want a usage error saying it is still being worked on", err)
	}
	held.Close() // as if its process was killed: running, and no one holds it
	_, err = CheckShards(dirs)
	if !IsUsage(err) || !strings.Contains(err.Error(), "starlab match -resume "+dirs[1]) {
		t.Errorf("a stopped shard: %v, want a usage error telling how to finish it", err)
	}
}

// TestJournalEndsWhole: a journal whose last byte is a newline ends whole,
// one torn by a killed append does not, and an empty one is an error that
// names the file.
func TestJournalEndsWhole(t *testing.T) {
	dir := t.TempDir()
	const header = `{"journal":"test/1"}` + "\n"
	for name, c := range map[string]struct {
		content string
		whole   bool
		err     string
	}{
		"whole.jsonl": {header + `{"i":0}` + "\n", true, ""},
		"torn.jsonl":  {header + `{"i":0}` + "\n" + `{"i":1`, false, ""},
		"empty.jsonl": {"", false, "empty, without its header line"},
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(c.content), 0o644); err != nil {
			t.Fatal(err)
		}
		whole, err := JournalEndsWhole(dir, name)
		if whole != c.whole || (err == nil) != (c.err == "") || (err != nil && !strings.Contains(err.Error(), name+": "+c.err)) {
			t.Errorf("%s: JournalEndsWhole = %v, %v; want %v, %q", name, whole, err, c.whole, c.err)
		}
	}
	if _, err := JournalEndsWhole(dir, "missing.jsonl"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing journal: %v, want fs.ErrNotExist", err)
	}
}
