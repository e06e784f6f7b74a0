package backgammon

import (
	"fmt"
	"strings"

	"starlab/search/game"
)

// SideLetters are the sides' letters in the notation, gnubg's: O (side 0,
// who moves first) and X.
const SideLetters = "OX"

// Kind implements game.State.
func (b *Board) Kind() game.Kind { return game.KindOf(b.Over(), b.d1 == 0) }

// Mover implements game.State: the side to move, or to roll.
func (b *Board) Mover() int { return int(b.stm) }

// Legal implements game.State: the play codes of Moves.
func (b *Board) Legal(dst []game.Move) []game.Move {
	if b.Kind() != game.Decision {
		return dst[:0]
	}
	var codes [MaxPlays]int16
	return game.AppendMoves(dst, codes[:b.Moves(&codes)])
}

// Outcomes implements game.State: the rolls, weighted out of 36 (30 at the
// opening, which has no doubles).
func (b *Board) Outcomes(dst []game.Event) ([]game.Event, int) {
	if b.Kind() != game.Chance {
		return dst[:0], 0
	}
	var ev [Rolls]int8
	var w [Rolls]float64
	n, total := b.Events(&ev, &w)
	return game.AppendEvents(dst, ev[:n], w[:n]), total
}

// Play implements game.State.
func (b *Board) Play(m game.Move) { b.MakeSaving(int(m), new(Undo)) }

// Happen implements game.State: the roll e.ID.
func (b *Board) Happen(e game.Event) {
	hi, lo := RollDice(int(e.ID))
	b.Roll(hi, lo)
}

// Clone implements game.State.
func (b *Board) Clone() game.State { return new(*b) }

// CopyFrom implements game.State; src must be a *Board.
func (b *Board) CopyFrom(src game.State) { *b = *src.(*Board) }

// String writes the position as "POSITIONID SIDE DICE", gnubg's Position ID
// for the side on roll, that side's letter (O or X) and the roll ("31", or
// "-" before it), then " money" for a money game: "4HPwATDgc/ABMA O 31".
func (b *Board) String() string {
	s := b.stm
	dice := "-"
	if b.d1 != 0 {
		dice = fmt.Sprintf("%d%d", b.d1, b.d2)
	}
	text := fmt.Sprintf("%s %c %s", PositionID(&b.pts[s], &b.pts[1-s]), SideLetters[s], dice)
	if b.variant == Money {
		text += " money"
	}
	return text
}

// End says why a finished game ended, for the one-line refusal to play on.
func (b *Board) End() string {
	w, pts := b.Winning()
	kind := [4]string{"", "", " (a gammon)", " (a backgammon)"}[pts]
	return fmt.Sprintf("%c has borne off all fifteen checkers%s", SideLetters[w], kind)
}

// Parse reads a position: "POSITIONID SIDE DICE [VARIANT]", gnubg's
// Position ID for the side on roll, the side on roll (O or X), the roll
// (two digits, either order, or "-" before it) and optionally the variant
// (1pt, the default, or money).
//
// A position pasted from gnubg or eXtreme Gammon is read too: gnubg's
// "POSITIONID:MATCHID" (its GNUBGID) and an XGID ("XGID=..."). The side on
// roll is the Match ID's (gnubg's player 0 is O, player 1 X) or the XGID's
// turn (its bottom player, gnubg's player 1, is X); the dice are theirs; a
// match length of 0 reads as money and of 1 as 1pt, any other is refused,
// as is a double on offer; the cube and the scores are not read (starlab
// plays without the cube).
func Parse(text string) (*Board, error) {
	t := strings.TrimSpace(text)
	if len(t) > 5 && strings.EqualFold(t[:5], "XGID=") || strings.Count(t, ":") >= 9 {
		return parseXGID(t)
	}
	if i := strings.IndexByte(t, ':'); i >= 0 && !strings.ContainsAny(t, " \t") {
		return parseGnubgID(t, t[:i], t[i+1:])
	}
	f := strings.Fields(text)
	if len(f) < 3 || len(f) > 4 {
		return nil, fmt.Errorf("backgammon position %q: want POSITIONID SIDE DICE [VARIANT], as \"4HPwATDgc/ABMA O 31\"", text)
	}
	me, opp, err := ParsePositionID(f[0])
	if err != nil {
		return nil, fmt.Errorf("backgammon position %q: %v", text, err)
	}
	// The letters are gnubg's, which writes them as capitals and no other
	// way: a lower-case o or x is refused, not read as the capital.
	side := strings.Index(SideLetters, f[1])
	if len(f[1]) != 1 || side < 0 {
		return nil, fmt.Errorf("backgammon position %q: side %q: want O or X (capitals, as gnubg writes them), the side on roll", text, f[1])
	}
	d1, d2, err := parseDice(f[2])
	if err != nil {
		return nil, fmt.Errorf("backgammon position %q: %v", text, err)
	}
	v := OnePoint
	if len(f) == 4 {
		if v, err = ParseVariant(f[3]); err != nil {
			return nil, fmt.Errorf("backgammon position %q: %v", text, err)
		}
	}
	b, err := NewBoard(v, side, me, opp, d1, d2)
	if err != nil {
		return nil, fmt.Errorf("backgammon position %q: %v", text, err)
	}
	return b, nil
}

