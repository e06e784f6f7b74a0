// Package figure writes a gonum/plot drawing into a run directory as a
// PNG and an SVG of the same size, the pair every stage's plots come in,
// or returns it as PNG data for a page; and it draws a plot's legend
// outside its axes (Key), where it covers no data.
package figure

import (
	"bytes"
	"io"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"starlab/runs"
)

// DPI is the resolution of the PNGs.
const DPI = 110

// Write draws paint on a w x h canvas and writes it as name.png and
// name.svg in the run directory, each whole or not at all.
func Write(run *runs.Run, name string, w, h vg.Length, paint func(draw.Canvas)) error {
	data, err := PNG(w, h, paint)
	if err != nil {
		return err
	}
	if err := run.WriteArtifact(name+".png", func(out io.Writer) error {
		_, err := out.Write(data)
		return err
	}); err != nil {
		return err
	}
	svg := vgsvg.New(w, h)
	paint(draw.New(svg))
	return run.WriteArtifact(name+".svg", func(out io.Writer) error {
		_, err := svg.WriteTo(out)
		return err
	})
}

// PNG draws paint on a w x h canvas and returns it as PNG data.
func PNG(w, h vg.Length, paint func(draw.Canvas)) ([]byte, error) {
	img := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(DPI))
	paint(draw.New(img))
	var buf bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
