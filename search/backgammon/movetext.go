package backgammon

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// maxTextMoves is the most checker moves in a play: four, with doubles.
const maxTextMoves = 4

// FormatPlay returns the play moves of the side mover, whose opponent is
// opp, as GNU Backgammon writes a play in its hint list, its game records
// and its Python module (drawboard.c, FormatMove): "8/5 6/5",
// "24/18(2) 13/7(2)", "bar/22", "13/7*/5", "6/off". The moves are the
// play's checker moves (from, to) in the mover's indices (Bar 25, Off 0),
// in any order, on the board before the play.
//
// gnubg's rules, which FormatPlay follows step by step:
//   - the moves are sorted by their from point and then their to point,
//     both from high to low;
//   - a move that starts where an earlier one ends continues it, whoever's
//     checker it is ("8/7 7/2" is "8/2"), and the point between them is
//     written only when the opponent had a checker there, a hit ("8/7*/2");
//   - equal moves are written once with their count: "13/7(2)";
//   - a "*" follows each point where the opponent had a checker, only the
//     first time the text reaches that point, though each point written
//     between two others carries its own;
//   - 25 is written "bar" and 0 "off".
//
// A play without checker moves is the empty string, which is what gnubg's
// FormatMove writes for it and what its external interface replies when
// no play is possible; gnubg's hint list has no entry then (its tty prints
// "There are no legal moves.") and its text export writes "Cannot move".
// The moves must be a play of mover on that board; FormatPlay does not
// check it, and writes other input without failing but without meaning.
// The text depends on the board only through opp, where the hits are;
// mover is there so that the caller gives the whole board.
func FormatPlay(mover, opp *Points, moves [][2]int8) string {
	if len(moves) == 0 {
		return ""
	}
	// A leg is one checker's path as gnubg's FormatMove holds it: the
	// points it starts on, hits on and ends on, and how many equal legs
	// it stands for.
	type leg struct {
		pts   []int8
		count int
	}
	legs := make([]leg, len(moves))
	for i, m := range moves {
		legs[i] = leg{pts: []int8{m[0], m[1]}, count: 1}
	}
	slices.SortStableFunc(legs, func(a, b leg) int {
		if a.pts[0] != b.pts[0] {
			return int(b.pts[0]) - int(a.pts[0])
		}
		return int(b.pts[1]) - int(a.pts[1])
	})
	hit := func(p int8) bool { return p >= 1 && p <= 24 && opp[25-p] > 0 }
	for i := range legs {
		for j := i + 1; j < len(legs); j++ {
			a, b := &legs[i], &legs[j]
			if a.count == 0 || b.count == 0 || a.pts[len(a.pts)-1] != b.pts[0] {
				continue
			}
			if hit(b.pts[0]) {
				a.pts = append(a.pts, b.pts[1])
			} else {
				a.pts[len(a.pts)-1] = b.pts[1]
			}
			b.count = 0
		}
	}
	legs = slices.DeleteFunc(legs, func(l leg) bool { return l.count == 0 })
	for i := range legs {
		for j := i + 1; j < len(legs); j++ {
			if legs[i].count > 0 && legs[j].count > 0 && slices.Equal(legs[i].pts, legs[j].pts) {
				legs[i].count++
				legs[j].count = 0
			}
		}
	}
	legs = slices.DeleteFunc(legs, func(l leg) bool { return l.count == 0 })

	var s strings.Builder
	var starred [26]bool
	for i, l := range legs {
		if i > 0 {
			s.WriteByte(' ')
		}
		s.WriteString(pointText(l.pts[0]))
		for _, p := range l.pts[1 : len(l.pts)-1] {
			s.WriteString("/" + pointText(p) + "*")
			if p >= 0 && p <= Bar {
				starred[p] = true
			}
		}
		to := l.pts[len(l.pts)-1]
		s.WriteString("/" + pointText(to))
		if hit(to) && !starred[to] {
			s.WriteByte('*')
			starred[to] = true
		}
		if l.count > 1 {
			s.WriteString("(" + strconv.Itoa(l.count) + ")")
		}
	}
	return s.String()
}

