package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"runtime"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/parquet-go/parquet-go"

	"starlab/runs"
	"starlab/search"
	"starlab/search/dice"
	"starlab/selfplay"
)

// matchFormat versions games.parquet (key-value metadata "starlab.format"),
// pairs.jsonl and summary.json.
const matchFormat = "starlab-match/1"

// defaultLuckRef is the reference search that values the rolls. An odd
// depth: with the pairs evaluator, which ignores the roll, a search to an
// even depth gives the value of the odd depth below it at more cost. Depth 3
// reduced the variance of d5-d1 matches more than depth 1 (ratio 2.14 against
// 1.92 over 2,000 games) for about a third fewer games per second.
const defaultLuckRef = "staretc:depth=3,eval=pairs,tt=1"

// matchSettings is the resolved configuration of a match or tournament,
// recorded in the manifest; a resumed run reads it back from there.
type matchSettings struct {
	Format      string   `json:"format"`
	Variants    []string `json:"variants"`
	Gauntlet    bool     `json:"gauntlet"`
	Games       int      `json:"games"` // per pairing, even
	Seed        uint64   `json:"seed"`
	N           int      `json:"n"`
	M           int      `json:"m"`
	Suite       string   `json:"suite,omitempty"`
	Starts      []string `json:"starts"`
	Luck        string   `json:"luck"` // luck reference spec, or "none"
	SPRT        string   `json:"sprt,omitempty"`
	Concurrency int      `json:"concurrency"`
}

// pairing is one head-to-head of a match or tournament.
type pairing struct{ a, b int }

func (s *matchSettings) pairings() []pairing {
	var ps []pairing
	for i := range s.Variants {
		for j := i + 1; j < len(s.Variants); j++ {
			if s.Gauntlet && i != 0 {
				break
			}
			ps = append(ps, pairing{i, j})
		}
	}
	return ps
}

// journalRecord is one line of pairs.jsonl: a finished pair of games.
type journalRecord struct {
	Pairing int                 `json:"pairing"`
	Pair    selfplay.PairRecord `json:"pair"`
}

