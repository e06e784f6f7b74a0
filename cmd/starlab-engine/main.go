// Command starlab-engine is the reference engine of the starlab engine
// protocol (docs/protocol.md): starlab's own search behind the protocol's
// lines on standard input and output. Played through the protocol, it
// plays move for move as the same search does inside starlab match, so
// that a match of the two measures what the protocol costs:
//
//	go build -o starlab-engine ./cmd/starlab-engine
//	starlab match -game dice -games 20 'ext:cmd=./starlab-engine,depth=3,opt.spec=staretc:eval=pairs' staretc:depth=3,eval=pairs
//
// Its one option, spec, is the engine in starlab's spec grammar without a
// limit (default staretc, with the game's default evaluator); the limit comes
// with each go, and a go without one searches to depth 1. A spec of several
// keys is written with ';' for ',' (opt.spec=staretc:eval=pairs;t=1.6),
// because an ext: spec cannot hold a comma. It plays
// every game of starlab's registry (search/games), rules version 1, and
// needs no list of legal moves.
package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"starlab/search"
	"starlab/search/game"
	"starlab/search/games"
)

// protocolVersion is the version of the protocol this engine speaks.
const protocolVersion = 2

// defaultSpec is the engine spec until setoption spec changes it.
const defaultSpec = "staretc"

func main() {
	if err := run(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "starlab-engine:", err)
		os.Exit(1)
	}
}

// player is the engine's state between lines: the spec, and once a game
// is accepted its kit, variant and engine, and the position to move in.
type player struct {
	out     *bufio.Writer
	spec    string
	kit     search.Kit
	variant string
	engine  search.Engine // nil until a game is accepted
	pos     game.State    // nil until a position is read
}

// run speaks the protocol on in and out until quit or the end of in.
func run(in io.Reader, out io.Writer) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	p := &player{out: bufio.NewWriter(out), spec: defaultSpec}
	for sc.Scan() {
		cmd, rest, _ := strings.Cut(strings.TrimSuffix(sc.Text(), "\r"), " ")
		if cmd == "quit" {
			break
		}
		if err := p.handle(cmd, rest); err != nil {
			p.reply("error " + strings.ReplaceAll(err.Error(), "\n", " "))
		}
		if err := p.out.Flush(); err != nil {
			return err
		}
	}
	return sc.Err()
}

func (p *player) reply(line string) { p.out.WriteString(line + "\n") }

// handle answers one line; an error is answered with an error line.
// Lines it does not know (legal among them) are ignored.
func (p *player) handle(cmd, rest string) error {
	switch cmd {
	case "protocol":
		if rest != strconv.Itoa(protocolVersion) {
			return fmt.Errorf("protocol %q: this engine speaks version %d", rest, protocolVersion)
		}
		p.reply("id name starlab-engine")
		p.reply("id author starlab")
		p.reply("option spec " + defaultSpec)
		p.reply("protocolok")
	case "setoption":
		if name, value, _ := strings.Cut(rest, " "); name == "spec" {
			p.spec = strings.ReplaceAll(value, ";", ",") // a spec of several keys, through an ext: spec that cannot hold a comma
		}
	case "game":
		if err := p.newGame(rest); err != nil {
			return err
		}
		p.reply("gameok")
	case "ping":
		p.reply("pong " + rest) // every line before it is answered: what follows is the next position's
	case "newgame":
		seed, err := strconv.ParseUint(rest, 10, 64)
		if err != nil {
			return fmt.Errorf("newgame %q: want a whole number below 2^64", rest)
		}
		if p.engine == nil {
			return fmt.Errorf("newgame before an accepted game")
		}
		// As starlab match does before each game: an empty table, and
		// the game's seed for the evaluation noise of a game that has it.
		p.engine.ClearTT()
		if s, ok := p.engine.(search.Salter); ok {
			s.SetSalt(seed)
		}
	case "position":
		p.pos = nil
		if p.engine == nil {
			return fmt.Errorf("position before an accepted game")
		}
		pos, err := p.kit.Parse(rest)
		switch {
		case err != nil:
			return err
		case pos.Kind() != game.Decision:
			return fmt.Errorf("position %q is not a decision", rest)
		case p.kit.Variant(pos) != p.variant:
			return fmt.Errorf("position %q is of variant %s, the game's is %s", rest, p.kit.Variant(pos), p.variant)
		}
		p.pos = pos
	case "go":
		return p.search(rest)
	}
	return nil
}

// newGame accepts "NAME VARIANT RULES" and builds the engine of the spec
// for it, or says why not.
func (p *player) newGame(args string) error {
	p.engine, p.pos = nil, nil
	f := strings.Split(args, " ")
	if len(f) != 3 {
		return fmt.Errorf("game %q: want game NAME VARIANT RULES", args)
	}
	kit, err := games.Lookup(f[0])
	if err != nil {
		return err
	}
	if f[2] != "1" {
		return fmt.Errorf("rules version %s of %s: this engine plays version 1", f[2], f[0])
	}
	start, err := kit.New(f[1])
	if err != nil {
		return err
	}
	spec, err := kit.ParseSpec(p.spec)
	if err != nil {
		return err
	}
	if spec.Limits != (search.Limits{}) {
		return fmt.Errorf("spec %q: a limit comes with each go, not in the spec", p.spec)
	}
	if err := kit.CheckEval(spec.Config); err != nil {
		return fmt.Errorf("spec %q: %v", p.spec, err)
	}
	resolved, err := spec.Config.Resolve()
	if err != nil {
		return fmt.Errorf("spec %q: %v", p.spec, err)
	}
	if err := kit.Check(resolved, start); err != nil {
		return fmt.Errorf("spec %q: %v", p.spec, err)
	}
	p.kit, p.variant, p.engine = kit, kit.Variant(start), kit.NewEngine(resolved)
	return nil
}

// search answers "go [depth N] [nodes N] [movetime MS]" with the last
// iteration's info and its move, searching as starlab match's players do
// (search.Limits.PlayDepths). Keys it does not know are skipped with their
// values.
func (p *player) search(args string) error {
	if p.pos == nil {
		return fmt.Errorf("go without a position")
	}
	lim := search.Limits{PlayDepths: true}
	f := strings.Fields(args)
	for i := 0; i+1 < len(f); i += 2 {
		n, err := strconv.ParseInt(f[i+1], 10, 64)
		if known := f[i] == "depth" || f[i] == "nodes" || f[i] == "movetime"; known && (err != nil || n < 1) {
			return fmt.Errorf("go: %s %s: want a positive whole number", f[i], f[i+1])
		}
		switch f[i] {
		case "depth":
			lim.Depth = int(min(n, search.MaxDepthLimit))
		case "nodes":
			lim.Nodes = n
		case "movetime":
			lim.MoveTime = time.Duration(n) * time.Millisecond
		}
	}
	if lim.Depth == 0 && lim.Nodes == 0 && lim.MoveTime == 0 {
		lim.Depth = 1 // a go without a limit: the shallowest search that plays
	}
	it := p.engine.Search(context.Background(), p.pos, lim, nil).Last()
	p.reply(fmt.Sprintf("info depth %d score %s nodes %d", it.Depth, strconv.FormatFloat(it.Score, 'g', -1, 64), it.Nodes))
	p.reply("move " + p.kit.FormatMove(p.pos, game.Move(it.BestMove)))
	return nil
}
