package search

import "testing"

func TestTTStoreAndMerge(t *testing.T) {
	tt := NewTT(1)
	const key = 0x1234_5678_9abc_def0
	if tt.probe(key) != nil {
		t.Fatal("empty table found an entry")
	}
	tt.store(key, 0.25, 4, U, -1, 7)
	e := tt.probe(key)
	if e == nil || e.lo != 0.25 || e.loDepth != 4 || e.hiDepth != -1 || e.move != 7 {
		t.Fatalf("after a lower bound: %+v", e)
	}
	// A shallower bound never replaces a deeper one; a same-depth bound
	// replaces only when tighter; an upper bound leaves the lower alone.
	tt.store(key, 0.5, 3, U, -1, -1)
	tt.store(key, 0.1, 4, U, -1, -1)
	tt.store(key, L, -1, 0.75, 5, 9)
	e = tt.probe(key)
	if e.lo != 0.25 || e.loDepth != 4 || e.hi != 0.75 || e.hiDepth != 5 || e.move != 9 {
		t.Fatalf("after merges: %+v", e)
	}
	tt.store(key, 0.3, 4, U, -1, -1)
	tt.store(key, 0.2, 6, 0.6, 6, -1)
	e = tt.probe(key)
	if e.lo != 0.2 || e.loDepth != 6 || e.hi != 0.6 || e.hiDepth != 6 {
		t.Fatalf("deeper bounds must replace: %+v", e)
	}
}

// TestTTFullKey: positions that share a bucket never see each other's
// entries, and a full bucket replaces its least valuable entry.
func TestTTFullKey(t *testing.T) {
	tt := NewTT(1)
	stride := tt.mask + 1 // keys that differ by a multiple share a bucket
	base := uint64(42)
	for i := uint64(0); i < ttWays; i++ {
		tt.store(base+i*stride, float64(i)/10, int(i)+1, U, -1, -1)
	}
	for i := uint64(0); i < ttWays; i++ {
		e := tt.probe(base + i*stride)
		if e == nil || e.lo != float64(i)/10 {
			t.Fatalf("key %d: %+v", i, e)
		}
	}
	if tt.probe(base+ttWays*stride) != nil {
		t.Fatal("a key never stored was found")
	}
	// A fifth key takes the slot of the shallowest entry (depth 1).
	tt.store(base+ttWays*stride, 0.9, 9, U, -1, -1)
	if tt.probe(base) != nil {
		t.Fatal("the shallowest entry survived a replacement")
	}
	for i := uint64(1); i <= ttWays; i++ {
		if tt.probe(base+i*stride) == nil {
			t.Fatalf("entry %d was replaced instead of the shallowest", i)
		}
	}
	// Entries of an earlier search go before current ones, deep or not.
	tt.NewSearch()
	tt.store(base+5*stride, 0.1, 1, U, -1, -1)
	if tt.probe(base+5*stride) == nil {
		t.Fatal("new entry not stored")
	}
	if tt.probe(base+4*stride) != nil && tt.probe(base+1*stride) != nil && tt.probe(base+2*stride) != nil && tt.probe(base+3*stride) != nil {
		t.Fatal("no old entry was replaced")
	}
}

func TestTTClearEpochs(t *testing.T) {
	tt := NewTT(1)
	for round := 0; round < 600; round++ { // wraps the 8-bit epoch twice
		key := uint64(round)*0x9e3779b97f4a7c15 | 1
		if tt.probe(key) != nil {
			t.Fatalf("round %d: entry visible before it was stored", round)
		}
		tt.store(key, 0.5, 3, 0.5, 3, -1)
		if tt.probe(key) == nil {
			t.Fatalf("round %d: entry lost", round)
		}
		prev := key
		tt.Clear()
		if tt.probe(prev) != nil {
			t.Fatalf("round %d: entry survived Clear", round)
		}
	}
}
