package search

import "testing"

func TestTTStoreAndMerge(t *testing.T) {
	tt := NewTT(1)
	const key = 0x1234_5678_9abc_def0
	if tt.Probe(key) != nil {
		t.Fatal("empty table found an entry")
	}
	tt.Store(key, 0.25, 4, U, -1, 7)
	e := tt.Probe(key)
	if e == nil || e.Lo != 0.25 || e.LoDepth != 4 || e.HiDepth != -1 || e.Move != 7 {
		t.Fatalf("after a lower bound: %+v", e)
	}
	// A shallower bound never replaces a deeper one; a same-depth bound
	// replaces only when tighter; an upper bound leaves the lower alone.
	tt.Store(key, 0.5, 3, U, -1, -1)
	tt.Store(key, 0.1, 4, U, -1, -1)
	tt.Store(key, L, -1, 0.75, 5, 9)
	e = tt.Probe(key)
	if e.Lo != 0.25 || e.LoDepth != 4 || e.Hi != 0.75 || e.HiDepth != 5 || e.Move != 9 {
		t.Fatalf("after merges: %+v", e)
	}
	tt.Store(key, 0.3, 4, U, -1, -1)
	tt.Store(key, 0.2, 6, 0.6, 6, -1)
	e = tt.Probe(key)
	if e.Lo != 0.2 || e.LoDepth != 6 || e.Hi != 0.6 || e.HiDepth != 6 {
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
		tt.Store(base+i*stride, float64(i)/10, int(i)+1, U, -1, -1)
	}
	for i := uint64(0); i < ttWays; i++ {
		e := tt.Probe(base + i*stride)
		if e == nil || e.Lo != float64(i)/10 {
			t.Fatalf("key %d: %+v", i, e)
		}
	}
	if tt.Probe(base+ttWays*stride) != nil {
		t.Fatal("a key never stored was found")
	}
	// A fifth key takes the slot of the shallowest entry (depth 1).
	tt.Store(base+ttWays*stride, 0.9, 9, U, -1, -1)
	if tt.Probe(base) != nil {
		t.Fatal("the shallowest entry survived a replacement")
	}
	for i := uint64(1); i <= ttWays; i++ {
		if tt.Probe(base+i*stride) == nil {
			t.Fatalf("entry %d was replaced instead of the shallowest", i)
		}
	}
	// Entries of an earlier search go before current ones, deep or not.
	tt.NewSearch()
	tt.Store(base+5*stride, 0.1, 1, U, -1, -1)
	if tt.Probe(base+5*stride) == nil {
		t.Fatal("new entry not stored")
	}
	if tt.Probe(base+4*stride) != nil && tt.Probe(base+1*stride) != nil && tt.Probe(base+2*stride) != nil && tt.Probe(base+3*stride) != nil {
		t.Fatal("no old entry was replaced")
	}
}

func TestTTClearEpochs(t *testing.T) {
	tt := NewTT(1)
	for round := 0; round < 600; round++ { // wraps the 8-bit epoch twice
		key := uint64(round)*0x9e3779b97f4a7c15 | 1
		if tt.Probe(key) != nil {
			t.Fatalf("round %d: entry visible before it was stored", round)
		}
		tt.Store(key, 0.5, 3, 0.5, 3, -1)
		if tt.Probe(key) == nil {
			t.Fatalf("round %d: entry lost", round)
		}
		prev := key
		tt.Clear()
		if tt.Probe(prev) != nil {
			t.Fatalf("round %d: entry survived Clear", round)
		}
	}
}

// TestTableOff: a table of 0 MiB finds nothing it stored, through every
// clear, including the epoch's wrap-around.
func TestTableOff(t *testing.T) {
	tt := NewTT(0)
	if !tt.Off() || NewTT(1).Off() {
		t.Fatal("Off does not say which table is off")
	}
	for i := range 600 {
		key := uint64(i)*0x9e3779b97f4a7c15 | 1
		tt.Store(key, 0.5, 3, 0.5, 3, 2)
		tt.Store(key, 0.5, 4, 0.5, 4, 2)
		if tt.Probe(key) != nil {
			t.Fatalf("clear %d: the table off found an entry", i)
		}
		tt.Clear()
	}
}
