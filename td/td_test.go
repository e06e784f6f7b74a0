package td

import (
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"starlab/nn"
	"starlab/runs"
	"starlab/search"
	"starlab/search/game"
	"starlab/search/games"
)

func small() Settings {
	s := DefaultSettings(diceGame())
	s.Games, s.CheckpointEvery, s.MeasureEvery, s.MeasureGames, s.Batch = 600, 200, 300, 20, 4
	return s
}

func train(t *testing.T, s Settings, dir string, progress runs.Progress) (*Result, error) {
	t.Helper()
	run, err := runs.CreateAt(dir, "train", nil, s, s.Seed)
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	return Run(context.Background(), s, run, progress)
}

func netID(t *testing.T, path string) string {
	t.Helper()
	net, err := nn.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return net.ID()
}

// TestWorkersDoNotChangeTheNet: the trained net is a function of the
// settings, whatever the number of workers: with TD(0), and with
// TD(lambda) and expected targets (the workers' 1-ply searches), with
// rounds cut short by the checkpoints and the measurement (600 games in
// rounds of 7); and rounds of more than one game learn otherwise than
// online TD.
func TestWorkersDoNotChangeTheNet(t *testing.T) {
	dir := t.TempDir()
	online := small()
	online.Batch = 1
	res, err := train(t, online, filepath.Join(dir, "online"), runs.NoProgress)
	if err != nil {
		t.Fatal(err)
	}
	onlineID := netID(t, res.Net)
	for _, mode := range []struct {
		name     string
		lambda   float64
		expected bool
	}{{"TD(0)", 0, false}, {"TD(0.7), expected", 0.7, true}} {
		var ids []string
		for _, w := range []int{1, 2, 3} {
			s := small()
			s.Workers, s.Batch, s.Lambda, s.Expected = w, 7, mode.lambda, mode.expected
			res, err := train(t, s, filepath.Join(dir, fmt.Sprintf("%s-%d", mode.name, w)), runs.NoProgress)
			if err != nil {
				t.Fatal(err)
			}
			if res.Games != 600 || len(res.Curve) != 4 { // checkpoints at 200, 400, 600 and a measurement at 300
				t.Fatalf("%s: %d games, %d curve points", mode.name, res.Games, len(res.Curve))
			}
			ids = append(ids, netID(t, res.Net))
		}
		if ids[0] != ids[1] || ids[0] != ids[2] {
			t.Errorf("%s: 1, 2 and 3 workers trained nets %v", mode.name, ids)
		}
		if mode.lambda == 0 && ids[0] == onlineID {
			t.Errorf("%s: rounds of 7 games trained the net of online TD, %s", mode.name, onlineID)
		}
	}
}

// TestResumeEqualsUninterrupted: a run cancelled after its first
// checkpoint and run again on the same directory ends with the net of an
// uninterrupted run, bit for bit.
// cutAndResume trains s in dir, cancels the run once it has played at
// games and resumes it to the end.
func cutAndResume(t *testing.T, s Settings, dir string, at int64) *Result {
	t.Helper()
	stopRun(t, s, dir, func(_ int, games int64) bool { return games >= at })
	got, err := resumeRun(s, dir)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestResumeEqualsUninterrupted(t *testing.T) {
	dir := t.TempDir()
	want, err := train(t, small(), filepath.Join(dir, "whole"), runs.NoProgress)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "cut")
	got := cutAndResume(t, small(), cut, 250)
	if a, b := netID(t, want.Net), netID(t, got.Net); a != b {
		t.Fatalf("resumed net %s, uninterrupted %s", b, a)
	}
	if len(got.Curve) != len(want.Curve) || got.Curve[3].TDError != want.Curve[3].TDError {
		t.Fatalf("curves differ: %+v vs %+v", got.Curve, want.Curve)
	}
	rows, err := runs.ReadParquet[CurvePoint](filepath.Join(cut, CurveFile), Format)
	if err != nil || len(rows) != 4 {
		t.Fatalf("curve.parquet: %d rows, %v", len(rows), err)
	}
	f, err := os.Open(filepath.Join(cut, CurvePNG))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil || img.Bounds().Dx() < 300 {
		t.Fatalf("curve.png: %v", err)
	}
	if svg, err := os.ReadFile(filepath.Join(cut, CurveSVG)); err != nil || !strings.Contains(string(svg), "<svg") {
		t.Fatalf("curve.svg: %v", err)
	}
}

