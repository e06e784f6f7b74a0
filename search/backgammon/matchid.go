package backgammon

import (
	"encoding/base64"
	"fmt"
)

// MatchIDLen is the length of a Match ID: its 9 bytes in base64.
const MatchIDLen = 12

// MaxMatchLength is the longest match gnubg plays (its MAXSCORE), in
// points.
const MaxMatchLength = 64

// MaxCubeValue is the highest cube value gnubg allows (its MAX_CUBE).
const MaxCubeValue = 1 << 12

// GameStatus is the state of the game a Match ID records, numbered as gnubg
// numbers it.
type GameStatus int8

const (
	// StatusNone is no game started.
	StatusNone GameStatus = iota
	// StatusPlaying is a game under way.
	StatusPlaying
	// StatusOver is a game played to its end.
	StatusOver
	// StatusResigned is a game ended by a resignation.
	StatusResigned
	// StatusDropped is a game ended by a dropped double.
	StatusDropped
)

// MatchID is the match and cube state of a GNU Backgammon Match ID, with
// the two players numbered 0 and 1 as gnubg numbers them (gnubg reads an
// XGID's bottom player as player 1).
type MatchID struct {
	// CubeValue is the cube's value: 1, 2, 4, ... up to MaxCubeValue.
	CubeValue int
	// CubeOwner is the player who owns the cube, or -1 when it is in the
	// middle.
	CubeOwner int
	// OnRoll is the player on roll, whose turn it is (gnubg's fMove).
	OnRoll int
	// Crawford says the game is the Crawford game.
	Crawford bool
	// State is the state of the game.
	State GameStatus
	// Turn is the player who is to decide now (gnubg's fTurn): the player
	// on roll, or the opponent when a double or a resignation is offered.
	Turn int
	// Doubled says a double has been offered and awaits an answer.
	Doubled bool
	// Resigned is the resignation offered: 0 none, 1 a single game, 2 a
	// gammon, 3 a backgammon.
	Resigned int
	// Dice are the dice rolled, 0 and 0 when they are not rolled yet.
	// gnubg writes the higher die first.
	Dice [2]int
	// MatchLength is the match's length in points, 0 for money play.
	MatchLength int
	// Score holds the two players' scores, indexed by player.
	Score [2]int
	// Jacoby says the Jacoby rule is in force (money play).
	Jacoby bool
}

// Bit fields of a Match ID's 72-bit key (matchid.c, MatchID): the first
// bit and the width of each, bits counted from the least significant bit
// of the first byte.
const (
	midCube, midCubeBits         = 0, 4 // log2 of the cube value
	midOwner, midOwnerBits       = 4, 2 // 0, 1, or 3 for the middle
	midMove                      = 6
	midCrawford                  = 7
	midState, midStateBits       = 8, 3
	midTurn                      = 11
	midDoubled                   = 12
	midResigned, midResignedBits = 13, 2
	midDie0, midDie1, midDieBits = 15, 18, 3
	midLength, midNumberBits     = 21, 15
	midScore0, midScore1         = 36, 51
	midNoJacoby                  = 66
	midBits                      = 67
)

