//go:build integration

package main

import (
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"starlab/outside/gnubg"
	"starlab/runs"
	"starlab/selfplay"
)

// TestOutsideGnubg plays 20 1pt games and 10 money games against gnubg
// 0-ply (Debian's, which .ci/run installs) through match: every gnubg
// play is accepted by starlab's rules (no forfeit), and every game is in
// games.parquet, replayed through the rules when the journal was read.
func TestOutsideGnubg(t *testing.T) {
	if _, err := (&gnubg.Spec{}).Program(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		variant string
		games   int
	}{{"1pt", 20}, {"money", 10}} {
		dir := filepath.Join(t.TempDir(), c.variant)
		code, _, stderr := runMatch(t, "-game", "backgammon", "-variant", c.variant, "-games", strconv.Itoa(c.games), "-concurrency", "2",
			"-out", dir, "staretc:depth=1", "gnubg:plies=0,noise=0")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.variant, code, stderr)
		}
		var rep selfplay.MatchReport
		readJSONFile(t, filepath.Join(dir, selfplay.SummaryFile), &rep)
		s := rep.Pairings[0]
		if s.Games != c.games || s.Forfeits != nil || s.Wins+s.Losses != c.games {
			t.Errorf("%s: %d games, W/L %d/%d, forfeits %+v; want %d games and no forfeit", c.variant, s.Games, s.Wins, s.Losses, s.Forfeits, c.games)
		}
		if (c.variant == "money") != (s.Points != nil) {
			t.Errorf("%s: points %+v", c.variant, s.Points)
		}
		rows, err := runs.ReadParquet[selfplay.GameRow](filepath.Join(dir, selfplay.GamesFile), selfplay.MatchFormat)
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != c.games {
			t.Fatalf("%s: games.parquet has %d rows, want %d", c.variant, len(rows), c.games)
		}
		for _, r := range rows {
			if r.Forfeit != "" || r.VariantB != "gnubg:plies=0,noise=0" || r.Moves == "" {
				t.Errorf("%s: row %+v", c.variant, r)
			}
		}
		if c.variant != "1pt" {
			continue
		}
		// The same match as two shards, merged, reports the same.
		var shards []string
		for i := range 2 {
			sd := filepath.Join(t.TempDir(), "shard")
			if code, _, stderr := runMatch(t, "-game", "backgammon", "-games", "20", "-concurrency", "1", "-shard", strconv.Itoa(i)+"/2",
				"-out", sd, "staretc:depth=1", "gnubg:plies=0,noise=0"); code != 0 {
				t.Fatalf("shard %d/2: exit %d: %s", i, code, stderr)
			}
			shards = append(shards, sd)
		}
		merged := filepath.Join(t.TempDir(), "merged")
		if code, _, stderr := runCmd(t, append([]string{"merge", "-out", merged}, shards...)...); code != 0 {
			t.Fatalf("merge: exit %d: %s", code, stderr)
		}
		var m selfplay.MatchReport
		readJSONFile(t, filepath.Join(merged, selfplay.SummaryFile), &m)
		ms := m.Pairings[0]
		if ms.Pentanomial != s.Pentanomial || ms.Wins != s.Wins || ms.LuckScore != s.LuckScore || ms.MeanPlies != s.MeanPlies {
			t.Errorf("merged shards: pentanomial %v, wins %d, luck %v, plies %v; unsharded %v, %d, %v, %v",
				ms.Pentanomial, ms.Wins, ms.LuckScore, ms.MeanPlies, s.Pentanomial, s.Wins, s.LuckScore, s.MeanPlies)
		}
	}
}

// TestGnubgLuckReference values the rolls of a match between starlab's
// own engines with gnubg's evaluation: every game has a finite luck and the
// luck-adjusted score is reported.
func TestGnubgLuckReference(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "luck")
	code, _, stderr := runMatch(t, "-game", "backgammon", "-games", "10", "-concurrency", "2", "-luck", "gnubg:plies=0",
		"-out", dir, "staretc:depth=3", "staretc:depth=1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep selfplay.MatchReport
	readJSONFile(t, filepath.Join(dir, selfplay.SummaryFile), &rep)
	if s := rep.Pairings[0]; !s.Luck || math.IsNaN(float64(s.LuckScore)) || rep.Settings.Luck != "gnubg:plies=0,noise=0" {
		t.Errorf("luck %v, luck-adjusted score %v, reference %q", s.Luck, s.LuckScore, rep.Settings.Luck)
	}
	rows, err := runs.ReadParquet[selfplay.GameRow](filepath.Join(dir, selfplay.GamesFile), selfplay.MatchFormat)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.Luck == 0 || math.IsNaN(r.Luck) || math.Abs(r.Luck) > 30 {
			t.Errorf("game %d/%d: luck %v", r.Pair, r.Round, r.Luck)
		}
	}
}

// TestOutsidePython runs the commands of docs/outside-engines.md that
// play the Python reference engine, examples/ext/random_engine.py, in Dice
// and in Backgammon (python3, which .ci/run installs), from the
// repository's root as the page says: each finishes without a forfeit.
func TestOutsidePython(t *testing.T) {
	var cmds []string
	for cmd := range docSessions(t, "docs/outside-engines.md") {
		if strings.HasPrefix(cmd, "match ") && strings.Contains(cmd, "random_engine.py") {
			cmds = append(cmds, cmd)
		}
	}
	games := map[string]bool{}
	t.Chdir("../..")
	for _, cmd := range cmds {
		args := shellWords(cmd)
		game := "dice"
		for i, a := range args {
			if a == "-game" && i+1 < len(args) {
				game = args[i+1]
			}
		}
		games[game] = true
		dir := filepath.Join(t.TempDir(), game)
		code, _, stderr := runCmd(t, append(args, "-out", dir)...)
		if code != 0 {
			t.Fatalf("starlab %s: exit %d: %s", cmd, code, stderr)
		}
		var rep selfplay.MatchReport
		readJSONFile(t, filepath.Join(dir, selfplay.SummaryFile), &rep)
		if s := rep.Pairings[0]; s.Forfeits != nil || s.Games == 0 {
			t.Errorf("starlab %s: %d games, forfeits %+v", cmd, s.Games, s.Forfeits)
		}
	}
	if !games["dice"] || !games["backgammon"] {
		t.Errorf("docs/outside-engines.md plays the Python engine in %v; want dice and backgammon", games)
	}
}

// shellWords splits a command line as sh does for the commands of
// docs/outside-engines.md: words separated by spaces, single quotes kept together.
func shellWords(s string) []string {
	var out []string
	var w strings.Builder
	in, quoted := false, false
	for _, r := range s {
		switch {
		case r == '\'':
			quoted, in = !quoted, true
		case r == ' ' && !quoted:
			if in {
				out = append(out, w.String())
				w.Reset()
				in = false
			}
		default:
			w.WriteRune(r)
			in = true
		}
	}
	if in {
		out = append(out, w.String())
	}
	return out
}