func init() {
	var (
		games       int
		seed        uint64
		concurrency int
		suite       string
		n, m        int
		sprtSpec    string
		luck        string
		gauntlet    bool
		out         string
		resume      string
		asJSON      bool
	)
	register(&Command{
		Name:         "match",
		Interspersed: true,
		UsageLine:    "match [flags] VARIANT VARIANT [VARIANT...] | match -resume RUN",
		Short:        "play engine variants against each other with trustworthy statistics",
		Long: `Match plays engine variants against each other in pairs of games with the
same dice and the colours swapped (duplicate dice), so that luck cancels
within a pair, and reports:

  - wins, draws, losses and score with a 95% interval over games (the
    papers' "50.6% ± 0.5%"), Elo with its interval, likelihood of superiority;
  - the pentanomial counts over pairs and the interval over pairs, and how
    much pairing narrowed it (variance ratio);
  - the luck-adjusted score: each roll's luck, valued by a fixed reference
    search (-luck), is taken out of the result, leaving an unbiased
    estimate with less variance (variance ratio to the plain estimates);
  - with -sprt elo0,elo1,alpha,beta, the generalised log-likelihood ratio of
    the pentanomial counts (normalized Elo, as fishtest), stopping the match
    at the first pair count where a bound is crossed.

A variant is a spec naming the algorithm, then its settings, evaluator and
limit: staretc:depth=9, cpc:t=1.6,movetime=100ms, star2:nodes=200000,eval=pairs
(keys: depth nodes movetime eval net tt k etc t r probcut cpcmin cpcmax). With more than two
variants every pair of them plays (round robin), or only the first against
each other with -gauntlet; a cross table and a ranking follow.

Games start from the empty -n x -n board, or from the positions of -suite
(pair i starts from position i mod the suite size, so each is played in
both seats). Each worker owns its engines and clears their tables before
every game: with depth or node limits the results do not depend on
-concurrency. Every finished pair is journalled; after a kill, -resume RUN
continues where the run stopped and ends with the statistics an
uninterrupted run would have given. The run directory gets games.parquet
(one row per game) and summary.json; -json prints the summary on stdout.`,
		SetFlags: func(fs *flag.FlagSet) {
			fs.IntVar(&games, "games", 200, "games per pairing (even: pairs of games)")
			fs.Uint64Var(&seed, "seed", 1, "seed of the dice")
			fs.IntVar(&concurrency, "concurrency", runtime.NumCPU(), "games played at once")
			fs.StringVar(&suite, "suite", "", "file of start positions in DPN (default: the empty board)")
			fs.IntVar(&n, "n", 5, "board size without -suite")
			fs.IntVar(&m, "m", 4, "win length without -suite")
			fs.StringVar(&sprtSpec, "sprt", "", "sequential test elo0,elo1,alpha,beta (normalized Elo)")
			fs.StringVar(&luck, "luck", defaultLuckRef, "reference search that values the rolls, or none")
			fs.BoolVar(&gauntlet, "gauntlet", false, "with 3+ variants, play only the first against the others")
			fs.StringVar(&out, "out", "", "run directory (default: a new one under out/)")
			fs.StringVar(&resume, "resume", "", "resume the unfinished run in this directory (latest: the newest under out/)")
			fs.BoolVar(&asJSON, "json", false, "print the summary as JSON on stdout")
		},
		Run: func(ctx context.Context, env *Env, args []string) error {
			if resume != "" {
				if len(args) != 0 {
					return usagef("-resume takes no variants: they are read from the run")
				}
				return resumeMatch(ctx, env, resume, asJSON)
			}
			if len(args) < 2 {
				return usagef("need at least two variants")
			}
			if games < 2 || games%2 != 0 {
				return usagef("-games %d: want an even number of at least 2 (games come in pairs)", games)
			}
			if concurrency < 1 {
				return usagef("-concurrency %d: want at least 1", concurrency)
			}
			set := matchSettings{Format: matchFormat, Variants: args, Gauntlet: gauntlet, Games: games, Seed: seed,
				N: n, M: m, Suite: suite, Luck: luck, SPRT: sprtSpec, Concurrency: concurrency}
			if suite != "" {
				ps, err := search.ReadSuite(suite)
				if err != nil {
					return err
				}
				for _, p := range ps {
					b := p.Board
					if b.Roll() != dice.NoRoll {
						b.ClearRoll()
					}
					set.Starts = append(set.Starts, b.DPN())
				}
			} else {
				b, err := dice.New(n, m)
				if err != nil {
					return usageError{err.Error()}
				}
				set.Starts = []string{b.DPN()}
			}
			if _, err := set.resolve(); err != nil {
				return err
			}
			cmdline := env.Args
			var run *runs.Run
			var err error
			if out == "" {
				run, err = runs.Create("out", "match", cmdline, set, seed)
			} else {
				run, err = runs.CreateAt(out, "match", cmdline, set, seed)
				if errors.Is(err, runs.ErrUnfinished) {
					return fmt.Errorf("%v (continue it with: starlab match -resume %s)", err, out)
				}
			}
			if err != nil {
				return err
			}
			return finishMatch(run, playMatch(ctx, env, run, set, asJSON))
		},
	})
}

// resolved is a match's settings turned into values.
type resolved struct {
	variants []selfplay.Variant
	starts   []*dice.Board
	luck     *selfplay.Variant
	sprt     *selfplay.SPRT
}

