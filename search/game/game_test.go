package game

import "testing"

func TestEventAt(t *testing.T) {
	evs := []Event{{ID: 7, Weight: 1}, {ID: 8, Weight: 2}, {ID: 9, Weight: 3}}
	for u, want := range []uint16{7, 8, 8, 9, 9, 9} {
		if e, ok := EventAt(evs, u); !ok || e.ID != want {
			t.Errorf("EventAt(%d) = %v, %v; want event %d", u, e, ok, want)
		}
	}
	if _, ok := EventAt(evs, 6); ok {
		t.Error("EventAt(6) of a total of 6 found an event")
	}
}
