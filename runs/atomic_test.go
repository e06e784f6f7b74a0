package runs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteAtomicNamesThePath: a write that fails names the file the
// caller gave, never the temporary file it writes first.
func TestWriteAtomicNamesThePath(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{sub, filepath.Join(dir, "none", "x.suite")} {
		err := WriteBytesAtomic(path, []byte("x\n"))
		if err == nil || !strings.HasPrefix(err.Error(), "write "+path+": ") || strings.Contains(err.Error(), ".tmp-") {
			t.Errorf("WriteBytesAtomic(%s): %v; want an error naming %s alone", path, err, path)
		}
		if err := CheckOutFile(path); !IsUsage(err) || !strings.HasPrefix(err.Error(), path) {
			t.Errorf("CheckOutFile(%s): %v; want a usage error naming it", path, err)
		}
	}
	if err := CheckOutFile(filepath.Join(sub, "x.suite")); err != nil {
		t.Errorf("CheckOutFile of a new file in a directory: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("the failed writes left %v", entries)
	}
}
