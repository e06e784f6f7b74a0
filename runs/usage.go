package runs

import "starlab/runs/usage"

// UsageError is an error in what a user gave rather than a failure while
// working with it: commands exit with status 2 on it and 1 on any other
// error. It is usage.Error, in a package of its own so that packages
// below runs (search's configuration grammar) can return it.
type UsageError = usage.Error

// Usagef returns a *UsageError with a formatted message (%w wraps):
// usage.Errorf.
func Usagef(format string, args ...any) error { return usage.Errorf(format, args...) }

// Usage marks err, an error in something the user gave, as a usage error,
// keeping its message; nil stays nil: usage.Mark.
func Usage(err error) error { return usage.Mark(err) }

// IsUsage reports whether err is, or wraps, a usage error: usage.Is.
func IsUsage(err error) bool { return usage.Is(err) }

// Progress is the callback through which a stage reports its progress:
// done of total units, and a short status line. A stage calls it from one
// goroutine at a time; it must return quickly.
type Progress func(done, total int64, status string)

// NoProgress is a Progress that ignores everything.
func NoProgress(int64, int64, string) {}
