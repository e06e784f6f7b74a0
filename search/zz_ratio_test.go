package search

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"
)

func TestZZRatio(t *testing.T) {
	ds := os.Getenv("RATIO_DEPTH")
	if ds == "" {
		t.Skip()
	}
	depth, _ := strconv.Atoi(ds)
	ps, err := ReadSuite("testdata/dice5x5-4.suite")
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []Algorithm{Expectimax, Star1, Star2, StarETC, CPC} {
		e := NewEngine(Options{Algorithm: a, Eval: Pairs{}, TTMiB: 64})
		var sum float64
		start := time.Now()
		for _, p := range ps {
			e.ClearTT()
			r := e.Search(context.Background(), p.Board, Limits{Depth: depth}, nil)
			sum += float64(r.Last().Nodes)
		}
		el := time.Since(start)
		fmt.Printf("%-10s depth %d mean nodes %.4g  time %v  nps %.3g\n", a, depth, sum/float64(len(ps)), el, sum/el.Seconds())
	}
}
