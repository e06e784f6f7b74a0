package breakthrough

import "testing"

// midgame is an 8x8 position after some play, with captures and a piece
// ahead on each side.
const midgame = "8 8 w bb.bbbb./b.bb..bb/..b...../...w.b../.w....../..w..w../ww.w.www/w.wwww.w"

// TestNoAllocs: the calls of the search's hot path allocate nothing.
func TestNoAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	for _, text := range []string{start8x8, midgame, "3 4 w bbb/bbb/www/www"} {
		b := mustParse(t, text)
		start := *b
		var moves [MaxMoves]int16
		var ev [MaxEvents]int8
		var w [MaxEvents]float64
		sink := 0.0
		allocs := testing.AllocsPerRun(100, func() {
			n := b.Moves(&moves)
			var u, eu Undo
			for _, m := range moves[:n] {
				b.MakeSaving(int(m), &u)
				sink += b.Evaluate()
				if b.Pending() {
					ne, _ := b.Events(&ev, &w)
					for _, e := range ev[:ne] {
						b.HappenSaving(int(e), &eu)
						sink += b.Evaluate()
						b.UnhappenRestoring(int(e), &eu)
					}
				}
				b.UnmakeRestoring(int(m), &u)
			}
		})
		if allocs != 0 {
			t.Errorf("%s: Moves/MakeSaving/Events/HappenSaving/Evaluate and their take-backs allocate %v times per run, want 0", text, allocs)
		}
		if *b != start {
			t.Errorf("%s: the board changed to %s", text, b)
		}
	}
}

var sink float64

func BenchmarkMakeUnmake(b *testing.B) {
	bd := mustParse(b, midgame)
	var moves [MaxMoves]int16
	var u Undo
	b.ReportAllocs()
	for b.Loop() {
		n := bd.Moves(&moves)
		for _, m := range moves[:n] {
			bd.MakeSaving(int(m), &u)
			bd.UnmakeRestoring(int(m), &u)
		}
	}
}

func BenchmarkEval(b *testing.B) {
	bd := mustParse(b, midgame)
	b.ReportAllocs()
	s := 0.0
	for b.Loop() {
		s += bd.Evaluate()
	}
	sink = s
}
