package backgammon

// RaceValue solves a position to the end of the game by plain recursion,
// remembering the values of chance nodes by key in memo: the value of a
// chance node is its rolls' weighted mean, of a decision its best play's.
// It is the exact oracle of races and bear-offs (without contact a game
// ends within the turns its pip counts allow); with contact it may not
// end.
func RaceValue(b *Board, memo map[uint64]float64) float64 {
	if b.Over() {
		return b.Result()
	}
	if b.Rolled() {
		var codes [MaxPlays]int16
		n := b.Moves(&codes)
		best := -2.0
		for _, c := range codes[:n] {
			var u Undo
			b.MakeSaving(int(c), &u)
			best = max(best, -RaceValue(b, memo))
			b.UnmakeRestoring(int(c), &u)
		}
		return best
	}
	if v, ok := memo[b.key]; ok {
		return v
	}
	var ev [Rolls]int8
	var w [Rolls]float64
	n, total := b.Events(&ev, &w)
	sum := 0.0
	for i := 0; i < n; i++ {
		hi, lo := RollDice(int(ev[i]))
		b.Roll(hi, lo)
		sum += w[i] * RaceValue(b, memo)
		b.ClearRoll()
	}
	v := sum / float64(total)
	memo[b.key] = v
	return v
}
