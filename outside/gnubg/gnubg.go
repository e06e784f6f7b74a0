// Package gnubg plays GNU Backgammon (gnubg, Debian's package) in starlab's
// matches, as the outside engine "gnubg:plies=N,noise=X": importing it
// registers the spec with package outside.
//
// starlab is the referee. It starts one gnubg process per match worker
// (gnubg -t -q -r), gives it its settings on standard input, and then
// "external PATH", on which gnubg listens on a Unix-domain socket for one
// client. At every decision of gnubg's side starlab sends the position as
// a FIBS board line with all 52 fields (backgammon.FIBSBoard: gnubg keeps
// the fields of the request before when a line is short, and answers
// boards it should refuse), one request per write (gnubg reads a request
// with one read() and drops what follows its newline in the same read),
// and reads one line, the play as "8/5 6/5" or an empty line when no play
// is legal; the play is checked against starlab's own list of legal plays.
// The settings are those of gnubg's named levels, cubeless:
//
//	set threads 1
//	set jacoby off                                     (money: gammons count without a cube turn)
//	set evaluation chequerplay evaluation plies N      (gnubg's N-ply is starlab's depth 2N+1)
//	set evaluation chequerplay evaluation cubeful off  (cubeless play; cubeful play changes the gammon rate)
//	set evaluation chequerplay evaluation prune off    (on from 1 ply, as its world class level)
//	set evaluation chequerplay evaluation noise X      (beginner 0.06, intermediate 0.04, advanced 0.015, expert 0)
//	set evaluation chequerplay evaluation deterministic on (the noise is a function of the position)
//
// so gnubg's moves are a function of the position, and a match resumed
// after a kill repeats the uninterrupted one.
//
// gnubg can also be the luck reference of a match it does not play
// (-luck gnubg:plies=N, Spec.StartValuer): the value of a rolled position
// is that of the position after gnubg's play for the roll, which gnubg
// evaluates cubeless ("evaluation fibsboard BOARD plies N cubeless").
package gnubg

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"starlab/outside"
	"starlab/search"
	"starlab/search/backgammon"
	"starlab/search/game"
)

// Spec is a gnubg engine setting.
type Spec struct {
	Plies   int           // look-ahead in gnubg's plies (0: its nets alone)
	Noise   float64       // standard deviation of the noise added to its evaluations, in equity
	Timeout time.Duration // the longest wait for a move before gnubg forfeits the game
	Path    string        // the program; "" looks on PATH and in /usr/games
	prog    outside.Program
}

// defaultTimeout is the wait for one move: gnubg 2-ply took up to about a
// second per move here, 0-ply about 0.2 ms.
const defaultTimeout = 30 * time.Second

// Parse reads "gnubg:plies=N,noise=X[,timeout=D][,path=P]" for a
// backgammon match (both variants), in one line naming the problem.
func Parse(g search.Kit, spec string) (outside.Engine, error) {
	if g.Name() != "backgammon" {
		return nil, fmt.Errorf("spec %q: gnubg plays backgammon, not %s", spec, g.Name())
	}
	kv, err := outside.SpecKeys(spec)
	if err != nil {
		return nil, err
	}
	s := &Spec{Timeout: defaultTimeout}
	for k, v := range kv {
		bad := func(why string) error { return fmt.Errorf("spec %q: %s=%s: %s", spec, k, v, why) }
		switch k {
		case "plies":
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || n > 4 {
				return nil, bad("want 0 to 4 (gnubg's look-ahead: 0 is its nets alone, 2 its world class level)")
			}
			s.Plies = n
		case "noise":
			x, err := strconv.ParseFloat(v, 64)
			if err != nil || !(x >= 0 && x <= 1) {
				return nil, bad("want a number from 0 to 1 (gnubg's levels: beginner 0.06, intermediate 0.04, advanced 0.015, expert 0)")
			}
			s.Noise = x
		case "timeout":
			d, err := time.ParseDuration(v)
			if err != nil || d < time.Millisecond {
				return nil, bad("want a duration such as 30s")
			}
			s.Timeout = d
		case "path":
			if v == "" {
				return nil, bad("want the path of the gnubg program")
			}
			s.Path = v
		default:
			return nil, fmt.Errorf("spec %q: unknown key %q (want plies, noise, timeout, path)", spec, k)
		}
	}
	return s, nil
}

