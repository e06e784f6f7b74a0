//go:build integration

package main

import (
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"starlab/outside/gnubg"
	"starlab/search/backgammon"
	"starlab/search/game"
	"starlab/selfplay"
)

// importScript is a gnubg Python script: it imports every match file of
// the folder MATDIR names and prints, as one JSON line after "RESULT ",
// each game's winner ("X" is the file's first player), its points, its
// plays and its last position (gnubg.board(): each side's 25 points, its
// bar last). Without the Jacoby rule, which a match file does not record,
// a gammon counts in a money session.
const importScript = `import glob, json, os
gnubg.command("set jacoby off")
out = []
for f in sorted(glob.glob(os.environ["MATDIR"] + "/*.mat")):
    gnubg.command("import mat " + f)
    games = gnubg.match(0, 0, 0, 0)["games"]
    for gi, g in enumerate(games):
        gnubg.command("first game")
        for _ in range(gi):
            gnubg.command("next game")
        gnubg.command("next 9999")
        b = gnubg.board()
        out.append({"winner": g["info"]["winner"], "points": g["info"]["points-won"],
                    "plays": sum(1 for r in g["game"] if r.get("action") == "move"),
                    "board": sorted([list(b[0]), list(b[1])])})
print("RESULT " + json.dumps(out))
`

// gnubgGame is what importScript prints of a game.
type gnubgGame struct {
	Winner string    `json:"winner"`
	Points int       `json:"points"`
	Plays  int       `json:"plays"`
	Board  [][25]int `json:"board"`
}

// TestExportOpensInGnubg exports a 10-game 1pt match against gnubg 0-ply
// and a 4-game money match, imports the files into gnubg (import mat) and
// checks that gnubg's replay of every game reaches starlab's last
// position, winner and points with the same number of plays.
func TestExportOpensInGnubg(t *testing.T) {
	program, err := (&gnubg.Spec{}).Program()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		variant string
		games   int
		b       string
	}{{"1pt", 10, "gnubg:plies=0,noise=0"}, {"money", 4, "staretc:depth=1,eval=race"}} {
		match := filepath.Join(t.TempDir(), "match")
		if code, _, stderr := runMatch(t, "-game", "backgammon", "-variant", c.variant, "-games", strconv.Itoa(c.games), "-luck", "none",
			"-out", match, "staretc:depth=1", c.b); code != 0 {
			t.Fatalf("%s: match: exit %d: %s", c.variant, code, stderr)
		}
		out := filepath.Join(t.TempDir(), "export")
		if code, _, stderr := runCmd(t, "export", "-out", out, match); code != 0 {
			t.Fatalf("%s: export: exit %d: %s", c.variant, code, stderr)
		}
		script := filepath.Join(t.TempDir(), "import.py")
		if err := os.WriteFile(script, []byte(importScript), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(program, "-t", "-q", "-r", "-p", script)
		cmd.Env = append(os.Environ(), "MATDIR="+out)
		text, err := cmd.CombinedOutput()
		_, line, ok := strings.Cut(string(text), "RESULT ")
		var got []gnubgGame
		if err != nil || !ok || json.Unmarshal([]byte(strings.TrimSpace(line)), &got) != nil {
			t.Fatalf("%s: gnubg: %v\n%s", c.variant, err, text)
		}
		want := starlabGames(t, match)
		if len(got) != len(want) {
			t.Fatalf("%s: gnubg read %d games, the match has %d", c.variant, len(got), len(want))
		}
		for i := range want {
			if !slices.Equal(got[i].Board, want[i].Board) || got[i].Winner != want[i].Winner || got[i].Points != want[i].Points || got[i].Plays != want[i].Plays {
				t.Errorf("%s game %d: gnubg %+v, starlab %+v", c.variant, i+1, got[i], want[i])
			}
		}
	}
}

// starlabGames replays the games of the match run in dir from its journal,
// in the order export writes them (by pair, each pair's two games in
// order), and returns each as importScript prints gnubg's: the first
// engine is gnubg's X.
func starlabGames(t *testing.T, dir string) []gnubgGame {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, selfplay.MatchJournal))
	if err != nil {
		t.Fatal(err)
	}
	var recs []selfplay.MatchRecord
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n")[1:] {
		var r selfplay.MatchRecord
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r)
	}
	slices.SortFunc(recs, func(a, b selfplay.MatchRecord) int { return a.Pair.Index - b.Pair.Index })
	var games []gnubgGame
	for _, r := range recs {
		for _, g := range r.Pair.Games {
			games = append(games, replayGame(t, g))
		}
	}
	return games
}

