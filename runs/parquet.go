package runs

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/parquet-go/parquet-go"
)

// FormatKey is the key-value metadata key of every Parquet file starlab
// writes; its value names the schema and its version, like
// "starlab-match/2".
const FormatKey = "starlab.format"

// WriteParquet writes rows as the Parquet file name in the run directory:
// one row per element, the columns from T's parquet tags, Snappy pages, the
// key-value metadata FormatKey = format plus the pairs of meta (key, value,
// key, value, ...). The file is written atomically, so a file that exists
// is whole, footer included.
func WriteParquet[T any](r *Run, name, format string, rows []T, meta ...string) error {
	return WriteParquetFile(r.Path(name), format, rows, meta...)
}

// WriteParquetFile is WriteParquet to any path.
func WriteParquetFile[T any](path, format string, rows []T, meta ...string) error {
	if len(meta)%2 != 0 {
		return fmt.Errorf("write %s: odd number of metadata strings", path)
	}
	opts := []parquet.WriterOption{parquet.KeyValueMetadata(FormatKey, format), parquet.Compression(&parquet.Snappy)}
	for i := 0; i < len(meta); i += 2 {
		opts = append(opts, parquet.KeyValueMetadata(meta[i], meta[i+1]))
	}
	return WriteFileAtomic(path, func(w io.Writer) error {
		return parquet.Write(w, rows, opts...)
	})
}

// ReadParquet reads a Parquet file written by WriteParquet with rows of T.
// It checks the format metadata and that every column of T is present with
// the same physical type; errors are one line naming the file and the
// missing or wrong column.
func ReadParquet[T any](path, format string) ([]T, error) {
	return ReadOldParquet[T](path, format)
}

// ReadOldParquet is ReadParquet of a file of an earlier version of a
// schema, format, with rows of T, a struct of the columns of several
// versions: the columns of T named in lacks, which that version did not
// have, may be missing and then read as zero values.
func ReadOldParquet[T any](path, format string, lacks ...string) ([]T, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	pf, err := parquet.OpenFile(f, fi.Size())
	if err != nil {
		return nil, fmt.Errorf("%s: not a readable Parquet file: %v", path, err)
	}
	if got, ok := pf.Lookup(FormatKey); !ok {
		return nil, fmt.Errorf("%s: no %s metadata: not a starlab %s file", path, FormatKey, format)
	} else if got != format {
		return nil, fmt.Errorf("%s: format %q, want %q", path, got, format)
	}
	have := map[string]parquet.Field{}
	for _, fl := range pf.Schema().Fields() {
		have[fl.Name()] = fl
	}
	for _, want := range parquet.SchemaOf(new(T)).Fields() {
		got, ok := have[want.Name()]
		switch {
		case !ok && !slices.Contains(lacks, want.Name()):
			return nil, fmt.Errorf("%s: missing column %q", path, want.Name())
		case ok && (!got.Leaf() || got.Type().Kind() != want.Type().Kind()):
			return nil, fmt.Errorf("%s: column %q is %v, want %v", path, want.Name(), got.Type(), want.Type())
		}
	}
	rows := make([]T, pf.NumRows())
	rd := parquet.NewGenericReader[T](f)
	defer rd.Close()
	n, err := rd.Read(rows)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if n != len(rows) {
		return nil, fmt.Errorf("%s: read %d of %d rows", path, n, len(rows))
	}
	return rows, nil
}

// ParquetFormat returns the FormatKey metadata of a Parquet file, so that a
// reader of several versions of a schema can pick the one to read with
// ReadParquet; errors are one line naming the file.
func ParquetFormat(path string) (string, error) {
	format, ok, err := ParquetMeta(path, FormatKey)
	if err == nil && !ok {
		err = fmt.Errorf("%s: no %s metadata: not a starlab file", path, FormatKey)
	}
	return format, err
}

// ParquetMeta returns the metadata value of key in a Parquet file (as
// WriteParquet's meta gives it), and whether the file has the key; errors
// are one line naming the file.
func ParquetMeta(path, key string) (value string, ok bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return "", false, fmt.Errorf("read %s: %w", path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", false, fmt.Errorf("read %s: %w", path, err)
	}
	pf, err := parquet.OpenFile(f, fi.Size())
	if err != nil {
		return "", false, fmt.Errorf("%s: not a readable Parquet file: %v", path, err)
	}
	value, ok = pf.Lookup(key)
	return value, ok, nil
}
