package backgammon

import (
	"context"
	"math/rand/v2"
	"testing"

	"starlab/search"
)

// BenchmarkSearch is StarETC to depth 5 over the default suite's 30
// rolled positions (search/backgammon/suites/backgammon.suite), as starlab bench
// -game backgammon -algos staretc -depths 5 measures it: a fresh 16 MiB
// table per position, with the built-in net and with the contact
// evaluator, and with a 1pt net of the features input set (features, its
// weights random: a net trained here is no faster). An iteration is one
// position's search, the suite's positions in turn, so -benchtime=30x
// searches the suite once.
func BenchmarkSearch(b *testing.B) {
	ps, err := search.ReadSuite(Game(), "../../backgammon/suites/backgammon.suite")
	if err != nil {
		b.Fatal(err)
	}
	featFile := featureNetFile(b, 80, 0, rand.New(rand.NewPCG(1, 2)), 0.1)
	for _, eval := range []string{"mlp", "contact", "features"} {
		b.Run(eval, func(b *testing.B) {
			c := search.DefaultConfig(search.StarETC)
			c.Eval = eval
			if eval == "features" {
				c.Eval, c.Net = "mlp", featFile
			}
			e := New(c.MustResolve())
			e.Evaluate(ps[0].Pos) // the evaluator and bear-off databases built before the clock, as starlab bench does
			var nodes int64
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				e.ClearTT()
				nodes += e.Search(context.Background(), ps[i%len(ps)].Pos, search.Limits{Depth: 5}, nil).Last().Nodes
				i++
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}
