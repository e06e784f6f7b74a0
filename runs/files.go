package runs

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"
)

// WriteFileAtomic writes the file at path with write, so that the file is
// either left as it was or replaced whole. write gets a buffered writer on a
// temporary file in the same directory, which is synced, closed, given mode
// 0644 and renamed over path; then the directory is synced. On any error the
// temporary file is removed.
func WriteFileAtomic(path string, write func(w io.Writer) error) error {
	return writeAtomic(path, write, true)
}

// WriteBytesAtomic writes data to path with WriteFileAtomic.
func WriteBytesAtomic(path string, data []byte) error {
	return WriteFileAtomic(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteJSON writes v as the indented JSON file name in the run directory,
// atomically, with a final newline: a stage's summary or state.
func WriteJSON(r *Run, name string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %v", r.Path(name), err)
	}
	return WriteBytesAtomic(r.Path(name), append(data, '\n'))
}

// ReadJSON reads the JSON file at path, as WriteJSON writes it, into v;
// errors name the file, and a missing file's wraps fs.ErrNotExist.
func ReadJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err // *fs.PathError names the file
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	return nil
}

// CheckOutFile reports, as a usage error, why path cannot be the file a
// command writes: a directory stands there, or there is no directory to
// hold it. A command checks its output file before it works.
func CheckOutFile(path string) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return Usagef("%s is a directory; give a file", path)
	}
	dir := filepath.Dir(path)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return Usagef("%s: there is no directory %s to hold it", path, dir)
	}
	return nil
}

// writeAtomic implements WriteFileAtomic. With replace false the temporary
// file is hard-linked to path instead of renamed, which fails with an error
// wrapping fs.ErrExist if path exists.
func writeAtomic(path string, write func(w io.Writer) error, replace bool) (err error) {
	dir := filepath.Dir(path)
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("write %s: is a directory", path)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, bare(err, "")) // the error names the pattern
	}
	tmp := f.Name()
	closed := false
	defer func() {
		if !closed {
			f.Close()
		}
		if err != nil || !replace {
			os.Remove(tmp)
		}
	}()
	bw := bufio.NewWriter(f)
	if err := write(bw); err != nil {
		return fmt.Errorf("write %s: %w", path, bare(err, tmp))
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write %s: %w", path, bare(err, tmp))
	}
	if err := f.Chmod(0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, bare(err, tmp))
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("write %s: %w", path, bare(err, tmp))
	}
	closed = true
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, bare(err, tmp))
	}
	if replace {
		err = os.Rename(tmp, path)
	} else {
		err = os.Link(tmp, path)
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, bare(err, tmp))
	}
	return syncDir(dir)
}

// bare is err without the name of the temporary file tmp ("": any) that an
// *fs.PathError or *os.LinkError about it gives: writeAtomic's errors name
// the file written, which the user knows, and not tmp.
func bare(err error, tmp string) error {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe) && (tmp == "" || pe.Path == tmp):
		return pe.Err
	case errors.As(err, &le) && (tmp == "" || le.Old == tmp):
		return le.Err
	}
	return err
}

// syncDir makes a rename or new file in dir durable.
func syncDir(dir string) error {
	if runtime.GOOS == "windows" { // directories cannot be synced there
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("sync directory: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync directory %s: %w", dir, err)
	}
	return nil
}

// Journal is an append-only file of newline-delimited JSON records, the
// checkpoint of a long stage. Its methods are safe for concurrent use.
type Journal struct {
	path string
	mu   sync.Mutex // guards the fields below and serialises appends
	f    *os.File
	size int64 // bytes of complete records
	err  error // sticky: set when an append may have left a partial record
	// syncEvery is the longest time between fsyncs; 0 syncs every record.
	syncEvery time.Duration
	lastSync  time.Time
}

// SetSyncInterval makes Append fsync at most once per d instead of after
// every record (Close always syncs). A record is written by one write call
// before Append returns, so it survives the process being killed either
// way; the interval bounds only what a crash of the machine itself can lose.
// Stages that append many records a second use it so the disk does not set
// their pace.
func (j *Journal) SetSyncInterval(d time.Duration) {
	j.mu.Lock()
	j.syncEvery = d
	j.mu.Unlock()
}

// journalHeader is the first line of every journal: the format of its
// records, checked when it is loaded or reopened.
type journalHeader struct {
	Journal string `json:"journal"`
}

// checkHeader checks that line is the header of a journal of format.
func checkHeader(path string, line []byte, format string) error {
	var h journalHeader
	if err := json.Unmarshal(line, &h); err != nil || h.Journal == "" {
		return fmt.Errorf("%s: first line is not a journal header (a journal of an older build?)", path)
	}
	if h.Journal != format {
		return fmt.Errorf("%s: journal format %q, this build reads %q", path, h.Journal, format)
	}
	return nil
}

