package figure

import (
	"testing"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// TestKeyLayout: a key's entries stand side by side on one line where
// they fit, wrap to lines of their own where they do not, without
// overlapping, and an empty key takes no room.
func TestKeyLayout(t *testing.T) {
	var k Key
	if h := k.Height(5 * vg.Inch); h != 0 {
		t.Errorf("an empty key takes %v", h)
	}
	line, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"score ± 95%, duplicate dice", "luck-adjusted score", "50%"} {
		k.Add(name, line)
	}
	wide, h1 := k.layout(20 * vg.Inch)
	for i, at := range wide {
		if at.Y != 0 || i > 0 && at.X <= wide[i-1].X {
			t.Errorf("20 inches wide: entry %d at %v, want on the first line, right of the one before", i, at)
		}
	}
	narrow, h3 := k.layout(vg.Inch)
	for i, at := range narrow {
		if at.X != 0 || i > 0 && at.Y <= narrow[i-1].Y+1 {
			t.Errorf("1 inch wide: entry %d at %v, want at the start of a line of its own", i, at)
		}
	}
	if h3 < 3*h1 {
		t.Errorf("three lines %v high, one %v", h3, h1)
	}
	if k.Height(vg.Inch) <= h3 {
		t.Errorf("the key's height %v leaves no gap above its band of %v", k.Height(vg.Inch), h3)
	}
}
