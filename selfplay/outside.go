package selfplay

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"time"

	"starlab/search"
	"starlab/search/game"
)

// An Outsider is an engine configuration that runs as another program: a
// program speaking starlab's engine protocol (ext:, docs/protocol.md) or
// gnubg (gnubg:, package starlab/selfplay/gnubg). starlab stays the
// referee: it owns the position and the chance events, asks the program
// for a move at every decision of its side, and checks the reply against
// its own rules.
type Outsider interface {
	// Name is the canonical spec, the variant's identity in records.
	Name() string
	// Deterministic reports whether the program's moves are a function of
	// the position and the game's seed (no time limit), so that a match
	// resumed after a kill repeats the uninterrupted one.
	Deterministic() bool
	// Start starts one instance of the program ready to play games of
	// g's variant, its standard error (or its messages) going to log. An
	// error, in one line, means it cannot play: a missing program, a
	// failed handshake, a game it refuses.
	Start(ctx context.Context, g search.Kit, variant string, log io.Writer) (OutsidePlayer, error)
}

// An OutsideValuer is an Outsider that can also value positions, to be a
// match's luck reference (gnubg's evaluation): StartValuer starts an
// instance that answers Value.
type OutsideValuer interface {
	Outsider
	StartValuer(ctx context.Context, g search.Kit, variant string, log io.Writer) (Valuer, error)
}

// An OutsidePlayer is one running instance of an Outsider. Its Choose
// never fails: a reply that is not a legal move, no reply within the time
// limit, or a program that exits is a Choice with a Forfeit, and the
// instance is then dead (Alive false) and restarted before the next game.
type OutsidePlayer interface {
	Player
	// NewGame tells the program a game starts, with the game's seed.
	NewGame(ctx context.Context, seed uint64) error
	// Alive reports whether the program still runs and answers.
	Alive() bool
	// Close stops the program.
	Close() error
}

// Forfeit is the loss of a game by the side to move for a reply that
// could not be played, as cutechess-cli adjudicates: Reason is one of
// "illegal" (not a legal move), "malformed" (not a move line), "timeout"
// (no move within the limit) and "exited" (the program ended); Detail says
// what happened and Reply is the program's reply, if any.
type Forfeit struct {
	Side   int    `json:"side"`
	Reason string `json:"reason"`
	Detail string `json:"detail"`
	Reply  string `json:"reply,omitempty"`
}

// The reasons of a Forfeit.
var forfeitReasons = []string{"illegal", "malformed", "timeout", "exited"}

// String writes the forfeit on one line.
func (f *Forfeit) String() string {
	s := f.Reason + ": " + f.Detail
	if f.Reply != "" {
		s += fmt.Sprintf(" (reply %q)", f.Reply)
	}
	return s
}

// outsiderParsers are the kinds of outside engine by the word before the
// colon of their specs; ext is starlab's protocol, others register
// themselves (RegisterOutsider).
var (
	outsiderMu      sync.Mutex
	outsiderParsers = map[string]func(g search.Kit, spec string) (Outsider, error){"ext": parseExt}
)

// RegisterOutsider makes specs "kind:..." outside engines parsed by parse,
// which returns a one-line error naming the spec and the problem. A
// package that drives a program (gnubg) registers itself in its init.
func RegisterOutsider(kind string, parse func(g search.Kit, spec string) (Outsider, error)) {
	outsiderMu.Lock()
	defer outsiderMu.Unlock()
	outsiderParsers[kind] = parse
}

// outsiderParser returns the parser of spec's kind, if spec names an
// outside engine.
func outsiderParser(spec string) func(search.Kit, string) (Outsider, error) {
	kind, _, ok := strings.Cut(spec, ":")
	if !ok {
		return nil
	}
	outsiderMu.Lock()
	defer outsiderMu.Unlock()
	return outsiderParsers[kind]
}

// IsOutside reports whether spec names an outside engine (ext:, gnubg:).
func IsOutside(spec string) bool { return outsiderParser(spec) != nil }

