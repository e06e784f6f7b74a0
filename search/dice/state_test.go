package dice

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"starlab/search/game"
)

// TestStateAgreesWithBoard plays random games through the contract and
// checks, at every state, each contract method against the Board's own API:
// Kind against Over and Roll, Mover against SideToMove, Legal against
// Moves, Outcomes against Rolls, Play against Make and Happen against
// SetRoll (same DPN, same key, same value), and Clone against a copy.
func TestStateAgreesWithBoard(t *testing.T) {
	games := 600
	if testing.Short() || raceEnabled {
		games = 120
	}
	rng := rand.New(rand.NewPCG(20260801, 17))
	kinds := map[game.Kind]int{}
	var moves []game.Move
	var events []game.Event
	// A buffer with stale contents: Legal and Outcomes must start at dst[:0].
	stale := []game.Move{7, 7, 7}
	staleEv := []game.Event{{ID: 9, Weight: 9}}
	for g := 0; g < games; g++ {
		n := MinN + g%(MaxN-MinN+1)
		m := randomWinLength(rng, n)
		b, err := New(n, m)
		if err != nil {
			t.Fatalf("New(%d, %d): %v", n, m, err)
		}
		var s game.State = b
		for ply := 0; ; ply++ {
			ctx := fmt.Sprintf("game %d (%dx%d/%d) ply %d %s", g, n, n, m, ply, b.DPN())
			want := game.Decision
			switch {
			case b.Over():
				want = game.Over
			case b.Roll() == NoRoll:
				want = game.Chance
			}
			kind := s.Kind()
			kinds[kind]++
			if kind != want {
				t.Fatalf("%s: Kind = %v, want %v", ctx, kind, want)
			}
			if s.Mover() != int(b.SideToMove()) {
				t.Fatalf("%s: Mover = %d, want %d", ctx, s.Mover(), b.SideToMove())
			}
			if c, ok := s.Clone().(*Board); !ok || c == b || *c != *b {
				t.Fatalf("%s: Clone is not a distinct copy of the board", ctx)
			}

			moves = s.Legal(moves)
			var wantMoves []game.Move
			if kind == game.Decision {
				for _, c := range boardMoves(b) {
					wantMoves = append(wantMoves, game.Move(c))
				}
			}
			if !slices.Equal(moves, wantMoves) {
				t.Fatalf("%s: Legal = %v, want %v", ctx, moves, wantMoves)
			}
			if got := s.Legal(stale); !slices.Equal(got, wantMoves) {
				t.Fatalf("%s: Legal(%v) = %v, want %v", ctx, stale, got, wantMoves)
			}

			var total int
			events, total = s.Outcomes(events)
			var wantEvents []game.Event
			if kind == game.Chance {
				for _, l := range boardRolls(b) {
					wantEvents = append(wantEvents, game.Event{ID: uint16(l), Weight: 1})
				}
			}
			if !slices.Equal(events, wantEvents) || total != len(wantEvents) {
				t.Fatalf("%s: Outcomes = %v, %d; want %v, %d", ctx, events, total, wantEvents, len(wantEvents))
			}
			if got, gotTotal := s.Outcomes(staleEv); !slices.Equal(got, wantEvents) || gotTotal != total {
				t.Fatalf("%s: Outcomes(%v) = %v, %d; want %v, %d", ctx, staleEv, got, gotTotal, wantEvents, total)
			}

			ref := *b
			switch kind {
			case game.Over:
				if s.Result() != b.Result() {
					t.Fatalf("%s: Result = %v, want %v", ctx, s.Result(), b.Result())
				}
			case game.Chance:
				e := events[rng.IntN(len(events))]
				s.Happen(e)
				ref.SetRoll(int(e.ID))
			case game.Decision:
				mv := moves[rng.IntN(len(moves))]
				s.Play(mv)
				ref.Make(int(mv))
			}
			if b.DPN() != ref.DPN() || b.Key() != ref.Key() || *b != ref {
				t.Fatalf("%s: after the step the state is %s (key %x), the board's own API gives %s (key %x)", ctx, b.DPN(), b.Key(), ref.DPN(), ref.Key())
			}
			if kind == game.Over {
				break
			}
		}
	}
	for _, k := range []game.Kind{game.Decision, game.Chance, game.Over} {
		if kinds[k] == 0 {
			t.Errorf("no %v state seen in %d games", k, games)
		}
	}
}

// TestStateKindsByHand pins Kind, Mover and Result on positions written out.
func TestStateKindsByHand(t *testing.T) {
	tests := []struct {
		dpn    string
		kind   game.Kind
		mover  int
		result float64
	}{
		{"3 3 b -1 - - - - - - - - -", game.Chance, 0, 0},
		{"3 3 b 1 - - - - - - - - -", game.Decision, 0, 0},
		{"3 3 r -1 b - - - - - - - -", game.Chance, 1, 0},
		{"3 3 r 2 b - - - - - - - -", game.Decision, 1, 0},
		// Blue's a1 b2 c3 wins with red to move: red has lost.
		{grid(3, 3, "r", -1, "brr", ".b.", "..b"), game.Over, 1, -1},
		// A full board without a win is a draw.
		{grid(3, 3, "r", -1, "bbr", "rrb", "bbr"), game.Over, 1, 0},
	}
	for _, tc := range tests {
		var s game.State = mustParse(t, tc.dpn)
		if s.Kind() != tc.kind || s.Mover() != tc.mover {
			t.Errorf("%s: Kind, Mover = %v, %d; want %v, %d", tc.dpn, s.Kind(), s.Mover(), tc.kind, tc.mover)
		}
		if tc.kind == game.Over && s.Result() != tc.result {
			t.Errorf("%s: Result = %v, want %v", tc.dpn, s.Result(), tc.result)
		}
	}
}

// TestCloneIsIndependent plays on a clone and on the original in turn and
// checks that neither sees the other's moves.
func TestCloneIsIndependent(t *testing.T) {
	b := mustParse(t, "5 4 b 2"+emptyCells(5))
	before := b.DPN()
	c := b.Clone()
	c.Play(game.Move(12)) // c3
	if b.DPN() != before {
		t.Fatalf("playing on the clone changed the original: %s", b.DPN())
	}
	after := c.String()
	b.Play(game.Move(10)) // a3
	if c.String() != after {
		t.Fatalf("playing on the original changed the clone: %s", c.String())
	}
	if b.String() == c.String() || b.Key() == c.Key() {
		t.Fatalf("original and clone after different moves are equal: %s", b)
	}
}

func TestStateAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	b := mustParse(t, "5 4 b 2"+emptyCells(5))
	moves := make([]game.Move, 0, MaxN)
	events := make([]game.Event, 0, MaxN)
	chance := mustParse(t, "5 4 b -1"+emptyCells(5))
	if n := testing.AllocsPerRun(100, func() {
		moves = b.Legal(moves)
		events, _ = chance.Outcomes(events)
	}); n != 0 {
		t.Errorf("Legal and Outcomes into buffers with room allocate %v times", n)
	}
}
