package main

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"starlab/runs"
	"starlab/selfplay"
)

func runMatch(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return runCmd(t, append([]string{"match"}, args...)...)
}

// matchJSON is the part of the -json summary the tests compare; timings
// are left out since they differ from run to run.
type matchJSON struct {
	Games, Wins, Draws, Losses int
	Score                      float64 `json:"score"`
	ScoreCI95                  float64 `json:"score_ci95"`
	Elo                        float64
	EloCI95                    runs.Num `json:"elo_ci95"`
	LOSGames                   float64  `json:"los_games"`
	Pentanomial                [5]int
	ScoreCI95Pairs             float64 `json:"score_ci95_pairs"`
	LuckScore                  float64 `json:"luck_score"`
	LuckCI95                   float64 `json:"luck_ci95"`
	GamesPerS                  float64 `json:"games_per_s"`
	LLR                        float64
}

func decodeMatch(t *testing.T, stdout string) matchJSON {
	t.Helper()
	var m matchJSON
	if err := json.Unmarshal([]byte(stdout), &m); err != nil {
		t.Fatalf("summary %q: %v", stdout, err)
	}
	m.GamesPerS = 0
	return m
}

var matchArgs = []string{"staretc:depth=3", "star2:depth=1", "-games", "40", "-seed", "7", "-json"}

