package backgammon

import (
	"fmt"
	"strconv"
	"strings"
)

// XGID is a position with its match and cube state as eXtreme Gammon's
// XGID writes it, the players numbered as gnubg numbers them when it reads
// one (set.c, SetXGID): player 1 is XG's bottom player, whose checkers are
// the capital letters, player 0 the top one.
type XGID struct {
	// OnRoll and Other are the checkers of the player on roll and of the
	// other player, each with Off set to 15 minus its checkers on the
	// board and the bar.
	OnRoll, Other Points
	// Player is the player on roll (XG's turn field: 1 for the bottom
	// player, -1 for the top one, here 1 and 0).
	Player int
	// Dice are the dice rolled, in the order written; 0 and 0 when they
	// are not rolled.
	Dice [2]int
	// Doubled says the player on roll has offered a double (XG's dice
	// field "D").
	Doubled bool
	// CubeValue is the cube's value, 1, 2, 4, ... up to MaxCubeValue.
	CubeValue int
	// CubeOwner is the player who owns the cube, or -1 when it is in the
	// middle.
	CubeOwner int
	// Score holds the two players' scores, indexed by player: Score[1] is
	// XG's first score field, the bottom player's.
	Score [2]int
	// MatchLength is the match's length in points, 0 for money play.
	MatchLength int
	// Crawford says the game is the Crawford game (match play).
	Crawford bool
	// Jacoby and Beavers say the Jacoby rule and beavers are in force
	// (money play).
	Jacoby, Beavers bool
	// MaxCubeLog is XG's last field, the log2 of the highest cube allowed;
	// gnubg reads 0 as a game without the cube.
	MaxCubeLog int
}