// Name returns the canonical spec: plies and noise always, the timeout
// when it is not the default, the path when given.
func (s *Spec) Name() string {
	name := fmt.Sprintf("gnubg:plies=%d,noise=%s", s.Plies, strconv.FormatFloat(s.Noise, 'g', -1, 64))
	if s.Timeout != defaultTimeout {
		name += ",timeout=" + s.Timeout.String()
	}
	if s.Path != "" {
		name += ",path=" + s.Path
	}
	return name
}

// Deterministic is true: gnubg's noise is deterministic.
func (s *Spec) Deterministic() bool { return true }

// Program returns the gnubg program to run: Path, else gnubg on PATH,
// else Debian's /usr/games/gnubg (a directory not on root's PATH), or an
// error naming the package.
func (s *Spec) Program() (string, error) {
	if s.Path != "" {
		dir, err := os.Getwd()
		if err != nil {
			return "", err
		}
		return outside.FindProgram(s.Path, dir)
	}
	if p, err := exec.LookPath("gnubg"); err == nil {
		return p, nil
	}
	const debian = "/usr/games/gnubg"
	if _, err := os.Stat(debian); err == nil {
		return debian, nil
	}
	return "", errors.New("gnubg is not installed: install Debian's package gnubg (apt-get install gnubg); starlab looks for it on PATH and in /usr/games")
}

// Locate finds the program (Program), or takes the one a run found
// before, and checks that it can be run.
func (s *Spec) Locate(known *outside.Program) (outside.Program, error) {
	if known != nil {
		if err := outside.CheckKnown(*known); err != nil {
			return outside.Program{}, fmt.Errorf("%s: %v", s.Name(), err)
		}
		s.prog = *known
		return s.prog, nil
	}
	path, err := s.Program()
	if err == nil {
		err = outside.CheckProgram(path)
	}
	if err != nil {
		return outside.Program{}, fmt.Errorf("%s: %v", s.Name(), err)
	}
	dir, err := os.Getwd()
	if err != nil {
		return outside.Program{}, err
	}
	s.prog = outside.Program{Spec: s.Name(), Path: path, Dir: dir}
	return s.prog, nil
}

// socketDirs is the pattern of the folders of gnubg's sockets, which name
// the process of the starlab that made them.
const socketDirs = "starlab-gnubg-"

// socketDir makes the folder of a gnubg's socket, named for this process
// and locked before it takes its name, so that a sweep never finds it
// without its lock.
func socketDir() (string, *os.File, error) {
	tmp, err := os.MkdirTemp("", "."+socketDirs+"new-")
	if err != nil {
		return "", nil, err
	}
	lock, err := outside.LockDir(tmp)
	if err != nil {
		os.RemoveAll(tmp)
		return "", nil, err
	}
	suffix := strings.TrimPrefix(filepath.Base(tmp), "."+socketDirs+"new-")
	dir := filepath.Join(filepath.Dir(tmp), fmt.Sprintf("%s%d-%s", socketDirs, os.Getpid(), suffix))
	if err := os.Rename(tmp, dir); err != nil {
		os.RemoveAll(tmp)
		lock.Close()
		return "", nil, err
	}
	return dir, lock, nil
}

// sweepSocketDirs removes the socket folders of starlab processes that
// are gone (killed with -9, they could not remove their own): the process
// their name gives does not run here, and nobody holds their lock (a
// starlab of another PID namespace sharing /tmp holds its own).
func sweepSocketDirs() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), socketDirs+"*"))
	for _, d := range dirs {
		pid, _, ok := strings.Cut(strings.TrimPrefix(filepath.Base(d), socketDirs), "-")
		n, err := strconv.Atoi(pid)
		if !ok || err != nil || n == os.Getpid() || outside.ProcessAlive(n) {
			continue
		}
		if lock, err := outside.LockDir(d); err == nil {
			os.RemoveAll(d)
			lock.Close()
		}
	}
}

// settings are the lines gnubg reads before it listens.
func (s *Spec) settings(variant string, sock string) []string {
	prune := "off"
	if s.Plies > 0 {
		prune = "on"
	}
	const ev = "set evaluation chequerplay evaluation "
	lines := []string{"set threads 1"}
	if variant == backgammon.Money.String() {
		lines = append(lines, "set jacoby off")
	}
	return append(lines,
		ev+"plies "+strconv.Itoa(s.Plies),
		ev+"cubeful off",
		ev+"prune "+prune,
		ev+"noise "+strconv.FormatFloat(s.Noise, 'f', -1, 64),
		ev+"deterministic on",
		"external "+sock)
}

// player is one gnubg process and its socket.
type player struct {
	spec  *Spec
	g     search.Kit
	proc  *outside.Proc
	dir   string
	lock  *os.File // held while the socket's folder is in use
	conn  net.Conn
	lines *outside.Lines
	dead  bool
	moves []game.Move
	// version is gnubg's answer to version, for engines.log.
	version string
}