func TestMatchJSONAndParquet(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "m")
	code, stdout, stderr := runMatch(t, append(matchArgs, "-out", dir, "-concurrency", "2")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	m := decodeMatch(t, stdout)
	if m.Games != 40 || m.Wins+m.Draws+m.Losses != 40 || m.Pentanomial[0]+m.Pentanomial[1]+m.Pentanomial[2]+m.Pentanomial[3]+m.Pentanomial[4] != 20 {
		t.Fatalf("counts: %+v", m)
	}
	if m.EloCI95 <= 0 || m.ScoreCI95 <= 0 || m.LuckCI95 <= 0 {
		t.Fatalf("missing statistics: %+v", m)
	}
	// One worker gives the same games.
	code, stdout1, stderr := runMatch(t, append(matchArgs, "-out", filepath.Join(t.TempDir(), "m1"), "-concurrency", "1")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if m1 := decodeMatch(t, stdout1); m1 != m {
		t.Fatalf("1 worker %+v\n2 workers %+v", m1, m)
	}
	rows, err := parquet.ReadFile[selfplay.GameRow](filepath.Join(dir, "games.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 40 {
		t.Fatalf("games.parquet has %d rows, want 40", len(rows))
	}
	wins := 0
	for _, r := range rows {
		if r.ScoreA == 1 {
			wins++
		}
		if r.Plies == 0 || len(strings.Fields(r.Moves)) != int(r.Plies) || len(strings.Fields(r.Rolls)) != int(r.Plies) {
			t.Fatalf("row %+v: moves and rolls do not match plies", r)
		}
	}
	if wins != m.Wins {
		t.Fatalf("parquet has %d wins for A, summary %d", wins, m.Wins)
	}
	man, err := runs.Open(dir)
	if err != nil || man.Manifest().Status != runs.StatusDone {
		t.Fatalf("manifest: %v %v", err, man.Manifest().Status)
	}
}

// TestMatchKilledAndResumed kills a match process with SIGKILL half-way,
// resumes it, and checks the statistics equal an uninterrupted run's.
func TestMatchKilledAndResumed(t *testing.T) {
	args := []string{"staretc:depth=5", "staretc:depth=1", "-games", "600", "-seed", "3", "-json", "-concurrency", "2"}
	code, want, stderr := runMatch(t, append(args, "-out", filepath.Join(t.TempDir(), "ref"))...)
	if code != 0 {
		t.Fatalf("reference run: exit %d: %s", code, stderr)
	}
	dir := filepath.Join(t.TempDir(), "killed")
	journal := filepath.Join(dir, "pairs.jsonl")
	killWhen(t, append([]string{"match"}, append(args, "-out", dir)...), "30 journalled pairs", func() bool {
		return countLines(journal)-1 >= 30 // the first line is the header
	})
	done := countLines(journal) - 1
	if done >= 300 {
		t.Skip("the child finished before it was killed; nothing to resume")
	}
	r, err := runs.Open(dir)
	if err != nil || r.Manifest().Status != runs.StatusRunning {
		t.Fatalf("killed run: %v, status %v", err, r.Manifest().Status)
	}
	code, got, stderr := runMatch(t, "-resume", dir, "-json")
	if code != 0 {
		t.Fatalf("resume: exit %d: %s", code, stderr)
	}
	if g, w := decodeMatch(t, got), decodeMatch(t, want); g != w {
		t.Fatalf("killed after %d pairs and resumed: %+v\nuninterrupted: %+v", done, g, w)
	}
	if n := countLines(journal) - 1; n != 300 {
		t.Fatalf("journal has %d pairs after the resume, want 300 (none twice)", n)
	}
}

func countLines(path string) int {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		n++
	}
	return n
}

func TestMatchTournament(t *testing.T) {
	code, stdout, stderr := runMatch(t, "staretc:depth=3", "star1:depth=3", "expectimax:depth=1", "-games", "10", "-out", filepath.Join(t.TempDir(), "t"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"cross table", "ranking", "staretc:depth=3,eval=mlp vs star1:depth=3,eval=mlp", "star1:depth=3,eval=mlp vs expectimax:depth=1,eval=mlp"} {
		if !strings.Contains(stdout, want) {
			t.Fatalf("tournament output lacks %q:\n%s", want, stdout)
		}
	}
}

// TestMatchSPRTStops: the SPRT stops on H1 for a clearly stronger side, at
// the same pair whatever the number of workers.
func TestMatchSPRTStops(t *testing.T) {
	var first matchJSON
	for i, workers := range []string{"1", "2"} {
		code, stdout, stderr := runMatch(t, "staretc:depth=5", "staretc:depth=1", "-games", "4000", "-sprt", "0,20,0.05,0.05",
			"-concurrency", workers, "-out", filepath.Join(t.TempDir(), "s"), "-json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		m := decodeMatch(t, stdout)
		if m.LLR < 2.94 || m.Games >= 4000 {
			t.Fatalf("SPRT did not stop on H1: %+v", m)
		}
		if i == 0 {
			first = m
		} else if m != first {
			t.Fatalf("SPRT stop differs with %s workers: %+v vs %+v", workers, m, first)
		}
	}
}

func TestMatchBadInput(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"staretc:depth=3"}, 2, "two variants"},
		{[]string{"staretc:depth=3", "staretc:speed=3"}, 2, "unknown key \"speed\""},
		{[]string{"staretc:depth=3", "bogus:depth=3"}, 2, "unknown algorithm"},
		{[]string{"staretc:depth=3", "staretc"}, 2, "no limit"},
		{[]string{"staretc:depth=3", "staretc:depth=4"}, 2, "ends on a chance ply"},
		{[]string{"staretc:depth=3", "cpc:depth=3,cpcmin=9,cpcmax=3"}, 2, "above cpcmax"},
		{[]string{"staretc:depth=3", "staretc:depth=1,t=1"}, 2, "does not read t"},
		{[]string{"staretc:depth=3", "cpc:depth=3,r=4"}, 2, "(want cpc:depth=3,multi=0,r=4)"},
		{[]string{"staretc:depth=3", "star1:depth=3", "-games", "7"}, 2, "even"},
		{[]string{"staretc:depth=3", "star1:depth=3", "-concurrency", "100000"}, 2, "-concurrency"},
		{[]string{"staretc:depth=3", "star1:depth=3", "-suite", filepath.Join(dir, "missing.suite")}, 2, "suite"},
		{[]string{"staretc:depth=3", "star1:depth=3", "-game", "chess"}, 2, `-game: game "chess" is unknown`},
		{[]string{"staretc:depth=3", "star1:depth=3", "-n", "7", "-suite", "../../search/dice/suites/dice5x5-4.suite"}, 2, "is of variant 5x5-4, the match's is 7x7-4"},
		{[]string{"staretc:depth=3", "star1:depth=3", "-n", "2"}, 2, "-n 2 -m 4: board size 2"},
		{[]string{"staretc:depth=3", "star1:depth=3", "-sprt", "0,5,0.05"}, 2, "sprt"},
		{[]string{"staretc:depth=3", "star1:depth=3", "-luck", "staretc:movetime=10ms"}, 2, "luck"},
		{[]string{"staretc:depth=3", "star1:depth=3", "-luck", "star1:depth=3"}, 2, "one of the variants"},
		{[]string{"staretc:tt=1,depth=3,eval=pairs", "star1:depth=3", "-luck", "staretc:depth=3,eval=pairs,tt=1"}, 2, "one of the variants"},
		{[]string{"staretc:depth=3", "star1:depth=3", "-shard", "4/4"}, 2, "-shard"},
		{[]string{"-resume", filepath.Join(dir, "nothing")}, 2, "does not exist"},
		{[]string{"-resume", filepath.Join(dir, "nothing"), "-games", "10"}, 2, "cannot change"},
	}
	for _, c := range cases {
		code, stdout, stderr := runMatch(t, c.args...)
		if code != c.code || stdout != "" || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d mentioning %q", c.args, code, stdout, stderr, c.code, c.want)
		}
		if lines := strings.Count(strings.TrimSpace(stderr), "\n") + 1; lines != 1 {
			t.Errorf("%v: %d lines on stderr, want 1", c.args, lines)
		}
	}
}

