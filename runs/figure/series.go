package figure

import (
	"image/color"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The series below are the stages' plots' marks in one colour each, a
// series and its error bars alike, so that a key entry names all of it.

// LinePoints returns the line through xy and its points, both of colour c.
func LinePoints(xy plotter.XYer, c color.Color) (*plotter.Line, *plotter.Scatter, error) {
	line, points, err := plotter.NewLinePoints(xy)
	if err != nil {
		return nil, nil, err
	}
	line.Color, points.Color = c, c
	return line, points, nil
}

// Scatter returns the points xy drawn as shape of the given radius and
// colour.
func Scatter(xy plotter.XYer, shape draw.GlyphDrawer, radius vg.Length, c color.Color) (*plotter.Scatter, error) {
	s, err := plotter.NewScatter(xy)
	if err != nil {
		return nil, err
	}
	s.GlyphStyle.Shape, s.GlyphStyle.Radius, s.GlyphStyle.Color = shape, radius, c
	return s, nil
}

// XErrorBars returns the horizontal error bars errs of the points xy, of
// colour c.
func XErrorBars(xy plotter.XYer, errs plotter.XErrorer, c color.Color) (*plotter.XErrorBars, error) {
	bars, err := plotter.NewXErrorBars(struct {
		plotter.XYer
		plotter.XErrorer
	}{xy, errs})
	if err != nil {
		return nil, err
	}
	bars.Color = c
	return bars, nil
}

// YErrorLine returns a measured series in colour c: the line through xy,
// its points, and their vertical error bars errs.
func YErrorLine(xy plotter.XYer, errs plotter.YErrorer, c color.Color) (*plotter.Line, *plotter.Scatter, *plotter.YErrorBars, error) {
	line, points, err := LinePoints(xy, c)
	if err != nil {
		return nil, nil, nil, err
	}
	bars, err := plotter.NewYErrorBars(struct {
		plotter.XYer
		plotter.YErrorer
	}{xy, errs})
	if err != nil {
		return nil, nil, nil, err
	}
	bars.Color = c
	return line, points, bars, nil
}