// SpecKeys splits an outside engine's spec "kind:k=v,k=v" into its keys
// and values as the search grammar splits a spec (search.SplitSpec),
// refusing a repeated key, in one line naming the spec. "kind:" alone has
// no keys: every one at its default.
func SpecKeys(spec string) (map[string]string, error) {
	kv := map[string]string{}
	if strings.HasSuffix(spec, ":") && strings.Count(spec, ":") == 1 {
		return kv, nil
	}
	_, kvs, err := search.SplitSpec(spec)
	if err != nil {
		return nil, err
	}
	for _, p := range kvs {
		if _, dup := kv[p[0]]; dup {
			return nil, fmt.Errorf("spec %q: key %q given twice", spec, p[0])
		}
		kv[p[0]] = p[1]
	}
	return kv, nil
}

// Lines reads a program's output line by line on a goroutine of its own,
// so that a reader can wait for a line with a time limit.
type Lines struct {
	ch       chan string
	done     chan struct{}
	stop     chan struct{}
	stopOnce sync.Once
	err      error // why reading ended; read after done is closed
}

// Stop tells the reader that no one reads its lines any more: it drops
// what it reads from then on, so that it never blocks on a full channel.
func (l *Lines) Stop() { l.stopOnce.Do(func() { close(l.stop) }) }

// ReadLines starts reading r: lines without their "\n" (and a "\r"
// before it) and without NUL bytes (gnubg ends its replies with one).
func ReadLines(r io.Reader) *Lines {
	l := &Lines{ch: make(chan string, 64), done: make(chan struct{}), stop: make(chan struct{})}
	go func() {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			select {
			case l.ch <- strings.TrimRight(strings.ReplaceAll(sc.Text(), "\x00", ""), "\r"):
			case <-l.stop:
			}
		}
		l.err = sc.Err()
		if l.err == nil {
			l.err = io.EOF
		}
		close(l.done)
	}()
	return l
}

// ErrTimeout is Next's error when no line came within the time limit.
var ErrTimeout = errors.New("no reply within the time limit")

// Next returns the next line, waiting at most timeout: ErrTimeout when
// none came, the reader's end (io.EOF for a closed output) when the
// output ended, ctx's error when ctx is done first.
func (l *Lines) Next(ctx context.Context, timeout time.Duration) (string, error) {
	if timeout <= 0 { // an engine that floods info lines still times out
		return "", ErrTimeout
	}
	select {
	case s := <-l.ch:
		return s, nil
	default:
	}
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case s := <-l.ch:
		return s, nil
	case <-l.done:
		select { // a line sent before the end
		case s := <-l.ch:
			return s, nil
		default:
		}
		return "", l.err
	case <-t.C:
		return "", ErrTimeout
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// Proc is a running program with its standard input and a way to stop it.
type Proc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	out    *os.File // the read end of standard output, or nil
	lines  *Lines
	waited chan struct{}
	err    error // Wait's, read after waited is closed
}

// StartProc starts path with args, its standard error to log, and
// returns it with its standard output as Lines when readOut is set.
func StartProc(path string, args []string, log io.Writer, readOut bool) (*Proc, *Lines, error) {
	cmd := exec.Command(path, args...)
	cmd.Stderr = log
	// Killed with starlab (Linux), and in a process group of its own, so
	// that a kill reaches the programs a wrapper script started and a
	// terminal's Ctrl-C reaches starlab alone (proc_*.go).
	dieWithParent(cmd)
	cmd.WaitDelay = time.Second // a grandchild holding standard error open
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, nil, err
	}
	var pr, pw *os.File
	if readOut {
		// A pipe of our own: Wait does not close its read end, so the
		// reader reads to the end whenever the program exits.
		if pr, pw, err = os.Pipe(); err != nil {
			return nil, nil, err
		}
		cmd.Stdout = pw
	} else {
		cmd.Stdout = log
	}
	err = cmd.Start()
	if pw != nil {
		pw.Close()
	}
	if err != nil {
		if pr != nil {
			pr.Close()
		}
		return nil, nil, err
	}
	p := &Proc{cmd: cmd, stdin: stdin, out: pr, waited: make(chan struct{})}
	if readOut {
		p.lines = ReadLines(pr)
	}
	go func() {
		p.err = cmd.Wait()
		close(p.waited)
	}()
	return p, p.lines, nil
}

