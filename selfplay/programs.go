package selfplay

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"starlab/outside"
	"starlab/runs"
)

// EnginesLog is the file in a match's run directory that keeps what its
// outside engines write to their standard error, appended, at most
// outside.EnginesLogBytes in all.
const EnginesLog = "engines.log"

// Prepare resolves the settings (Resolve), finds the outside engines'
// programs and records where (Programs), and starts each program once
// and stops it, so that a match whose engine cannot run is refused in one
// line (a usage error, exit 2) before anything is written: a command
// calls it before it makes the run directory.
func (s *MatchSettings) Prepare(ctx context.Context) (*Match, error) {
	m, err := s.Resolve()
	if err != nil {
		return nil, err
	}
	if err := m.locate(); err != nil {
		return nil, err
	}
	if err := m.startChecked(ctx); err != nil {
		return nil, err
	}
	s.Programs, s.started = m.Settings.Programs, true
	m.Settings.started = true
	return m, nil
}

// startChecked starts each outside program once (startOutsiders) with no
// log but its last line on standard error, which a failure names.
func (m *Match) startChecked(ctx context.Context) error {
	tail := &tailWriter{}
	err := m.startOutsiders(ctx, tail)
	if last := tail.lastLine(); err != nil && last != "" && ctx.Err() == nil {
		err = fmt.Errorf("%w; its last line on standard error: %q", err, outside.Clip(last, outside.MaxReplyBytes))
	}
	return err
}

// outsiders returns the match's outside engines: its players' and an
// outside luck reference.
func (m *Match) outsiders() []outside.Engine {
	var list []outside.Engine
	for _, v := range m.Engines {
		if v.Outside != nil {
			list = append(list, v.Outside)
		}
	}
	if m.Luck != nil && m.Luck.Outside != nil {
		list = append(list, m.Luck.Outside)
	}
	return list
}

// locate finds each outside engine's program where the settings recorded
// it, or else from the working directory, and records it.
func (m *Match) locate() error {
	s := &m.Settings
	for _, o := range m.outsiders() {
		var known *outside.Program
		for i := range s.Programs {
			if s.Programs[i].Spec == o.Name() {
				known = &s.Programs[i]
			}
		}
		p, err := o.Locate(known)
		if err != nil {
			return runs.Usage(err)
		}
		if known == nil {
			s.Programs = append(s.Programs, p)
		}
	}
	return nil
}

// openOutsiders readies the match's outside engines for the games a run
// plays: it finds their programs (locate), opens the run's engines.log in
// dir, and starts each program once unless Prepare has; the caller closes
// the file.
func (m *Match) openOutsiders(ctx context.Context, dir string) (*os.File, *outside.BoundedLog, error) {
	if err := m.locate(); err != nil {
		return nil, nil, err
	}
	f, log, err := openEnginesLog(dir)
	if err != nil {
		return nil, nil, err
	}
	if !m.Settings.started {
		if err := m.startOutsiders(ctx, log); err != nil {
			f.Close()
			return nil, nil, err
		}
	}
	return f, log, nil
}

// workers keeps the workers a pool makes, from any goroutine, so that
// they are closed when it is done.
type workers[W interface{ close() }] struct {
	mu  sync.Mutex
	all []W
}

// keep adds w and returns it.
func (ws *workers[W]) keep(w W) W {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	ws.all = append(ws.all, w)
	return w
}

// close closes every worker kept.
func (ws *workers[W]) close() {
	for _, w := range ws.all {
		w.close()
	}
}

// openWork opens what the workers of a stage's run in dir write: its
// journal of format and its engines.log; done closes both.
func openWork(dir, journal, format string) (*runs.Journal, *outside.BoundedLog, func(), error) {
	j, err := runs.OpenJournal(dir, journal, format)
	if err != nil {
		return nil, nil, nil, err
	}
	f, log, err := openEnginesLog(dir)
	if err != nil {
		j.Close()
		return nil, nil, nil, err
	}
	return j, log, func() { f.Close(); j.Close() }, nil
}

// openEnginesLog opens the run's engines.log for appending, bounded.
func openEnginesLog(dir string) (*os.File, *outside.BoundedLog, error) {
	f, err := os.OpenFile(filepath.Join(dir, EnginesLog), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, outside.NewBoundedLog(f, fi.Size(), outside.EnginesLogBytes), nil
}

// startOutsiders starts each outside program of the match once (its
// players and an outside luck reference) and stops it with all it
// started, so that one that cannot start fails the match in one line (a
// usage error, exit 2) before its first game.
func (m *Match) startOutsiders(ctx context.Context, log io.Writer) error {
	g, variant := m.Settings.Kit, m.Settings.Variant
	for _, o := range m.outsiders() {
		var p interface{ Close() error }
		var err error
		if m.Luck != nil && o == m.Luck.Outside {
			if p, err = o.(outside.ValuerEngine).StartValuer(ctx, g, variant, log); err != nil {
				err = fmt.Errorf("-luck: %v", err)
			}
		} else {
			p, err = o.Start(ctx, g, variant, log)
		}
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return runs.Usage(err)
		}
		p.Close()
	}
	return nil
}

// tailWriter keeps the last bytes written to it: a program's last words
// on standard error, for the one line that says why it did not start.
type tailWriter struct {
	mu  sync.Mutex
	buf []byte
}

const tailBytes = 4 << 10

func (t *tailWriter) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > tailBytes {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-tailBytes:]...)
	}
	return len(b), nil
}

// lastLine returns the last line written that is neither empty nor
// starlab's own.
func (t *tailWriter) lastLine() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(string(t.buf), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" && !strings.HasPrefix(l, "starlab: ") {
			return l
		}
	}
	return ""
}