func (s *matchSettings) resolve() (*resolved, error) {
	r := &resolved{}
	seen := map[string]bool{}
	for _, spec := range s.Variants {
		v, err := selfplay.ParseVariant(spec)
		if err != nil {
			return nil, err
		}
		if seen[spec] && len(s.Variants) > 2 {
			return nil, fmt.Errorf("variant %q given twice in a tournament", spec)
		}
		seen[spec] = true
		r.variants = append(r.variants, v)
	}
	for i, d := range s.Starts {
		b, err := dice.ParseDPN(d)
		if err != nil {
			return nil, fmt.Errorf("start position %d: %v", i+1, err)
		}
		if b.Over() {
			return nil, fmt.Errorf("start position %d (%s) is over", i+1, d)
		}
		r.starts = append(r.starts, b)
	}
	if s.Luck != "none" {
		v, err := selfplay.ParseVariant(s.Luck)
		if err != nil {
			return nil, fmt.Errorf("-luck: %v", err)
		}
		if !v.Deterministic() {
			return nil, fmt.Errorf("-luck %q: the reference needs a depth or node limit, not a time limit", s.Luck)
		}
		for _, pv := range r.variants {
			if pv.Spec == v.Spec {
				return nil, fmt.Errorf("-luck %q is one of the variants under test; the reference must be fixed apart from them", s.Luck)
			}
		}
		r.luck = &v
	}
	if s.SPRT != "" {
		sp, err := selfplay.ParseSPRT(s.SPRT)
		if err != nil {
			return nil, fmt.Errorf("-sprt: %v", err)
		}
		if len(s.Variants) != 2 {
			return nil, fmt.Errorf("-sprt needs exactly two variants")
		}
		r.sprt = &sp
	}
	return r, nil
}

func resumeMatch(ctx context.Context, env *Env, dir string, asJSON bool) error {
	if dir == "latest" {
		dirs, err := runs.FindUnfinished("out", "match")
		if err != nil {
			return err
		}
		if len(dirs) == 0 {
			return fmt.Errorf("-resume latest: no unfinished match run under out/")
		}
		dir = dirs[0]
		fmt.Fprintf(env.Stderr, "starlab match: resuming %s\n", dir)
	}
	run, err := runs.Open(dir)
	if err != nil {
		return err
	}
	man := run.Manifest()
	if man.Command != "match" {
		return fmt.Errorf("run %s is a %s run, not a match", dir, man.Command)
	}
	if man.Status == runs.StatusDone {
		return fmt.Errorf("run %s is already done", dir)
	}
	var set matchSettings
	if err := json.Unmarshal(man.Settings, &set); err != nil {
		return fmt.Errorf("run %s: manifest settings: %v", dir, err)
	}
	if set.Format != matchFormat {
		return fmt.Errorf("run %s: settings format %q, want %q", dir, set.Format, matchFormat)
	}
	if now := runs.BuildVersion(); man.Build != now {
		fmt.Fprintf(env.Stderr, "starlab match: warning: run %s was started by build %q, this is %q; games from the two builds may differ\n", dir, man.Build, now)
	}
	if err := run.Resume(); err != nil {
		return err
	}
	return finishMatch(run, playMatch(ctx, env, run, set, asJSON))
}

// finishMatch records how the run ended; an interrupted run says how to
// continue it.
func finishMatch(run *runs.Run, err error) error {
	if ferr := run.Finish(err); err == nil {
		err = ferr
	}
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("interrupted; the finished pairs are kept: continue with starlab match -resume %s", run.Dir())
	}
	return err
}

// pairingState gathers the finished pairs of one pairing.
type pairingState struct {
	pairs  map[int]selfplay.PairRecord
	prefix int                  // pairs 0..prefix-1 are all done
	head   selfplay.Pentanomial // the pentanomial of pairs 0..prefix-1
	all    selfplay.Pentanomial // the pentanomial of every finished pair
	stopAt int                  // SPRT stop: the statistics cover pairs 0..stopAt-1; -1 if none
}

