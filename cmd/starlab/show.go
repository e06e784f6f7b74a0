package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"starlab/runs"
	"starlab/search"
	"starlab/search/game"
)

// showFlags are the show command's flag values, which its setFlags resets
// before every run.
type showFlags struct {
	gameName string
	asJSON   bool
}

// showCommand returns the show command, with its own flag state.
func showCommand() *Command {
	return command(&showFlags{}, &Command{
		UsageLine: "show [-game G] [-json] POSITION",
		Short:     "print a position as a board with its chance events or moves",
		Long: `Show parses a position in Dice Position Notation and prints it as a board
with coordinates, the side to move, the roll, the legal chance events (before
the roll) or moves (after it), the streak and pair counts of both sides, and
whether the game is over.

DPN is "<n> <m> <stm> <roll> <n*n cells>": board size, win length, side to
move (b or r), roll (-1 = the die must be rolled, k >= 0 = line k was rolled,
0-based), and the cells row by row, each -, b or r. The DPN may be given as
one quoted argument or as separate arguments.

With -game another game's position is shown in its notation, drawn as a
board, with its legal moves (or, at a chance node, its events and their
weights); a finished game (ChanceBreakthrough: a side on its far row, or a
side without a piece) is refused in one line that says why and gives the
result, exit 2, as a running position that cannot arise in play is. For
breakthrough the notation is "W H S ROWS", such as
"8 8 w bbbbbbbb/bbbbbbbb/......../......../......../......../wwwwwwww/wwwwwwww".
For backgammon it is "POSITIONID SIDE DICE", gnubg's Position ID for the
side on roll, that side (O or X) and the roll (two digits, or - before it),
such as "4HPwATDgc/ABMA O 31", and the board is drawn as gnubg draws it.

With -json the position is printed as one object: the game, variant,
position, kind and side to move, and "plays", each legal move as
{"move", "position"} with the position it leads to in the game's notation
(at a chance node "events", each {"event", "weight", "position"}, and
"total_weight"; a finished game gives its "result" and "end").`,
	})
}

// setFlags declares the show command's flags on fs.
func (f *showFlags) setFlags(fs *flag.FlagSet, _ search.Kit) {
	gameFlag(fs, &f.gameName)
	fs.BoolVar(&f.asJSON, "json", false, "print the position, its kind and side, and its legal plays (or events) each with the position it leads to, as one JSON object")
}

// run is the show command: the position printed as a board with its
// moves or events, or as one JSON object.
func (f *showFlags) run(_ context.Context, env *Env, args []string) error {
	if len(args) == 0 {
		return usagef("missing position")
	}
	g, err := lookupGame(f.gameName)
	if err != nil {
		return err
	}
	text := strings.Join(args, " ")
	s, err := g.Parse(text)
	if err != nil {
		return runs.Usage(err)
	}
	if f.asJSON {
		return showJSON(env.Stdout, g, s)
	}
	if d, ok := s.(game.Describer); ok {
		fmt.Fprint(env.Stdout, d.Describe())
		return nil
	}
	// A finished game has no moves or events to show: the one
	// line says so, why, and its result.
	if err := search.Finished(g, s); err != nil {
		return runs.Usage(err)
	}
	showState(env.Stdout, g, s)
	return nil
}

// showState writes a position of any game: its notation, its picture
// where the position draws one, and its moves, events or result.
func showState(w io.Writer, g search.Kit, s game.State) {
	fmt.Fprintf(w, "%s %s (variant %s)\n", g.Name(), s, g.Variant(s))
	if p, ok := s.(game.Picturer); ok {
		fmt.Fprint(w, p.Picture())
	}
	side := g.SideName(s.Mover())
	switch s.Kind() {
	case game.Over:
		fmt.Fprintf(w, "game over: %+g for %s, the side to move\n", s.Result(), side)
	case game.Chance:
		events, total := s.Outcomes(nil)
		fmt.Fprintf(w, "chance node (values from %s's view): %d events, total weight %d\n", side, len(events), total)
		for _, e := range events {
			fmt.Fprintf(w, "  %-14s %d/%d\n", g.FormatEvent(s, e), e.Weight, total)
		}
	default:
		// Moves that lead to a chance node (a roll, as in
		// ChanceBreakthrough) are listed apart from the others.
		var plain, chance []string
		sep := g.MoveSeparator()
		for _, m := range s.Legal(nil) {
			c := s.Clone()
			c.Play(m)
			if c.Kind() == game.Chance {
				chance = append(chance, g.FormatMove(s, m))
			} else {
				plain = append(plain, g.FormatMove(s, m))
			}
		}
		switch {
		case len(plain) == 0:
			// Every move leads to chance (the next roll comes before
			// every move, as in Dice): they are plain moves.
			fmt.Fprintf(w, "%s to move: %d moves, each followed by chance: %s\n", side, len(chance), strings.Join(chance, sep))
		case len(chance) > 0:
			fmt.Fprintf(w, "%s to move: %d moves: %s\n", side, len(plain), strings.Join(plain, sep))
			fmt.Fprintf(w, "and %d leading to chance: %s\n", len(chance), strings.Join(chance, sep))
		default:
			fmt.Fprintf(w, "%s to move: %d moves: %s\n", side, len(plain), strings.Join(plain, sep))
		}
	}
}

// shown is show -json's object.
type shown struct {
	Game        string       `json:"game"`
	Variant     string       `json:"variant"`
	Position    string       `json:"position"`
	Kind        string       `json:"kind"`
	Side        string       `json:"side"`
	Plays       []shownPlay  `json:"plays,omitempty"`
	Events      []shownEvent `json:"events,omitempty"`
	TotalWeight int          `json:"total_weight,omitempty"`
	Result      *float64     `json:"result,omitempty"`
	End         string       `json:"end,omitempty"`
}

type shownPlay struct {
	Move     string `json:"move"`
	Position string `json:"position"`
}

type shownEvent struct {
	Event    string `json:"event"`
	Weight   int    `json:"weight"`
	Position string `json:"position"`
}

// showJSON writes s as show -json's object.
func showJSON(w io.Writer, g search.Kit, s game.State) error {
	out := shown{Game: g.Name(), Variant: g.Variant(s), Position: s.String(), Kind: s.Kind().String(), Side: g.SideName(s.Mover())}
	switch s.Kind() {
	case game.Over:
		r := s.Result()
		out.Result = &r
		if e, ok := s.(game.Ender); ok {
			out.End = e.End()
		}
	case game.Chance:
		var events []game.Event
		events, out.TotalWeight = s.Outcomes(nil)
		for _, e := range events {
			c := s.Clone()
			c.Happen(e)
			out.Events = append(out.Events, shownEvent{Event: g.FormatEvent(s, e), Weight: int(e.Weight), Position: c.String()})
		}
	default:
		out.Plays = []shownPlay{}
		for _, m := range s.Legal(nil) {
			c := s.Clone()
			c.Play(m)
			out.Plays = append(out.Plays, shownPlay{Move: g.FormatMove(s, m), Position: c.String()})
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