func TestSettingsChecks(t *testing.T) {
	for _, bad := range []func(*Settings){
		func(s *Settings) { s.Variant = "2x2-2" },
		func(s *Settings) { s.Kit = search.Kit{} },
		func(s *Settings) { s.Games = 0 },
		func(s *Settings) { s.Rate = -0.1 },
		func(s *Settings) { s.Lambda = 1.5 },
		func(s *Settings) { s.Explore = -1 },
		func(s *Settings) { s.MeasureGames = 3 },
		func(s *Settings) { s.Workers = 0 },
		func(s *Settings) { s.Inputs = "pins" },
		func(s *Settings) {
			g, _ := games.Lookup("breakthrough")
			s.Kit, s.Variant, s.Inputs = g, "5x6", "threats"
		},
	} {
		s := DefaultSettings(diceGame())
		bad(&s)
		if err := s.Check(); err == nil {
			t.Errorf("settings %+v accepted", s)
		}
	}
}

// TestTDLambdaAndExpected: the options train too.
func TestTDLambdaAndExpected(t *testing.T) {
	s := small()
	s.Lambda, s.Expected = 0.7, true
	res, err := train(t, s, filepath.Join(t.TempDir(), "l"), runs.NoProgress)
	if err != nil || res.Games != 600 {
		t.Fatalf("TD(0.7) with expected targets: %v", err)
	}
}

// TestThreatInputs: -inputs threats trains a Dice net of the input set
// "threats", which the search's evaluator takes, and a resumed run ends
// with the uninterrupted run's net.
func TestThreatInputs(t *testing.T) {
	dir := t.TempDir()
	s := small()
	s.Inputs = "threats"
	res, err := train(t, s, filepath.Join(dir, "whole"), runs.NoProgress)
	if err != nil {
		t.Fatal(err)
	}
	net, err := nn.Load(res.Net)
	if err != nil {
		t.Fatal(err)
	}
	if net.In != 62+6 {
		t.Fatalf("a net of %d inputs, want 68: 62 and 6 threat inputs", net.In)
	}
	if _, err := s.Kit.Net.Evaluator(net); err != nil {
		t.Fatal(err)
	}
	got := cutAndResume(t, s, filepath.Join(dir, "cut"), 250)
	if netID(t, got.Net) != net.ID() {
		t.Fatalf("resumed: net %s, uninterrupted %s", netID(t, got.Net), net.ID())
	}
}

// TestBackgammonFeatures: -inputs features trains a backgammon net of the
// input set "features" with two workers, the evaluator takes it, and a
// run cut and resumed ends with the uninterrupted run's net.
//
// Under the race detector it would take minutes (the features and the
// bear-off databases' build run ten times slower): make test runs it in
// its plain pass, and the race detector watches the same workers in the
// Dice tests.
func TestBackgammonFeatures(t *testing.T) {
	s := backgammonRun(t)
	s.Inputs, s.Hidden = "features", 8
	s.Games, s.CheckpointEvery, s.MeasureEvery = 32, 16, 32
	dir := t.TempDir()
	_, net := trainNet(t, s, filepath.Join(dir, "whole"))
	if net.In != 250 {
		t.Fatalf("a net of %d inputs, want 250: 202 and 48 features", net.In)
	}
	if _, err := s.Kit.Net.Evaluator(net); err != nil {
		t.Fatal(err)
	}
	got := cutAndResume(t, s, filepath.Join(dir, "cut"), 16)
	if netID(t, got.Net) != net.ID() {
		t.Fatalf("resumed: net %s, uninterrupted %s", netID(t, got.Net), net.ID())
	}
}

// backgammonRun returns the default settings of a backgammon run on two
// workers in rounds of 8 games, measured over 2, and skips the test under
// the race detector, where the features and the bear-off databases' build
// would take minutes: make test runs such tests in its plain pass.
func backgammonRun(t *testing.T) Settings {
	t.Helper()
	if raceEnabled {
		t.Skip("under the race detector: run in make test's plain pass")
	}
	g, err := games.Lookup("backgammon")
	if err != nil {
		t.Fatal(err)
	}
	s := DefaultSettings(g)
	s.Workers, s.Batch, s.MeasureGames = 2, 8, 2
	return s
}

