package backgammon

import (
	"encoding/base64"
	"fmt"
	"strings"
)

// positionIDBits is the length of the bit string a Position ID encodes:
// at most 30 checkers and the 50 separators of the two sides' 25 places.
const positionIDBits = 80

// PositionIDLen is the length of a Position ID: its 10 bytes in base64
// without padding.
const PositionIDLen = 14

// base64Alphabet is the alphabet of gnubg's Position and Match IDs, the
// standard one of RFC 4648.
const base64Alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

// PositionID returns GNU Backgammon's Position ID of the position in which
// onRoll is the side to play and other its opponent: "4HPwATDgc/ABMA" for
// the start.
//
// The ID is gnubg's (positionid.c, PositionID): a bit string that holds,
// first for the side not on roll and then for the side on roll, each of
// its points 1 to 24 and then its bar as one 1 per checker followed by a
// 0; the string is padded with zeros to 80 bits, packed into 10 bytes
// least significant bit first, and written in base64 without the "=="
// padding. Borne-off checkers are not written; they are what is missing
// from 15.
//
// The Points must be a position: no negative count and at most 15
// checkers of a side on the board and the bar. Checkers beyond the 80
// bits of the encoding are dropped.
func PositionID(onRoll, other *Points) string {
	var key [10]byte
	bit := 0
	for _, side := range [2]*Points{other, onRoll} {
		for p := 1; p <= Bar; p++ {
			for n := side[p]; n > 0; n-- {
				if bit < positionIDBits {
					key[bit/8] |= 1 << (bit % 8)
				}
				bit++
			}
			bit++
		}
	}
	return base64.RawStdEncoding.EncodeToString(key[:])
}

// ParsePositionID reads a Position ID as PositionID writes it and returns
// the side on roll and the other side, each with Off set to 15 minus its
// checkers on the board and the bar.
//
// It returns a one-line error naming the ID and the problem when the ID is
// not 14 characters of base64, when bits are set beyond the 80 of the
// encoding or after the two sides' 50 places, when a side has more than 15
// checkers, when a point is held by both sides, or when both sides are on
// the bar against closed home boards, which no game reaches. gnubg refuses
// the same IDs but for the stray bits, which it ignores and never writes.
// A side with no checker on the board or the bar reads as all 15 borne
// off: an ID of a finished game, which ParsePositionID accepts and leaves
// the caller to judge.
func ParsePositionID(id string) (onRoll, other Points, err error) {
	bad := func(format string, args ...any) (Points, Points, error) {
		return Points{}, Points{}, fmt.Errorf("backgammon position ID %q: %s", id, fmt.Sprintf(format, args...))
	}
	if len(id) != PositionIDLen {
		return bad("%d characters, want %d", len(id), PositionIDLen)
	}
	key, err := unbase64(id)
	if err != nil {
		return bad("%v", err)
	}
	if key[10] != 0 {
		return bad("the last character sets bits beyond the %d of the encoding", positionIDBits)
	}
	sides := [2]*Points{&other, &onRoll}
	names := [2]string{"the side not on roll", "the side on roll"}
	side, p, total := 0, 1, 0
	for bit := 0; bit < positionIDBits; bit++ {
		if key[bit/8]>>(bit%8)&1 == 0 {
			if side == 2 {
				continue
			}
			if p++; p > Bar {
				side, p, total = side+1, 1, 0
			}
			continue
		}
		if side == 2 {
			return bad("bit %d is set after the two sides' 50 places", bit)
		}
		if total++; total > Checkers {
			return bad("%s has more than %d checkers", names[side], Checkers)
		}
		sides[side][p]++
	}
	if err := checkIDSides(&onRoll, &other); err != nil {
		return bad("%v", err)
	}
	return onRoll, other, nil
}

// checkIDSides checks what two sides' Points must satisfy in any position of
// a game, the checks of gnubg's CheckPosition, and sets each side's Off to
// the checkers missing from its board and bar: at most 15 checkers of a
// side, no point held by both sides, and not both sides on the bar
// against closed home boards. The counts must not be negative.
func checkIDSides(onRoll, other *Points) error {
	for i, side := range [2]*Points{onRoll, other} {
		n := 0
		for p := 1; p <= Bar; p++ {
			n += int(side[p])
		}
		if n > Checkers {
			return fmt.Errorf("%s has %d checkers, more than %d", [2]string{"the side on roll", "the other side"}[i], n, Checkers)
		}
		side[Off] = int8(Checkers - n)
	}
	for p := 1; p <= 24; p++ {
		if onRoll[p] > 0 && other[25-p] > 0 {
			return fmt.Errorf("point %d of the side on roll (%d of the other side) is held by both sides", p, 25-p)
		}
	}
	if onRoll[Bar] > 0 && other[Bar] > 0 && idHomeClosed(onRoll) && idHomeClosed(other) {
		return fmt.Errorf("both sides are on the bar against closed home boards")
	}
	return nil
}

// idHomeClosed reports whether side holds all six points of its home board.
func idHomeClosed(side *Points) bool {
	for p := 1; p <= 6; p++ {
		if side[p] < 2 {
			return false
		}
	}
	return true
}

// unbase64 decodes s, base64 without padding, into len(s)*6/8 bytes and
// one more that holds in its high bits whatever bits are left over: zero
// bits when s is a whole number of bytes. The error names the first
// character outside the alphabet.
func unbase64(s string) ([]byte, error) {
	b := make([]byte, len(s)*6/8+1)
	for i := 0; i < len(s); i++ {
		v := strings.IndexByte(base64Alphabet, s[i])
		if v < 0 {
			return nil, fmt.Errorf("character %d, %q, is not base64", i+1, s[i])
		}
		for k := 5; k >= 0; k-- {
			bit := i*6 + 5 - k
			if v>>k&1 == 1 {
				b[bit/8] |= 0x80 >> (bit % 8)
			}
		}
	}
	return b, nil
}