// Pid returns the program's process ID.
func (p *Proc) Pid() int { return p.cmd.Process.Pid }

// Send writes line and a newline to the program's standard input in one
// write.
func (p *Proc) Send(line string) error {
	_, err := io.WriteString(p.stdin, line+"\n")
	return err
}

// Exited returns how the program ended ("exit status 3", "signal:
// killed") if it has, within wait.
func (p *Proc) Exited(wait time.Duration) (string, bool) {
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-p.waited:
		if p.err == nil {
			return "exit status 0", true
		}
		return p.err.Error(), true
	case <-t.C:
		return "", false
	}
}

// Stop closes the program's input, gives it grace to exit, and kills it
// if it has not.
func (p *Proc) Stop(grace time.Duration) {
	p.stdin.Close()
	if _, ok := p.Exited(grace); !ok {
		p.Kill()
		return
	}
	p.release()
}

// Kill kills the program, and the programs it started, at once.
func (p *Proc) Kill() {
	killGroup(p.cmd.Process)
	<-p.waited
	p.release()
}

// release lets the output's reader end: it drops its lines, and its pipe
// is closed even if a program of the group still holds the write end.
func (p *Proc) release() {
	if p.lines != nil {
		p.lines.Stop()
	}
	if p.out != nil {
		p.out.Close()
	}
}

// syncWriter serialises writes from several programs' standard errors.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(b)
}

// ---- starlab's engine protocol (docs/protocol.md) ----

// ProtocolVersion is the version of starlab's engine protocol.
const ProtocolVersion = 1

// handshakeTimeout bounds the handshake and the game command's answer.
const handshakeTimeout = 10 * time.Second

// extSpec is an ext: spec, a program that speaks the protocol.
type extSpec struct {
	cmd      string
	args     []string
	depth    int
	nodes    int64
	movetime time.Duration
	timeout  time.Duration // 0: the default
	name     string
	opts     [][2]string // sorted by name
}

// parseExt reads "ext:cmd=PATH[,args=WORDS][,depth=N|nodes=N|movetime=D][,timeout=D][,name=NAME][,opt.NAME=VALUE...]".
func parseExt(_ search.Kit, spec string) (Outsider, error) {
	kv, err := SpecKeys(spec)
	if err != nil {
		return nil, err
	}
	e := &extSpec{}
	bad := func(k, why string) error { return fmt.Errorf("spec %q: %s=%s: %s", spec, k, kv[k], why) }
	for k, v := range kv {
		switch {
		case k == "cmd":
			if v == "" {
				return nil, bad(k, "want the program's path or name")
			}
			e.cmd = v
		case k == "args":
			e.args = strings.Fields(v)
		case k == "depth":
			if _, err := fmt.Sscan(v, &e.depth); err != nil || e.depth < 1 || fmt.Sprint(e.depth) != v {
				return nil, bad(k, "want a whole number of at least 1")
			}
		case k == "nodes":
			if _, err := fmt.Sscan(v, &e.nodes); err != nil || e.nodes < 1 || fmt.Sprint(e.nodes) != v {
				return nil, bad(k, "want a whole number of at least 1")
			}
		case k == "movetime" || k == "timeout":
			d, err := time.ParseDuration(v)
			if err != nil || d < time.Millisecond {
				return nil, bad(k, "want a duration of at least 1ms, such as 100ms or 2s")
			}
			if k == "movetime" {
				e.movetime = d
			} else {
				e.timeout = d
			}
		case k == "name":
			if v == "" || strings.ContainsAny(v, " \t") {
				return nil, bad(k, "want a name without spaces")
			}
			e.name = v
		case strings.HasPrefix(k, "opt."):
			name := strings.TrimPrefix(k, "opt.")
			if name == "" || strings.ContainsAny(name+v, " \t") {
				return nil, bad(k, "want opt.NAME=VALUE, each one word")
			}
			e.opts = append(e.opts, [2]string{name, v})
		default:
			return nil, fmt.Errorf("spec %q: unknown key %q (want cmd, args, depth, nodes, movetime, timeout, name, opt.NAME)", spec, k)
		}
	}
	if e.cmd == "" {
		return nil, fmt.Errorf("spec %q: no cmd= (the program to run)", spec)
	}
	limits := 0
	for _, set := range []bool{e.depth > 0, e.nodes > 0, e.movetime > 0} {
		if set {
			limits++
		}
	}
	if limits > 1 {
		return nil, fmt.Errorf("spec %q: give at most one of depth, nodes and movetime", spec)
	}
	if e.timeout > 0 && e.timeout <= e.movetime {
		return nil, fmt.Errorf("spec %q: timeout %v is not longer than movetime %v", spec, e.timeout, e.movetime)
	}
	sort.Slice(e.opts, func(i, j int) bool { return e.opts[i][0] < e.opts[j][0] })
	return e, nil
}

