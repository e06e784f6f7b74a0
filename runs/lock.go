package runs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// LockName is the lock file of a run directory.
const LockName = ".lock"

// ErrLocked is wrapped by the errors of a run that another process owns.
var ErrLocked = errors.New("run is in use by another process")

// lock takes an exclusive advisory lock (flock) on dir's lock file and
// writes the owner's pid into it. The kernel releases the lock when the
// process dies, however it dies, so a killed run is never left locked.
func lock(dir string) (*os.File, error) {
	path := filepath.Join(dir, LockName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock run %s: %w", dir, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		pid := "another process"
		if b, rerr := os.ReadFile(path); rerr == nil && len(strings.TrimSpace(string(b))) > 0 {
			pid = "process " + strings.TrimSpace(string(b))
		}
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("run %s: %w (%s)", dir, ErrLocked, pid)
		}
		return nil, fmt.Errorf("lock run %s: %w", dir, err)
	}
	_ = f.Truncate(0)
	_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	return f, nil
}

// State is where a run stands: its manifest's status, told apart by
// whether a live process holds the run.
type State int

// The states of a run.
const (
	// Done is a finished run, whose results are whole.
	Done State = iota
	// Working is an unfinished run a live process holds: it is being
	// worked on now (a resume takes the lock before it marks the run
	// running, so the manifest may still say failed).
	Working
	// Stopped is a run whose manifest says running but that no process
	// holds: killed, or its machine went down. It resumes.
	Stopped
	// Failed is a run that ended with an error, an interruption
	// included, and that no process holds. It resumes.
	Failed
)

// StateOf returns where the run in dir, whose manifest is m, stands: the
// one place that tells a stopped run from one being worked on.
func StateOf(dir string, m Manifest) State {
	switch {
	case m.Status == StatusDone:
		return Done
	case Held(dir):
		return Working
	case m.Status == StatusRunning:
		return Stopped
	}
	return Failed
}

// Held reports whether a live process holds the run in dir (its lock): a
// run whose manifest says running and that no process holds was stopped
// (killed, or its machine went down) and waits to be resumed.
func Held(dir string) bool {
	f, err := os.Open(filepath.Join(dir, LockName))
	if err != nil {
		return false
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return true
	}
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return false
}
