// Package outside runs engines that are other programs in starlab's
// matches, with starlab as the referee: the processes (each the leader of
// a process group of its own, stopped with all it started), their output
// read line by line within bounds, the client of starlab's engine
// protocol (ext:, docs/protocol.md), and the interfaces a program's
// client implements (gnubg's, package starlab/outside/gnubg). The kinds of
// outside engine are listed in package starlab/outside/engines.
//
// The protocol client reads a program's output in one place
// (extPlayer.Choose): every position is preceded by "ping N", N a number
// the engine cannot guess, and a line that comes before "pong N" was
// written before the program read the position, so it is late and never
// read as a move for it. A reply that cannot be played (illegal,
// malformed, late, or the program gone) is a Reply with a Forfeit, its
// reply and detail clipped (MaxReplyBytes). Lines are bounded
// (MaxLineBytes), engines.log too (EnginesLogBytes, BoundedLog). Once a
// program has ended, its output is read for exitGrace more and no longer.
package outside

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"starlab/search"
	"starlab/search/game"
)

// An Engine is an engine configuration that runs as another program: a
// program speaking starlab's engine protocol (ext:, docs/protocol.md) or
// gnubg (gnubg:, package starlab/outside/gnubg). starlab stays the
// referee: it owns the position and the chance events, asks the program
// for a move at every decision of its side, and checks the reply against
// its own rules.
type Engine interface {
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
	Start(ctx context.Context, g search.Kit, variant string, log io.Writer) (Player, error)
	// Locate finds the program, checks that it can be run, and from then
	// on runs it from there, returning where: at known, when a run found
	// it before (a resumed run runs the same program in the same working
	// directory, wherever it is resumed from), else as the spec names
	// it from starlab's working directory. An error is one line naming
	// the spec and the problem.
	Locate(known *Program) (Program, error)
}

// A Program is where an outside engine's program was found when its run
// started: the file, and the working directory it runs in.
type Program struct {
	Spec string `json:"spec"`
	Path string `json:"path"`
	Dir  string `json:"dir"`
}

// FindProgram returns the absolute path of the program name as a shell
// in dir would find it (a name with a slash from dir, else on PATH),
// checked to be an executable file, or a one-line error saying why not.
func FindProgram(name, dir string) (string, error) {
	path := name
	if !strings.Contains(name, "/") {
		p, err := exec.LookPath(name)
		if err != nil {
			return "", fmt.Errorf("%s: not found on PATH", name)
		}
		path = p
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	return path, CheckProgram(path)
}

// CheckKnown says, in one line, why a program a run recorded cannot be
// run as it was: its file gone or no program, its directory gone.
func CheckKnown(known Program) error {
	if err := CheckProgram(known.Path); err != nil {
		return fmt.Errorf("the run started it as %s in %s: %v", known.Path, known.Dir, err)
	}
	if fi, err := os.Stat(known.Dir); err != nil || !fi.IsDir() {
		return fmt.Errorf("the run started it in %s, which is no longer a directory", known.Dir)
	}
	return nil
}

// CheckProgram says, in one line, why path cannot be run: missing, a
// directory, not executable.
func CheckProgram(path string) error {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s: no such file", path)
	case err != nil:
		return err
	case fi.IsDir():
		return fmt.Errorf("%s: a directory, not a program", path)
	case fi.Mode()&0o111 == 0:
		return fmt.Errorf("%s: not executable", path)
	}
	return nil
}

// A ValuerEngine is an Engine that can also value positions, to be a
// match's luck reference (gnubg's evaluation): StartValuer starts an
// instance that answers Value.
type ValuerEngine interface {
	Engine
	StartValuer(ctx context.Context, g search.Kit, variant string, log io.Writer) (Valuer, error)
}

// A Valuer values positions for their mover on the game's scale, until it
// is closed.
type Valuer interface {
	Value(ctx context.Context, s game.State) (float64, error)
	Close() error
}

// A Reply is a player's answer at a decision: the move with what the
// program said of its search, or a Forfeit.
type Reply struct {
	Move  game.Move // the move, unless Forfeit is set
	Score float64   // the program's value of the position for its mover (0 if none)
	Depth int       // the depth of its last completed search (0 if none)
	Nodes int64     // nodes searched for this move (0 if none)
	// Forfeit, if set, is a reply that could not be played: the mover
	// loses the game, and Move is not read.
	Forfeit *Forfeit
}

// A Player is one running instance of an Engine. Its Choose never
// fails: a reply that is not a legal move, no reply within the time
// limit, or a program that exits is a Reply with a Forfeit, and the
// instance is then dead (Alive false) and restarted before the next game.
type Player interface {
	// Name is the canonical spec.
	Name() string
	// Choose returns the program's move at s, a decision of its side.
	Choose(ctx context.Context, s game.State) Reply
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
var ForfeitReasons = []string{"illegal", "malformed", "timeout", "exited"}

// String writes the forfeit on one line.
func (f *Forfeit) String() string {
	s := f.Reason + ": " + f.Detail
	if f.Reply != "" {
		s += fmt.Sprintf(" (reply %q)", f.Reply)
	}
	return s
}

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
