package runs

import (
	"hash/fnv"
	"math/rand/v2"
)

// StreamSeed returns the seed of one random stream of a run seeded seed:
// the stream of a purpose ("train/init", "train/dice") and an index within
// it (a game's number). Every stream of a stage comes from this one
// derivation, so that no two purposes share a stream by accident (as when
// a stream of weights and a game's were both PCG(seed, n) for some n).
// Within a purpose, two indices never share a seed: the seed is
// mix(mix(seed ^ h) + index), with h the FNV-1a hash of the purpose and
// mix SplitMix64's finaliser, a bijection. Two purposes share one only if
// their 64-bit hashes collide.
func StreamSeed(seed uint64, purpose string, index uint64) uint64 {
	return mix(mix(seed^purposeHash(purpose)) + index)
}

// Stream returns the random source of one purpose and index of a run
// seeded seed: PCG seeded with StreamSeed and the purpose's hash.
func Stream(seed uint64, purpose string, index uint64) *rand.Rand {
	return rand.New(rand.NewPCG(StreamSeed(seed, purpose, index), purposeHash(purpose)))
}

// purposeHash is the FNV-1a hash of a purpose's name.
func purposeHash(purpose string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(purpose))
	return h.Sum64()
}

// mix is SplitMix64's finaliser (Steele, Lea and Flood 2014): a bijection
// of 64-bit integers that spreads every input bit over the output.
func mix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
