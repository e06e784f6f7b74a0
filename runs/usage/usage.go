// Package usage marks an error as the user's: a bad flag, argument, spec,
// setting, or a file the user named, rather than a failure while working
// with it. Commands exit with status 2 on such an error and 1 on any
// other. It imports only the standard library, so that the packages that
// check what users give (search's configuration grammar among them) can
// mark their errors without depending on the run substrate; package runs
// keeps its old names for these as aliases.
package usage

import (
	"errors"
	"fmt"
)

// Error is an error in what a user gave (a flag, an argument, a spec, a
// setting, or a file the user named: a net, parameters, a suite, a run to
// read) rather than a failure while working with it. Stages return it
// from their checks, so the distinction survives however deep the check
// is.
type Error struct {
	Msg string
	Err error // the error it marks, if any
}

func (e *Error) Error() string { return e.Msg }

// Unwrap returns the error the usage error marks.
func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error with a formatted message (%w wraps).
func Errorf(format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	return &Error{Msg: err.Error(), Err: errors.Unwrap(err)}
}

// Mark marks err, an error in something the user gave, as a usage error,
// keeping its message; nil stays nil, and an error that already is one
// is returned as it is.
func Mark(err error) error {
	if err == nil {
		return nil
	}
	var ue *Error
	if errors.As(err, &ue) {
		return err
	}
	return &Error{Msg: err.Error(), Err: err}
}

// Is reports whether err is, or wraps, a usage error.
func Is(err error) bool {
	var ue *Error
	return errors.As(err, &ue)
}
