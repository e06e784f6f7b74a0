package runs

import (
	"errors"
	"fmt"
)

// UsageError is an error in what a user gave (a flag, an argument, a spec,
// a setting, or a file the user named: a net, parameters, a suite, a run
// to read) rather than a failure while working with it; commands exit with
// status 2 on it and 1 on any other error. Stages return it from their
// checks, so the distinction survives however deep the check is.
type UsageError struct {
	Msg string
	Err error // the error it marks, if any
}

func (e *UsageError) Error() string { return e.Msg }

// Unwrap returns the error the usage error marks.
func (e *UsageError) Unwrap() error { return e.Err }

// Usagef returns a *UsageError with a formatted message (%w wraps).
func Usagef(format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	return &UsageError{Msg: err.Error(), Err: errors.Unwrap(err)}
}

// Usage marks err, an error in something the user gave, as a usage error,
// keeping its message; nil stays nil.
func Usage(err error) error {
	if err == nil {
		return nil
	}
	var ue *UsageError
	if errors.As(err, &ue) {
		return err
	}
	return &UsageError{Msg: err.Error(), Err: err}
}

// IsUsage reports whether err is, or wraps, a usage error.
func IsUsage(err error) bool {
	var ue *UsageError
	return errors.As(err, &ue)
}

// Progress is the callback through which a stage reports its progress:
// done of total units, and a short status line. A stage calls it from one
// goroutine at a time; it must return quickly.
type Progress func(done, total int64, status string)

// NoProgress is a Progress that ignores everything.
func NoProgress(int64, int64, string) {}