// ParseMatchID reads a GNU Backgammon Match ID, 12 characters of base64,
// as gnubg writes it (matchid.c) and checks it as gnubg does (dice 0 to 6,
// a match of at most MaxMatchLength points, scores not above the match
// length, no Crawford game in money play) and a little more: a cube
// owner, game state and cube value that gnubg can write, both dice rolled
// or neither, and no bit set beyond the 67 of the encoding. It returns a
// one-line error naming the ID and the problem.
func ParseMatchID(id string) (MatchID, error) {
	bad := func(format string, args ...any) (MatchID, error) {
		return MatchID{}, fmt.Errorf("gnubg match ID %q: %s", id, fmt.Sprintf(format, args...))
	}
	if len(id) != MatchIDLen {
		return bad("%d characters, want %d", len(id), MatchIDLen)
	}
	key, err := unbase64(id)
	if err != nil {
		return bad("%v", err)
	}
	get := func(first, width int) int {
		v := 0
		for i := 0; i < width; i++ {
			bit := first + i
			v |= int(key[bit/8]>>(bit%8)&1) << i
		}
		return v
	}
	if get(midBits, 72-midBits) != 0 {
		return bad("bits set beyond the %d of the encoding", midBits)
	}
	m := MatchID{
		OnRoll:      get(midMove, 1),
		Crawford:    get(midCrawford, 1) == 1,
		State:       GameStatus(get(midState, midStateBits)),
		Turn:        get(midTurn, 1),
		Doubled:     get(midDoubled, 1) == 1,
		Resigned:    get(midResigned, midResignedBits),
		Dice:        [2]int{get(midDie0, midDieBits), get(midDie1, midDieBits)},
		MatchLength: get(midLength, midNumberBits),
		Score:       [2]int{get(midScore0, midNumberBits), get(midScore1, midNumberBits)},
		Jacoby:      get(midNoJacoby, 1) == 0,
	}
	logCube := get(midCube, midCubeBits)
	if 1<<logCube > MaxCubeValue {
		return bad("cube 2^%d, above %d", logCube, MaxCubeValue)
	}
	m.CubeValue = 1 << logCube
	switch owner := get(midOwner, midOwnerBits); owner {
	case 0, 1:
		m.CubeOwner = owner
	case 3:
		m.CubeOwner = -1
	default:
		return bad("cube owner field %d, want 0, 1 or 3 (centred)", owner)
	}
	if m.State > StatusDropped {
		return bad("game state %d, want 0 to %d", m.State, StatusDropped)
	}
	for _, d := range m.Dice {
		if d > 6 {
			return bad("a die of %d", d)
		}
	}
	if (m.Dice[0] == 0) != (m.Dice[1] == 0) {
		return bad("dice %d and %d: one rolled, one not", m.Dice[0], m.Dice[1])
	}
	if m.MatchLength > MaxMatchLength {
		return bad("a match to %d points, longer than %d", m.MatchLength, MaxMatchLength)
	}
	if m.MatchLength > 0 {
		if m.Score[0] > m.MatchLength || m.Score[1] > m.MatchLength {
			return bad("score %d-%d in a match to %d", m.Score[0], m.Score[1], m.MatchLength)
		}
	} else if m.Crawford {
		return bad("a Crawford game in money play")
	}
	return m, nil
}

// String returns the Match ID of m as gnubg writes it (matchid.c,
// MatchID): the higher die first, the cube's log2 and owner, and the other
// fields in a 72-bit key packed least significant bit first and written in
// base64. For the start of a money game with the Jacoby rule, player 1 on
// roll with 3 and 1, it is "cIkFAAAAAAAA". m must be a state ParseMatchID
// accepts, and ParseMatchID(m.String()) is m with its dice in that order.
func (m MatchID) String() string {
	var key [9]byte
	set := func(first, width, v int) {
		for i := 0; i < width; i++ {
			if v>>i&1 == 1 {
				bit := first + i
				key[bit/8] |= 1 << (bit % 8)
			}
		}
	}
	logCube := 0
	for c := m.CubeValue; c > 1; c >>= 1 {
		logCube++
	}
	set(midCube, midCubeBits, logCube)
	set(midOwner, midOwnerBits, m.CubeOwner&3)
	set(midMove, 1, m.OnRoll)
	set(midCrawford, 1, idBit(m.Crawford))
	set(midState, midStateBits, int(m.State))
	set(midTurn, 1, m.Turn)
	set(midDoubled, 1, idBit(m.Doubled))
	set(midResigned, midResignedBits, m.Resigned)
	hi, lo := m.Dice[0], m.Dice[1]
	if lo > hi {
		hi, lo = lo, hi
	}
	set(midDie0, midDieBits, hi)
	set(midDie1, midDieBits, lo)
	set(midLength, midNumberBits, m.MatchLength)
	set(midScore0, midNumberBits, m.Score[0])
	set(midScore1, midNumberBits, m.Score[1])
	set(midNoJacoby, 1, 1-idBit(m.Jacoby))
	return base64.RawStdEncoding.EncodeToString(key[:])
}

// idBit is 1 for true and 0 for false.
func idBit(b bool) int {
	if b {
		return 1
	}
	return 0
}