// trainNet trains a new run of s in dir and returns its result and net.
func trainNet(t *testing.T, s Settings, dir string) (*Result, *nn.Net) {
	t.Helper()
	res, err := train(t, s, dir, runs.NoProgress)
	if err != nil {
		t.Fatal(err)
	}
	net, err := nn.Load(res.Net)
	if err != nil {
		t.Fatal(err)
	}
	return res, net
}

// TestRacePhase: -phase race trains the race net of a backgammon net and
// nothing else: the main net's weights are those of -from, the race net
// started as their copy and has moved; a run cut and resumed ends with the same net;
// -target search from that net fits its race net and no other; and a
// phase the game does not have, -phase without -from, or with
// -treestrap, is refused naming the flag.
func TestRacePhase(t *testing.T) {
	dir := t.TempDir()
	s := backgammonRun(t)
	s.Inputs, s.Hidden, s.Games = "features", 8, 16
	start, main := trainNet(t, s, filepath.Join(dir, "start"))
	s = backgammonRun(t)
	s.From, s.Phase = start.Net, "race"
	s.Games, s.CheckpointEvery, s.MeasureEvery, s.Seed = 64, 32, 64, 3
	res, net := trainNet(t, s, filepath.Join(dir, "whole"))
	race := net.PhaseNet("race")
	if race == nil || len(net.Phases) != 1 {
		t.Fatalf("the trained net has phases %v, want a race net", net.Phases)
	}
	trained := net.Clone()
	trained.Phases = nil
	if trained.ID() != main.ID() {
		t.Fatalf("the main net changed: %s, -from %s", trained.ID(), main.ID())
	}
	moved := 0
	for i := range race.W1 {
		if race.W1[i] != main.W1[i] {
			moved++
		}
	}
	if moved == 0 || race.H != main.H {
		t.Fatalf("the race net (%d hidden units) has %d first-layer weights unlike the main net's", race.H, moved)
	}
	got := cutAndResume(t, s, filepath.Join(dir, "cut"), 32)
	if netID(t, got.Net) != net.ID() {
		t.Fatalf("resumed: net %s, uninterrupted %s", netID(t, got.Net), net.ID())
	}
	// -target search fits the race net alone, from the net just trained.
	fs := s
	fs.res, fs.From, fs.Target, fs.TargetSpec, fs.Plays, fs.Games, fs.Rate = nil, res.Net, TargetSearch, "staretc:depth=1", 2, 8, 0
	fs.CheckpointEvery, fs.MeasureEvery = 8, 8
	_, fnet := trainNet(t, fs, filepath.Join(dir, "search"))
	if fr := fnet.PhaseNet("race"); fr == nil || fr.ID() == race.ID() || fnet.Phases[0].Phase != "race" {
		t.Fatal("-target search did not fit the race net")
	}
	fnet.Phases = nil
	if fnet.ID() != main.ID() {
		t.Fatalf("-target search changed the main net: %s, want %s", fnet.ID(), main.ID())
	}
	for _, bad := range []struct {
		set  func(*Settings)
		want string
	}{
		{func(s *Settings) { s.Phase = "crashed" }, "-phase crashed"},
		{func(s *Settings) { s.From = "" }, "-phase race: give -from"},
		{func(s *Settings) { s.Target, s.TreeStrap = TargetSearch, true }, "-phase race"},
	} {
		b := s
		b.res = nil
		bad.set(&b)
		if err := b.Check(); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%v, want an error with %q", err, bad.want)
		}
	}
}

