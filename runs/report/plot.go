package report

import (
	"bytes"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"starlab/search/bench"
)

// nodesPlot draws each algorithm's mean nodes against depth on a log
// scale, as figure 5.1 of the thesis, and returns the PNG.
func nodesPlot(sum *bench.Summary) ([]byte, error) {
	p := plot.New()
	p.Title.Text = "Mean nodes to depth over the suite"
	p.X.Label.Text = "depth (plies, chance plies included)"
	p.Y.Label.Text = "mean nodes"
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	p.Add(plotter.NewGrid())
	colors := []color.RGBA{{31, 119, 180, 255}, {255, 127, 14, 255}, {44, 160, 44, 255}, {214, 39, 40, 255}, {148, 103, 189, 255}, {140, 86, 75, 255}}
	for k, algo := range sum.Algos {
		var xy plotter.XYs
		for _, d := range sum.Results {
			for _, a := range d.Algos {
				if a.Algo == algo && float64(a.Nodes.Mean) > 0 {
					xy = append(xy, plotter.XY{X: float64(d.Depth), Y: float64(a.Nodes.Mean)})
				}
			}
		}
		if len(xy) == 0 {
			continue
		}
		line, points, err := plotter.NewLinePoints(xy)
		if err != nil {
			return nil, err
		}
		c := colors[k%len(colors)]
		line.Color, points.Color = c, c
		points.Shape = draw.CircleGlyph{}
		p.Add(line, points)
		p.Legend.Add(algo, line, points)
	}
	p.Legend.Top, p.Legend.Left = true, true
	img := vgimg.NewWith(vgimg.UseWH(6*vg.Inch, 4.5*vg.Inch), vgimg.UseDPI(110))
	p.Draw(draw.New(img))
	var buf bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