// Name returns the canonical spec: its keys in a fixed order, the default
// timeout left out.
func (e *extSpec) Name() string {
	kv := []string{"cmd=" + e.cmd}
	if len(e.args) > 0 {
		kv = append(kv, "args="+strings.Join(e.args, " "))
	}
	switch {
	case e.depth > 0:
		kv = append(kv, fmt.Sprintf("depth=%d", e.depth))
	case e.nodes > 0:
		kv = append(kv, fmt.Sprintf("nodes=%d", e.nodes))
	case e.movetime > 0:
		kv = append(kv, "movetime="+e.movetime.String())
	}
	if e.timeout > 0 && e.timeout != e.defaultTimeout() {
		kv = append(kv, "timeout="+e.timeout.String())
	}
	if e.name != "" {
		kv = append(kv, "name="+e.name)
	}
	for _, o := range e.opts {
		kv = append(kv, "opt."+o[0]+"="+o[1])
	}
	return "ext:" + strings.Join(kv, ",")
}

func (e *extSpec) defaultTimeout() time.Duration {
	if e.movetime > 0 {
		return e.movetime + time.Second
	}
	return 30 * time.Second
}

func (e *extSpec) moveTimeout() time.Duration {
	if e.timeout > 0 {
		return e.timeout
	}
	return e.defaultTimeout()
}

// Deterministic is true unless a movetime is given.
func (e *extSpec) Deterministic() bool { return e.movetime == 0 }

// goLine is the go command with the spec's limit.
func (e *extSpec) goLine() string {
	switch {
	case e.depth > 0:
		return fmt.Sprintf("go depth %d", e.depth)
	case e.nodes > 0:
		return fmt.Sprintf("go nodes %d", e.nodes)
	case e.movetime > 0:
		return fmt.Sprintf("go movetime %d", e.movetime.Milliseconds())
	}
	return "go"
}

// extPlayer is one running program speaking the protocol.
type extPlayer struct {
	spec  *extSpec
	g     search.Kit
	proc  *Proc
	lines *Lines
	id    string // the engine's id name
	legal bool   // the engine asked for the legal moves
	dead  bool
	moves []game.Move
	words []string
}

// Start starts the program, shakes hands and names the game.
func (e *extSpec) Start(ctx context.Context, g search.Kit, variant string, log io.Writer) (OutsidePlayer, error) {
	path, err := exec.LookPath(e.cmd)
	if err != nil {
		return nil, fmt.Errorf("engine %s: %v", e.Name(), err)
	}
	proc, lines, err := StartProc(path, e.args, log, true)
	if err != nil {
		return nil, fmt.Errorf("engine %s: %v", e.Name(), err)
	}
	p := &extPlayer{spec: e, g: g, proc: proc, lines: lines}
	if err := p.handshake(ctx, variant); err != nil {
		proc.Kill()
		return nil, fmt.Errorf("engine %s: %v", e.Name(), err)
	}
	fmt.Fprintf(log, "starlab: %s started, pid %d, id name %q\n", e.Name(), proc.Pid(), p.id)
	return p, nil
}

