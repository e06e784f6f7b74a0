package selfplay

import (
	"context"
	"go/parser"
	"go/token"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"starlab/runs"
	"starlab/search"
	"starlab/search/dice"
	"starlab/search/game"
	"starlab/search/game/toy"
)

// TestDiceGamesUnchanged: the generic game loop plays the Dice games the
// loop written for Dice played: the rolls, moves, results, luck, nodes and
// depths of a small match, as the build before the game contract recorded
// them.
func TestDiceGamesUnchanged(t *testing.T) {
	want := []struct {
		pair, round  int
		rolls, moves string
		result       int
		luck         float64
		nodes        [2]int64
		depth        [2]int
	}{
		{0, 0, "1 d 3 c 4 e 4 e 5 c 1 c 3 e 2", "b1 d1 c3 c1 b4 e1 d4 e2 e5 c2 a1 c4 b3 e3 b2", 1, 0.08216798194309438, [2]int64{765, 32}, [2]int{24, 7}},
		{0, 1, "1 d 3 c 4 e 4 e 5 c 5 c 2", "a1 d4 a3 c3 a4 e5 b4 e4 a5 c4 b5 c2 a2", 1, 0.4684285261215545, [2]int64{32, 642}, [2]int{7, 18}},
		{1, 0, "3 e 3 c 1 b 3 d 4 d 4 d 5 e 3", "c3 e1 d3 c1 d1 b1 b3 d2 a4 d4 c4 d5 b5 e3 a3", 1, 0.19022771029598956, [2]int64{705, 31}, [2]int{24, 7}},
		{1, 1, "3 e 3 c 1 b 3 d 4 d 4 d 5 c 3 c 5 d 5 c", "a3 e4 b3 c3 a1 b2 d3 d4 a4 d2 b4 d5 b5 c2 e3 c1 a5 d1 c5 c4", -1, 0.06853304117172176, [2]int64{41, 736}, [2]int{10, 30}},
		{2, 0, "1 c 5 a 1 a 2 b 3 b 1 c 5 c 5 b 4 c 2 a 2 d 4 e 5", "b1 c1 d5 a3 d1 a1 a2 b2 c3 b3 e1 c2 b5 c5 a5 b4 d4 c4 d2 a4 e2 d3 e4 e3 e5", 0, -0.5479303187507132, [2]int64{800, 44}, [2]int{37, 12}},
		{2, 1, "1 c 5 a 1 a 2 b 3 c 1 d", "a1 c3 a5 a2 b1 a4 b2 b3 a3 c4 c1 d5", -1, -0.825925498789067, [2]int64{30, 481}, [2]int{6, 18}},
	}
	// The built-in 5x5/4 net of that build, since replaced.
	prs := playAll(t, testConfig(t, "staretc:depth=3,net=../search/testdata/nets/dice5x5-4-7b3b0f732fb6.json", "star1:depth=1,eval=pairs", 3, 1))
	k := 0
	for _, pr := range prs {
		for _, g := range pr.Games {
			w := want[k]
			k++
			rolls, moves, err := g.Game.Notation(diceGame)
			if err != nil {
				t.Fatal(err)
			}
			if pr.Index != w.pair || g.Round != w.round || rolls != w.rolls || moves != w.moves || g.Game.Result != w.result ||
				g.Game.Luck != w.luck || g.Game.Nodes != w.nodes || g.Game.Depth != w.depth {
				t.Errorf("pair %d round %d: rolls %q moves %q result %d luck %v nodes %v depth %v;\nwant pair %d round %d: rolls %q moves %q result %d luck %v nodes %v depth %v",
					pr.Index, g.Round, rolls, moves, g.Game.Result, g.Game.Luck, g.Game.Nodes, g.Game.Depth,
					w.pair, w.round, w.rolls, w.moves, w.result, w.luck, w.nodes, w.depth)
			}
		}
	}
}

