package selfplay

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"starlab/runs"
	"starlab/search"
	"starlab/search/dice"
	diceengine "starlab/search/engine/dice"
)

// TestEnginesFromOneResolvedConfig: engines built from one resolved
// configuration in two goroutines search independently (run under -race)
// and find what one engine finds alone.
func TestEnginesFromOneResolvedConfig(t *testing.T) {
	v, err := ParseEngine(diceGame, "staretc:depth=7,tt=1")
	if err != nil {
		t.Fatal(err)
	}
	ps, err := search.ReadSuite(diceGame, "../search/dice/suites/dice5x5-4.suite")
	if err != nil {
		t.Fatal(err)
	}
	ps = ps[:20]
	alone := make([]float64, len(ps))
	e := diceengine.New(v.Resolved)
	for i, p := range ps {
		e.ClearTT()
		alone[i] = e.Search(context.Background(), p.Pos.(*dice.Board), v.Spec.Limits, nil).Last().Score
	}
	var wg sync.WaitGroup
	got := make([][]float64, 2)
	for g := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e := diceengine.New(v.Resolved)
			for _, p := range ps {
				e.ClearTT()
				got[g] = append(got[g], e.Search(context.Background(), p.Pos.(*dice.Board), v.Spec.Limits, nil).Last().Score)
			}
		}()
	}
	wg.Wait()
	for g := range got {
		if !slices.Equal(got[g], alone) {
			t.Fatalf("goroutine %d found %v, one engine alone %v", g, got[g], alone)
		}
	}
}

func matchSettings(variants ...string) MatchSettings {
	s := DefaultMatchSettings(diceGame, variants...)
	s.Games, s.Seed, s.Concurrency = 24, 5, 2
	s.Luck = "staretc:depth=1,eval=pairs,tt=1"
	return s
}

// sameReport compares two reports but for their times and directories.
func sameReport(t *testing.T, a, b *MatchReport) {
	t.Helper()
	strip := func(r *MatchReport) MatchReport {
		c := *r
		c.Run = ""
		c.Pairings = slices.Clone(r.Pairings)
		for i := range c.Pairings {
			c.Pairings[i].Seconds, c.Pairings[i].GamesPerSec = 0, 0
			c.Pairings[i].MsPerMoveA, c.Pairings[i].MsPerMoveB = 0, 0
		}
		return c
	}
	x, _ := json.Marshal(strip(a)) // JSON: undefined figures (NaN) compare equal as null
	y, _ := json.Marshal(strip(b))
	if string(x) != string(y) {
		t.Fatalf("reports differ:\n%s\n%s", x, y)
	}
}

// wholeMatch runs set uninterrupted in root/whole and returns the run's
// directory and its report.
func wholeMatch(t *testing.T, set MatchSettings, root string) (string, *MatchReport) {
	t.Helper()
	run, err := runs.CreateAt(filepath.Join(root, "whole"), "match", nil, nil, 5)
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	rep, err := RunMatch(context.Background(), set, run, runs.NoProgress)
	if err != nil {
		t.Fatal(err)
	}
	return run.Dir(), rep
}

