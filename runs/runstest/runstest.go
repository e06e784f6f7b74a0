// Package runstest helps the tests of the packages that read run files:
// it writes files of the earlier versions of their schemas, which no
// stage writes any more.
package runstest

import (
	"bytes"
	"os"
	"slices"
	"testing"

	"github.com/parquet-go/parquet-go"

	"starlab/runs"
)

// WriteOldParquet writes rows as the Parquet file at path of format, an
// earlier version of a schema that had the columns of T but drop: a file
// runs.ReadOldParquet reads with drop as the columns it lacks.
func WriteOldParquet[T any](t testing.TB, path, format string, rows []T, drop ...string) {
	t.Helper()
	cols := parquet.Group{}
	for _, f := range parquet.SchemaOf(new(T)).Fields() {
		if !slices.Contains(drop, f.Name()) {
			cols[f.Name()] = f
		}
	}
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[T](&buf, parquet.NewSchema("row", cols), parquet.KeyValueMetadata(runs.FormatKey, format))
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
