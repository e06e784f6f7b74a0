package backgammon

// Points is one side's checkers, counted from that side's own view: index
// 1 to 24 are its points (its home board is 1 to 6, and it moves from 24
// towards 1), index 25 (Bar) is its bar, and index 0 (Off) counts the
// checkers it has borne off. A side's point p is its opponent's point
// 25-p. The fifteen checkers of a side are always all counted somewhere in
// its Points.
type Points [26]int8

const (
	// Off is the index of the borne-off checkers in Points.
	Off = 0
	// Bar is the index of the bar in Points.
	Bar = 25
	// Checkers is the number of checkers of a side.
	Checkers = 15
)

// Start is the standard starting position of one side: two checkers on
// its 24 point, five on its 13, three on its 8 and five on its 6.
var Start = Points{24: 2, 13: 5, 8: 3, 6: 5}
