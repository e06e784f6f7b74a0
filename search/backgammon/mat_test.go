package backgammon

import (
	"math/rand/v2"
	"strings"
	"testing"

	"starlab/search"
	"starlab/search/game"
)

// randomGame plays a game of v from the start with random rolls and plays
// and returns its actions as game records keep them.
func randomGame(v Variant, seed uint64) []int {
	rng := rand.New(rand.NewPCG(seed, 1))
	var s game.State = StartBoard(v)
	var actions []int
	for s.Kind() != game.Over {
		if s.Kind() == game.Chance {
			evs, total := s.Outcomes(nil)
			e, _ := game.EventAt(evs, rng.IntN(total))
			s.Happen(e)
			actions = append(actions, int(e.ID))
			continue
		}
		moves := s.Legal(nil)
		m := moves[rng.IntN(len(moves))]
		s.Play(m)
		actions = append(actions, int(m))
	}
	return actions
}

// TestWriteMat: a match file has the header, one score line and one
// "Wins" line a game, numbered lines whose plays are checker steps with
// 25 for the bar and 0 for off, and the scores summed; a game that does
// not end, or an action that is not legal, is refused naming the game.
func TestWriteMat(t *testing.T) {
	games := []search.ExportGame{{Actions: randomGame(Money, 1), First: 0}, {Actions: randomGame(Money, 2), First: 1}, {Actions: randomGame(Money, 3), First: 0}}
	var buf strings.Builder
	if err := WriteMat(&buf, Money, 0, [2]string{"a", "b"}, games); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	if !strings.HasPrefix(text, " 0 point match\n\n Game 1\n a : 0") || strings.Count(text, " Game ") != 3 || strings.Count(text, "Wins ") != 3 {
		t.Fatalf("match file:\n%s", text)
	}
	for _, line := range strings.Split(text, "\n") {
		if !strings.Contains(line, ") ") {
			continue
		}
		for _, f := range strings.Fields(line)[1:] {
			if strings.HasSuffix(f, ":") || f == "" {
				continue
			}
			from, to, ok := strings.Cut(strings.TrimSuffix(f, "*"), "/")
			if !ok || len(from) == 0 || len(to) == 0 || strings.ContainsAny(from+to, "barof") {
				t.Errorf("step %q in %q: want from/to in numbers", f, line)
			}
		}
	}
	var stopped strings.Builder
	cut := []search.ExportGame{games[0], {Actions: games[1].Actions[:10]}}
	if err := WriteMat(&stopped, Money, 0, [2]string{"a", "b"}, cut); err == nil || !strings.Contains(err.Error(), "game 2: the game does not end") {
		t.Errorf("a game that does not end: %v", err)
	}
	bad := []search.ExportGame{{Actions: append([]int{3}, 9999)}}
	if err := WriteMat(&stopped, Money, 0, [2]string{"a", "b"}, bad); err == nil || !strings.Contains(err.Error(), "game 1: action 2") {
		t.Errorf("an illegal play: %v", err)
	}
}

// TestExporterOnePointGames: a 1pt match is a one-point match file a game,
// each of whose score lines starts at 0, and a game that does not start at
// the start is refused.
func TestExporterOnePointGames(t *testing.T) {
	m := exportMatch(t, OnePoint, 1, 2)
	files, err := exporter.Files(m)
	if err != nil || len(files) != 2 || files[1].Name != "game-0002.mat" {
		t.Fatalf("files %v, %v", len(files), err)
	}
	for _, f := range files {
		if !strings.HasPrefix(string(f.Data), " 1 point match\n\n Game 1\n a : 0") {
			t.Errorf("%s:\n%s", f.Name, f.Data)
		}
	}
	rolled, _ := Game{}.Parse("4HPwATDgc/ABMA O 31")
	m.Games[0].Start = rolled
	if _, err := exporter.Files(m); err == nil || !strings.Contains(err.Error(), "game 1 starts at") {
		t.Errorf("a game from a rolled position: %v", err)
	}
}

// exportMatch is a match of v of random games, one a seed.
func exportMatch(t *testing.T, v Variant, seeds ...uint64) search.ExportMatch {
	t.Helper()
	m := search.ExportMatch{Variant: v.String(), Names: [2]string{"a", "b"}}
	for _, s := range seeds {
		m.Games = append(m.Games, search.ExportGame{Start: StartBoard(v), Actions: randomGame(v, s)})
	}
	return m
}