// expect reads lines until one whose first word is one of want (with the
// rest of the line), within handshakeTimeout; other lines go to other.
func (p *extPlayer) expect(ctx context.Context, what string, want []string, other func(w, rest string)) (string, string, error) {
	deadline := time.Now().Add(handshakeTimeout)
	for {
		line, err := p.lines.Next(ctx, time.Until(deadline))
		if err != nil {
			return "", "", p.ended(what, err)
		}
		w, rest, _ := strings.Cut(line, " ")
		for _, x := range want {
			if w == x {
				return w, rest, nil
			}
		}
		if other != nil {
			other(w, rest)
		}
	}
}

// ended describes why no answer came.
func (p *extPlayer) ended(what string, err error) error {
	switch {
	case errors.Is(err, ErrTimeout):
		return fmt.Errorf("no %s within %v", what, handshakeTimeout)
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		return err
	}
	how, _ := p.proc.Exited(time.Second)
	return fmt.Errorf("the program ended (%s) before %s", how, what)
}

func (p *extPlayer) handshake(ctx context.Context, variant string) error {
	if err := p.proc.Send(fmt.Sprintf("protocol %d", ProtocolVersion)); err != nil {
		return p.ended("protocolok", err)
	}
	declared := map[string]bool{}
	w, rest, err := p.expect(ctx, "protocolok", []string{"protocolok", "error"}, func(w, rest string) {
		switch w {
		case "id":
			if k, v, _ := strings.Cut(rest, " "); k == "name" {
				p.id = v
			}
		case "option":
			name, _, _ := strings.Cut(rest, " ")
			declared[name] = true
		case "feature":
			if rest == "legal" {
				p.legal = true
			}
		}
	})
	if err != nil {
		return err
	}
	if w == "error" {
		return fmt.Errorf("refuses protocol %d: %s", ProtocolVersion, rest)
	}
	for _, o := range p.spec.opts {
		if !declared[o[0]] {
			return fmt.Errorf("opt.%s: the engine has no option %q", o[0], o[0])
		}
		if err := p.proc.Send("setoption " + o[0] + " " + o[1]); err != nil {
			return p.ended("setoption", err)
		}
	}
	if err := p.proc.Send(fmt.Sprintf("game %s %s %d", p.g.Name(), variant, game.RulesVersion(p.g.Game))); err != nil {
		return p.ended("gameok", err)
	}
	w, rest, err = p.expect(ctx, "gameok", []string{"gameok", "error"}, nil)
	if err != nil {
		return err
	}
	if w == "error" {
		return fmt.Errorf("refuses game %s %s: %s", p.g.Name(), variant, rest)
	}
	return nil
}

// Name returns the canonical spec, as every player of the match is named.
func (p *extPlayer) Name() string { return p.spec.Name() }

// Alive reports whether the program still answers.
func (p *extPlayer) Alive() bool { return !p.dead }

// NewGame sends newgame with the game's seed.
func (p *extPlayer) NewGame(_ context.Context, seed uint64) error {
	if err := p.proc.Send(fmt.Sprintf("newgame %d", seed)); err != nil {
		p.dead = true
		how, _ := p.proc.Exited(time.Second)
		return fmt.Errorf("engine %s: newgame: the program ended (%s)", p.Name(), how)
	}
	return nil
}

// Close sends quit and stops the program.
func (p *extPlayer) Close() error {
	p.proc.Send("quit") // an engine that was killed does not read it; the error is of no use
	p.proc.Stop(time.Second)
	p.dead = true
	return nil
}

