package outside

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"starlab/search"
	"starlab/search/game"
)

// ---- starlab's engine protocol (docs/protocol.md) ----

// ProtocolVersion is the version of starlab's engine protocol.
const ProtocolVersion = 2

// handshakeTimeout bounds the handshake and the game command's answer.
const handshakeTimeout = 10 * time.Second

// maxHandshakeLines bounds the lines an engine may write before
// protocolok; maxOptionName the length of an option's name.
const (
	maxHandshakeLines = 1000
	maxOptionName     = 256
)

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
	prog     Program     // where the program is, once located
}

// printable reports whether s holds no control characters: a spec is
// printed in tables and pages, and a program's line is judged as text.
func printable(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return (unicode.IsControl(r) && r != '\t') || r == utf8.RuneError }) < 0
}

// The grammar: "ext:cmd=PATH[,args=WORDS][,depth=N|nodes=N|movetime=D][,timeout=D][,name=NAME][,opt.NAME=VALUE...]".
// ParseExt reads an ext: spec, a program that speaks starlab's engine
// protocol, in one line naming the problem.
func ParseExt(_ search.Kit, spec string) (Engine, error) {
	if !printable(spec) {
		return nil, fmt.Errorf("spec %q: holds a control character", spec)
	}
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

// Locate finds cmd as a shell in the working directory would (or takes
// the program a run found before), and checks it can be run.
func (e *extSpec) Locate(known *Program) (Program, error) {
	if known != nil {
		if err := CheckKnown(*known); err != nil {
			return Program{}, fmt.Errorf("engine %s: %v", e.Name(), err)
		}
		e.prog = *known
		return e.prog, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return Program{}, err
	}
	path, err := FindProgram(e.cmd, dir)
	if err != nil {
		return Program{}, fmt.Errorf("engine %s: %v", e.Name(), err)
	}
	e.prog = Program{Spec: e.Name(), Path: path, Dir: dir}
	return e.prog, nil
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

// extPlayer is one running program speaking the protocol. Its output is
// read in one place, Choose: a move is accepted only as the answer to the
// go it follows, which the pong of the ping sent before each position
// marks (docs/protocol.md, "Late lines").
type extPlayer struct {
	spec   *extSpec
	g      search.Kit
	proc   *Proc
	lines  *Lines
	log    io.Writer
	id     string // the engine's id name
	legal  bool   // the engine asked for the legal moves
	dead   bool
	inGame bool // a go of this game was sent: a late line came in the game
	moves  []game.Move
	words  []string
}

// Start starts the program, shakes hands and names the game.
func (e *extSpec) Start(ctx context.Context, g search.Kit, variant string, log io.Writer) (Player, error) {
	if e.prog.Path == "" {
		if _, err := e.Locate(nil); err != nil {
			return nil, err
		}
	}
	proc, lines, err := StartProc(e.prog.Path, e.args, e.prog.Dir, log, true)
	if err != nil {
		return nil, fmt.Errorf("engine %s: %v", e.Name(), err)
	}
	p := &extPlayer{spec: e, g: g, proc: proc, lines: lines, log: log}
	if err := p.handshake(ctx, variant); err != nil {
		proc.Kill()
		return nil, fmt.Errorf("engine %s: %v", e.Name(), err)
	}
	Notef(log, "%s started, %s, pid %d, id name %q", e.Name(), e.prog.Path, proc.Pid(), p.id)
	return p, nil
}

// lineProblem says what is wrong with a line of the program's as text,
// or "" when nothing is.
func lineProblem(line string) string {
	if !printable(line) {
		return "a line with a control character or bytes that are not UTF-8"
	}
	return ""
}

// expect reads lines until one that is exactly one of want, within
// handshakeTimeout and maxHandshakeLines, or an error line; other lines
// go to other, which may refuse them.
func (p *extPlayer) expect(ctx context.Context, what string, want []string, other func(w, rest string) error) (string, string, error) {
	deadline := time.Now().Add(handshakeTimeout)
	for n := 0; ; n++ {
		if n == maxHandshakeLines {
			return "", "", fmt.Errorf("more than %d lines before %s", maxHandshakeLines, what)
		}
		line, err := p.lines.Next(ctx, time.Until(deadline))
		if err != nil {
			return "", "", p.ended(what, err)
		}
		if why := lineProblem(line); why != "" {
			return "", "", fmt.Errorf("before %s: %s (%q)", what, why, Clip(line, MaxReplyBytes))
		}
		w, rest, _ := strings.Cut(line, " ")
		if w == "error" {
			return w, rest, nil
		}
		for _, x := range want {
			if line == x {
				return w, rest, nil
			}
			if w == x {
				return "", "", fmt.Errorf("%q: want %s alone on its line", Clip(line, MaxReplyBytes), x)
			}
		}
		if other != nil {
			if err := other(w, rest); err != nil {
				return "", "", err
			}
		}
	}
}

// ended describes why no answer came.
func (p *extPlayer) ended(what string, err error) error {
	switch {
	case errors.Is(err, ErrTimeout):
		return fmt.Errorf("no %s within %v", what, handshakeTimeout)
	case errors.Is(err, ErrLineTooLong):
		return fmt.Errorf("%v before %s (%q)", err, what, TooLong(err))
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
	w, rest, err := p.expect(ctx, "protocolok", []string{"protocolok"}, func(w, rest string) error {
		switch w {
		case "id":
			if k, v, _ := strings.Cut(rest, " "); k == "name" {
				p.id = Clip(v, MaxReplyBytes)
			}
		case "option":
			name, _, _ := strings.Cut(rest, " ")
			if len(name) > maxOptionName {
				return fmt.Errorf("an option name longer than %d bytes (%q)", maxOptionName, Clip(name, MaxReplyBytes))
			}
			declared[name] = true
		case "feature":
			if rest == "legal" {
				p.legal = true
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if w == "error" {
		return fmt.Errorf("refuses protocol %d: %s", ProtocolVersion, Clip(rest, MaxReplyBytes))
	}
	for _, o := range p.spec.opts {
		if !declared[o[0]] {
			return fmt.Errorf("opt.%s: the engine has no option %q", o[0], o[0])
		}
		if err := p.proc.Send("setoption " + o[0] + " " + o[1]); err != nil {
			return p.ended("setoption", err)
		}
	}
	if err := p.proc.Send(fmt.Sprintf("game %s %s %d", p.g.Name(), variant, p.g.RulesVersion)); err != nil {
		return p.ended("gameok", err)
	}
	w, rest, err = p.expect(ctx, "gameok", []string{"gameok"}, nil)
	if err != nil {
		return err
	}
	if w == "error" {
		return fmt.Errorf("refuses game %s %s: %s", p.g.Name(), variant, Clip(rest, MaxReplyBytes))
	}
	// The ping every position will carry, answered once now, so that an
	// engine of another version is refused before its first game.
	ping := nonce()
	pong := fmt.Sprintf("pong %d", ping)
	if err := p.proc.Send(fmt.Sprintf("ping %d", ping)); err != nil {
		return p.ended(pong, err)
	}
	if w, rest, err = p.expect(ctx, pong, []string{pong}, nil); err != nil {
		return err
	}
	if w == "error" {
		return fmt.Errorf("answers ping with error: %s", Clip(rest, MaxReplyBytes))
	}
	return nil
}

// nonce returns a number no engine can guess, for a ping: a pong written
// before the ping was read cannot name it. It plays no part in any game.
func nonce() uint64 {
	var b [8]byte
	rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:]) >> 1 // below 2^63, as engines read a signed number too
}

// Name returns the canonical spec, as every player of the match is named.
func (p *extPlayer) Name() string { return p.spec.Name() }

// Alive reports whether the program still answers.
func (p *extPlayer) Alive() bool { return !p.dead }

// NewGame sends newgame with the game's seed.
func (p *extPlayer) NewGame(_ context.Context, seed uint64) error {
	p.inGame = false
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

// Choose sends a ping, the position (and the legal moves, if asked for)
// and go, and reads: before the ping's pong, lines the engine wrote
// before it read this position (info lines of an earlier search are
// passed over; any other line is late, a forfeit of this game if a go of
// it came before, else dropped and logged); after the pong, info lines
// until the move.
func (p *extPlayer) Choose(ctx context.Context, s game.State) Reply {
	forfeit := func(reason, detail, reply string) Reply {
		p.dead = true // restarted before the next game: what else it writes is not read as a reply
		p.proc.Kill()
		return Reply{Forfeit: NewForfeit(reason, detail, reply)}
	}
	if p.dead {
		return Reply{Forfeit: NewForfeit("exited", "the program had ended", "")}
	}
	ping := nonce()
	pong := fmt.Sprintf("pong %d", ping)
	send := []string{fmt.Sprintf("ping %d", ping), "position " + s.String()}
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
	late := p.inGame // a line before the pong came after a go of this game
	p.inGame = true
	var ch Reply
	ponged := false
	deadline := time.Now().Add(p.spec.moveTimeout())
	for {
		line, err := p.lines.Next(ctx, time.Until(deadline))
		switch {
		case errors.Is(err, ErrTimeout):
			return forfeit("timeout", fmt.Sprintf("no move within %v; the program was stopped", p.spec.moveTimeout()), "")
		case ctx.Err() != nil:
			return ch
		case errors.Is(err, ErrLineTooLong):
			return forfeit("malformed", err.Error()+"; the program was stopped", TooLong(err))
		case err != nil:
			return p.exited()
		}
		if why := lineProblem(line); why != "" {
			return forfeit("malformed", why, line)
		}
		w, rest, _ := strings.Cut(line, " ")
		switch {
		case !ponged && line == pong:
			ponged = true
		case !ponged && w == "info":
			// the end of an earlier search's output
		case !ponged && late:
			return forfeit("malformed", "a line after the move and before the next position (one reply to each go)", line)
		case !ponged:
			Notef(p.log, "%s: dropped a line that came between games: %q", p.Name(), Clip(line, MaxReplyBytes))
		case w == "info":
			readInfo(rest, &ch)
		case w == "move":
			m, err := p.g.ParseMove(s, rest)
			if err == nil {
				p.moves = s.Legal(p.moves)
				if !slices.Contains(p.moves, m) {
					err = fmt.Errorf("not a legal move")
				}
			}
			if err != nil {
				return forfeit("illegal", err.Error(), line)
			}
			ch.Move = m
			return ch
		default:
			return forfeit("malformed", "not an info or move line", line)
		}
	}
}

// exited is the forfeit of a program that ended.
func (p *extPlayer) exited() Reply {
	p.dead = true
	how, _ := p.proc.Exited(time.Second)
	if how == "" {
		how = "its output closed"
	}
	p.proc.Kill()
	return Reply{Forfeit: NewForfeit("exited", "the program ended ("+how+")", "")}
}

// The largest depth and nodes an info line may report: a larger value is
// not read, so that no sum over a match overflows.
const (
	maxInfoDepth = 1000
	maxInfoNodes = 1e12
)

// readInfo reads "depth N score X nodes N" into ch, skipping what it
// cannot read.
func readInfo(rest string, ch *Reply) {
	f := strings.Fields(rest)
	for i := 0; i+1 < len(f); i += 2 {
		switch f[i] {
		case "depth":
			if n, err := strconv.Atoi(f[i+1]); err == nil && n >= 0 && n <= maxInfoDepth {
				ch.Depth = n
			}
		case "score":
			if x, err := strconv.ParseFloat(f[i+1], 64); err == nil && x >= -1 && x <= 1 {
				ch.Score = x
			}
		case "nodes":
			if n, err := strconv.ParseInt(f[i+1], 10, 64); err == nil && n >= 0 && n <= maxInfoNodes {
				ch.Nodes = n
			}
		}
	}
}