// TestTrainsBreakthrough: train runs over another game's network as over
// Dice's: a few hundred games of ChanceBreakthrough on a 4x5 board are
// played, learnt and measured, and the net written names the game and the
// variant, records its games and is no longer the net it started from.
func TestTrainsBreakthrough(t *testing.T) {
	g, err := games.Lookup("breakthrough")
	if err != nil {
		t.Fatal(err)
	}
	s := DefaultSettings(g)
	// Seed 6 makes a net whose depth-1 player never rolls from the start
	// (of seeds 1 to 6 the only one; the others' nets roll in some games).
	s.Variant, s.Games, s.CheckpointEvery, s.MeasureEvery, s.MeasureGames, s.Seed = "4x5", 300, 150, 300, 20, 6
	res, err := train(t, s, filepath.Join(t.TempDir(), "bt"), runs.NoProgress)
	if err != nil {
		t.Fatal(err)
	}
	if res.Games != 300 || len(res.Curve) != 2 || !(res.MeanTDErr > 0) || !(float64(res.Score) >= 0 && float64(res.Score) <= 1) || !(float64(res.MeanPlies) > 0) {
		t.Fatalf("%d games, %d curve points, TD error %v, score %v, %v plies per game", res.Games, len(res.Curve), res.MeanTDErr, res.Score, res.MeanPlies)
	}
	// From the start neither depth-1 player rolls: every pair of the
	// measurement is one pair, which the result and the curve say, and
	// the opponent is ChanceBreakthrough's hand evaluator.
	if last := res.Curve[1]; res.Opponent != "material" || last.Opponent != "material" || res.MeasurePairs != 10 || res.DistinctPairs != 1 ||
		last.DistinctPairs != 1 || !strings.Contains(res.Repeated(), "all 10 couples of games on shared dice are the same two games") {
		t.Errorf("measured against %q (curve: %q), %d distinct pairs of %d: %q", res.Opponent, last.Opponent, res.DistinctPairs, res.MeasurePairs, res.Repeated())
	}
	net, err := nn.Load(res.Net)
	if err != nil {
		t.Fatal(err)
	}
	if net.Game != "breakthrough" || net.Variant != "4x5" || !slices.Equal(net.VariantKey, []int{4, 5}) || net.Meta.Games != 300 {
		t.Fatalf("net of game %q variant %q key %v after %d games, want breakthrough 4x5 [4 5] after 300", net.Game, net.Variant, net.VariantKey, net.Meta.Games)
	}
	if err := g.Net.Check(net, "4x5"); err != nil {
		t.Fatal(err)
	}
	init, err := g.Net.New("4x5", rand.New(rand.NewPCG(s.Seed, 0x1217)), s.Init)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(net.W1, init.W1) || slices.Equal(net.W2, init.W2) {
		t.Fatal("the trained net has its initial weights")
	}
}

// BenchmarkTrain is 5,000 games of online TD(0) on 5x5/4, one measurement
// of 20 games at the end.
func BenchmarkTrain(b *testing.B) {
	s := DefaultSettings(diceGame())
	s.Games, s.CheckpointEvery, s.MeasureEvery, s.MeasureGames = 5000, 5000, 5000, 20
	for i := 0; b.Loop(); i++ {
		run, err := runs.CreateAt(filepath.Join(b.TempDir(), "t"), "train", nil, s, s.Seed)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Run(context.Background(), s, run, runs.NoProgress); err != nil {
			b.Fatal(err)
		}
		run.Close()
	}
	b.ReportMetric(float64(5000*b.N)/b.Elapsed().Seconds(), "games/s")
}

// diceGame is Dice as the registry gives it.
func diceGame() search.Kit {
	g, err := games.Lookup("dice")
	if err != nil {
		panic(err)
	}
	return g
}