// replayGame plays a recorded game through backgammon's rules and returns
// its winner (X the first engine, engine A), points, plays and last board.
func replayGame(t *testing.T, g selfplay.PairGame) gnubgGame {
	t.Helper()
	b, err := backgammon.Parse(g.Game.Start)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range g.Game.Actions {
		if b.Rolled() {
			b.Play(game.Move(a))
		} else {
			b.Happen(game.Event{ID: uint16(a)})
		}
	}
	// gnubg records what the end is worth by its checkers, a gammon 2 in
	// a one-point match too: the points of the same board in money play.
	end, err := backgammon.NewBoard(backgammon.Money, b.SideToMove(), *b.Side(b.SideToMove()), *b.Side(1 - b.SideToMove()), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	winner, points := end.Winning()
	var out gnubgGame
	out.Winner, out.Points, out.Plays = "O", points, g.Game.Plies
	if (winner == 0) == g.AIsBlue {
		out.Winner = "X"
	}
	for s := range 2 {
		var side [25]int
		for i := range 24 {
			side[i] = int(b.Side(s)[i+1])
		}
		side[24] = int(b.Side(s)[backgammon.Bar])
		out.Board = append(out.Board, side)
	}
	slices.SortFunc(out.Board, func(x, y [25]int) int { return slices.Compare(x[:], y[:]) })
	return out
}

// analyzeGnubgMatch plays a 10-game 1pt match of starlab's depth-1 net
// against gnubg 0-ply and returns its analysis by judge.
func analyzeGnubgMatch(t *testing.T, judge string) selfplay.AnalyzeResult {
	t.Helper()
	match := filepath.Join(t.TempDir(), "match")
	if code, _, stderr := runMatch(t, "-game", "backgammon", "-games", "10", "-luck", "none", "-out", match, "staretc:depth=1", "gnubg:plies=0,noise=0"); code != 0 {
		t.Fatalf("match: exit %d: %s", code, stderr)
	}
	out := filepath.Join(t.TempDir(), "analyze")
	if code, _, stderr := runCmd(t, "analyze", "-judge", judge, "-out", out, match); code != 0 {
		t.Fatalf("analyze: exit %d: %s", code, stderr)
	}
	var res selfplay.AnalyzeResult
	readJSONFile(t, filepath.Join(out, selfplay.SummaryFile), &res)
	return res
}

// TestAnalyzeGnubgJudge judges a 10-game 1pt match against gnubg 0-ply by
// gnubg 0-ply: gnubg's own decisions lose next to nothing (its values
// reach starlab rounded to six decimals), and starlab's depth-1 net loses
// more.
func TestAnalyzeGnubgJudge(t *testing.T) {
	res := analyzeGnubgMatch(t, "gnubg:plies=0")
	a, b := res.Sides[0], res.Sides[1]
	if res.Games != 10 || b.Decisions == 0 || !(b.MeanLoss < 0.001) || !(a.MeanLoss > b.MeanLoss) {
		t.Errorf("judged by gnubg 0-ply: starlab %+v, gnubg %+v", a, b)
	}
}

// hintScript is a gnubg Python script: for each position of the JSON file
// CASES names ("POSITIONID SIDE DICE"), gnubg's hint, every legal play
// with its cubeless 2-ply equity in a one-point match: no pruning, and
// move filters that pass every play to 2-ply, so that every play is
// valued as analyze's judge values it.
const hintScript = `import json, os
cases = json.load(open(os.environ["CASES"]))
gnubg.command("set cube use off")
gnubg.command("set evaluation chequerplay evaluation plies 2")
gnubg.command("set evaluation chequerplay evaluation cubeful off")
gnubg.command("set evaluation chequerplay evaluation prune off")
gnubg.command("set evaluation movefilter 2 0 0 9999 1000")
gnubg.command("set evaluation movefilter 2 1 0 9999 1000")
gnubg.command("new match 1")
out = []
for c in cases:
    posid, side, dice = c["position"].split()[:3]
    gnubg.command("set board " + posid)
    gnubg.command("set dice %s %s" % (dice[0], dice[1]))
    out.append([[m["move"], m["equity"]] for m in gnubg.hint(5000)["hint"]])
print("RESULT " + json.dumps(out))
`

// TestAnalyzeAgreesWithGnubgHint recomputes, independently of starlab's
// valuing, the losses analyze -judge gnubg:plies=2 gives the worst
// decisions of both sides of a 10-game match against gnubg 0-ply: gnubg's
// own hint lists every legal play of each position with its 2-ply equity,
// and the best's less the chosen's must be starlab's loss (to 1e-4:
// starlab reads gnubg's probabilities to six decimals), the chosen play
// written as gnubg writes it.
func TestAnalyzeAgreesWithGnubgHint(t *testing.T) {
	program, err := (&gnubg.Spec{}).Program()
	if err != nil {
		t.Fatal(err)
	}
	res := analyzeGnubgMatch(t, "gnubg:plies=2")
	cases := append(slices.Clone(res.Sides[0].Worst), res.Sides[1].Worst...)
	if len(cases) < 15 {
		t.Fatalf("%d decisions with a loss, want 15 or more", len(cases))
	}
	dir := t.TempDir()
	data, _ := json.Marshal(cases)
	if err := os.WriteFile(filepath.Join(dir, "cases.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "hint.py"), []byte(hintScript), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(program, "-t", "-q", "-r", "-p", filepath.Join(dir, "hint.py"))
	cmd.Env = append(os.Environ(), "CASES="+filepath.Join(dir, "cases.json"))
	text, err := cmd.CombinedOutput()
	_, line, ok := strings.Cut(string(text), "RESULT ")
	var hints [][][2]any
	if err != nil || !ok || json.Unmarshal([]byte(strings.TrimSpace(line)), &hints) != nil || len(hints) != len(cases) {
		t.Fatalf("gnubg: %v\n%s", err, text)
	}
	for i, c := range cases {
		best, chosen := math.Inf(-1), math.NaN()
		for _, h := range hints[i] {
			eq := h[1].(float64)
			best = max(best, eq)
			if h[0].(string) == c.Chosen {
				chosen = eq
			}
		}
		if loss := best - chosen; !(math.Abs(loss-c.Loss) < 1e-4) {
			t.Errorf("%s, played %s: gnubg's hint gives a loss of %.6f, analyze %.6f", c.Position, c.Chosen, loss, c.Loss)
		}
	}
}
