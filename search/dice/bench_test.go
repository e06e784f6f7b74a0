package dice

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// benchGame is a seeded random game prepared outside the timer: the start
// position and, per ply, the roll and the cell played.
type benchGame struct {
	start Board
	rolls []int
	cells []int
}

// playRandom plays a seeded random game from the empty n x n board until it is
// over, or until stop plies have been played when stop >= 0.
func playRandom(n, m int, rng *rand.Rand, stop int) (*Board, benchGame) {
	b, err := New(n, m)
	if err != nil {
		panic(err)
	}
	g := benchGame{start: *b}
	for !b.Over() && (stop < 0 || len(g.cells) < stop) {
		rolls := boardRolls(b)
		k := rolls[rng.IntN(len(rolls))]
		b.SetRoll(k)
		moves := boardMoves(b)
		c := moves[rng.IntN(len(moves))]
		b.Make(c)
		g.rolls = append(g.rolls, k)
		g.cells = append(g.cells, c)
	}
	return b, g
}

func benchGames(n, m, count int, seed uint64) []benchGame {
	rng := rand.New(rand.NewPCG(seed, 1))
	games := make([]benchGame, count)
	for i := range games {
		_, games[i] = playRandom(n, m, rng, -1)
	}
	return games
}

// benchMakeUnmake plays each prepared game forward (SetRoll + Make per ply)
// and takes it back (Unmake + ClearRoll per ply); one op is one whole game,
// and ns/ply is the cost of SetRoll+Make+Unmake+ClearRoll.
func benchMakeUnmake(b *testing.B, n, m int, saving bool) {
	games := benchGames(n, m, 64, 42)
	var undo [MaxPlies]Undo
	boards := make([]Board, len(games))
	for i := range games {
		boards[i] = games[i].start
	}
	b.ReportAllocs()
	i, done := 0, 0
	for b.Loop() {
		g, bd := &games[i], &boards[i]
		for j, c := range g.cells {
			bd.SetRoll(g.rolls[j])
			if saving {
				bd.MakeSaving(c, &undo[j])
			} else {
				bd.Make(c)
			}
		}
		for j := len(g.cells) - 1; j >= 0; j-- {
			if saving {
				bd.UnmakeRestoring(g.cells[j], &undo[j])
			} else {
				bd.Unmake(g.cells[j])
			}
			bd.ClearRoll()
		}
		done += len(g.cells)
		if i++; i == len(games) {
			i = 0
		}
	}
	if done > 0 {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(done), "ns/ply")
	}
	for i := range games {
		if boards[i] != games[i].start {
			b.Fatalf("game %d not restored", i)
		}
	}
}

func BenchmarkMakeUnmake5x5(b *testing.B)   { benchMakeUnmake(b, 5, 4, false) }
func BenchmarkMakeUnmake17x17(b *testing.B) { benchMakeUnmake(b, 17, 8, false) }

// The saving variants restore the counters on unmake instead of
// recomputing them, as the search does.
func BenchmarkMakeUnmakeSaving5x5(b *testing.B)   { benchMakeUnmake(b, 5, 4, true) }
func BenchmarkMakeUnmakeSaving17x17(b *testing.B) { benchMakeUnmake(b, 17, 8, true) }

// crowdedWin finds, among seeded random games, the won game with the most
// checkers and returns the position just before its winning move (die
// rolled) and that move. Win detection happens in Make, so timing Make of
// this move and Unmake measures it in a crowded position.
func crowdedWin(n, m int, seed uint64) (Board, int) {
	rng := rand.New(rand.NewPCG(seed, 2))
	var best Board
	bestCell, bestCheckers := -1, -1
	for g := 0; g < 400; g++ {
		b, game := playRandom(n, m, rng, -1)
		if _, won := b.Winner(); !won {
			continue
		}
		last := game.cells[len(game.cells)-1]
		b.Unmake(last)
		if b.Checkers() > bestCheckers {
			best, bestCell, bestCheckers = *b, last, b.Checkers()
		}
	}
	if bestCell < 0 {
		panic("no won game")
	}
	return best, bestCell
}

func benchWin(b *testing.B, n, m int) {
	pos, cell := crowdedWin(n, m, 7)
	bd := &pos
	bd.Make(cell)
	if _, won := bd.Winner(); !won {
		b.Fatalf("%s: %s does not win", pos.DPN(), FormatMove(cell, n))
	}
	bd.Unmake(cell)
	b.ReportAllocs()
	for b.Loop() {
		bd.Make(cell)
		bd.Unmake(cell)
	}
	b.ReportMetric(float64(bd.Checkers()), "checkers")
}

func BenchmarkWinDetection5x5(b *testing.B)   { benchWin(b, 5, 4) }
func BenchmarkWinDetection17x17(b *testing.B) { benchWin(b, 17, 8) }

// BenchmarkRollsMoves lists the rolls of mid-game positions and, for each
// roll, sets it, lists the moves and clears it.
func BenchmarkRollsMoves(b *testing.B) {
	for _, size := range []struct{ n, m int }{{5, 4}, {17, 8}} {
		b.Run(fmt.Sprintf("%dx%d/%d", size.n, size.n, size.m), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(3, 3))
			var boards []Board
			for len(boards) < 64 {
				bd, _ := playRandom(size.n, size.m, rng, size.n*size.n/2)
				if !bd.Over() {
					boards = append(boards, *bd)
				}
			}
			var rolls [MaxN]int8
			var moves [MaxN]int16
			b.ReportAllocs()
			i, sum := 0, 0
			for b.Loop() {
				bd := &boards[i]
				nr := bd.Rolls(&rolls)
				for _, k := range rolls[:nr] {
					bd.SetRoll(int(k))
					sum += bd.Moves(&moves)
					bd.ClearRoll()
				}
				if i++; i == len(boards) {
					i = 0
				}
			}
			if sum < 0 {
				b.Fatal("impossible")
			}
		})
	}
}
