package backgammon

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// suiteBoards reads the default suite's rolled positions.
func suiteBoards(b *testing.B) []*Board {
	f, err := os.Open("../backgammon/suites/backgammon.suite")
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var out []*Board
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		p, err := Parse(line)
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// BenchmarkMoves generates the plays of every roll of the suite's
// positions; plays/s is the plays generated per second.
func BenchmarkMoves(b *testing.B) {
	ps := suiteBoards(b)
	var codes [MaxPlays]int16
	plays := 0
	for b.Loop() {
		for _, p := range ps {
			q := *p
			q.ClearRoll()
			for r := 0; r < Rolls; r++ {
				hi, lo := RollDice(r)
				q.Roll(hi, lo)
				plays += q.Moves(&codes)
				q.ClearRoll()
			}
		}
	}
	b.ReportMetric(float64(plays)/b.Elapsed().Seconds(), "plays/s")
}

// BenchmarkMakeUnmake makes and takes back every play of the suite's
// positions.
func BenchmarkMakeUnmake(b *testing.B) {
	ps := suiteBoards(b)
	var codes [MaxPlays]int16
	made := 0
	for b.Loop() {
		for _, p := range ps {
			q := *p
			n := q.Moves(&codes)
			for _, c := range codes[:n] {
				var u Undo
				q.MakeSaving(int(c), &u)
				q.UnmakeRestoring(int(c), &u)
			}
			made += n
		}
	}
	b.ReportMetric(float64(made)/b.Elapsed().Seconds(), "plays/s")
}
