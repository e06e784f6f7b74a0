package outside

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// The bounds on what an outside program can make starlab hold or write
// (docs/protocol.md, "Bounds"): no line, log or stored reply grows with
// what a program writes.
const (
	// MaxLineBytes is the longest line read from a program, its "\n"
	// included; a longer line ends the reading (ErrLineTooLong).
	MaxLineBytes = 64 << 10
	// MaxReplyBytes is the most of a reply or detail a Forfeit keeps.
	MaxReplyBytes = 256
	// EnginesLogBytes bounds a run's engines.log: what the programs write
	// to standard error beyond it is dropped, after one line saying so.
	EnginesLogBytes = 16 << 20
)

// Clip returns s cut to at most n bytes on a rune boundary, saying how
// long it was when it was cut: a program's reply kept in a record or a
// message stays small whatever the program wrote.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d bytes)", s[:cut], len(s))
}

// NewForfeit returns a Forfeit for reason whose detail and reply are
// clipped to MaxReplyBytes.
func NewForfeit(reason, detail, reply string) *Forfeit {
	return &Forfeit{Reason: reason, Detail: Clip(detail, MaxReplyBytes), Reply: Clip(reply, MaxReplyBytes)}
}

// Lines reads a program's output line by line on a goroutine of its own,
// so that a reader can wait for a line with a time limit.
type Lines struct {
	ch       chan string
	done     chan struct{}
	stop     chan struct{}
	stopOnce sync.Once
	exited   <-chan struct{} // closed when the program has ended, or nil
	lastLine time.Time       // when a line is last read of a program that ended; zero before it ends
	err      error           // why reading ended; read after done is closed
}

// Stop tells the reader that no one reads its lines any more: it drops
// what it reads from then on, so that it never blocks on a full channel.
func (l *Lines) Stop() { l.stopOnce.Do(func() { close(l.stop) }) }

// ErrLineTooLong is the reader's end when a line is longer than
// MaxLineBytes; Lines.TooLong returns its start.
var ErrLineTooLong = fmt.Errorf("a line longer than %d KiB", MaxLineBytes>>10)

// lineTooLong is ErrLineTooLong with the start of the line.
type lineTooLong struct{ start string }

func (e *lineTooLong) Error() string { return ErrLineTooLong.Error() }
func (e *lineTooLong) Unwrap() error { return ErrLineTooLong }

// TooLong returns the start of the line that ended the reading when err
// is ErrLineTooLong, clipped to MaxReplyBytes.
func TooLong(err error) string {
	var e *lineTooLong
	if errors.As(err, &e) {
		return e.start
	}
	return ""
}

// ReadLines starts reading r: lines without their "\n" and one "\r"
// before it, each at most MaxLineBytes. A last piece without "\n" is no
// line (a program that died while writing it) and is dropped. What else
// a line holds is the caller's to judge.
func ReadLines(r io.Reader) *Lines {
	l := &Lines{ch: make(chan string, 64), done: make(chan struct{}), stop: make(chan struct{})}
	go func() {
		br := bufio.NewReaderSize(r, MaxLineBytes)
		for {
			b, err := br.ReadSlice('\n')
			if errors.Is(err, bufio.ErrBufferFull) {
				l.err = &lineTooLong{start: Clip(string(b), MaxReplyBytes)}
				break
			}
			if err == nil {
				line := string(bytes.TrimSuffix(bytes.TrimSuffix(b, []byte("\n")), []byte("\r")))
				select {
				case l.ch <- line:
				case <-l.stop:
				}
			}
			if err != nil {
				l.err = err
				break
			}
		}
		close(l.done)
	}()
	return l
}

// ErrTimeout is Next's error when no line came within the time limit.
var ErrTimeout = errors.New("no reply within the time limit")

// ErrExited is Next's error when the program ended: its output may still
// be held open by a program it started, but no reply can come.
var ErrExited = errors.New("the program ended")

// exitGrace is how long Next still waits for the lines a program wrote
// just before it ended, when its output is not closed yet.
const exitGrace = 250 * time.Millisecond

// Next returns the next line, waiting at most timeout: ErrTimeout when
// none came, the reader's end (io.EOF for a closed output, ErrExited
// when the program ended) when the output ended, ctx's error when ctx is
// done first. Once the program has ended, lines are read for exitGrace
// from when Next first saw it, in all calls together, and no longer:
// a program it started outside its group, holding its output, cannot
// answer for it.
func (l *Lines) Next(ctx context.Context, timeout time.Duration) (string, error) {
	deadline, why := time.Now().Add(timeout), ErrTimeout
	for {
		if l.lastLine.IsZero() && l.exited != nil {
			select {
			case <-l.exited:
				l.lastLine = time.Now().Add(exitGrace)
			default:
			}
		}
		if !l.lastLine.IsZero() && l.lastLine.Before(deadline) {
			deadline, why = l.lastLine, ErrExited
		}
		wait := time.Until(deadline)
		if wait <= 0 { // past it, lines waiting or not: an engine that floods info lines still times out
			return "", why
		}
		select {
		case s := <-l.ch:
			return s, nil
		default:
		}
		exited := l.exited
		if !l.lastLine.IsZero() {
			exited = nil
		}
		t := time.NewTimer(wait)
		select {
		case s := <-l.ch:
			t.Stop()
			return s, nil
		case <-l.done:
			t.Stop()
			select { // a line sent before the end
			case s := <-l.ch:
				return s, nil
			default:
			}
			return "", l.err
		case <-exited:
			t.Stop() // the next turn moves the deadline to the end of the grace
		case <-t.C:
			return "", why
		case <-ctx.Done():
			t.Stop()
			return "", ctx.Err()
		}
	}
}