// TestMatchTwoGamesExits0: the smallest match, one pair, succeeds.
func TestMatchTwoGamesExits0(t *testing.T) {
	code, stdout, stderr := runMatch(t, "staretc:depth=3", "staretc:depth=1", "-games", "2", "-json", "-out", filepath.Join(t.TempDir(), "m"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if m := decodeMatch(t, stdout); m.Games != 2 {
		t.Fatalf("games %d", m.Games)
	}
}

// TestMatchLuckNoneIsNull: without a luck reference the luck figures are
// null, not 0.
func TestMatchLuckNoneIsNull(t *testing.T) {
	code, stdout, stderr := runMatch(t, "staretc:depth=3", "staretc:depth=1", "-games", "4", "-luck", "none", "-json", "-out", filepath.Join(t.TempDir(), "m"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(stdout), &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"luck_score", "luck_ci95", "var_ratio_luck"} {
		if v, ok := m[k]; !ok || v != nil {
			t.Errorf("%s = %v, want null", k, v)
		}
	}
}

// TestMatchCtrlCReachesSearch: a cancelled context stops a match whose
// variants think for a second per move without waiting for the move, and
// the run can be resumed.
func TestMatchCtrlCReachesSearch(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	dir := filepath.Join(t.TempDir(), "m")
	var stopped time.Time
	go func() {
		time.Sleep(300 * time.Millisecond)
		stopped = time.Now()
		cancel()
	}()
	code, _, stderr := runCtx(t, ctx, "match", "staretc:movetime=1s", "staretc:movetime=1s", "-games", "2", "-luck", "none", "-concurrency", "1", "-out", dir)
	took := time.Since(stopped)
	if code != 1 || !strings.Contains(stderr, "-resume "+dir) {
		t.Fatalf("exit %d, stderr %q; want 1 and how to resume", code, stderr)
	}
	// Generous for a loaded machine; the point is that the search in
	// progress (a second per move) is cut short.
	if took > 900*time.Millisecond {
		t.Errorf("the match took %v to stop after the cancel", took)
	}
	r, err := runs.Open(dir)
	if err != nil || r.Manifest().Error != runs.Interrupted {
		t.Fatalf("manifest after Ctrl-C: %v %+v", err, r.Manifest())
	}
}
