package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"strings"
	"testing"

	"starlab/runs"
	"starlab/search"
)

// TestProgram runs a program of one command through Run: flags after the
// arguments, a flag given twice, -h, an unknown command, and the exit
// codes of a usage error and of a failure, each on one line.
func TestProgram(t *testing.T) {
	var n int
	var got []string
	p := &Program{Name: "tool", Summary: "tool does things.", GameOf: func([]string) search.Kit { return search.Kit{} },
		Commands: func() []*Command {
			return []*Command{{Name: "do", UsageLine: "do [-n N] ARG...", Short: "does", Long: "Do does.", Interspersed: true,
				SetFlags: func(fs *flag.FlagSet, _ search.Kit) {
					n = 0
					fs.IntVar(&n, "n", 0, "a number")
					fs.String("s", "", "a string")
				},
				Run: func(_ context.Context, env *Env, args []string) error {
					got = args
					switch {
					case len(args) > 0 && args[0] == "bad":
						return runs.Usagef("bad argument\nsecond line")
					case len(args) > 0 && args[0] == "fail":
						return errors.New("failed")
					}
					if !FlagGiven(env.Flags, "n") && n != 0 {
						t.Error("FlagGiven says no for a flag that changed")
					}
					return nil
				}}}
		}}
	run := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := p.Run(context.Background(), args, &out, &errb)
		return code, out.String(), errb.String()
	}
	if code, _, _ := run("do", "a", "-n", "3", "b"); code != 0 || n != 3 || strings.Join(got, " ") != "a b" {
		t.Errorf("flags after arguments: exit %d, n %d, args %v", code, n, got)
	}
	if code, _, stderr := run("do", "-n", "1", "-n", "2"); code != 2 || !strings.Contains(stderr, "-n is given twice") {
		t.Errorf("a flag given twice: exit %d, %q", code, stderr)
	}
	for _, args := range [][]string{{"do", "-s", ""}, {"do", "-s="}, {"do", "a", "-s", ""}} {
		if code, _, stderr := run(args...); code != 2 || stderr != "tool do: -s is given an empty value; leave it out for its default (see 'tool do -h')\n" {
			t.Errorf("%q: exit %d, %q; want exit 2 and -s refused", args, code, stderr)
		}
	}
	if code, stdout, _ := run("do", "-h"); code != 0 || !strings.HasPrefix(stdout, "usage: tool do [-n N] ARG...") {
		t.Errorf("-h: exit %d, %q", code, stdout)
	}
	if code, _, stderr := run("undo"); code != 2 || !strings.Contains(stderr, `tool: unknown command "undo"`) {
		t.Errorf("an unknown command: exit %d, %q", code, stderr)
	}
	if code, _, stderr := run("do", "bad"); code != 2 || stderr != "tool do: bad argument; second line (see 'tool do -h')\n" {
		t.Errorf("a usage error: exit %d, %q", code, stderr)
	}
	if code, _, stderr := run("do", "fail"); code != 1 || stderr != "tool do: failed\n" {
		t.Errorf("a failure: exit %d, %q", code, stderr)
	}
	if code, stdout, _ := run("help"); code != 0 || !strings.Contains(stdout, "tool does things.") || !strings.Contains(stdout, "do         does") {
		t.Errorf("help: exit %d, %q", code, stdout)
	}
}