// OpenJournal opens the journal called name in dir for appending records of
// format (such as "starlab-match/2"), creating it with its header line if
// missing, and checking the header otherwise. A partial last line, left by
// a crash during an append, is truncated away.
func OpenJournal(dir, name, format string) (*Journal, error) {
	path := filepath.Join(dir, name)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open journal: %w", err)
	}
	j := &Journal{path: path, f: f}
	if err := j.recover(); err != nil {
		f.Close()
		return nil, err
	}
	if j.size == 0 {
		if err := j.Append(journalHeader{Journal: format}); err != nil {
			f.Close()
			return nil, err
		}
	} else {
		first, err := bufio.NewReader(io.NewSectionReader(f, 0, j.size)).ReadBytes('\n')
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("read journal %s: %w", path, err)
		}
		if err := checkHeader(path, first[:len(first)-1], format); err != nil {
			f.Close()
			return nil, err
		}
	}
	if err := syncDir(dir); err != nil {
		f.Close()
		return nil, err
	}
	return j, nil
}

// recover truncates the file after its last newline.
func (j *Journal) recover() error {
	fi, err := j.f.Stat()
	if err != nil {
		return fmt.Errorf("open journal: %w", err)
	}
	buf := make([]byte, 4096)
	end := fi.Size()
	for end > 0 {
		start := max(end-int64(len(buf)), 0)
		b := buf[:end-start]
		if n, err := j.f.ReadAt(b, start); err != nil && !(err == io.EOF && n == len(b)) {
			return fmt.Errorf("read journal %s: %w", j.path, err)
		}
		if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
			end = start + int64(i) + 1
			break
		}
		end = start
	}
	j.size = end
	if end == fi.Size() {
		return nil
	}
	if err := j.f.Truncate(end); err != nil {
		return fmt.Errorf("truncate partial record of %s: %w", j.path, err)
	}
	if err := j.f.Sync(); err != nil {
		return fmt.Errorf("sync journal %s: %w", j.path, err)
	}
	return nil
}

// Append writes v as one JSON line with a single write call and syncs the
// file, so the record survives a crash once Append returns. After a failed
// write the journal refuses further appends rather than risk a record glued
// to a partial one.
func (j *Journal) Append(v any) error {
	line, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("append to %s: %v", j.path, err)
	}
	line = append(line, '\n')
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.err != nil {
		return j.err
	}
	if j.f == nil {
		return fmt.Errorf("append to %s: %w", j.path, fs.ErrClosed)
	}
	if _, err := j.f.Write(line); err != nil {
		j.err = fmt.Errorf("append to %s: %w", j.path, err)
		j.f.Truncate(j.size) // best effort: a reopen truncates the rest anyway
		return j.err
	}
	j.size += int64(len(line))
	if j.syncEvery == 0 || time.Since(j.lastSync) >= j.syncEvery {
		if err := j.f.Sync(); err != nil {
			j.err = fmt.Errorf("sync %s: %w", j.path, err)
			return j.err
		}
		j.lastSync = time.Now()
	}
	return nil
}

// Close closes the journal.
func (j *Journal) Close() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.f == nil {
		return nil
	}
	serr := j.f.Sync()
	err := j.f.Close()
	if err == nil {
		err = serr
	}
	j.f = nil
	if err != nil {
		return fmt.Errorf("close journal: %w", err)
	}
	return nil
}

// LoadJournal calls fn with each complete record of the journal called name
// in dir, in order, without its newline; fn must not keep line after it
// returns. The header must name format. A partial last line is ignored and
// a missing journal has no records. An error from fn stops the load and is
// returned with the file name and line number.
func LoadJournal(dir, name, format string, fn func(line []byte) error) error {
	path := filepath.Join(dir, name)
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("load journal: %w", err)
	}
	defer f.Close()
	br := bufio.NewReader(f)
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if err == io.EOF {
			return nil // whatever is left is a partial record
		}
		if err != nil {
			return fmt.Errorf("read journal %s: %w", path, err)
		}
		if n == 1 {
			if err := checkHeader(path, line[:len(line)-1], format); err != nil {
				return err
			}
			continue
		}
		if err := fn(line[:len(line)-1]); err != nil {
			return fmt.Errorf("%s:%d: %w", path, n, err)
		}
	}
}

// JournalEndsWhole reports whether the journal called name in dir ends with
// a whole record, its last byte a newline: the last append of a run that
// finished completed, where a killed run may leave the torn line that
// LoadJournal ignores and OpenJournal truncates.
func JournalEndsWhole(dir, name string) (bool, error) {
	path := filepath.Join(dir, name)
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	last := make([]byte, 1)
	if _, err := f.Seek(-1, io.SeekEnd); err != nil {
		return false, fmt.Errorf("%s: empty, without its header line", path)
	}
	if _, err := io.ReadFull(f, last); err != nil {
		return false, fmt.Errorf("read %s: %v", path, err)
	}
	return last[0] == '\n', nil
}