// TestMeasureSuite: the measurement's starts are the suite's positions
// (ChanceBreakthrough's depth-1 players never roll from the start, so one
// start would make every game one game), and training measures from them;
// a suite of another variant or with a finished game is refused in one
// line naming the line.
func TestMeasureSuite(t *testing.T) {
	g, err := games.Lookup("breakthrough")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	suite := filepath.Join(dir, "starts.suite")
	lines := "4 5 w bbbb/.bbb/b.../wwww/wwww\n4 5 b bbbb/bbbb/..w./w.ww/wwww\n4 5 w b.bb/bbbb/..../.www/wwww\n4 5 b bbbb/b.bb/.b../wwww/w.ww\n"
	if err := os.WriteFile(suite, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	s := DefaultSettings(g)
	s.Variant, s.Games, s.CheckpointEvery, s.MeasureEvery, s.MeasureGames, s.MeasureSuite = "4x5", 40, 40, 40, 8, suite
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	starts, err := s.measureStarts()
	if err != nil || len(starts) != 4 {
		t.Fatalf("%d starts: %v", len(starts), err)
	}
	res, err := train(t, s, filepath.Join(dir, "run"), runs.NoProgress)
	if err != nil {
		t.Fatal(err)
	}
	if res.Games != 40 || !(float64(res.MeanPlies) > 0) {
		t.Fatalf("%d games, %v plies per game", res.Games, res.MeanPlies)
	}
	if res.DistinctPairs != 4 || res.Repeated() != "" {
		t.Errorf("%d distinct pairs of %d from four starts: %q", res.DistinctPairs, res.MeasurePairs, res.Repeated())
	}
	for name, text := range map[string]string{
		"line 2 is of variant 5x5":  "4 5 w bbbb/.bbb/b.../wwww/wwww\n5 5 w bbbbb/bbbbb/...../wwwww/wwwww\n",
		"line 1 is a finished game": "4 5 b ..../..../..../wwww/wwww\n",
	} {
		bad := filepath.Join(dir, "bad.suite")
		if err := os.WriteFile(bad, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		b := s
		b.MeasureSuite = bad
		if err := b.Check(); err == nil || !strings.Contains(err.Error(), name) || strings.Contains(err.Error(), "\n") {
			t.Errorf("suite with %s: %v", name, err)
		}
	}
}

// TestJudgedPlay: with -judge-positions and -judge-by each measurement
// has the judge value the net's play on the positions (here backgammon's
// default suite, judged by the contact evaluator at depth 1), its loss per
// decision a point of the curve with its interval, the analysis kept in
// the run's directory; one of the two alone, and positions that are not
// decisions, are refused before any game.
func TestJudgedPlay(t *testing.T) {
	g, err := games.Lookup("backgammon")
	if err != nil {
		t.Fatal(err)
	}
	s := DefaultSettings(g)
	s.Hidden, s.Games, s.CheckpointEvery, s.MeasureEvery, s.MeasureGames = 4, 8, 8, 8, 2
	s.JudgePositions, s.JudgeBy = "../search/backgammon/suites/backgammon.suite", "staretc:depth=1,eval=contact"
	dir := filepath.Join(t.TempDir(), "j")
	res, err := train(t, s, dir, runs.NoProgress)
	if err != nil {
		t.Fatal(err)
	}
	curve, err := ReadCurve(dir)
	if err != nil {
		t.Fatal(err)
	}
	last := curve[len(curve)-1]
	if l := float64(last.JudgeLoss); !(l >= 0) || !(float64(last.JudgeCI95) >= 0) || res.JudgeLoss != last.JudgeLoss {
		t.Fatalf("judged loss %v ± %v, result %v", last.JudgeLoss, last.JudgeCI95, res.JudgeLoss)
	}
	if _, err := os.Stat(filepath.Join(dir, "judged-8", "summary.json")); err != nil {
		t.Fatal(err)
	}
	var m struct {
		Status   runs.Status `json:"status"`
		Settings struct {
			Game string `json:"game"`
		} `json:"settings"`
	}
	if data, err := os.ReadFile(filepath.Join(dir, "judged-8", "manifest.json")); err != nil || json.Unmarshal(data, &m) != nil || m.Status != runs.StatusDone || m.Settings.Game != s.GameName {
		t.Fatalf("judged-8's manifest: status %q, game %q (%v), want a finished analysis of %s", m.Status, m.Settings.Game, err, s.GameName)
	}
	for _, bad := range []func(*Settings){
		func(s *Settings) { s.JudgeBy = "" },
		func(s *Settings) { s.JudgePositions = "" },
		func(s *Settings) { s.JudgeBy = "nosuch:depth=1" },
		func(s *Settings) { s.JudgeBy = "gnubg:plies=x" },
		func(s *Settings) { s.JudgePositions = "../search/backgammon/suites/none.suite" },
	} {
		b := s
		bad(&b)
		if err := b.Check(); err == nil {
			t.Errorf("settings %q %q accepted", b.JudgePositions, b.JudgeBy)
		}
	}
}

// TestFrom: -from starts the training from a net's weights, inputs and
// layers (the first net of the run is that net), a run from a net resumes
// to the uninterrupted run's net, -hidden above the net's units widens
// it (the same value of every position; a widened run resumes to the
// uninterrupted one's net), and a net of another variant, -from beside
// -inputs or a second layer, or a -hidden below the net's, is refused.
func TestFrom(t *testing.T) {
	dir := t.TempDir()
	s := small()
	s.Inputs, s.Games = "threats", 200
	first, err := train(t, s, filepath.Join(dir, "first"), runs.NoProgress)
	if err != nil {
		t.Fatal(err)
	}
	from, err := nn.Load(first.Net)
	if err != nil {
		t.Fatal(err)
	}
	s = small()
	s.From = first.Net
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	run, err := runs.CreateAt(filepath.Join(dir, "start"), "train", nil, s, s.Seed)
	if err != nil {
		t.Fatal(err)
	}
	_, net, err := startNet(&s, run)
	run.Close()
	if err != nil || net.Checksum() != from.Checksum() || net.In != 62+6 {
		t.Fatalf("start of a run from %s: net %v of %d inputs (%v), want %s", first.Net, net.ID(), net.In, err, from.ID())
	}
	whole, err := train(t, s, filepath.Join(dir, "whole"), runs.NoProgress)
	if err != nil {
		t.Fatal(err)
	}
	if netID(t, whole.Net) == from.ID() {
		t.Fatal("600 games from a net left it as it was")
	}
	if got := cutAndResume(t, s, filepath.Join(dir, "cut"), 250); netID(t, got.Net) != netID(t, whole.Net) {
		t.Fatalf("resumed from a net: net %s, uninterrupted %s", netID(t, got.Net), netID(t, whole.Net))
	}
	s.Hidden, s.Games = from.H+5, 400
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	run, err = runs.CreateAt(filepath.Join(dir, "wide-start"), "train", nil, s, s.Seed)
	if err != nil {
		t.Fatal(err)
	}
	_, net, err = startNet(&s, run)
	run.Close()
	if err != nil || net.H != from.H+5 {
		t.Fatalf("start of a run from %s widened to %d units: %v", first.Net, from.H+5, err)
	}
	for g := 0; g < 20; g++ {
		x := make([]float64, net.In)
		for i := range x {
			x[i] = float64((g*7+i*3)%5) / 4
		}
		if a, b := from.Forward(x, make([]float64, from.H)), net.Forward(x, make([]float64, net.H)); a != b {
			t.Fatalf("widened net values input %d at %v, the net at %v", g, b, a)
		}
	}
	wide, err := train(t, s, filepath.Join(dir, "wide"), runs.NoProgress)
	if err != nil {
		t.Fatal(err)
	}
	if got := cutAndResume(t, s, filepath.Join(dir, "wide-cut"), 250); netID(t, got.Net) != netID(t, wide.Net) {
		t.Fatalf("a widened run resumed: net %s, uninterrupted %s", netID(t, got.Net), netID(t, wide.Net))
	}
	for _, bad := range []func(*Settings){
		func(s *Settings) { s.Hidden = 1 },
		func(s *Settings) { s.Inputs = "threats" },
		func(s *Settings) { s.Layers = []int{4} },
		func(s *Settings) { s.Variant = "4x4-3" },
		func(s *Settings) { s.From = filepath.Join(dir, "none.json") },
	} {
		b := small()
		b.From = first.Net
		bad(&b)
		if err := b.Check(); err == nil || !strings.Contains(err.Error(), "-from") {
			t.Errorf("settings %+v: %v, want an error naming -from", b, err)
		}
	}
}

// TestTDStarts: TD self-play starts game g from the suite's position g
// modulo its length (-starts), on one worker or two the same net, a run
// cut and resumed ends with the uninterrupted run's net, and the net is
// not the one of games from the empty board.
func TestTDStarts(t *testing.T) {
	dir := t.TempDir()
	s := small()
	s.StartSuite = "../search/dice/suites/dice5x5-4.suite"
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	net, err := s.Kit.Net.New(s.Variant, runs.Stream(1, "test", 0), 0.1)
	if err != nil {
		t.Fatal(err)
	}
	l, err := newLearner(&s, net)
	if err != nil {
		t.Fatal(err)
	}
	n := int64(len(s.res.starts))
	for _, g := range []int64{0, 1, n + 1} {
		gm, err := l.p.play(context.Background(), &s, g)
		if err != nil || gm.Start != s.res.starts[g%n].String() {
			t.Fatalf("game %d started at %q (%v), want the suite's position %d, %q", g, gm.Start, err, g%n, s.res.starts[g%n])
		}
	}
	one, err := train(t, s, filepath.Join(dir, "one"), runs.NoProgress)
	if err != nil {
		t.Fatal(err)
	}
	s.Workers = 2
	two, err := train(t, s, filepath.Join(dir, "two"), runs.NoProgress)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := train(t, small(), filepath.Join(dir, "plain"), runs.NoProgress)
	if err != nil {
		t.Fatal(err)
	}
	if netID(t, one.Net) != netID(t, two.Net) || netID(t, one.Net) == netID(t, plain.Net) {
		t.Fatalf("nets from the suite's starts: %s on one worker, %s on two; from the empty board %s", netID(t, one.Net), netID(t, two.Net), netID(t, plain.Net))
	}
	if got := cutAndResume(t, s, filepath.Join(dir, "cut"), 250); netID(t, got.Net) != netID(t, one.Net) {
		t.Fatalf("resumed: net %s, uninterrupted %s", netID(t, got.Net), netID(t, one.Net))
	}
}

// TestOutcomes: -outcomes trains a backgammon net of gnubg's five
// outputs by TD(0), in money play and in a one-point game. Every target,
// whose combination by the outputs' value is the target a net of one
// value would be given (the rules' value where the game ended, else the
// net's value of the next afterstate, the bear-off databases' where they
// value it, each from the view of the afterstate's mover), is a set of
// probabilities; two workers and one make the same net, and a run cut and
// resumed ends with it; what a net of outcomes cannot learn from is
// refused naming the flag.
func TestOutcomes(t *testing.T) {
	dir := t.TempDir()
	for _, variant := range []string{"money", "1pt"} {
		s := backgammonRun(t)
		s.Variant, s.Inputs, s.Hidden, s.Outcomes, s.Games = variant, "features", 8, true, 32
		s.CheckpointEvery, s.MeasureEvery = 16, 32
		res, net := trainNet(t, s, filepath.Join(dir, variant, "two"))
		if net.Head == nil || net.Head.K() != 5 || !(res.MeanTDErr > 0) {
			t.Fatalf("%s: the trained net's outputs %v, TD error %v: want five outputs of probabilities", variant, net.Head, res.MeanTDErr)
		}
		if variant == "money" {
			one := s
			one.res, one.Workers = nil, 1
			if _, n1 := trainNet(t, one, filepath.Join(dir, variant, "one")); n1.ID() != net.ID() {
				t.Fatalf("one worker made net %s, two %s", n1.ID(), net.ID())
			}
			if got := cutAndResume(t, s, filepath.Join(dir, variant, "cut"), 16); netID(t, got.Net) != net.ID() {
				t.Fatalf("resumed: net %s, uninterrupted %s", netID(t, got.Net), net.ID())
			}
		}
		checkOutcomeTargets(t, s, net)
		for _, bad := range []struct {
			set  func(*Settings)
			want string
		}{
			{func(s *Settings) { s.From = res.Net }, "-outcomes"},
			{func(s *Settings) { s.Layers = []int{4} }, "-outcomes"},
		} {
			b := s
			b.res = nil
			bad.set(&b)
			if err := b.Check(); err == nil || !strings.Contains(err.Error(), bad.want) {
				t.Errorf("%v, want an error with %q", err, bad.want)
			}
		}
		lam := s
		lam.res, lam.Outcomes, lam.Inputs, lam.Hidden, lam.From, lam.Lambda = nil, false, "", 0, res.Net, 0.7
		if _, err := train(t, lam, filepath.Join(dir, variant, "lambda"), runs.NoProgress); err == nil || !strings.Contains(err.Error(), "-lambda") {
			t.Errorf("TD(0.7) of a net of outcomes: %v, want an error naming -lambda", err)
		}
	}
}

// checkOutcomeTargets fails the test unless the outcome targets of games
// played by net are probabilities whose value is the value target.
func checkOutcomeTargets(t *testing.T, s Settings, net *nn.Net) {
	t.Helper()
	s.res = nil
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	l, err := newLearner(&s, net)
	if err != nil {
		t.Fatal(err)
	}
	steps, ended := 0, 0
	for g := int64(0); g < 4; g++ {
		gm, err := l.p.play(context.Background(), &s, g)
		if err != nil {
			t.Fatal(err)
		}
		l.replay(s.gameStart(g), &gm, func(before, after game.State) {
			p := make([]float64, 5)
			l.outcomeTarget(before, after, p)
			v := net.Head.Value[0]
			for k, q := range p {
				if !(q >= 0 && q <= 1) {
					t.Fatalf("%s step %d: target %v is not probabilities", s.Variant, steps, p)
				}
				v += net.Head.Value[k+1] * q
			}
			want := game.ValueFor(after, before.Mover(), l.p.val.Value)
			if math.Abs(v-want) > 1e-12 {
				t.Fatalf("%s step %d: the target's value %v, the value target %v", s.Variant, steps, v, want)
			}
			steps++
			if after.Kind() == game.Over {
				ended++
			}
		})
	}
	if steps < 40 || ended != 4 {
		t.Fatalf("%s: %d afterstates, %d ending a game", s.Variant, steps, ended)
	}
}