// ParseXGID reads an XGID, with or without its "XGID=" prefix:
//
//	XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10
//
// is the start of a money game, the bottom player on roll with 5 and 2.
// The 26 characters of the position are the top player's bar, points 1 to
// 24 from the bottom player's view and the bottom player's bar, each "-"
// for an empty place, "A" to "P" for 1 to 16 of the bottom player's
// checkers and "a" to "p" for 1 to 16 of the top player's. The nine
// fields after it are the cube's log2, the cube's position (1 bottom, 0
// middle, -1 top), the turn (1 bottom, -1 top), the dice ("52", "00" not
// rolled, "D" a double offered), the bottom and top players' scores, the
// Crawford flag in match play or in money play the rules (0 none, 1
// Jacoby, 2 beavers, 3 both), the match length (0 money) and the largest
// cube's log2.
//
// It accepts what gnubg's SetXGID accepts, checked more strictly: each
// number in range (scores below the match length, a cube of at most
// MaxCubeValue, a match of at most MaxMatchLength), the position one of a
// game as ParsePositionID checks it, a bar holding only its own player's
// checkers (gnubg writes out of bounds there), both dice rolled or
// neither, and the Crawford game only at a score one point from the end
// and with the cube not turned (gnubg resets such a cube to 1 in the
// middle). It returns a one-line error naming the XGID and the problem.
func ParseXGID(s string) (XGID, error) {
	bad := func(format string, args ...any) (XGID, error) {
		return XGID{}, fmt.Errorf("XGID %q: %s", s, fmt.Sprintf(format, args...))
	}
	body := s
	if len(body) >= 5 && strings.EqualFold(body[:5], "XGID=") {
		body = body[5:]
	}
	f := strings.Split(body, ":")
	if len(f) != 10 {
		return bad("%d fields, want 10 (the position and 9 numbers)", len(f))
	}
	pos := f[0]
	if len(pos) != 26 {
		return bad("a position of %d characters, want 26", len(pos))
	}
	var bottom, top Points
	for i := 0; i < 26; i++ {
		c := pos[i]
		switch {
		case c == '-':
		case c >= 'A' && c <= 'P':
			if i == 0 {
				return bad("the bottom player's checkers %q on the top player's bar", c)
			}
			bottom[i] = int8(c - 'A' + 1)
		case c >= 'a' && c <= 'p':
			if i == 25 {
				return bad("the top player's checkers %q on the bottom player's bar", c)
			}
			top[25-i] = int8(c - 'a' + 1)
		default:
			return bad("position character %d, %q, is not '-', A-P or a-p", i+1, c)
		}
	}
	num := func(i int, name string, lo, hi int) (int, error) {
		v, err := strconv.Atoi(f[i])
		if err != nil || v < lo || v > hi || f[i] != strconv.Itoa(v) {
			return 0, fmt.Errorf("XGID %q: %s %q, want a number from %d to %d", s, name, f[i], lo, hi)
		}
		return v, nil
	}
	var x XGID
	logCube, err := num(1, "cube", 0, 12)
	if err != nil {
		return XGID{}, err
	}
	x.CubeValue = 1 << logCube
	owner, err := num(2, "cube position", -1, 1)
	if err != nil {
		return XGID{}, err
	}
	x.CubeOwner = [3]int{0, -1, 1}[owner+1]
	switch f[3] {
	case "1":
		x.Player = 1
	case "-1":
		x.Player = 0
	default:
		return bad("turn %q, want 1 or -1", f[3])
	}
	if f[4] == "D" {
		x.Doubled = true
	} else {
		d := f[4]
		if len(d) != 2 || d[0] < '0' || d[0] > '6' || d[1] < '0' || d[1] > '6' || (d[0] == '0') != (d[1] == '0') {
			return bad("dice %q, want two dice 1 to 6, 00 (not rolled) or D (doubled)", d)
		}
		x.Dice = [2]int{int(d[0] - '0'), int(d[1] - '0')}
	}
	if x.MatchLength, err = num(8, "match length", 0, MaxMatchLength); err != nil {
		return XGID{}, err
	}
	hi := 1<<15 - 1
	if x.MatchLength > 0 {
		hi = x.MatchLength - 1
	}
	if x.Score[1], err = num(5, "bottom score", 0, hi); err != nil {
		return XGID{}, err
	}
	if x.Score[0], err = num(6, "top score", 0, hi); err != nil {
		return XGID{}, err
	}
	if x.MatchLength > 0 {
		crawford, err := num(7, "Crawford flag", 0, 1)
		if err != nil {
			return XGID{}, err
		}
		x.Crawford = crawford == 1
		if x.Crawford && x.Score[0] != x.MatchLength-1 && x.Score[1] != x.MatchLength-1 {
			return bad("the Crawford game at %d-%d in a match to %d", x.Score[1], x.Score[0], x.MatchLength)
		}
		if x.Crawford && (x.CubeValue != 1 || x.CubeOwner != -1) {
			return bad("the cube turned in the Crawford game, where no one may double")
		}
	} else {
		rules, err := num(7, "money rules", 0, 3)
		if err != nil {
			return XGID{}, err
		}
		x.Jacoby, x.Beavers = rules&1 == 1, rules&2 == 2
	}
	if x.MaxCubeLog, err = num(9, "largest cube", 0, 15); err != nil {
		return XGID{}, err
	}
	x.OnRoll, x.Other = bottom, top
	if x.Player == 0 {
		x.OnRoll, x.Other = top, bottom
	}
	if err := checkIDSides(&x.OnRoll, &x.Other); err != nil {
		return bad("%v", err)
	}
	return x, nil
}

// MatchID returns the match state that gnubg's SetXGID builds from x, a
// game being played: the player on roll to decide, or its opponent when
// it has doubled.
func (x XGID) MatchID() MatchID {
	m := MatchID{
		CubeValue:   x.CubeValue,
		CubeOwner:   x.CubeOwner,
		OnRoll:      x.Player,
		Crawford:    x.Crawford,
		State:       StatusPlaying,
		Turn:        x.Player,
		Doubled:     x.Doubled,
		Dice:        x.Dice,
		MatchLength: x.MatchLength,
		Score:       x.Score,
		Jacoby:      x.Jacoby,
	}
	if x.Doubled {
		m.Turn = 1 - x.Player
	}
	return m
}
