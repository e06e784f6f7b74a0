package backgammon

import (
	"encoding/base64"
	"fmt"
	"strings"
)

// PositionID returns gnubg's Position ID of the board for the side on roll.
func PositionID(onRoll, other *Points) string {
	var key [10]byte
	bit := 0
	for _, side := range [2]*Points{other, onRoll} {
		for p := 1; p <= Bar; p++ {
			for c := int8(0); c < side[p]; c++ {
				key[bit/8] |= 1 << (bit % 8)
				bit++
			}
			bit++
		}
	}
	return base64.StdEncoding.EncodeToString(key[:])[:14]
}

// ParsePositionID reads gnubg's Position ID.
func ParsePositionID(id string) (onRoll, other Points, err error) {
	if len(id) != 14 {
		return onRoll, other, fmt.Errorf("position ID %q: want 14 characters", id)
	}
	key, err := base64.StdEncoding.DecodeString(id + "==")
	if err != nil {
		return onRoll, other, fmt.Errorf("position ID %q: not base64", id)
	}
	bit := 0
	for _, side := range [2]*Points{&other, &onRoll} {
		total := 0
		for p := 1; p <= Bar; p++ {
			for bit < 80 && key[bit/8]&(1<<(bit%8)) != 0 {
				side[p]++
				total++
				bit++
				if total > Checkers {
					return onRoll, other, fmt.Errorf("position ID %q: more than 15 checkers on a side", id)
				}
			}
			bit++
		}
		side[Off] = int8(Checkers - total)
	}
	return onRoll, other, nil
}

// FormatPlay writes checker moves plainly (placeholder for gnubg's form).
func FormatPlay(mover, opp *Points, moves [][2]int8) string {
	s := ""
	for i, m := range moves {
		if i > 0 {
			s += " "
		}
		s += fmt.Sprintf("%d/%d", m[0], m[1])
	}
	return s
}

// ParsePlay reads "a/b c/d" (placeholder).
func ParsePlay(text string) ([][2]int8, error) {
	var out [][2]int8
	for _, f := range strings.Fields(text) {
		var a, b int
		if _, err := fmt.Sscanf(f, "%d/%d", &a, &b); err != nil {
			return nil, fmt.Errorf("play %q: %v", text, err)
		}
		out = append(out, [2]int8{int8(a), int8(b)})
	}
	return out, nil
}