func playMatch(ctx context.Context, env *Env, run *runs.Run, set matchSettings, asJSON bool) error {
	res, err := set.resolve()
	if err != nil {
		return err
	}
	pairings := set.pairings()
	npairs := set.Games / 2
	states := make([]*pairingState, len(pairings))
	for i := range states {
		states[i] = &pairingState{pairs: map[int]selfplay.PairRecord{}, stopAt: -1}
	}
	// Pairs already journalled by an earlier process.
	err = runs.LoadJournal(run.Dir(), "pairs.jsonl", func(line []byte) error {
		var rec journalRecord
		if err := json.Unmarshal(line, &rec); err != nil {
			return err
		}
		if rec.Pairing < 0 || rec.Pairing >= len(pairings) || rec.Pair.Index < 0 || rec.Pair.Index >= npairs {
			return fmt.Errorf("pair %d of pairing %d is outside this match", rec.Pair.Index, rec.Pairing)
		}
		st := states[rec.Pairing]
		if _, dup := st.pairs[rec.Pair.Index]; !dup {
			st.all[rec.Pair.Category()]++
		}
		st.pairs[rec.Pair.Index] = rec.Pair
		return nil
	})
	if err != nil {
		return err
	}
	journal, err := runs.OpenJournal(run.Dir(), "pairs.jsonl")
	if err != nil {
		return err
	}
	defer journal.Close()
	journal.SetSyncInterval(time.Second)

	total := int64(len(pairings) * set.Games)
	var already int64
	for _, st := range states {
		already += int64(2 * len(st.pairs))
	}
	bar := newProgress(env.Stderr, total, "games", asJSON)
	_ = bar.Set64(already)
	start := time.Now()
	played := int64(0)
	for pi, pg := range pairings {
		st := states[pi]
		cfg := &selfplay.MatchConfig{A: res.variants[pg.a], B: res.variants[pg.b], Starts: res.starts, Pairs: npairs,
			Seed: set.Seed, Workers: set.Concurrency, LuckRef: res.luck}
		advance := func() bool { // extend the prefix; report whether the SPRT stops the pairing
			if st.stopAt >= 0 {
				return true
			}
			for {
				if _, ok := st.pairs[st.prefix]; !ok {
					return false
				}
				st.head[st.pairs[st.prefix].Category()]++
				st.prefix++
				if res.sprt != nil {
					llr := res.sprt.LLRPentanomial(st.head)
					if res.sprt.Decision(llr) != selfplay.Continue {
						st.stopAt = st.prefix
						return true
					}
				}
			}
		}
		if advance() {
			continue
		}
		var todo []int
		for i := 0; i < npairs; i++ {
			if _, ok := st.pairs[i]; !ok {
				todo = append(todo, i)
			}
		}
		if len(todo) == 0 {
			continue
		}
		var jerr error
		// PlayPairs calls this from one goroutine: no locking needed.
		err := selfplay.PlayPairs(ctx, cfg, todo, func(pr selfplay.PairRecord) bool {
			if err := journal.Append(journalRecord{Pairing: pi, Pair: pr}); err != nil {
				jerr = err
				return true
			}
			st.pairs[pr.Index] = pr
			played += 2
			_ = bar.Add(2)
			st.all[pr.Category()]++
			el := time.Since(start).Seconds()
			bar.Describe(fmt.Sprintf("%s vs %s  %.1f%% ± %.1f%%  %.0f games/s", cfg.A.Spec, cfg.B.Spec, 100*st.all.Score(), 100*st.all.ScoreCI95(), float64(played)/max(el, 1e-9)))
			return advance()
		})
		if jerr != nil {
			stopProgress(bar)
			return fmt.Errorf("journal: %v", jerr)
		}
		if err != nil {
			stopProgress(bar)
			return err
		}
	}
	_ = bar.Finish()
	elapsed := time.Since(start).Seconds()

	// Statistics over the pairs that count: all of them, or the prefix at
	// which the SPRT stopped.
	var summaries []selfplay.Summary
	var rows []gameRow
	for pi, pg := range pairings {
		st := states[pi]
		var counted []selfplay.PairRecord
		for _, pr := range values(st.pairs) {
			if st.stopAt < 0 || pr.Index < st.stopAt {
				counted = append(counted, pr)
			}
		}
		s := selfplay.Summarize(set.Variants[pg.a], set.Variants[pg.b], counted, res.luck != nil, res.sprt)
		s.Seconds = elapsed
		s.GamesPerSec = float64(played) / max(elapsed, 1e-9)
		summaries = append(summaries, s)
		for _, pr := range counted {
			for _, g := range pr.Games {
				row, err := newGameRow(set, pi, set.Variants[pg.a], set.Variants[pg.b], g)
				if err != nil {
					return err
				}
				rows = append(rows, row)
			}
		}
	}
	if err := run.WriteArtifact("games.parquet", func(w io.Writer) error {
		return parquet.Write(w, rows, parquet.KeyValueMetadata("starlab.format", matchFormat), parquet.Compression(&parquet.Snappy))
	}); err != nil {
		return err
	}
	report := matchReport{Format: matchFormat, Run: run.Dir(), Settings: set, Summary: summaries[0]}
	if len(pairings) > 1 {
		report.Pairings = summaries
		report.Ranking = rank(set.Variants, pairings, summaries)
	}
	data, err := json.MarshalIndent(report, "", "  ")
	if err != nil {
		return err
	}
	if err := runs.WriteBytesAtomic(run.Path("summary.json"), append(data, '\n')); err != nil {
		return err
	}
	if asJSON {
		out := any(summaries[0])
		if len(pairings) > 1 {
			out = report
		}
		return json.NewEncoder(env.Stdout).Encode(out)
	}
	printMatch(env.Stdout, run.Dir(), set, report, summaries)
	return nil
}

