package figure

import (
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Key is a plot's legend drawn outside its axes, in a band of its own
// under them, its entries side by side on as many lines as they need: a
// plot.Legend is drawn inside the axes, where it covers whatever data
// runs under it.
type Key struct {
	entries []plot.Legend // one entry each, measured and placed one by one
}

// keyGap is the space between two entries of a line, and between the
// plot and the band.
const keyGap = 14

// Add adds an entry, its name after the thumbnails that draw its style.
func (k *Key) Add(name string, thumbs ...plot.Thumbnailer) {
	l := plot.NewLegend()
	l.Top, l.Left = true, true
	l.Add(name, thumbs...)
	k.entries = append(k.entries, l)
}

// Len returns the number of entries.
func (k *Key) Len() int { return len(k.entries) }

// layout places the entries in a band width wide, a line filled before
// the next begins: it returns each entry's distance from the band's
// top-left corner and the band's height.
func (k *Key) layout(width vg.Length) (at []vg.Point, height vg.Length) {
	var x, y, line vg.Length
	for _, e := range k.entries {
		size := e.Rectangle(draw.Canvas{}).Size()
		size.Y += e.TextStyle.FontExtents().Descent // drawn below the entry's line
		if x > 0 && x+size.X > width {
			x, y = 0, y+line+keyGap/3
		}
		at = append(at, vg.Point{X: x, Y: y})
		x += size.X + keyGap
		line = max(line, size.Y)
	}
	return at, y + line
}

// Height returns the height the key takes under a plot drawn width wide,
// its band and the gap above it; 0 without entries.
func (k *Key) Height(width vg.Length) vg.Length {
	if len(k.entries) == 0 {
		return 0
	}
	_, h := k.layout(width)
	return h + keyGap
}

// Draw draws p on c with the key under it, as wide as the data area and
// in line with it, so that the data area holds data alone; without
// entries, p on all of c.
func (k *Key) Draw(p *plot.Plot, c draw.Canvas) {
	data := p.DataCanvas(c) // its width is the same on c cut at the bottom
	width := data.Max.X - data.Min.X
	above := c
	above.Min.Y += k.Height(width)
	p.Draw(above)
	at, band := k.layout(width)
	for i := range k.entries {
		e := c
		e.Min.X = data.Min.X + at[i].X
		e.Max.Y = c.Min.Y + band - at[i].Y
		k.entries[i].Draw(e)
	}
}