// parseDice reads "-" (before the roll) or two digits from 1 to 6.
func parseDice(s string) (d1, d2 int, err error) {
	if s == "-" {
		return 0, 0, nil
	}
	if len(s) != 2 || s[0] < '1' || s[0] > '6' || s[1] < '1' || s[1] > '6' {
		return 0, 0, fmt.Errorf("dice %q: want two digits from 1 to 6, as 31, or - before the roll", s)
	}
	d1, d2 = int(s[0]-'0'), int(s[1]-'0')
	return max(d1, d2), min(d1, d2), nil
}

// PlaySteps returns the checker moves of play m as (from, to) pairs, to
// being 0 for a checker borne off, in the order they are made.
func (b *Board) PlaySteps(m int) [][2]int8 {
	var st [4][2]int8
	n := b.Steps(m, &st)
	out := make([][2]int8, n)
	for i := 0; i < n; i++ {
		out[i] = [2]int8{st[i][0], max(st[i][0]-st[i][1], 0)}
	}
	return out
}

// NoPlay is the text of the empty play, when no checker can move, as
// gnubg's text export writes it (its hint list has no entry and its
// external socket answers an empty line, which is read as it too).
const NoPlay = "Cannot move"

// FormatPlay returns play m in gnubg's notation ("8/5 6/5"), NoPlay for
// the empty play.
func (b *Board) FormatPlay(m int) string {
	if m == PassPlay {
		return NoPlay
	}
	s := b.stm
	return FormatPlay(&b.pts[s], &b.pts[1-s], b.PlaySteps(m))
}

// ParsePlay reads a play of a decision in gnubg's notation (or as gnubg's
// external socket writes it: "25/20 6/0") and returns its code: the legal
// play whose resulting position the text's checker moves reach.
func (b *Board) ParsePlay(text string) (int, error) {
	if b.Kind() != game.Decision {
		return 0, fmt.Errorf("play %q: the position is not a decision", text)
	}
	if t := strings.TrimSpace(text); t == "" || strings.EqualFold(t, NoPlay) {
		var codes [MaxPlays]int16
		if n := b.Moves(&codes); n == 1 && codes[0] == PassPlay {
			return PassPlay, nil
		}
		return 0, fmt.Errorf("play %q: a checker can move with the roll %d%d (show lists the legal plays)", text, b.d1, b.d2)
	}
	steps, err := ParsePlay(text)
	if err != nil {
		return 0, err
	}
	s := b.stm
	me, op := b.pts[s], b.pts[1-s]
	for _, st := range steps {
		from, to := st[0], st[1]
		if me[from] == 0 {
			return 0, fmt.Errorf("play %q: no checker of the side to move on %s", text, pointName(from))
		}
		me[from]--
		me[to]++
		if to > 0 && op[Bar-to] == 1 {
			op[Bar-to] = 0
			op[Bar]++
		}
	}
	var codes [MaxPlays]int16
	n := b.Moves(&codes)
	for _, c := range codes[:n] {
		var u Undo
		b.MakeSaving(int(c), &u)
		same := b.pts[s] == me && b.pts[1-s] == op
		b.UnmakeRestoring(int(c), &u)
		if same {
			return int(c), nil
		}
	}
	return 0, fmt.Errorf("play %q is not legal with the roll %d%d (show lists the legal plays)", text, b.d1, b.d2)
}

func pointName(p int8) string {
	switch p {
	case Bar:
		return "the bar"
	case Off:
		return "off"
	}
	return fmt.Sprintf("point %d", p)
}

// pastedVariant is the variant of a pasted match length.
func pastedVariant(text string, length int) (Variant, error) {
	switch length {
	case 0:
		return Money, nil
	case 1:
		return OnePoint, nil
	}
	return 0, fmt.Errorf("backgammon position %q: a %d-point match; starlab plays single games (match length 1, 1pt) and cubeless money play (0)", text, length)
}

// parseGnubgID reads gnubg's "POSITIONID:MATCHID".
func parseGnubgID(text, pos, match string) (*Board, error) {
	me, opp, err := ParsePositionID(pos)
	if err != nil {
		return nil, fmt.Errorf("backgammon position %q: %v", text, err)
	}
	m, err := ParseMatchID(match)
	if err != nil {
		return nil, fmt.Errorf("backgammon position %q: %v", text, err)
	}
	return pastedBoard(text, m.Doubled, m.MatchLength, m.OnRoll, me, opp, m.Dice)
}

// parseXGID reads an XGID.
func parseXGID(text string) (*Board, error) {
	x, err := ParseXGID(text)
	if err != nil {
		return nil, fmt.Errorf("backgammon position %q: %v", text, err)
	}
	return pastedBoard(text, x.Doubled, x.MatchLength, x.Player, x.OnRoll, x.Other, x.Dice)
}

// pastedBoard is the board of a position pasted from gnubg or eXtreme
// Gammon: refused where a double is on offer (starlab plays without the
// cube), of the variant of its match length, mover's checkers me.
func pastedBoard(text string, doubled bool, length, mover int, me, opp Points, dice [2]int) (*Board, error) {
	if doubled {
		return nil, fmt.Errorf("backgammon position %q: a double is on offer; starlab plays without the cube", text)
	}
	v, err := pastedVariant(text, length)
	if err != nil {
		return nil, err
	}
	b, err := NewBoard(v, mover, me, opp, dice[0], dice[1])
	if err != nil {
		return nil, fmt.Errorf("backgammon position %q: %v", text, err)
	}
	return b, nil
}