// matchReport is summary.json.
type matchReport struct {
	Format   string             `json:"format"`
	Run      string             `json:"run"`
	Settings matchSettings      `json:"settings"`
	Summary  selfplay.Summary   `json:"summary"` // the first pairing
	Pairings []selfplay.Summary `json:"pairings,omitempty"`
	Ranking  []rankEntry        `json:"ranking,omitempty"`
}

func values(m map[int]selfplay.PairRecord) []selfplay.PairRecord {
	out := make([]selfplay.PairRecord, 0, len(m))
	for _, pr := range m {
		out = append(out, pr)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Index < out[j].Index })
	return out
}

// gameRow is one row of games.parquet.
type gameRow struct {
	MatchSeed     uint64  `parquet:"match_seed"`
	Pairing       int32   `parquet:"pairing"`
	Pair          int32   `parquet:"pair"`
	Round         int32   `parquet:"round"` // 0: variant_a is blue, 1: variant_b is blue
	DiceSeed      uint64  `parquet:"dice_seed"`
	VariantA      string  `parquet:"variant_a"`
	VariantB      string  `parquet:"variant_b"`
	Blue          string  `parquet:"blue"`
	Red           string  `parquet:"red"`
	AIsBlue       bool    `parquet:"a_is_blue"`
	Start         string  `parquet:"start"`
	Result        int32   `parquet:"result"` // blue's view: 1 won, 0 drawn, -1 lost
	ScoreA        float64 `parquet:"score_a"`
	Plies         int32   `parquet:"plies"`
	Rolls         string  `parquet:"rolls"`
	Moves         string  `parquet:"moves"`
	MeanDepthBlue float64 `parquet:"mean_depth_blue"`
	MeanDepthRed  float64 `parquet:"mean_depth_red"`
	NodesBlue     int64   `parquet:"nodes_blue"`
	NodesRed      int64   `parquet:"nodes_red"`
	TimeMSBlue    float64 `parquet:"time_ms_blue"`
	TimeMSRed     float64 `parquet:"time_ms_red"`
	Luck          float64 `parquet:"luck"` // sum of roll luck, blue's view, value units
	LuckScoreA    float64 `parquet:"luck_adjusted_score_a"`
}

