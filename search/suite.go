package search

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"starlab/search/game"
)

// SuitePosition is one position of a test suite, with the exact value when
// the suite records it.
type SuitePosition struct {
	Pos      game.State
	Line     int     // line number in the file
	Exact    float64 // the exact game value, if HasExact
	HasExact bool
}

// ReadSuite reads a suite file of positions of g: one position in g's
// notation (DPN for Dice) per line, optionally followed by "; exact=V";
// blank lines and lines starting with # are skipped. Errors name the file
// and line. Where no file is found at path and its name is that of the
// game's default suite (Defaults.Suite, under this or an earlier build's
// folder), the suite built into the game is read.
func ReadSuite(g Kit, path string) ([]SuitePosition, error) {
	r, err := g.openSuite(path)
	if err != nil {
		return nil, fmt.Errorf("suite: %v", err)
	}
	defer r.Close()
	ps, err := ParseSuite(g, r)
	if err != nil {
		return nil, fmt.Errorf("suite %s: %v", path, err)
	}
	if len(ps) == 0 {
		return nil, fmt.Errorf("suite %s: no positions", path)
	}
	return ps, nil
}

// ParseSuite parses suite lines of positions of g from r (see ReadSuite).
func ParseSuite(g game.Game, r io.Reader) ([]SuitePosition, error) {
	var ps []SuitePosition
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' {
			continue
		}
		pos, rest, _ := strings.Cut(text, ";")
		b, err := g.Parse(strings.TrimSpace(pos))
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", line, err)
		}
		p := SuitePosition{Pos: b, Line: line}
		for _, field := range strings.Fields(rest) {
			k, v, ok := strings.Cut(field, "=")
			if !ok || k != "exact" {
				return nil, fmt.Errorf("line %d: unknown field %q (want exact=V)", line, field)
			}
			if p.HasExact {
				return nil, fmt.Errorf("line %d: exact given twice", line)
			}
			x, err := ParseValue(v)
			if err != nil {
				return nil, fmt.Errorf("line %d: exact value %v", line, err)
			}
			p.Exact, p.HasExact = x, true
		}
		ps = append(ps, p)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return ps, nil
}

// decimal is the text of a value in a suite: a plain decimal number, with
// an optional sign, fraction and exponent, as starlab gen writes them
// ("%.12f"). strconv.ParseFloat alone also takes NaN, Inf, hexadecimal
// ("0x1p-1") and digits separated by underscores, none of which is a
// value a suite records.
var decimal = regexp.MustCompile(`^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$`)

// ParseValue reads a game value as a suite records it (exact=V): a finite
// decimal number in [L, U] = [-1, 1], the range of every game's values
// (game.State's Result), from the side to move's view. It is the one
// reader of suite values: every stage that reads a suite (ReadSuite,
// ParseSuite) reads them through it. The error, one line, quotes the text
// and says what is wrong with it.
func ParseValue(text string) (float64, error) {
	if !decimal.MatchString(text) {
		return 0, fmt.Errorf("%q is not a decimal number (want one from -1 to 1, as 0.25)", text)
	}
	x, err := strconv.ParseFloat(text, 64)
	if err != nil || !(x >= L && x <= U) {
		return 0, fmt.Errorf("%q is outside [-1, 1], the range of game values", text)
	}
	return x, nil
}

// CheckDepth refuses, in one line naming what (a flag, "-depth"), a
// search depth deeper than any of positions, positions of g, can use: a
// search of a position stops at g.MaxDepth of it, the depth after which
// searching deeper changes nothing or the deepest its engine searches.
// A depth beyond it would be taken for one the search reaches; and where
// the bound is the engine's deepest search (a backgammon position with
// contact: 120 plies) the search it asks for does not finish. A finished
// position, never searched, sets no bound, nor does a depth of 0.
func CheckDepth(g Kit, what string, depth int, positions []game.State) error {
	deepest, searched := 0, false
	for _, p := range positions {
		if p.Kind() != game.Over {
			deepest, searched = max(deepest, g.MaxDepth(p)), true
		}
	}
	if depth > 0 && searched && depth > deepest {
		return fmt.Errorf("%s %d: no search of these %s positions goes deeper than %d plies (the game's depth bound for them); want at most %d", what, depth, g.Name(), deepest, deepest)
	}
	return nil
}

// Finished is the error for s, a position of g, where a position to play
// or search is wanted and s is over: one line naming it, why it is over
// where the state says (ChanceBreakthrough's End), and its result. It is
// nil for a position that is not over.
func Finished(g Kit, s game.State) error {
	if s.Kind() != game.Over {
		return nil
	}
	why := ""
	if e, ok := s.(game.Ender); ok {
		why = ": " + e.End()
	}
	return fmt.Errorf("position %q is a finished game, not one to play%s (%+g for %s, the side to move)", s.String(), why, s.Result(), g.SideName(s.Mover()))
}