// TestChanceStreamDraws: an event is the first whose cumulative weight
// exceeds a uniform draw below the total, from the stream of the chance
// node's mover: in Dice the u-th non-full line, the roll of the loop
// written for Dice; in the toy, events of weights 1, 2 and 3 drawn as
// 1:2:3.
func TestChanceStreamDraws(t *testing.T) {
	const seed = 77
	cs := NewChanceStream(seed)
	ref := [2]*rand.Rand{rand.New(rand.NewPCG(seed, 0xb1)), rand.New(rand.NewPCG(seed, 0x2ed))}
	rng := rand.New(rand.NewPCG(3, 4))
	for p := 0; p < 2000; p++ {
		b, _ := dice.New(5, 4)
		for i := rng.IntN(20); i > 0 && !b.Over(); i-- {
			var lines [dice.MaxN]int8
			b.SetRoll(int(lines[rng.IntN(b.Rolls(&lines))]))
			var moves [dice.MaxN]int16
			b.Make(int(moves[rng.IntN(b.Moves(&moves))]))
		}
		if b.Over() {
			continue
		}
		var lines [dice.MaxN]int8
		k := b.Rolls(&lines)
		wantLine := lines[ref[b.SideToMove()].IntN(k)]
		e, err := cs.Draw(b)
		if err != nil || e.ID != uint16(wantLine) || e.Weight != 1 {
			t.Fatalf("%s: drew %+v (%v), the Dice roll is line %d", b.DPN(), e, err, wantLine)
		}
	}

	cs = NewChanceStream(seed)
	ref = [2]*rand.Rand{rand.New(rand.NewPCG(seed, 0xb1)), rand.New(rand.NewPCG(seed, 0x2ed))}
	var count [3]int
	for i := 0; i < 6000; i++ {
		text := "9 2 3 r0"
		if i%2 == 1 {
			text = "9 2 3 r1"
		}
		s, err := toy.Game{}.Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		u := ref[s.Mover()].IntN(toy.TotalWeight)
		want := 0 // weights 1, 2, 3: u 0 is event 0, u 1..2 event 1, u 3..5 event 2
		if u >= 3 {
			want = 2
		} else if u >= 1 {
			want = 1
		}
		e, err := cs.Draw(s)
		if err != nil || int(e.ID) != want {
			t.Fatalf("draw %d at %q: %+v (%v), want event %d (u = %d)", i, text, e, err, want, u)
		}
		count[e.ID]++
	}
	for id, c := range count {
		if want := 1000 * (id + 1); math.Abs(float64(c-want)) > 150 {
			t.Errorf("event %d drawn %d times in 6000, want about %d", id, c, want)
		}
	}
}

// TestGreedyIsPairCount: the greedy player, valuing moves through the
// game's hand evaluator, makes the choices and the random draws of the
// Dice player written with pair counts: a win at once, else the greatest
// pair difference, ties broken by reservoir sampling.
func TestGreedyIsPairCount(t *testing.T) {
	spec := func(rng *rand.Rand, b *dice.Board) int { // the Dice greedy player
		var moves [dice.MaxN]int16
		k := b.Moves(&moves)
		me := b.SideToMove()
		w := *b
		best, bestScore, ties := 0, -1<<30, 0
		for i := 0; i < k; i++ {
			cell := int(moves[i])
			w.Make(cell)
			s := w.Pairs(me) - w.Pairs(me.Other())
			if _, won := w.Winner(); won {
				s = 1 << 20
			}
			w.Unmake(cell)
			switch {
			case s > bestScore:
				best, bestScore, ties = cell, s, 1
			case s == bestScore:
				ties++
				if rng.IntN(ties) == 0 {
					best = cell
				}
			}
		}
		return best
	}
	for _, size := range [][2]int{{5, 4}, {7, 4}, {4, 3}, {9, 5}} {
		for seed := uint64(1); seed <= 20; seed++ {
			g := NewGreedy(diceGame, seed)
			ref := rand.New(rand.NewPCG(seed, 0x69ee))
			dice5 := rand.New(rand.NewPCG(seed, 99))
			b, _ := dice.New(size[0], size[1])
			for !b.Over() {
				var lines [dice.MaxN]int8
				b.SetRoll(int(lines[dice5.IntN(b.Rolls(&lines))]))
				want := spec(ref, b)
				if got := g.Choose(context.Background(), b).Move; int(got) != want {
					t.Fatalf("%s: greedy plays %d, the pair-count player %d", b.DPN(), got, want)
				}
				b.Make(want)
			}
		}
	}
}