// pointText is a point as gnubg writes it in a move: "bar", "off" or its
// number.
func pointText(p int8) string {
	switch p {
	case Bar:
		return "bar"
	case Off:
		return "off"
	}
	return strconv.Itoa(int(p))
}

// ParsePlay reads a play written as gnubg writes it ("8/5 6/5",
// "24/18(2) 13/7(2)", "24/20/16", "bar/22", "13/7*/5", "6/off") or as
// its external interface and FIBS write it ("25/20 20/17", "6/0 4/0", a
// double's four moves written out), and returns its checker moves (from,
// to) in the mover's indices (Bar 25, Off 0) in the order of the text.
//
// A move is points separated by "/", each a number from 0 to 25, "bar" or
// "off" (in any case), the points falling towards 0; a "*" may follow any
// point but the first, and "(n)", n from 2 to 4, may follow the last to
// repeat the move n times. Moves are separated by white space. A chain is
// split into single moves only at the points the text shows: "24/20/16" is
// (24, 20) and (20, 16), while "24/16" stays one move of 8 pips, to be
// matched against the legal plays by the position it leads to. A "*" is
// read and dropped: a hit is a fact of the board, not of the text. The
// text "" (or white space) is the empty play, gnubg's external interface's
// reply when no play is possible.
//
// It returns a one-line error naming the text and the problem for
// anything else, or for more than four checker moves.
func ParsePlay(text string) ([][2]int8, error) {
	bad := func(format string, args ...any) ([][2]int8, error) {
		return nil, fmt.Errorf("backgammon play %q: %s", text, fmt.Sprintf(format, args...))
	}
	var moves [][2]int8
	for _, tok := range strings.Fields(text) {
		body, count := tok, 1
		if strings.HasSuffix(body, ")") {
			open := strings.LastIndexByte(body, '(')
			if open < 0 {
				return bad("%q has a ')' without '('", tok)
			}
			n := body[open+1 : len(body)-1]
			if len(n) != 1 || n[0] < '2' || n[0] > '4' {
				return bad("%q repeats a move %q times, want 2 to 4", tok, n)
			}
			body, count = body[:open], int(n[0]-'0')
		}
		parts := strings.Split(body, "/")
		if len(parts) < 2 {
			return bad("%q is not a move FROM/TO", tok)
		}
		pts := make([]int8, len(parts))
		for i, part := range parts {
			star := strings.HasSuffix(part, "*")
			if star {
				if i == 0 {
					return bad("%q marks a hit on the point the checker leaves", tok)
				}
				part = part[:len(part)-1]
			}
			p, ok := parsePointText(part)
			if !ok {
				return bad("%q: %q is not a point (0 to 25, bar or off)", tok, part)
			}
			if star && (p == Off || p == Bar) {
				return bad("%q marks a hit on %q", tok, part)
			}
			if i > 0 && p >= pts[i-1] {
				return bad("%q goes from %d to %d, not towards home", tok, pts[i-1], p)
			}
			pts[i] = p
		}
		for range count {
			for i := 1; i < len(pts); i++ {
				moves = append(moves, [2]int8{pts[i-1], pts[i]})
			}
		}
		if len(moves) > maxTextMoves {
			return bad("more than %d checker moves", maxTextMoves)
		}
	}
	return moves, nil
}

// parsePointText reads a point of a move: "bar" or "off" in any case, or a
// number from 0 to 25 written without a sign or a leading zero.
func parsePointText(s string) (int8, bool) {
	switch {
	case strings.EqualFold(s, "bar"):
		return Bar, true
	case strings.EqualFold(s, "off"):
		return Off, true
	case s == "" || len(s) > 2 || (s[0] == '0' && len(s) > 1):
		return 0, false
	}
	v := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		v = v*10 + int(s[i]-'0')
	}
	if v > Bar {
		return 0, false
	}
	return int8(v), true
}
