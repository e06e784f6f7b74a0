package runs

import "testing"

// TestStreams: a purpose's indices never share a seed, two purposes of
// one seed differ, the derivation is a function of its inputs, and it is
// pinned (a change would change every run's games).
func TestStreams(t *testing.T) {
	seen := map[uint64]string{}
	for _, p := range []string{"train/init", "train/explore", "train/dice", "train/measure", "train/shuffle"} {
		for i := uint64(0); i < 20000; i++ {
			s := StreamSeed(1, p, i)
			if other, ok := seen[s]; ok {
				t.Fatalf("%s %d and %s share the seed %#x", p, i, other, s)
			}
			seen[s] = p
		}
	}
	if StreamSeed(1, "a", 3) != StreamSeed(1, "a", 3) || Stream(7, "a", 1).Uint64() != Stream(7, "a", 1).Uint64() {
		t.Fatal("the derivation is not a function of its inputs")
	}
	if StreamSeed(1, "a", 3) == StreamSeed(2, "a", 3) {
		t.Fatal("two run seeds give one stream")
	}
	if got := StreamSeed(1, "train/init", 0); got != 0x6fdcc3d9942426a5 {
		t.Fatalf("StreamSeed(1, train/init, 0) = %#x, was 0x6fdcc3d9942426a5", got)
	}
}