// Start starts gnubg with the settings, connects to its socket and asks
// its version, which must be that of the external interface 2.
func (s *Spec) Start(ctx context.Context, g search.Kit, variant string, log io.Writer) (outside.Player, error) {
	if _, err := backgammon.ParseVariant(variant); err != nil {
		return nil, fmt.Errorf("%s: %v", s.Name(), err)
	}
	if s.prog.Path == "" {
		if _, err := s.Locate(nil); err != nil {
			return nil, err
		}
	}
	prog := s.prog.Path
	sweepSocketDirs()
	dir, lock, err := socketDir()
	if err != nil {
		return nil, fmt.Errorf("%s: %v", s.Name(), err)
	}
	sock := filepath.Join(dir, "s")
	proc, _, err := outside.StartProc(prog, []string{"-t", "-q", "-r"}, s.prog.Dir, log, false)
	if err != nil {
		os.RemoveAll(dir)
		lock.Close()
		return nil, fmt.Errorf("%s: %v", s.Name(), err)
	}
	p := &player{spec: s, g: g, proc: proc, dir: dir, lock: lock}
	if err := p.connect(ctx, variant, sock); err != nil {
		p.Close()
		return nil, fmt.Errorf("%s (%s): %v", s.Name(), prog, err)
	}
	outside.Notef(log, "%s started, %s, pid %d, %s", s.Name(), prog, proc.Pid(), p.version)
	return p, nil
}