// Choose sends the position (and the legal moves, if asked for) and go,
// and reads info lines until the move.
func (p *extPlayer) Choose(ctx context.Context, s game.State) Choice {
	forfeit := func(reason, detail, reply string) Choice {
		return Choice{Forfeit: &Forfeit{Reason: reason, Detail: detail, Reply: reply}}
	}
	if p.dead {
		return forfeit("exited", "the program had ended", "")
	}
	send := []string{"position " + s.String()}
	if p.legal {
		p.moves = s.Legal(p.moves)
		p.words = p.words[:0]
		for _, m := range p.moves {
			p.words = append(p.words, p.g.FormatMove(s, m))
		}
		send = append(send, "legal "+strings.Join(p.words, "\t"))
	}
	send = append(send, p.spec.goLine())
	for _, line := range send {
		if err := p.proc.Send(line); err != nil {
			return p.exited()
		}
	}
	var ch Choice
	deadline := time.Now().Add(p.spec.moveTimeout())
	for {
		line, err := p.lines.Next(ctx, time.Until(deadline))
		switch {
		case errors.Is(err, ErrTimeout):
			p.dead = true
			p.proc.Kill()
			return forfeit("timeout", fmt.Sprintf("no move within %v; the program was stopped", p.spec.moveTimeout()), "")
		case ctx.Err() != nil:
			return ch
		case errors.Is(err, bufio.ErrTooLong):
			p.dead = true
			p.proc.Kill()
			return forfeit("malformed", "a line longer than 1 MiB; the program was stopped", "")
		case err != nil:
			return p.exited()
		}
		w, rest, _ := strings.Cut(line, " ")
		switch w {
		case "info":
			readInfo(rest, &ch)
		case "move":
			m, err := p.g.ParseMove(s, rest)
			if err == nil {
				p.moves = s.Legal(p.moves)
				if !hasMove(p.moves, m) {
					err = fmt.Errorf("not a legal move")
				}
			}
			if err != nil {
				p.dead = true // restarted before the next game: what else it writes is not read as a reply
				return forfeit("illegal", err.Error(), line)
			}
			ch.Move = m
			return ch
		default:
			p.dead = true
			return forfeit("malformed", "not an info or move line", line)
		}
	}
}

// exited is the forfeit of a program that ended.
func (p *extPlayer) exited() Choice {
	p.dead = true
	how, _ := p.proc.Exited(time.Second)
	if how == "" {
		how = "its output closed"
	}
	return Choice{Forfeit: &Forfeit{Reason: "exited", Detail: "the program ended (" + how + ")"}}
}

// readInfo reads "depth N score X nodes N" into ch, skipping what it
// cannot read.
func readInfo(rest string, ch *Choice) {
	f := strings.Fields(rest)
	for i := 0; i+1 < len(f); i += 2 {
		switch f[i] {
		case "depth":
			fmt.Sscan(f[i+1], &ch.Depth)
		case "score":
			var x float64
			if _, err := fmt.Sscan(f[i+1], &x); err == nil && x >= -1 && x <= 1 {
				ch.Score = x
			}
		case "nodes":
			fmt.Sscan(f[i+1], &ch.Nodes)
		}
	}
	if ch.Depth < 0 {
		ch.Depth = 0
	}
	if ch.Nodes < 0 {
		ch.Nodes = 0
	}
}

// outsidePlayer keeps one instance of an Outsider running for a match
// worker, starting it again before a game when it died in the last.
type outsidePlayer struct {
	o       Outsider
	g       search.Kit
	variant string
	log     io.Writer
	p       OutsidePlayer
}

func (r *outsidePlayer) Name() string { return r.o.Name() }

func (r *outsidePlayer) newGame(ctx context.Context, seed uint64) error {
	if r.p != nil && !r.p.Alive() {
		r.p.Close()
		r.p = nil
	}
	if r.p == nil {
		p, err := r.o.Start(ctx, r.g, r.variant, r.log)
		if err != nil {
			return err
		}
		r.p = p
	}
	return r.p.NewGame(ctx, seed)
}

func (r *outsidePlayer) Choose(ctx context.Context, s game.State) Choice {
	return r.p.Choose(ctx, s)
}

func (r *outsidePlayer) close() {
	if r.p != nil {
		r.p.Close()
		r.p = nil
	}
}