func newGameRow(set matchSettings, pairingIdx int, a, b string, g selfplay.GameRecord) (gameRow, error) {
	blue, red := a, b
	if !g.AIsBlue {
		blue, red = b, a
	}
	gm := g.Game
	rolls := make([]string, 0, len(gm.Rolls))
	if _, err := gm.Replay(func(_ int, w *dice.Board) bool {
		rolls = append(rolls, w.LineLabel(w.Roll()))
		return true
	}); err != nil {
		return gameRow{}, fmt.Errorf("pair %d round %d: %v", g.Pair, g.Round, err)
	}
	mean := func(d, t int) float64 {
		if t == 0 {
			return 0
		}
		return float64(d) / float64(t)
	}
	return gameRow{
		MatchSeed: set.Seed, Pairing: int32(pairingIdx), Pair: int32(g.Pair), Round: int32(g.Round), DiceSeed: g.Seed,
		VariantA: a, VariantB: b, Blue: blue, Red: red, AIsBlue: g.AIsBlue, Start: gm.Start,
		Result: int32(gm.Result), ScoreA: g.ScoreA(), Plies: int32(gm.Plies),
		Rolls: strings.Join(rolls, " "), Moves: gm.MovesString(),
		MeanDepthBlue: mean(gm.Depth[0], gm.Turns[0]), MeanDepthRed: mean(gm.Depth[1], gm.Turns[1]),
		NodesBlue: gm.Nodes[0], NodesRed: gm.Nodes[1],
		TimeMSBlue: float64(gm.Time[0].Microseconds()) / 1000, TimeMSRed: float64(gm.Time[1].Microseconds()) / 1000,
		Luck: gm.Luck, LuckScoreA: g.ScoreA() - g.LuckA(),
	}, nil
}

func pct(x float64) string { return fmt.Sprintf("%.1f%%", 100*x+0) }

