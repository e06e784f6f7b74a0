package backgammon

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestMovesTableIsLinear holds Moves, which finds a result among the plays
// so far in a hash table, to movesLinear, which compares it with every
// one: the same plays in the same order (the search orders its moves from
// it), for every roll of the positions of random games.
func TestMovesTableIsLinear(t *testing.T) {
	games := 60
	if testing.Short() {
		games = 10
	}
	rng := rand.New(rand.NewPCG(5, 6))
	var got, want [MaxPlays]int16
	most := 0
	for g := 0; g < games; g++ {
		b := StartBoard(OnePoint)
		for !b.Over() {
			for r := 0; r < Rolls; r++ {
				hi, lo := RollDice(r)
				b.Roll(hi, lo)
				n, m := b.Moves(&got), b.movesLinear(&want)
				if !slices.Equal(got[:n], want[:m]) {
					t.Fatalf("%s: %d plays %v, linear %d %v", b, n, got[:n], m, want[:m])
				}
				most = max(most, n)
				b.ClearRoll()
			}
			hi, lo := RollDice(rng.IntN(Rolls))
			b.Roll(hi, lo)
			n := b.Moves(&got)
			var u Undo
			b.MakeSaving(int(got[rng.IntN(n)]), &u)
		}
	}
	if most < 100 {
		t.Fatalf("at most %d plays a roll: the games never reached a roll with many plays", most)
	}
}

// TestKeyAfterStep holds keyAfterStep, the key of a checker move not
// made, to the key step leaves (and to the key computed afresh), for every
// checker move of every die from the positions of random games, hits and
// bear-offs among them.
func TestKeyAfterStep(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var codes [MaxPlays]int16
	hits, offs := 0, 0
	for g := 0; g < 20; g++ {
		b := StartBoard(OnePoint)
		for !b.Over() {
			hi := b.highest()
			for from := int8(1); from <= Bar; from++ {
				for d := int8(1); d <= 6; d++ {
					if !b.canStep(from, d, hi) {
						continue
					}
					want := b.keyAfterStep(from, d)
					q := *b
					if q.step(from, d) {
						hits++
					}
					if from-d <= 0 {
						offs++
					}
					if q.key != want || q.computeKey() != want {
						t.Fatalf("%s: %d by %d: keyAfterStep %x, step %x, afresh %x", b, from, d, want, q.key, q.computeKey())
					}
				}
			}
			r1, r2 := RollDice(rng.IntN(Rolls))
			b.Roll(r1, r2)
			n := b.Moves(&codes)
			var u Undo
			b.MakeSaving(int(codes[rng.IntN(n)]), &u)
		}
	}
	if hits == 0 || offs == 0 {
		t.Fatalf("%d hits and %d bear-offs checked: want some of each", hits, offs)
	}
}

// TestMovesKeys: MovesKeys gives Moves' plays, and for each the key
// KeyAfter gives, the pass included.
func TestMovesKeys(t *testing.T) {
	var codes, again [MaxPlays]int16
	var keys [MaxPlays]uint64
	plays, passes := 0, 0
	for _, b := range randomPositions(21, 100, 1) {
		for r := 0; r < Rolls; r += 5 {
			hi, lo := RollDice(r)
			b.Roll(hi, lo)
			n := b.Moves(&codes)
			if m := b.MovesKeys(&again, &keys); m != n || again != codes {
				t.Fatalf("%s: MovesKeys gives %d plays, Moves %d, or others", b, m, n)
			}
			for i := 0; i < n; i++ {
				if k := b.KeyAfter(int(codes[i])); keys[i] != k {
					t.Fatalf("%s, play %d: key %#x, KeyAfter %#x", b, codes[i], keys[i], k)
				}
				plays++
			}
			if codes[0] == PassPlay {
				passes++
			}
			b.ClearRoll()
		}
	}
	t.Logf("%d plays, %d passes", plays, passes)
	if passes == 0 {
		t.Fatal("no pass met")
	}
}
