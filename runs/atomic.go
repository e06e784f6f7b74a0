package runs

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
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
