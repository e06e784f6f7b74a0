package runs

import "fmt"

// UsageError is an error in what a user asked for (a flag, a spec, a
// setting) rather than a failure while doing it; commands exit with status 2
// on it. Stages return it from their settings checks, so the distinction
// survives however deep the check is.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// Usagef returns a *UsageError with a formatted message.
func Usagef(format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, args...)}
}

// Progress is the callback through which a stage reports its progress:
// done of total units, and a short status line. A stage calls it from one
// goroutine at a time; it must return quickly.
type Progress func(done, total int64, status string)

// NoProgress is a Progress that ignores everything.
func NoProgress(int64, int64, string) {}
