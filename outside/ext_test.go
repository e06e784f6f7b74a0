package outside

import (
	"testing"

	"starlab/search"
)

// TestOutsideLineRules: a line with a NUL byte, a second "\r" or bytes
// that are not UTF-8 is not read as text; a tab is; a spec with a
// control character is refused.
func TestOutsideLineRules(t *testing.T) {
	for _, line := range []string{"mo\x00ve c4", "move c4\r", "move \xff"} {
		if lineProblem(line) == "" {
			t.Errorf("%q: no problem found", line)
		}
	}
	if lineProblem("move c4") != "" || lineProblem("legal a4\tb4") != "" {
		t.Error("a good line refused")
	}
	if _, err := ParseExt(search.Kit{}, "ext:cmd=x,name=a\x1b[31mb"); err == nil {
		t.Error("a name with an escape accepted")
	}
}
