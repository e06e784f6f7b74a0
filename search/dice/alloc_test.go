package dice

import "testing"

// TestNoAllocs checks that the search hot path allocates nothing.
func TestNoAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	for _, dpn := range []string{
		exampleDPN,
		"5 4 b -1 - - - - - b - - r - r b - - - r - b - - - - - - -",
		grid(17, 8, "r", -1, "b................", ".................", ".........r.......", ".................",
			".................", ".................", ".................", "...b.............", ".................",
			".....r...........", ".................", ".................", ".................", ".................",
			".................", "................b", "................."),
	} {
		b := mustParse(t, dpn)
		if b.Roll() != NoRoll {
			b.ClearRoll()
		}
		var rolls [MaxN]int8
		var moves [MaxN]int16
		start := *b
		allocs := testing.AllocsPerRun(200, func() {
			nr := b.Rolls(&rolls)
			for _, k := range rolls[:nr] {
				b.SetRoll(int(k))
				nm := b.Moves(&moves)
				var u Undo
				for _, c := range moves[:nm] {
					b.Make(int(c))
					b.Unmake(int(c))
					b.MakeSaving(int(c), &u)
					b.UnmakeRestoring(int(c), &u)
				}
				b.ClearRoll()
			}
		})
		if allocs != 0 {
			t.Errorf("%s: Rolls/SetRoll/Moves/Make/Unmake/ClearRoll allocate %v times per run, want 0", dpn, allocs)
		}
		if *b != start {
			t.Errorf("%s: the board changed during the alloc test", dpn)
		}
	}
}