// TestPlayToy: the game loop plays a game of weighted, optional chance
// whose chance node's mover is the roller's opponent: a record replays to
// the end with the result and the move counts it holds, and every game
// has rolls and events.
func TestPlayToy(t *testing.T) {
	start, err := toyGame.New("9")
	if err != nil {
		t.Fatal(err)
	}
	events := 0
	for seed := uint64(1); seed <= 50; seed++ {
		players := [2]Player{NewRandom(seed), NewGreedy(toyGame, seed)}
		rec, err := Play(context.Background(), toyGame, start, players, NewChanceStream(seed), nil)
		if err != nil {
			t.Fatal(err)
		}
		var turns [2]int
		end, err := rec.Replay(toyGame, func(_ int, s game.State) bool {
			switch s.Kind() {
			case game.Decision:
				turns[s.Mover()]++
			case game.Chance:
				events++
			}
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
		if end.Kind() != game.Over || sideZero(end.Result(), end.Mover()) != float64(rec.Result) || turns != rec.Turns ||
			rec.Plies != turns[0]+turns[1] || rec.Name != "toy" || rec.Variant != "9" || rec.Start != start.String() {
			t.Fatalf("seed %d: record %+v replays to %q (turns %v)", seed, rec, end, turns)
		}
		ev, mv, err := rec.Notation(toyGame)
		if err != nil || len(strings.Fields(mv)) != rec.Plies || len(strings.Fields(ev)) != len(rec.Actions)-rec.Plies {
			t.Fatalf("seed %d: notation %q / %q (%v) for %d actions, %d moves", seed, ev, mv, err, len(rec.Actions), rec.Plies)
		}
	}
	if events == 0 {
		t.Fatal("50 toy games without a chance event")
	}
}

// TestReplayRefusesImpossibleRecords: a record that is not a game of the
// game it is replayed through is refused in one line: an event the node
// does not have, an illegal move, an action after the end, a record of
// another game or variant, a start that does not parse.
func TestReplayRefusesImpossibleRecords(t *testing.T) {
	start, _ := toyGame.New("5")
	rec, err := Play(context.Background(), toyGame, start, [2]Player{NewRandom(1), NewRandom(2)}, NewChanceStream(3), nil)
	if err != nil {
		t.Fatal(err)
	}
	// "5 0 0 0": step, roll, then the roll's event.
	good := Record{Name: "toy", Variant: "5", Start: "5 0 0 0", Actions: []Action{toy.Step, toy.Roll, 2}}
	if _, err := good.Replay(toyGame, nil); err != nil {
		t.Fatalf("a legal record: %v", err)
	}
	bad := map[string]Record{
		"event 3":         {Name: "toy", Variant: "5", Start: "5 0 0 0", Actions: []Action{toy.Step, toy.Roll, 3}},
		"move 3":          {Name: "toy", Variant: "5", Start: "5 0 0 0", Actions: []Action{3}},
		"after the end":   {Name: "toy", Variant: "5", Start: rec.Start, Actions: append(append([]Action(nil), rec.Actions...), toy.Step)},
		"another game":    {Name: "dice", Variant: "5", Start: "5 0 0 0"},
		"another variant": {Name: "toy", Variant: "6", Start: "5 0 0 0"},
		"bad start":       {Name: "toy", Variant: "5", Start: "5 0 x 0"},
	}
	for name, r := range bad {
		if _, err := r.Replay(toyGame, nil); err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: got %v, want a one-line error", name, err)
		}
	}
	b, _ := dice.New(5, 4)
	if _, err := Play(context.Background(), diceGame, b, [2]Player{cheat{}, cheat{}}, NewChanceStream(1), nil); err == nil || !strings.Contains(err.Error(), "cheat") {
		t.Errorf("an illegal move: got %v, want an error naming the player", err)
	}
}

// cheat plays cell 24 whatever was rolled.
type cheat struct{}

func (cheat) Name() string                              { return "cheat" }
func (cheat) Choose(context.Context, game.State) Choice { return Choice{Move: 24} }

// TestToyLuckWeighted: the luck of a weighted chance node's events,
// weighted by their probabilities, sums to zero; with the toy's weights
// 1, 2 and 3 the plain sum does not.
func TestToyLuckWeighted(t *testing.T) {
	c := search.DefaultConfig(search.StarETC)
	c.TTMiB, c.Eval = 0, "race"
	l := NewLuck(toyGame.NewEngine(c.MustResolve()), search.Limits{Depth: 3})
	plain := 0.0
	for _, text := range []string{"9 2 3 r0", "9 2 3 r1", "9 7 1 r0", "12 0 5 r1", "6 4 4 r0"} {
		s, err := toyGame.Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		events, total := s.Outcomes(nil)
		weighted := 0.0
		for _, e := range events {
			luck, err := l.eventLuck(context.Background(), s, e)
			if err != nil {
				t.Fatal(err)
			}
			weighted += float64(e.Weight) * luck / float64(total)
			plain += luck
		}
		if math.Abs(weighted) > 1e-12 {
			t.Errorf("%s: the weighted luck of the events sums to %g", text, weighted)
		}
	}
	if math.Abs(plain) < 1e-6 {
		t.Errorf("the unweighted luck sums to %g: the positions do not tell a weighted mean from a plain one", plain)
	}
}

// TestToyMatchAndSuite: the match stage and suite sampling run on a game
// other than Dice: the games replay, games.parquet names the game and
// variant in its metadata, and the suite's positions have their phase.
func TestToyMatchAndSuite(t *testing.T) {
	run, err := runs.CreateAt(filepath.Join(t.TempDir(), "m"), "match", nil, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	s := DefaultMatchSettings(toyGame, "staretc:depth=2,eval=race", "expectimax:depth=1,eval=race")
	s.Variant, s.Games, s.Concurrency, s.Luck = "8", 8, 1, "staretc:depth=1,eval=race,tt=1"
	rep, err := RunMatch(context.Background(), s, run, runs.NoProgress)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Pairings[0].Games != 8 || rep.Settings.GameName != "toy" || rep.Settings.Variant != "8" || rep.Settings.Starts[0] != "8 0 0 0" {
		t.Fatalf("report %+v", rep)
	}
	// The games' shape: a toy decision has three moves (step, jump and the
	// roll), and a chance node three events; these players never roll, so
	// there is no chance node and no mean number of events.
	if s := rep.Pairings[0]; s.Branching != 3 || !(s.DecisionsPerGame > 0) || s.ChancePerGame != 0 || !math.IsNaN(float64(s.EventsPerChance)) {
		t.Errorf("shape: %v decisions per game, branching %v, %v chance nodes per game, %v events each", s.DecisionsPerGame, s.Branching, s.ChancePerGame, s.EventsPerChance)
	}
	rows, err := runs.ReadParquet[GameRow](run.Path(GamesFile), MatchFormat)
	if err != nil || len(rows) != 8 {
		t.Fatalf("games.parquet: %d rows, %v", len(rows), err)
	}
	meta := parquetMeta(t, run.Path(GamesFile))
	if meta[GameKey] != "toy" || meta[VariantKey] != "8" || meta[runs.FormatKey] != MatchFormat {
		t.Fatalf("games.parquet metadata %v", meta)
	}

	ss := DefaultSampleSettings(toyGame)
	ss.Variant, ss.Count, ss.Min, ss.Max = "10", 8, 3, 9
	lines, err := SampleSuite(context.Background(), ss, runs.NoProgress)
	if err != nil || len(lines) != 8 {
		t.Fatalf("suite %q, %v", lines, err)
	}
	for _, line := range lines {
		st, err := toyGame.Parse(line)
		if err != nil {
			t.Fatal(err)
		}
		if p := toyGame.Phase(st); p < 3 || p > 9 || toyGame.Variant(st) != "10" {
			t.Errorf("%q: phase %d, variant %s; want 3 to 9 of variant 10", line, p, toyGame.Variant(st))
		}
	}
}

// parquetMeta returns the key-value metadata of a Parquet file.
func parquetMeta(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, _ := f.Stat()
	pf, err := parquet.OpenFile(f, fi.Size())
	if err != nil {
		t.Fatal(err)
	}
	meta := map[string]string{}
	for _, kv := range pf.Metadata().KeyValueMetadata {
		meta[kv.Key] = kv.Value
	}
	return meta
}

// TestDiceMatchFiles: a Dice match records its game and variant in its
// settings and in games.parquet's metadata, and a journal of the format
// before games were records of actions is refused in one line.
func TestDiceMatchFiles(t *testing.T) {
	run, err := runs.CreateAt(filepath.Join(t.TempDir(), "m"), "match", nil, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	s := matchSettings("staretc:depth=1", "staretc:depth=1,eval=zero")
	s.Games, s.Luck = 2, "none"
	rep, err := RunMatch(context.Background(), s, run, runs.NoProgress)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Settings.GameName != "dice" || rep.Settings.Variant != "5x5-4" {
		t.Fatalf("settings name game %q variant %q", rep.Settings.GameName, rep.Settings.Variant)
	}
	if meta := parquetMeta(t, run.Path(GamesFile)); meta[GameKey] != "dice" || meta[VariantKey] != "5x5-4" {
		t.Fatalf("games.parquet metadata %v", meta)
	}

	old, err := runs.CreateAt(filepath.Join(t.TempDir(), "old"), "match", nil, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	if err := os.WriteFile(old.Path(MatchJournal), []byte(`{"journal":"starlab-match/2"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = RunMatch(context.Background(), s, old, runs.NoProgress)
	if err == nil || !strings.Contains(err.Error(), "starlab-match/2") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("a journal of format 2: got %v, want a one-line error naming it", err)
	}

	for name, edit := range map[string]func(*MatchSettings){
		"game toy given Dice":   func(s *MatchSettings) { s.GameName = "toy" },
		"format 2, n and m":     func(s *MatchSettings) { s.Format, s.N, s.M = "starlab-match/2", 5, 4 },
		"n and m in format 3":   func(s *MatchSettings) { s.N, s.M = 5, 4 },
		"start of another size": func(s *MatchSettings) { s.Variant = "6x6-4" },
	} {
		bad := matchSettings("staretc:depth=1", "staretc:depth=1,eval=zero")
		bad.Starts = rep.Settings.Starts
		edit(&bad)
		if _, err := bad.Resolve(); err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("settings of %s: got %v, want a one-line error", name, err)
		}
	}
}

// TestImportsNoGame: the package sees games only through the contract and
// search.Engine: none of its files imports a game, a game's engine or the
// registry (a command looks the game up and hands it over).
func TestImportsNoGame(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			switch {
			case path == "starlab/search/dice", path == "starlab/search/games", strings.HasPrefix(path, "starlab/search/engine"),
				strings.HasPrefix(path, "starlab/search/game/") && path != "starlab/search/game":
				t.Errorf("%s imports %s", name, path)
			}
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no source files found")
	}
}
