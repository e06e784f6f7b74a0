package runs

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"
)

// FormatVersion is the manifest format version this package writes and reads.
const FormatVersion = 1

// ManifestName is the manifest's file name inside a run directory.
const ManifestName = "manifest.json"

// maxSuffix bounds the -2, -3, ... suffixes Create tries for one second.
const maxSuffix = 1000

// Status is the state of a run as recorded in its manifest.
type Status string

// The statuses of a run.
const (
	StatusRunning Status = "running"
	StatusDone    Status = "done"
	StatusFailed  Status = "failed"
)

// ErrUnfinished is wrapped by CreateAt when the directory holds a run that is
// still running or has failed, which the caller may resume instead.
var ErrUnfinished = errors.New("unfinished run")

// ErrFinished is wrapped by CreateAt and Resume when the directory holds a
// run that is done, whose results must not be overwritten.
var ErrFinished = errors.New("run already finished")

// Manifest is the content of manifest.json. See the package documentation
// for an example.
type Manifest struct {
	Version   int             `json:"version"`            // FormatVersion
	Command   string          `json:"command"`            // subcommand, e.g. "match"
	Args      []string        `json:"args"`               // the command line
	Settings  json.RawMessage `json:"settings,omitempty"` // the resolved configuration
	Seed      uint64          `json:"seed"`
	Build     string          `json:"build"`      // BuildVersion of the binary that started the run
	GoVersion string          `json:"go_version"` // runtime.Version
	Start     time.Time       `json:"start"`
	End       time.Time       `json:"end,omitzero"` // zero while running
	Status    Status          `json:"status"`
	Error     string          `json:"error,omitempty"`   // why the run failed
	Resumes   []time.Time     `json:"resumes,omitempty"` // when the run was resumed, oldest first
}

func (m Manifest) clone() Manifest {
	m.Args = slices.Clone(m.Args)
	m.Settings = slices.Clone(m.Settings)
	m.Resumes = slices.Clone(m.Resumes)
	return m
}

// Run is an open run directory. Its methods are safe for concurrent use.
type Run struct {
	dir  string
	mu   sync.Mutex // guards m, lock and the manifest file
	m    Manifest
	lock *os.File // the held lock of a run this process owns; nil otherwise
}

// commit is the VCS revision the Makefile stamps into the binary
// (-ldflags "-X starlab/runs.commit=..."), for builds in which Go records
// none (go build -buildvcs=false, go run, go test, builds outside a
// checkout).
var commit string

// BuildVersion describes the running binary: the main module's version
// ("(devel)" when unknown), then the VCS revision and "+modified" for
// uncommitted changes when the build recorded them, or else the revision
// the Makefile stamped.
func BuildVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return strings.TrimSpace("(devel) " + commit)
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev != "" {
		v += " " + rev
		if modified == "true" {
			v += "+modified"
		}
	} else if commit != "" {
		v += " " + commit
	}
	return v
}