func (p *player) connect(ctx context.Context, variant, sock string) error {
	for _, line := range p.spec.settings(variant, sock) {
		if err := p.proc.Send(line); err != nil {
			if how, ended := p.proc.Exited(time.Second); ended {
				return fmt.Errorf("gnubg ended (%s) before it listened", how)
			}
			return fmt.Errorf("setting %q: %v", line, err)
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.Dial("unix", sock)
		if err == nil {
			p.conn = c
			break
		}
		if how, ended := p.proc.Exited(20 * time.Millisecond); ended {
			return fmt.Errorf("gnubg ended (%s) before it listened", how)
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("gnubg did not listen on %s within 10s", sock)
		}
	}
	p.lines = outside.ReadLines(p.conn)
	if _, err := io.WriteString(p.conn, "version\n"); err != nil {
		return err
	}
	var got []string
	for len(got) < 4 {
		line, err := p.lines.Next(ctx, 10*time.Second)
		if err != nil {
			return fmt.Errorf("version: %v", err)
		}
		got = append(got, clean(line))
	}
	if got[0] != "Interface: 2" {
		return fmt.Errorf("version: %q, want gnubg's external interface 2 (%q)", strings.Join(got, " / "), "Interface: 2")
	}
	p.version = strings.Join(got, ", ")
	return nil
}

// Name returns the spec.
func (p *player) Name() string { return p.spec.Name() }

// Alive reports whether gnubg still answers.
func (p *player) Alive() bool { return !p.dead }

// NewGame has nothing to tell gnubg, whose moves depend on the position
// alone.
func (p *player) NewGame(context.Context, uint64) error { return nil }

// Close stops gnubg, which listens again when its client leaves, and
// removes its socket's directory.
func (p *player) Close() error {
	if p.conn != nil {
		p.conn.Close()
	}
	p.proc.Kill()
	p.dead = true
	err := os.RemoveAll(p.dir)
	p.lock.Close()
	return err
}

// Choose sends the position as a FIBS board and reads gnubg's play.
func (p *player) Choose(ctx context.Context, s game.State) outside.Reply {
	forfeit := func(reason, detail, reply string) outside.Reply {
		return outside.Reply{Forfeit: outside.NewForfeit(reason, detail, reply)}
	}
	board, err := backgammon.FIBSBoard(s)
	if err != nil { // a position the referee cannot write: not gnubg's fault, but it cannot move
		return forfeit("malformed", "starlab could not write the position: "+err.Error(), "")
	}
	if _, err := io.WriteString(p.conn, board+"\n"); err != nil {
		return p.exited()
	}
	line, err := p.lines.Next(ctx, p.spec.Timeout)
	switch {
	case errors.Is(err, outside.ErrTimeout):
		p.dead = true
		p.proc.Kill()
		return forfeit("timeout", fmt.Sprintf("no move within %v; gnubg was stopped", p.spec.Timeout), "")
	case ctx.Err() != nil:
		return outside.Reply{}
	case err != nil:
		return p.exited()
	}
	reply := clean(line)
	m, err := p.g.ParseMove(s, reply)
	if err == nil {
		if p.moves = s.Legal(p.moves); !slices.Contains(p.moves, m) {
			err = errors.New("not a legal play")
		}
	}
	if err != nil {
		p.dead = true // started again before the next game, as every forfeiting engine is
		return forfeit("illegal", err.Error(), reply)
	}
	return outside.Reply{Move: m}
}

func (p *player) exited() outside.Reply {
	p.dead = true
	how, ok := p.proc.Exited(time.Second)
	if !ok {
		how = "its socket closed"
	}
	return outside.Reply{Forfeit: outside.NewForfeit("exited", "gnubg ended ("+how+")", "")}
}

// clean returns a line of gnubg's socket without the NUL bytes that end
// its replies and without surrounding space.
func clean(line string) string { return strings.TrimSpace(strings.ReplaceAll(line, "\x00", "")) }

// StartValuer starts a gnubg that values positions, a match's luck
// reference (-luck gnubg:plies=N): gnubg's own luck analysis values a roll
// by its evaluation of the position after it. The noise must be 0: a
// reference values what happened, it does not play.
func (s *Spec) StartValuer(ctx context.Context, g search.Kit, variant string, log io.Writer) (outside.Valuer, error) {
	if s.Noise != 0 {
		return nil, fmt.Errorf("%s: a program valuing positions (a luck reference, a judge) has no noise (give noise=0)", s.Name())
	}
	p, err := s.Start(ctx, g, variant, log)
	if err != nil {
		return nil, err
	}
	return p.(*player), nil
}

// Value returns gnubg's cubeless value of s for its mover, on starlab's
// scale (1pt: 2·P(win) − 1; money: the cubeless equity over 3). A rolled
// position is valued by gnubg's play for the roll and its evaluation of
// the position after it (two requests); a position before the roll by
// its evaluation ("evaluation fibsboard BOARD plies N cubeless", whose
// five probabilities are checked).
func (p *player) Value(ctx context.Context, st game.State) (float64, error) {
	s, sign := st, 1.0
	if s.Kind() == game.Decision {
		ch := p.Choose(ctx, s)
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		if ch.Forfeit != nil {
			return 0, fmt.Errorf("%s: %s", p.Name(), ch.Forfeit)
		}
		w := s.Clone()
		w.Play(ch.Move)
		if w.Mover() != st.Mover() {
			sign = -1
		}
		s = w
	}
	if s.Kind() == game.Over {
		return sign * s.Result(), nil
	}
	board, err := backgammon.FIBSBoard(s)
	if err != nil {
		return 0, err
	}
	req := fmt.Sprintf("evaluation fibsboard %s plies %d cubeless", board, p.spec.Plies)
	if _, err := io.WriteString(p.conn, req+"\n"); err != nil {
		p.dead = true
		return 0, fmt.Errorf("%s: %v", p.Name(), err)
	}
	line, err := p.lines.Next(ctx, p.spec.Timeout)
	if err != nil {
		if ctx.Err() == nil {
			p.dead = true
		}
		return 0, fmt.Errorf("%s: evaluation: %v", p.Name(), err)
	}
	v, err := equity(clean(line), s.(*backgammon.Board).Variant())
	if err != nil {
		return 0, fmt.Errorf("%s: evaluation of %s: %v", p.Name(), s, err)
	}
	return sign * v, nil
}

// equity reads gnubg's "P(win) P(wg) P(wbg) P(lg) P(lbg) X" (cumulative:
// a win counts its gammons and backgammons) and returns the value on
// starlab's scale for variant.
func equity(line string, variant backgammon.Variant) (float64, error) {
	f := strings.Fields(line)
	if len(f) != 6 {
		return 0, fmt.Errorf("reply %q: want 6 numbers", line)
	}
	var x [5]float64
	for i := range x {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil || !(v >= 0 && v <= 1) {
			return 0, fmt.Errorf("reply %q: %q is not a probability", line, f[i])
		}
		x[i] = v
	}
	win, wg, wbg, lg, lbg := x[0], x[1], x[2], x[3], x[4]
	const eps = 1e-4 // gnubg prints six decimals
	if wg > win+eps || wbg > wg+eps || lg > 1-win+eps || lbg > lg+eps {
		return 0, fmt.Errorf("reply %q: the probabilities are not cumulative", line)
	}
	if variant == backgammon.Money {
		return (2*win - 1 + wg - lg + wbg - lbg) / 3, nil
	}
	return 2*win - 1, nil
}