// num formats a statistic that may be undefined (an Elo of a side that won
// everything, a variance ratio of two zero variances).
func num(x runs.Num, format string) string {
	f := float64(x)
	switch {
	case math.IsNaN(f):
		return "n/a"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	if f == 0 {
		f = 0 // no "-0"
	}
	return fmt.Sprintf(format, f)
}

func printMatch(w io.Writer, dir string, set matchSettings, rep matchReport, sums []selfplay.Summary) {
	from := "the empty board"
	if set.Suite != "" {
		from = fmt.Sprintf("%d positions of %s", len(set.Starts), set.Suite)
	}
	fmt.Fprintf(w, "match: %d games per pairing from %s, seed %d, luck reference %s\nrun directory %s\n", set.Games, from, set.Seed, set.Luck, dir)
	for _, spec := range set.Variants {
		if strings.Contains(spec, "movetime=") {
			fmt.Fprintln(w, "note: time-limited variants make the games depend on the machine's load; the same seed may not repeat them")
			break
		}
	}
	for _, s := range sums {
		fmt.Fprintf(w, "\n%s vs %s: %d games (%d pairs)\n", s.A, s.B, s.Games, s.Pairs)
		fmt.Fprintf(w, "  games   W/D/L %d/%d/%d  score %s ± %s  Elo %s ± %s  LOS %s\n", s.Wins, s.Draws, s.Losses, pct(s.Score), pct(s.ScoreCI95), num(s.Elo, "%+.1f"), num(s.EloCI95, "%.1f"), pct(s.LOS))
		fmt.Fprintf(w, "  pairs   pentanomial %v  score %s ± %s  Elo ± %s  LOS %s  (variance ratio games/pairs %s)\n", s.Pentanomial, pct(s.Score), pct(s.ScoreCI95Pairs), num(s.EloCI95Pairs, "%.1f"), pct(s.LOSPairs), num(s.VarRatioPairs, "%.2f"))
		if s.Luck {
			fmt.Fprintf(w, "  luck    adjusted score %s ± %s  Elo %s  (variance ratio pairs/adjusted %s, games/adjusted %s)\n", pct(s.LuckScore), pct(s.LuckCI95), num(s.LuckElo, "%+.1f"), num(s.VarRatioLuck, "%.2f"), num(s.VarRatioTotal, "%.2f"))
		}
		if s.SPRT != nil {
			fmt.Fprintf(w, "  SPRT    %s: LLR %s (bounds %.3f, %.3f) %s\n", s.SPRT, num(*s.LLR, "%.3f"), s.LLRLower, s.LLRUpper, s.Decision)
		}
		fmt.Fprintf(w, "  plies %.1f per game; depth %.2f vs %.2f, nodes per move %.0f vs %.0f; %.0f games/s\n", s.MeanPlies, s.DepthA, s.DepthB, s.NodesA, s.NodesB, s.GamesPerSec)
	}
	if len(rep.Ranking) > 0 {
		fmt.Fprintln(w)
		printCrossTable(w, set, sums)
		fmt.Fprintln(w, "\nranking (score over all games, 95% interval)")
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for i, r := range rep.Ranking {
			fmt.Fprintf(tw, "%d.\t%s\t%s ± %s\tElo %s\t%d games\n", i+1, r.Variant, pct(r.Score), pct(r.CI95), num(r.Elo, "%+.1f"), r.Games)
		}
		tw.Flush()
	}
}

func printCrossTable(w io.Writer, set matchSettings, sums []selfplay.Summary) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "cross table (row's score)\t")
	for j := range set.Variants {
		fmt.Fprintf(tw, "%d\t", j+1)
	}
	fmt.Fprintln(tw)
	cell := map[[2]int]string{}
	for k, pg := range set.pairings() {
		s := sums[k]
		cell[[2]int{pg.a, pg.b}] = fmt.Sprintf("%s±%s", pct(s.Score), pct(s.ScoreCI95Pairs))
		cell[[2]int{pg.b, pg.a}] = fmt.Sprintf("%s±%s", pct(1-s.Score), pct(s.ScoreCI95Pairs))
	}
	for i, v := range set.Variants {
		fmt.Fprintf(tw, "%d %s\t", i+1, v)
		for j := range set.Variants {
			c, ok := cell[[2]int{i, j}]
			if !ok {
				c = "-"
			}
			fmt.Fprintf(tw, "%s\t", c)
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}

// rankEntry is a variant's result over all its games in a tournament.
type rankEntry struct {
	Variant string   `json:"variant"`
	Games   int      `json:"games"`
	Score   float64  `json:"score"`
	CI95    float64  `json:"score_ci95"` // over pairs
	Elo     runs.Num `json:"elo"`        // against the field it met
}

// rank orders the variants by their score over all their games, with an
// interval over the pairs they played (each pairing's pentanomial, pooled).
func rank(variants []string, pairings []pairing, sums []selfplay.Summary) []rankEntry {
	type acc struct {
		pen   selfplay.Pentanomial
		games int
	}
	accs := make([]acc, len(variants))
	for k, pg := range pairings {
		s := sums[k]
		for q := 0; q < 5; q++ {
			accs[pg.a].pen[q] += s.Pentanomial[q]
			accs[pg.b].pen[4-q] += s.Pentanomial[q]
		}
		accs[pg.a].games += s.Games
		accs[pg.b].games += s.Games
	}
	out := make([]rankEntry, len(variants))
	for i, v := range variants {
		p := accs[i].pen
		out[i] = rankEntry{Variant: v, Games: accs[i].games, Score: p.Score(), CI95: p.ScoreCI95(), Elo: runs.Num(p.Elo())}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	return out
}