func newManifest(command string, args []string, settings any, seed uint64) (Manifest, error) {
	if command == "" || strings.ContainsAny(command, `/\`) || strings.HasPrefix(command, ".") {
		return Manifest{}, fmt.Errorf("runs: bad command name %q", command)
	}
	raw, err := json.Marshal(settings)
	if err != nil {
		return Manifest{}, fmt.Errorf("runs: encode settings of %s: %v", command, err)
	}
	if string(raw) == "null" {
		raw = nil
	}
	return Manifest{
		Version:   FormatVersion,
		Command:   command,
		Args:      slices.Clone(args),
		Settings:  raw,
		Seed:      seed,
		Build:     BuildVersion(),
		GoVersion: runtime.Version(),
		Start:     time.Now().UTC(),
		Status:    StatusRunning,
	}, nil
}

// Create makes a new run directory under root (created if missing) named
// after the start time and command, like 20261122-223401-match, with a
// -2, -3, ... suffix if that is taken, and writes its manifest with status
// running. Concurrent calls, from any number of processes, get distinct
// directories.
func Create(root, command string, args []string, settings any, seed uint64) (*Run, error) {
	m, err := newManifest(command, args, settings, seed)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, fmt.Errorf("create run root: %w", err)
	}
	base := m.Start.Format("20060102-150405") + "-" + command
	for i := 1; i <= maxSuffix; i++ {
		name := base
		if i > 1 {
			name = fmt.Sprintf("%s-%d", base, i)
		}
		dir := filepath.Join(root, name)
		err := os.Mkdir(dir, 0o755)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("create run: %w", err)
		}
		lk, err := lock(dir)
		if err != nil {
			return nil, err
		}
		r := &Run{dir: dir, m: m, lock: lk}
		if err := r.save(m, true); err != nil {
			lk.Close()
			os.RemoveAll(dir) // holds only the lock: save cleans up after itself
			return nil, err
		}
		return r, nil
	}
	return nil, fmt.Errorf("create run: %s and %d suffixed names under %s are all taken", base, maxSuffix-1, root)
}

// CreateAt starts a run in dir, the directory the user named. It creates dir
// (and its parents) if missing and also accepts an existing empty directory.
// A dir holding a run is refused with a usage error: wrapping
// ErrUnfinished, with the command that resumes it, for a stopped or failed
// run; wrapping neither for a run another process is working on now;
// wrapping ErrFinished for a finished run. Any other non-empty directory,
// or a file, is refused as well.
func CreateAt(dir, command string, args []string, settings any, seed uint64) (*Run, error) {
	m, err := newManifest(command, args, settings, seed)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return nil, fmt.Errorf("create run: %w", err)
	}
	r := &Run{dir: dir, m: m}
	err = os.Mkdir(dir, 0o755)
	if err == nil {
		if r.lock, err = lock(dir); err != nil {
			return nil, err
		}
		if err := r.save(m, true); err != nil {
			r.lock.Close()
			os.RemoveAll(dir)
			return nil, err
		}
		return r, nil
	}
	if !errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("create run: %w", err)
	}
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return nil, Usagef("%s exists and is not a directory; give a run directory", dir)
	}
	if old, err := readManifest(dir); err == nil {
		return nil, existingRunError(dir, command, old)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("create run: %w", err)
	}
	// A run killed in its first milliseconds leaves only its lock file and
	// a temporary manifest: the directory counts as empty.
	var litter []string
	for _, e := range entries {
		if name := e.Name(); name == LockName || strings.HasPrefix(name, "."+ManifestName+".tmp-") {
			litter = append(litter, name)
			continue
		}
		return nil, fmt.Errorf("run directory %s is not empty and holds no %s; refusing to write into it", dir, ManifestName)
	}
	if r.lock, err = lock(dir); err != nil {
		return nil, err
	}
	for _, name := range litter {
		if name != LockName {
			os.Remove(filepath.Join(dir, name))
		}
	}
	if err := r.save(m, false); err != nil {
		r.lock.Close()
		if errors.Is(err, fs.ErrExist) { // another process claimed dir first
			return nil, fmt.Errorf("%s: %w (started by another process)", dir, ErrUnfinished)
		}
		return nil, err
	}
	return r, nil
}

// existingRunError is CreateAt's error for dir, which holds the run m: a
// usage error, since the directory the user named is not one this command
// may write into, with a hint at what to do.
func existingRunError(dir, command string, m Manifest) error {
	var err error
	switch StateOf(dir, m) {
	case Done:
		err = fmt.Errorf("%s: %w (%s, ended %s)", dir, ErrFinished, m.Command, m.End.Format(time.RFC3339))
	case Working:
		err = fmt.Errorf("%s: a %s run that another process is working on now (since %s)", dir, m.Command, m.Start.Format(time.RFC3339))
	default:
		what := fmt.Sprintf("%s, status %s since %s", m.Command, m.Status, m.Start.Format(time.RFC3339))
		if m.Status == StatusFailed {
			what = fmt.Sprintf("%s failed: %s", m.Command, m.Error)
		}
		hint := "give another -out"
		if m.Command == command {
			hint = fmt.Sprintf("continue it with: starlab %s -resume %s", command, dir)
		}
		err = fmt.Errorf("%s: %w (%s) (%s)", dir, ErrUnfinished, what, hint)
	}
	return Usage(err)
}

// Open loads the run in dir, typically to resume it. A dir that is missing,
// is not a directory or holds no manifest is not a run: the error is a
// usage error, as dir is a path someone named, and a missing one's is
// fs.ErrNotExist to errors.Is. A damaged manifest is a failure.
func Open(dir string) (*Run, error) {
	fi, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, Usage(notExist{dir})
	}
	if err != nil {
		return nil, fmt.Errorf("open run: %w", err)
	}
	if !fi.IsDir() {
		return nil, Usagef("run directory %s is not a directory", dir)
	}
	m, err := readManifest(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, Usage(err)
	}
	if err != nil {
		return nil, err
	}
	return &Run{dir: dir, m: m}, nil
}

// notExist is Open's error for a missing run directory; it is
// fs.ErrNotExist to errors.Is.
type notExist struct{ dir string }

func (e notExist) Error() string { return fmt.Sprintf("run directory %s does not exist", e.dir) }
func (e notExist) Unwrap() error { return fs.ErrNotExist }

// readManifest reads and checks dir's manifest. A missing manifest gives an
// error wrapping fs.ErrNotExist.
func readManifest(dir string) (Manifest, error) {
	path := filepath.Join(dir, ManifestName)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Manifest{}, fmt.Errorf("%s: %w (not a run directory)", path, fs.ErrNotExist)
	}
	if err != nil {
		return Manifest{}, fmt.Errorf("read manifest: %w", err)
	}
	var m Manifest
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return Manifest{}, fmt.Errorf("%s: bad JSON: %v", path, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return Manifest{}, fmt.Errorf("%s: bad JSON: data after the manifest", path)
	}
	if m.Version != FormatVersion {
		return Manifest{}, fmt.Errorf("%s: unsupported version %d (this build reads version %d)", path, m.Version, FormatVersion)
	}
	switch m.Status {
	case StatusRunning, StatusDone, StatusFailed:
	default:
		return Manifest{}, fmt.Errorf("%s: unknown status %q", path, m.Status)
	}
	if m.Command == "" || strings.ContainsAny(m.Command, `/\`) || strings.HasPrefix(m.Command, ".") {
		return Manifest{}, fmt.Errorf("%s: bad command %q", path, m.Command)
	}
	if m.Start.IsZero() {
		return Manifest{}, fmt.Errorf("%s: no start time", path)
	}
	if len(m.Settings) > 0 && m.Settings[0] != '{' && string(m.Settings) != "null" {
		return Manifest{}, fmt.Errorf("%s: settings are not a JSON object", path)
	}
	if len(m.Settings) > 0 { // undo the file's indentation: a loaded manifest equals the one saved
		var b bytes.Buffer
		if err := json.Compact(&b, m.Settings); err != nil {
			return Manifest{}, fmt.Errorf("%s: bad settings: %v", path, err)
		}
		m.Settings = b.Bytes()
	}
	return m, nil
}

// save writes m as the manifest; with replace false it fails, wrapping
// fs.ErrExist, if a manifest exists already. The caller holds r.mu or owns r.
func (r *Run) save(m Manifest, replace bool) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %v", r.Path(ManifestName), err)
	}
	data = append(data, '\n')
	return writeAtomic(r.Path(ManifestName), func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	}, replace)
}

// update applies change to a copy of the manifest and saves it; the run's
// manifest changes only if the save succeeds.
func (r *Run) update(change func(m *Manifest) error) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	m := r.m.clone()
	if err := change(&m); err != nil {
		return err
	}
	if err := r.save(m, true); err != nil {
		return err
	}
	r.m = m
	return nil
}

// Dir returns the run directory.
func (r *Run) Dir() string { return r.dir }

// Path returns the path of the file called name in the run directory.
func (r *Run) Path(name string) string { return filepath.Join(r.dir, name) }

// Manifest returns a copy of the run's manifest.
func (r *Run) Manifest() Manifest {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.m.clone()
}

// Interrupted is the error a manifest records for a run stopped by a
// cancelled context (Ctrl-C, SIGTERM), which resumes like any other.
const Interrupted = "interrupted"

// Finish records the end of the run: status done if err is nil, otherwise
// failed with err's message ("interrupted" for a cancelled context), and the
// end time. It releases the run's lock.
func (r *Run) Finish(err error) error {
	defer r.Close()
	return r.update(func(m *Manifest) error {
		m.End = time.Now().UTC()
		m.Status, m.Error = StatusDone, ""
		switch {
		case errors.Is(err, context.Canceled):
			m.Status, m.Error = StatusFailed, Interrupted
		case err != nil:
			m.Status, m.Error = StatusFailed, err.Error()
		}
		return nil
	})
}

// Close releases the run's lock without changing its manifest.
func (r *Run) Close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.lock != nil {
		r.lock.Close()
		r.lock = nil
	}
}

// Resume takes the lock of a run opened with Open, marks it as running
// again and appends the time to its resumes. A run another process holds is
// refused (the error wraps ErrLocked), and so is a finished one (ErrFinished).
func (r *Run) Resume() error {
	r.mu.Lock()
	if r.lock == nil {
		lk, err := lock(r.dir)
		if err != nil {
			r.mu.Unlock()
			return err
		}
		r.lock = lk
	}
	r.mu.Unlock()
	err := r.update(func(m *Manifest) error {
		if m.Status == StatusDone {
			return fmt.Errorf("%s: %w, nothing to resume", r.dir, ErrFinished)
		}
		now := time.Now().UTC()
		m.Status, m.Error, m.End = StatusRunning, "", time.Time{}
		m.Resumes = append(m.Resumes, now)
		return nil
	})
	if err != nil {
		r.Close()
	}
	return err
}

// WriteArtifact writes the file called name in the run directory with
// WriteFileAtomic.
func (r *Run) WriteArtifact(name string, write func(w io.Writer) error) error {
	return WriteFileAtomic(r.Path(name), write)
}

// FindUnfinished returns the run directories directly under root whose
// manifest says command (any command if command is empty) and a status
// other than done, newest first: runs killed while running and runs that
// failed or were interrupted, which Resume continues alike. Runs a live
// process holds are left out. A missing root has none; directories without a
// readable manifest are skipped.
func FindUnfinished(root, command string) ([]string, error) {
	entries, err := os.ReadDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("find unfinished runs: %w", err)
	}
	type found struct {
		dir   string
		start time.Time
	}
	var list []found
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := filepath.Join(root, e.Name())
		m, err := readManifest(dir)
		if err != nil || (command != "" && m.Command != command) {
			continue
		}
		if st := StateOf(dir, m); st != Stopped && st != Failed {
			continue
		}
		list = append(list, found{dir, m.Start})
	}
	slices.SortFunc(list, func(a, b found) int {
		if c := b.start.Compare(a.start); c != 0 {
			return c
		}
		return strings.Compare(b.dir, a.dir)
	})
	dirs := make([]string, len(list))
	for i, f := range list {
		dirs[i] = f.dir
	}
	return dirs, nil
}

// Start begins the run of a stage: with resume empty, a new run in out, or
// in a new directory under root when out is empty, recording *settings
// (settings points to the stage's settings); otherwise the unfinished run
// in the directory resume ("latest": the newest unfinished run of command
// under root that no process holds), locked and marked resumed, and
// *settings is replaced by the settings its manifest recorded. A run of
// another command is refused. resumed reports which it was.
//
// An out that cannot be made (a parent is a file, the file system is
// read-only) or written is a usage error naming -out, as gen -o's is
// (CheckOutFile): it is a path the user gave, not a failure while working.
func Start(root, out, resume, command string, args []string, settings any, seed uint64) (r *Run, resumed bool, err error) {
	if resume == "" {
		if out == "" {
			r, err = Create(root, command, args, settings, seed)
		} else {
			r, err = CreateAt(out, command, args, settings, seed)
			var pe *fs.PathError
			if errors.As(err, &pe) && !IsUsage(err) && (pe.Op == "mkdir" || errors.Is(err, fs.ErrPermission)) {
				err = Usagef("-out %s: cannot make the run directory: %v", out, pe)
			}
		}
		return r, false, err
	}
	if r, err = resumeRun(root, resume, command); err != nil {
		return nil, false, err
	}
	reflect.ValueOf(settings).Elem().SetZero() // fields the manifest lacks stay zero
	if err := r.Settings(settings); err != nil {
		r.Close()
		return nil, false, err
	}
	return r, true, nil
}

// resumeRun opens and resumes the run of command that resume names (see
// Start). A resume that names no such run, or one that cannot be resumed
// (finished, or held by another process), is a usage error: a path the
// user gave that is not what the command reads. A damaged manifest is a
// failure.
func resumeRun(root, resume, command string) (*Run, error) {
	dir := resume
	if resume == "latest" {
		dirs, err := FindUnfinished(root, command)
		if err != nil {
			return nil, err
		}
		if len(dirs) == 0 {
			return nil, Usagef("-resume latest: no unfinished %s run under %s/ that no process holds", command, root)
		}
		dir = dirs[0]
	}
	r, err := Open(dir)
	if err != nil {
		return nil, err
	}
	if m := r.Manifest(); m.Command != command {
		return nil, Usagef("run %s is a %s run, not a %s run", dir, m.Command, command)
	}
	if err := r.Resume(); err != nil {
		if errors.Is(err, ErrFinished) || errors.Is(err, ErrLocked) {
			err = Usage(err)
		}
		return nil, err
	}
	return r, nil
}

// Settings decodes the settings recorded in the manifest into v.
func (r *Run) Settings(v any) error {
	m := r.Manifest()
	dec := json.NewDecoder(bytes.NewReader(m.Settings))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%s: settings: %v", r.Path(ManifestName), err)
	}
	return nil
}