// Proc is a running program, the leader of a process group of its own,
// with its standard input and a way to stop it and all it started.
type Proc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	outs   []*os.File // the read ends of its output pipes
	lines  *Lines
	waited chan struct{}
	copied chan struct{} // closed when what the program wrote to the log is all there
	err    error         // Wait's, read after waited is closed
}

// StartProc starts path with args in dir ("": starlab's working
// directory), its standard error copied to log, and returns it with its
// standard output as Lines when readOut is set (else that goes to log
// too). When the program ends, every program of its group is killed:
// nothing it started outlives it, and no child holding its output open
// makes its end look like a hang.
func StartProc(path string, args []string, dir string, log io.Writer, readOut bool) (*Proc, *Lines, error) {
	cmd := exec.Command(path, args...)
	cmd.Dir = dir
	// Killed with starlab (Linux), and in a process group of its own, so
	// that a kill reaches the programs a wrapper script started and a
	// terminal's Ctrl-C reaches starlab alone (proc_*.go).
	dieWithParent(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, nil, err
	}
	// Pipes of our own for both outputs: Wait returns when the program
	// ends (it copies nothing), and the readers read to the end whenever
	// the group is gone.
	var outs, writes []*os.File
	closeAll := func(fs []*os.File) {
		for _, f := range fs {
			f.Close()
		}
	}
	for range 2 {
		pr, pw, err := os.Pipe()
		if err != nil {
			closeAll(outs)
			closeAll(writes)
			stdin.Close()
			return nil, nil, err
		}
		outs, writes = append(outs, pr), append(writes, pw)
	}
	cmd.Stdout, cmd.Stderr = writes[0], writes[1]
	err = cmd.Start()
	closeAll(writes)
	if err != nil {
		closeAll(outs)
		return nil, nil, err
	}
	p := &Proc{cmd: cmd, stdin: stdin, outs: outs, waited: make(chan struct{}), copied: make(chan struct{})}
	toLog := []*os.File{outs[1]}
	if readOut {
		p.lines = ReadLines(outs[0])
		p.lines.exited = p.waited
	} else {
		toLog = append(toLog, outs[0])
	}
	var copies sync.WaitGroup
	for _, f := range toLog {
		copies.Go(func() { io.Copy(log, f) })
	}
	go func() {
		copies.Wait()
		close(p.copied)
	}()
	go func() {
		p.err = cmd.Wait()
		killGroup(cmd.Process) // what it started, a wrapper script's children among them
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

// Stop closes the program's input, gives it grace to exit, and kills its
// whole group: the programs it started go with it even when it exits by
// itself.
func (p *Proc) Stop(grace time.Duration) {
	p.stdin.Close()
	if _, ok := p.Exited(grace); !ok {
		p.Kill()
		return
	}
	p.release()
}

// Kill kills the program, and the programs it started, at once. Once the
// program has been waited for, its group was killed then: its id may
// since name another.
func (p *Proc) Kill() {
	select {
	case <-p.waited:
	default:
		killGroup(p.cmd.Process)
		<-p.waited
	}
	p.release()
}

// copyGrace bounds the wait for the last of a stopped program's output
// to reach the log, which a program outside its group may hold open.
const copyGrace = 500 * time.Millisecond

// release lets the output's readers end, once what the program wrote is
// in the log: the lines reader drops what it reads, and the pipes are
// closed even if a program outside the group still holds their write
// ends.
func (p *Proc) release() {
	t := time.NewTimer(copyGrace)
	select {
	case <-p.copied:
	case <-t.C:
	}
	t.Stop()
	p.stdin.Close()
	if p.lines != nil {
		p.lines.Stop()
	}
	for _, f := range p.outs {
		f.Close()
	}
}

// BoundedLog is a run's engines.log: writes from several programs'
// standard errors serialised, and at most a fixed number of bytes in the
// file, after which it drops what comes, once saying so. A write never
// fails for the writer: a program's output is never blocked by the log.
type BoundedLog struct {
	mu    sync.Mutex
	w     io.Writer
	left  int64
	bound int64
}

// NewBoundedLog writes to w, which holds used bytes already, at most
// bound bytes in all.
func NewBoundedLog(w io.Writer, used, bound int64) *BoundedLog {
	return &BoundedLog{w: w, left: bound - used, bound: bound}
}

func (l *BoundedLog) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.left <= 0 {
		return len(b), nil
	}
	note := fmt.Sprintf("\nstarlab: this log reached its bound of %d MiB; what the engines write from here on is dropped\n", l.bound>>20)
	if int64(len(b)+len(note)) <= l.left {
		n, _ := l.w.Write(b)
		l.left -= int64(n)
		return len(b), nil
	}
	keep := max(l.left-int64(len(note)), 0)
	l.w.Write(b[:keep])
	l.w.Write([]byte(note))
	l.left = 0
	return len(b), nil
}

// Notef writes one line of starlab's own about an engine to the log, its
// quoted parts clipped, as every line of starlab's in engines.log is.
func Notef(log io.Writer, format string, args ...any) {
	line := strings.ReplaceAll(fmt.Sprintf(format, args...), "\n", " ")
	fmt.Fprintf(log, "starlab: %s\n", Clip(line, 4*MaxReplyBytes))
}
