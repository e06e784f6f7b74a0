package search

import "unsafe"

// TT is the transposition table shared by chance nodes and move nodes (the
// Zobrist key includes the roll state, so the two never collide). Each entry
// keeps a lower and an upper bound on the position's value, each with the
// depth it was searched to, and the best move found (Veness 2006, section
// 3.1; Veness and Blair 2007, figure 4.1).
//
// Entries are 32 bytes and live in buckets of four (128 bytes, two cache
// lines). A probe reads
// one bucket; the full 64-bit key is stored and compared, so a collision of
// bucket index can never hand one position's bounds to another. Replacement:
// an entry with the same key is updated in place; otherwise the new entry
// takes the slot whose content is worth least, that is, the one from an
// older search (generation) first and, among entries of the same
// generation, the one with the smallest depth. Deep entries stand for the
// most search work and are the ones that cut off whole subtrees, while
// entries of finished searches (in a game, earlier moves) are the first to go.
//
// A table of 0 MiB is off: it has one bucket, and Store writes its entries
// with an epoch other than the table's, so Probe never finds one. The
// search's probes and stores stay what they are, with no test of whether
// the table is on in the hot loop.
type TT struct {
	buckets []ttBucket
	mask    uint64
	gen     uint8
	epoch   uint8 // entries of other epochs are empty slots; see Clear
	off     bool  // no entry is ever found (a table of 0 MiB)
	write   uint8 // the epoch Store writes: epoch, or when off another
}

const ttWays = 4

type ttBucket [ttWays]Entry

// Entry is one position's bounds in the table: Lo searched to LoDepth, Hi
// to HiDepth, and the best move found.
type Entry struct {
	key     uint64
	Lo, Hi  float64
	LoDepth int16 // depth of lo; -1 when lo is only the trivial bound L
	HiDepth int16 // depth of hi; -1 when hi is only the trivial bound U
	Move    int16 // best move, -1 if none
	gen     uint8
	epoch   uint8 // the table's epoch when written; never 0 for a used entry
}

// NewTT returns a table of at most mib MiB (at least one bucket), a power of
// two of buckets.
func NewTT(mib int) *TT {
	n := uint64(1)
	size := uint64(mib) << 20
	for n*2*128 <= size {
		n *= 2
	}
	buckets := make([]ttBucket, n)
	AdviseHugePages(buckets)
	t := &TT{buckets: buckets, mask: n - 1, epoch: 1, off: mib == 0}
	t.setWrite()
	return t
}

// setWrite sets the epoch Store writes: the table's, or when the table is
// off one that is neither the table's nor 0.
func (t *TT) setWrite() {
	t.write = t.epoch
	if t.off {
		t.write = t.epoch%254 + 2
	}
}

// Off reports whether the table is off (0 MiB).
func (t *TT) Off() bool { return t.off }

// Clear empties the table in constant time: it starts a new epoch, and
// entries written in other epochs count as empty. Only when the 8-bit epoch
// wraps around, once in 255 clears, is the memory cleared.
func (t *TT) Clear() {
	t.epoch++
	if t.epoch == 0 {
		clear(t.buckets)
		t.epoch = 1
	}
	t.gen = 0
	t.setWrite()
}

// NewSearch starts a new generation: entries from earlier searches are kept
// and used, but are the first to be replaced.
func (t *TT) NewSearch() { t.gen++ }

// Len returns the number of entries the table can hold.
func (t *TT) Len() int { return len(t.buckets) * ttWays }

// Prefetch starts bringing the bucket of key into the cache, so that a
// probe soon after finds it there: the search issues it from the parent
// for every child before searching the first.
func (t *TT) Prefetch(key uint64) {
	prefetch(uintptr(unsafe.Pointer(&t.buckets[key&t.mask])))
}

// Probe returns the entry for key, or nil.
func (t *TT) Probe(key uint64) *Entry {
	bk := &t.buckets[key&t.mask]
	for i := range bk {
		if bk[i].key == key && bk[i].epoch == t.epoch {
			return &bk[i]
		}
	}
	return nil
}

// Store merges bounds lo (searched to loDepth) and hi (to hiDepth) into the
// entry for key. A bound replaces the stored one when it comes from a deeper
// search, or from the same depth and is tighter; a trivial bound (depth -1)
// never replaces anything. move, if >= 0, becomes the best move.
func (t *TT) Store(key uint64, lo float64, loDepth int, hi float64, hiDepth int, move int) {
	bk := &t.buckets[key&t.mask]
	var e *Entry
	for i := range bk {
		if bk[i].key == key && bk[i].epoch == t.write {
			e = &bk[i]
			break
		}
	}
	if e == nil {
		e = &bk[0]
		for i := 1; i < ttWays && e.epoch == t.write; i++ {
			c := &bk[i]
			if c.epoch != t.write || t.worth(c) < t.worth(e) {
				e = c
			}
		}
		*e = Entry{key: key, Lo: L, Hi: U, LoDepth: -1, HiDepth: -1, Move: -1, epoch: t.write}
	}
	e.gen = t.gen
	if loDepth >= 0 && (loDepth > int(e.LoDepth) || (loDepth == int(e.LoDepth) && lo > e.Lo)) {
		e.Lo, e.LoDepth = lo, int16(loDepth)
	}
	if hiDepth >= 0 && (hiDepth > int(e.HiDepth) || (hiDepth == int(e.HiDepth) && hi < e.Hi)) {
		e.Hi, e.HiDepth = hi, int16(hiDepth)
	}
	if move >= 0 {
		e.Move = int16(move)
	}
}

// worth orders entries for replacement: current generation before old, then
// by depth.
func (t *TT) worth(e *Entry) int {
	d := int(max(e.LoDepth, e.HiDepth))
	if e.gen == t.gen {
		d += 1 << 12
	}
	return d
}