// interruptedMatch runs set in root/cut, cancels it once after games
// are done, resumes it to its end and returns the run's directory and its
// report.
func interruptedMatch(t *testing.T, set MatchSettings, root string, after int64) (string, *MatchReport) {
	t.Helper()
	run, err := runs.CreateAt(filepath.Join(root, "cut"), "match", nil, nil, 5)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	_, err = RunMatch(ctx, set, run, func(done, total int64, _ string) {
		if done >= after {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted match returned %v, want context.Canceled", err)
	}
	if err := run.Finish(err); err != nil {
		t.Fatal(err)
	}
	again, err := runs.Open(run.Dir())
	if err != nil {
		t.Fatal(err)
	}
	if err := again.Resume(); err != nil {
		t.Fatal(err)
	}
	got, err := RunMatch(context.Background(), set, again, runs.NoProgress)
	if err != nil {
		t.Fatal(err)
	}
	again.Close()
	return again.Dir(), got
}

// TestRunMatchInterruptedResumes: the match stage, called from Go, stopped
// by a cancelled context after a few pairs and run again on the same run
// directory, ends with the report and rows of an uninterrupted run.
func TestRunMatchInterruptedResumes(t *testing.T) {
	variants := []string{"staretc:depth=3", "star2:depth=1", "star1:depth=1"}
	root := t.TempDir()
	whole, want := wholeMatch(t, matchSettings(variants...), root)
	if len(want.Ranking) != 3 || want.Pairings[0].Games != 24 {
		t.Fatalf("tournament report: %+v", want)
	}

	dir, got := interruptedMatch(t, matchSettings(variants...), root, 20)
	sameReport(t, want, got)
	wantRows, err := runs.ReadParquet[GameRow](filepath.Join(whole, GamesFile), MatchFormat)
	if err != nil {
		t.Fatal(err)
	}
	gotRows, err := runs.ReadParquet[GameRow](filepath.Join(dir, GamesFile), MatchFormat)
	if err != nil {
		t.Fatal(err)
	}
	for i := range wantRows {
		wantRows[i].TimeMSBlue, wantRows[i].TimeMSRed, gotRows[i].TimeMSBlue, gotRows[i].TimeMSRed = 0, 0, 0, 0
	}
	if !reflect.DeepEqual(wantRows, gotRows) {
		t.Fatal("games.parquet of the resumed run differs from the uninterrupted one")
	}
}

// TestRankingPairingsHaveOwnDice: pairing 0 keeps the dice two-variant
// matches always had, and other pairings get dice of their own, so a
// variant's results against different opponents are independent.
func TestRankingPairingsHaveOwnDice(t *testing.T) {
	// The seeds of two-variant matches before pairings had dice of their
	// own: splitmix64 of seed and pair index.
	old := func(seed uint64, i int) uint64 {
		z := seed*0x9e3779b97f4a7c15 + uint64(i+1)*0xbf58476d1ce4e5b9
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		return z ^ (z >> 31)
	}
	for i := 0; i < 100; i++ {
		if PairSeed(3, 0, i) != old(3, i) {
			t.Fatalf("pairing 0 pair %d: seed changed", i)
		}
	}
	seen := map[uint64]bool{}
	for p := 0; p < 4; p++ {
		for i := 0; i < 100; i++ {
			s := PairSeed(3, p, i)
			if seen[s] {
				t.Fatalf("pairing %d pair %d repeats a seed", p, i)
			}
			seen[s] = true
		}
	}
}

// TestMatchTwoGames: the smallest match, one pair, has finite statistics
// everywhere JSON needs them (it once failed on an infinite interval).
func TestMatchTwoGames(t *testing.T) {
	run, err := runs.CreateAt(filepath.Join(t.TempDir(), "m"), "match", nil, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	s := matchSettings("staretc:depth=3", "staretc:depth=1")
	s.Games = 2
	rep, err := RunMatch(context.Background(), s, run, runs.NoProgress)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Pairings[0].Games != 2 {
		t.Fatalf("games %d", rep.Pairings[0].Games)
	}
}

// TestSampleSuiteUnchanged: the default suite (starlab gen) is the one
// the loop written for Dice sampled, byte for byte: the value players'
// choices, the dice and the sampling draws are unchanged by the game
// contract.
func TestSampleSuiteUnchanged(t *testing.T) {
	lines, err := SampleSuite(context.Background(), DefaultSampleSettings(diceGame), runs.NoProgress)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(strings.Join(lines, "\n") + "\n"))
	if got, want := hex.EncodeToString(sum[:]), "93f341895ecfd9aab30d5c89116b16c143db3e6de4b154d124b54f6f5f7e59f0"; got != want {
		t.Fatalf("the default suite has sha256 %s, want %s; its first line %q", got, want, lines[0])
	}
}

// TestSampleSuite: suite sampling, called from Go, is a function of its
// settings and draws what they ask for.
func TestSampleSuite(t *testing.T) {
	s := DefaultSampleSettings(diceGame)
	s.Count, s.Min, s.Max, s.Seed = 12, 4, 9, 7
	a, err := SampleSuite(context.Background(), s, runs.NoProgress)
	if err != nil {
		t.Fatal(err)
	}
	b, err := SampleSuite(context.Background(), s, runs.NoProgress)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a, b) || len(a) != 12 {
		t.Fatalf("two samples differ or have the wrong size: %d, %d", len(a), len(b))
	}
	for _, line := range a {
		p, err := dice.ParseDPN(line)
		if err != nil {
			t.Fatal(err)
		}
		if c := p.Checkers(); c < 4 || c > 9 {
			t.Fatalf("%q has %d checkers, want 4 to 9", line, c)
		}
	}
	s.Rolled = -1
	if _, err := SampleSuite(context.Background(), s, runs.NoProgress); err == nil {
		t.Fatal("rolled -1 accepted")
	}
}

// TestSamplePlayer: -player plays the games by another engine, at its
// depth: naming the default players' engine gives the default suite, the
// built-in net's engine another one, and a spec without a depth, or with
// a time limit, is refused.
func TestSamplePlayer(t *testing.T) {
	s := DefaultSampleSettings(diceGame)
	s.Count, s.Seed = 12, 7
	want, err := SampleSuite(context.Background(), s, runs.NoProgress)
	if err != nil {
		t.Fatal(err)
	}
	same := s
	same.Player, same.Depth = "staretc:depth=3,eval=pairs,tt=4", 1
	got, err := SampleSuite(context.Background(), same, runs.NoProgress)
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("-player naming the default engine: %v, %d lines, want the default suite", err, len(got))
	}
	net := s
	net.Player = "staretc:depth=3,eval=mlp"
	other, err := SampleSuite(context.Background(), net, runs.NoProgress)
	if err != nil || len(other) != 12 || slices.Equal(other, want) {
		t.Fatalf("-player with the net: %v, %d lines, the same as the default's: %v", err, len(other), slices.Equal(other, want))
	}
	for _, bad := range []string{"staretc:movetime=10ms", "staretc:depth=3,nodes=1000", "staretc:depth=3,eval=nope"} {
		b := s
		b.Player = bad
		if _, err := SampleSuite(context.Background(), b, runs.NoProgress); err == nil || !strings.Contains(err.Error(), "-player") {
			t.Errorf("-player %s: %v, want an error naming -player", bad, err)
		}
	}
}
