package regression

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"starlab/runs"
	"starlab/search"
	"starlab/search/game"
	"starlab/selfplay"
)

// RowsFormat names the schema of the collect stage's Parquet files.
// Version 2 names the game, the variant, the chance node in the game's
// notation, its phase and the event with its weight; version 1
// (rowsFormatV1, Dice's dpn, n, m, checkers and roll) is still read.
const RowsFormat = "starlab-collect/2"

// rowsFormatV1 names the schema of the part files of earlier collects, all
// of them of Dice.
const rowsFormatV1 = "starlab-collect/1"

// Files of a collect run.
const (
	SuiteFile = "suite.txt" // the positions, one per line in the game's notation
	RowsDir   = "rows"      // part-NNNNN.parquet, one per chunk of positions
)

// Pair is one depth pair: the shallow and the deep depth of the chance
// event's subtree (the position after the event), the depths
// search.DepthPair holds.
type Pair struct {
	Shallow int `json:"shallow"`
	Deep    int `json:"deep"`
}

func (p Pair) String() string { return fmt.Sprintf("%d:%d", p.Shallow, p.Deep) }

// ParsePairs parses "3:7,5:9".
func ParsePairs(s string) ([]Pair, error) {
	var ps []Pair
	for _, f := range strings.Split(s, ",") {
		a, b, ok := strings.Cut(strings.TrimSpace(f), ":")
		sh, err1 := strconv.Atoi(a)
		dp, err2 := strconv.Atoi(b)
		if !ok || err1 != nil || err2 != nil {
			return nil, fmt.Errorf("depth pair %q: want shallow:deep, such as 3:7", f)
		}
		ps = append(ps, Pair{sh, dp})
	}
	return ps, nil
}

// CollectSettings configure the collect stage. They are recorded whole in
// the run's manifest, from which a resumed run reads them back, all but
// Game, which the caller looks up by GameName.
type CollectSettings struct {
	// Kit is the game of the positions; it is not recorded, GameName is
	// (filled by Check when empty).
	Kit      search.Kit `json:"-"`
	GameName string     `json:"game"`
	// Variant is the game's variant ("5x5-4" in Dice): of the sampled
	// positions, the game's default when ""; with a suite, the suite's
	// (filled by Check when empty).
	Variant string `json:"variant"`
	// Suite is the file of positions in the game's notation; "" samples
	// Count positions with phases Min to Max (Dice: checkers on the board)
	// from self-play games seeded by Seed (starlab gen).
	Suite string `json:"suite,omitempty"`
	Count int    `json:"count"`
	Min   int    `json:"min"`
	Max   int    `json:"max"`
	Seed  uint64 `json:"seed"`
	Pairs []Pair `json:"pairs"`
	// Engine is the sound engine of every search, without limits, such as
	// "staretc:eval=mlp"; each search has a fresh table and a full window.
	Engine string `json:"engine"`
	// Products are the files Engine names as {name} (a pipeline's net:
	// search.Products).
	Products search.Products `json:"products,omitempty"`
	Workers  int             `json:"workers"`
	// Chunk is the number of positions per Parquet part file.
	Chunk int        `json:"chunk"`
	Shard runs.Shard `json:"shard"`
	// DiceSize is what settings of an earlier format held in place of the
	// game and the variant, refused in one line.
	runs.DiceSize
}

// DefaultCollectSettings returns the default collect of g: 1,000
// positions of its default variant with its phases and depth pairs
// (search.Kit.Defaults; Dice's are the chapter's, section 5.6.2: 5 to 12
// checkers, pairs (3, 7) and (5, 9)), searched by staretc with the game's
// evaluator; the caller sets Game.
func DefaultCollectSettings(g search.Kit) CollectSettings {
	s := CollectSettings{Count: 1000, Min: 5, Max: 12, Seed: 1,
		Pairs: []Pair{{3, 7}, {5, 9}}, Engine: "staretc", Workers: 1, Chunk: 50}
	if d := g.Defaults.CollectPhases; d != [2]int{} {
		s.Min, s.Max = d[0], d[1]
	}
	if n := g.Defaults.SampleCount; n > 0 {
		s.Count = n
	}
	if d := g.Defaults.CollectPairs; len(d) > 0 {
		s.Pairs = nil
		for _, p := range d {
			s.Pairs = append(s.Pairs, Pair{p[0], p[1]})
		}
	}
	return s
}

// Row is one chance event searched to one depth pair. Position is the
// chance node in the game's notation (Dice: the position before the roll),
// Phase its phase (Game.Phase; Dice: the checkers on the board), Event the
// event's ID (Dice: the line the die shows) and Weight its weight out of
// the node's Total, its probability Weight/Total; both searches start from
// the state after the event. Values are from the view of that state's
// mover: the chance node's, the side that moves after the event, in a
// game of fixed signs (game.State). Rows read from a version-1
// file (Dice's) have Total 0: it was not recorded.
type Row struct {
	Game         string  `parquet:"game" json:"game"`
	Variant      string  `parquet:"variant" json:"variant"`
	Position     string  `parquet:"position" json:"position"`
	Phase        int32   `parquet:"phase" json:"phase"`
	Event        int32   `parquet:"event" json:"event"`
	Weight       int32   `parquet:"weight" json:"weight"`
	Total        int32   `parquet:"total" json:"total"`
	GameID       int64   `parquet:"game_id" json:"game_id"`
	ShallowDepth int32   `parquet:"shallow_depth" json:"shallow_depth"`
	DeepDepth    int32   `parquet:"deep_depth" json:"deep_depth"`
	VShallow     float64 `parquet:"v_shallow" json:"v_shallow"`
	VDeep        float64 `parquet:"v_deep" json:"v_deep"`
	NodesShallow int64   `parquet:"nodes_shallow" json:"nodes_shallow"`
	NodesDeep    int64   `parquet:"nodes_deep" json:"nodes_deep"`
	MsShallow    float64 `parquet:"ms_shallow" json:"ms_shallow"`
	MsDeep       float64 `parquet:"ms_deep" json:"ms_deep"`
	Eval         string  `parquet:"eval" json:"eval"`
	NetID        string  `parquet:"net_id" json:"net_id"`
	Seed         int64   `parquet:"seed" json:"seed"`
}

// rowV1 is a row of a version-1 part file: a Dice chance node (dpn) of an
// n x n board with win length m, with its checkers and the rolled line,
// and the columns of Row but those of rowV1Lacks.
type rowV1 struct {
	Row
	DPN      string `parquet:"dpn"`
	N        int32  `parquet:"n"`
	M        int32  `parquet:"m"`
	Checkers int32  `parquet:"checkers"`
	Roll     int32  `parquet:"roll"`
}

// rowV1Lacks are the columns of Row that version 1 did not have: it named
// no game, it had the position as dpn, its checkers and roll as the phase
// and the event, and no weights.
var rowV1Lacks = []string{"game", "variant", "position", "phase", "event", "weight", "total"}

// maxV1Board is the largest board of a version-1 row: the largest Dice
// board, the only game such rows are of.
const maxV1Board = 17

// row returns the version-2 row a version-1 row means: the Dice variant
// "<n>x<n>-<m>", the checkers as the phase, the roll as the event, of
// weight 1 out of a total that was not recorded (0).
func (r rowV1) row() (Row, error) {
	if r.N < 1 || r.N > maxV1Board || r.M < 1 || r.M > r.N {
		return Row{}, fmt.Errorf("board %dx%d/%d", r.N, r.N, r.M)
	}
	if r.Checkers > r.N*r.N {
		return Row{}, fmt.Errorf("%d checkers on a %dx%d board", r.Checkers, r.N, r.N)
	}
	row := r.Row
	row.Game, row.Variant, row.Position = "dice", fmt.Sprintf("%dx%d-%d", r.N, r.N, r.M), r.DPN
	row.Phase, row.Event, row.Weight, row.Total = r.Checkers, r.Roll, 1, 0
	return row, nil
}

// Check checks the settings and everything the stage will read: the
// suite (one variant, and a chance node for every position), the
// engine's net and parameters, and that they fit the positions' variant.
// It fills in GameName and, from the suite, Variant. A command calls it
// before it makes the run directory, so bad input leaves no run behind.
// Errors are runs.UsageError.
func (s *CollectSettings) Check() error {
	r, err := s.resolve()
	if err != nil {
		return err
	}
	nodes, err := s.suiteNodes()
	if err != nil {
		return err
	}
	if err := s.Kit.Check(r, nodes[0]); err != nil {
		return runs.Usagef("-engine %s: %v", s.Engine, err)
	}
	return nil
}

// CheckSyntax is Check without opening the files the engine names (the
// net, the ChanceProbCut parameters), which a pipeline makes before this
// stage runs; it reads the suite.
func (s *CollectSettings) CheckSyntax() error {
	if _, err := s.engineSpec(); err != nil {
		return err
	}
	_, err := s.suiteNodes()
	return err
}

// PositionsVariant returns the variant of the positions: the suite's,
// which must hold one variant and a chance node for every position, or
// Variant (the game's default when "") for sampled positions. Errors are
// runs.UsageError.
func (s *CollectSettings) PositionsVariant() (string, error) {
	if err := s.checkGame(); err != nil {
		return "", err
	}
	nodes, err := s.suiteNodes()
	if err != nil {
		return "", err
	}
	return s.Kit.Variant(nodes[0]), nil
}

// checkGame checks that the settings have a game, of the name recorded,
// and no board of an earlier format, and fills in GameName.
func (s *CollectSettings) checkGame() error {
	if s.N != 0 || s.M != 0 {
		return runs.Usagef("collect settings with n %d and m %d are of an earlier format, which named no game; collect again (fit still reads their rows)", s.N, s.M)
	}
	return s.Kit.Bind("collect settings", &s.GameName)
}

// suiteNodes returns the chance nodes of the suite's positions, checked,
// filling in Variant from the suite; for sampled positions, the start of
// Variant, to check the engine against. Errors are runs.UsageError.
func (s *CollectSettings) suiteNodes() ([]game.State, error) {
	if s.Suite == "" {
		ss := s.sample()
		if err := ss.Check(); err != nil {
			return nil, err
		}
		s.Variant = ss.Variant
		start, _ := s.Kit.New(s.Variant) // ss.Check read it
		return []game.State{start}, nil
	}
	ps, err := search.ReadSuite(s.Kit, s.Suite)
	if err != nil {
		return nil, runs.Usagef("-suite: %v", err)
	}
	nodes, variant, err := chanceNodes(s.Kit, ps)
	if err != nil {
		return nil, runs.Usagef("-suite %s: %v", s.Suite, err)
	}
	if s.Variant == "" {
		s.Variant = variant
	}
	if s.Variant != variant {
		return nil, runs.Usagef("-suite %s holds positions of variant %s, not %s", s.Suite, variant, s.Variant)
	}
	return nodes, nil
}

// chanceNodes returns the chance node searched for each suite position, a
// new state: the position itself when it is a chance node, else its
// chance node (search.Kit.ChanceNode: in Dice the position before its
// roll), and the positions' variant, which must be one. A finished
// position, or a decision without a chance node, has no chance events to
// search and is refused.
func chanceNodes(g search.Kit, ps []search.SuitePosition) ([]game.State, string, error) {
	variant := g.Variant(ps[0].Pos)
	nodes := make([]game.State, len(ps))
	for i, p := range ps {
		if v := g.Variant(p.Pos); v != variant {
			return nil, "", fmt.Errorf("suite position %d (line %d) is of variant %s, the first is of %s: one variant per collect", i+1, p.Line, v, variant)
		}
		switch p.Pos.Kind() {
		case game.Chance:
			nodes[i] = p.Pos.Clone()
		case game.Decision:
			c, ok := g.ChanceNode(p.Pos)
			if !ok {
				return nil, "", fmt.Errorf("suite position %d (line %d, %s) has no chance node to search", i+1, p.Line, p.Pos)
			}
			nodes[i] = c
		default:
			return nil, "", fmt.Errorf("suite position %d (line %d, %s) is finished: it has no chance events", i+1, p.Line, p.Pos)
		}
	}
	return nodes, variant, nil
}

// resolve checks the settings and resolves the engine.
func (s *CollectSettings) resolve() (*search.Resolved, error) {
	spec, err := s.engineSpec()
	if err != nil {
		return nil, err
	}
	r, err := spec.Config.ResolveIn(s.Products)
	if err != nil {
		return nil, runs.Usagef("-engine %s: %v", s.Engine, err)
	}
	return r, nil
}

// engineSpec checks the settings and parses the engine, which must be
// sound and carry no limits.
func (s *CollectSettings) engineSpec() (search.Spec, error) {
	var none search.Spec
	if err := s.checkGame(); err != nil {
		return none, err
	}
	if len(s.Pairs) == 0 {
		return none, runs.Usagef("-pairs: want at least one depth pair")
	}
	seen := map[Pair]bool{}
	for _, p := range s.Pairs {
		if p.Shallow < 1 || p.Deep <= p.Shallow || p.Deep > search.MaxDepthLimit {
			return none, runs.Usagef("-pairs %s: want 1 <= shallow < deep <= %d", p, search.MaxDepthLimit)
		}
		if seen[p] {
			return none, runs.Usagef("-pairs: %s given twice", p)
		}
		seen[p] = true
	}
	if s.Chunk < 1 {
		return none, runs.Usagef("-chunk %d: want at least 1", s.Chunk)
	}
	if err := runs.CheckWorkers("workers", s.Workers); err != nil {
		return none, err
	}
	bad := func(err error) (search.Spec, error) { return none, runs.Usagef("-engine %s: %v", s.Engine, err) }
	spec, err := s.Kit.ParseSpec(s.Engine)
	if err != nil {
		return bad(err)
	}
	if !spec.Algorithm.Sound() {
		return bad(fmt.Errorf("%s is not sound: the pairs must hold expectimax values", spec.Algorithm))
	}
	if spec.Limits != (search.Limits{}) {
		return bad(fmt.Errorf("give no limits: the depth pairs set them"))
	}
	return spec, nil
}

// sample returns the settings of the sampled suite: positions at the
// chance node before a decision, where an event led to it (Rolled 0).
func (s *CollectSettings) sample() selfplay.SampleSettings {
	ss := selfplay.DefaultSampleSettings(s.Kit)
	ss.Variant = s.Variant
	ss.Count, ss.Min, ss.Max, ss.Seed, ss.Rolled = s.Count, s.Min, s.Max, s.Seed, 0
	return ss
}

// CollectResult is what a collect wrote.
type CollectResult struct {
	Positions int `json:"positions"`
	Rows      int `json:"rows"`
	Parts     int `json:"parts"`
	Resumed   int `json:"parts_resumed"` // part files found from an earlier process
	// Seconds is the whole collect's time, as train gives a resumed run's:
	// this process's, and the earlier processes' up to the last part file
	// they wrote (its metadata partSecondsKey), beside the counts of the
	// whole run's rows and parts.
	Seconds float64 `json:"seconds"`
	Dir     string  `json:"dir"` // the directory of the part files
}

// positions reads or samples the suite and returns the chance node of
// each position; a run keeps its suite in suite.txt, so a resume searches
// the same positions.
func (s *CollectSettings) positions(ctx context.Context, run *runs.Run, progress runs.Progress) ([]game.State, error) {
	path := run.Path(SuiteFile)
	if _, err := os.Stat(path); err != nil {
		var lines []string
		if s.Suite != "" {
			ps, err := search.ReadSuite(s.Kit, s.Suite)
			if err != nil {
				return nil, err
			}
			for _, p := range ps {
				lines = append(lines, p.Pos.String())
			}
		} else {
			lines, err = selfplay.SampleSuite(ctx, s.sample(), progress)
			if err != nil {
				return nil, err
			}
		}
		if err := runs.WriteBytesAtomic(path, []byte(strings.Join(lines, "\n")+"\n")); err != nil {
			return nil, err
		}
	}
	ps, err := search.ReadSuite(s.Kit, path)
	if err != nil {
		return nil, err
	}
	nodes, variant, err := chanceNodes(s.Kit, ps)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if s.Variant != "" && variant != s.Variant {
		return nil, fmt.Errorf("%s holds positions of variant %s, not %s", path, variant, s.Variant)
	}
	return nodes, nil
}

// partSecondsKey is the Parquet metadata of a part file that holds the
// collect's time when it was written, in seconds over every process of
// the run, so that a resumed collect counts the earlier processes' time.
// Part files of earlier builds have none, and count nothing.
const partSecondsKey = "starlab.seconds"

// partName is the file of chunk c.
func partName(c int) string { return filepath.Join(RowsDir, fmt.Sprintf("part-%05d.parquet", c)) }

// Collect searches every chance event of the chance node of every
// position to both depths of every pair and writes the rows, chunk by
// chunk, as Parquet part files under rows/ in the run directory, whose
// metadata name the game and the variant. A part file is written whole or
// not at all, so a resumed collect redoes only the chunks without one and
// ends with the rows of an uninterrupted collect (times aside). With a
// Shard it does only the chunks the shard owns.
func Collect(ctx context.Context, s CollectSettings, run *runs.Run, progress runs.Progress) (CollectResult, error) {
	start := time.Now()
	res, err := s.resolve()
	if err != nil {
		return CollectResult{}, err
	}
	nodes, err := s.positions(ctx, run, progress)
	if err != nil {
		return CollectResult{}, err
	}
	g := s.Kit
	if err := g.Check(res, nodes[0]); err != nil {
		return CollectResult{}, err
	}
	variant, netID := g.Variant(nodes[0]), g.NetID(res, nodes[0])
	if err := os.MkdirAll(run.Path(RowsDir), 0o755); err != nil {
		return CollectResult{}, err
	}
	out := CollectResult{Positions: len(nodes), Dir: run.Path(RowsDir)}
	prior := 0.0 // the earlier processes' time, up to their last part file
	elapsed := func() float64 { return prior + time.Since(start).Seconds() }
	chunks := (len(nodes) + s.Chunk - 1) / s.Chunk
	type job struct{ chunk, pos int }
	type chunkRows struct {
		chunk int
		rows  []Row
	}
	var jobs []job
	pending := map[int]int{} // chunk -> positions still to search
	for c := 0; c < chunks; c++ {
		if !s.Shard.Owns(c) {
			continue
		}
		out.Parts++
		if _, err := os.Stat(run.Path(partName(c))); err == nil {
			rows, err := readPart(run.Path(partName(c)))
			if err != nil {
				return out, err
			}
			if v, ok, err := runs.ParquetMeta(run.Path(partName(c)), partSecondsKey); err == nil && ok {
				if sec, err := strconv.ParseFloat(v, 64); err == nil && sec >= 0 && !math.IsInf(sec, 0) {
					prior = max(prior, sec)
				}
			}
			out.Resumed++
			out.Rows += len(rows)
			continue
		}
		for p := c * s.Chunk; p < min(len(nodes), (c+1)*s.Chunk); p++ {
			jobs = append(jobs, job{c, p})
			pending[c]++
		}
	}
	total := int64(len(jobs))
	progress(0, total, "")
	rowsOf := map[int][]Row{}
	done := int64(0)
	meta := []string{"starlab.game", g.Name(), "starlab.variant", variant,
		"starlab.engine", res.Config().String(), "starlab.net_id", netID, "starlab.build", runs.BuildVersion()}
	err = runs.Pool(ctx, s.Workers, jobs,
		func() search.Engine { return g.NewEngine(res) },
		func(ctx context.Context, e search.Engine, j job) (chunkRows, error) {
			rows, err := s.events(ctx, e, nodes[j.pos], int64(j.pos), variant, netID)
			return chunkRows{j.chunk, rows}, err
		},
		func(r chunkRows) (bool, error) {
			c := r.chunk
			rowsOf[c] = append(rowsOf[c], r.rows...)
			done++
			progress(done, total, "")
			if pending[c]--; pending[c] == 0 {
				part := rowsOf[c]
				slices.SortStableFunc(part, func(a, b Row) int { return int(a.GameID - b.GameID) })
				at := strconv.FormatFloat(elapsed(), 'g', -1, 64)
				if err := runs.WriteParquet(run, partName(c), RowsFormat, part, append(slices.Clip(meta), partSecondsKey, at)...); err != nil {
					return false, err
				}
				out.Rows += len(part)
				delete(rowsOf, c)
			}
			return false, nil
		})
	if err != nil {
		return out, err
	}
	out.Seconds = elapsed()
	return out, nil
}

// events searches every chance event of the chance node to every depth
// pair, from the state after the event, fresh table and full window for
// each search.
func (s *CollectSettings) events(ctx context.Context, e search.Engine, node game.State, id int64, variant, netID string) ([]Row, error) {
	evs, total := node.Outcomes(nil)
	var rows []Row
	text, phase := node.String(), int32(s.Kit.Phase(node))
	for _, ev := range evs {
		after := node.Clone()
		after.Happen(ev)
		searched := map[int]search.Iteration{}
		value := func(depth int) (search.Iteration, error) {
			if it, ok := searched[depth]; ok {
				return it, nil
			}
			it, err := searchFresh(ctx, e, after, depth)
			searched[depth] = it
			return it, err
		}
		for _, p := range s.Pairs {
			sh, err := value(p.Shallow)
			if err != nil {
				return nil, err
			}
			dp, err := value(p.Deep)
			if err != nil {
				return nil, err
			}
			rows = append(rows, Row{Game: s.Kit.Name(), Variant: variant, Position: text, Phase: phase,
				Event: int32(ev.ID), Weight: int32(ev.Weight), Total: int32(total), GameID: id,
				ShallowDepth: int32(p.Shallow), DeepDepth: int32(p.Deep),
				VShallow: sh.Score, VDeep: dp.Score, NodesShallow: sh.Nodes, NodesDeep: dp.Nodes,
				MsShallow: ms(sh.Time), MsDeep: ms(dp.Time), Eval: e.Config().Eval, NetID: netID, Seed: int64(s.Seed)})
		}
	}
	return rows, nil
}

// searchFresh searches root to depth with a fresh table and a full
// window, as every search of collect and tune does.
func searchFresh(ctx context.Context, e search.Engine, root game.State, depth int) (search.Iteration, error) {
	e.ClearTT()
	r := e.Search(ctx, root, search.Limits{Depth: depth}, nil)
	if err := ctx.Err(); err != nil {
		return search.Iteration{}, err
	}
	if r.Stopped {
		return search.Iteration{}, fmt.Errorf("the search of %s to depth %d stopped early", root, depth)
	}
	return r.Last(), nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// readPart reads a part file, of either version, and checks its rows: a
// game and a variant, a phase, an event of a weight within its total (0
// for version 1, which did not record it), 0 <= shallow < deep depths,
// values finite and within the score range [-1, 1], counts and times not
// negative. Errors name the file and the row.
func readPart(path string) ([]Row, error) {
	format, err := runs.ParquetFormat(path)
	if err != nil {
		return nil, err
	}
	var rows []Row
	if format == rowsFormatV1 {
		old, err := runs.ReadOldParquet[rowV1](path, rowsFormatV1, rowV1Lacks...)
		if err != nil {
			return nil, err
		}
		rows = make([]Row, len(old))
		for i, r := range old {
			if rows[i], err = r.row(); err != nil {
				return nil, fmt.Errorf("%s: row %d: %v", path, i+1, err)
			}
		}
	} else if rows, err = runs.ReadParquet[Row](path, RowsFormat); err != nil {
		return nil, err
	}
	for i := range rows {
		if err := rows[i].check(); err != nil {
			return nil, fmt.Errorf("%s: row %d: %v", path, i+1, err)
		}
	}
	return rows, nil
}

// check checks one row for what a collect can write.
func (r *Row) check() error {
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	switch {
	case r.Game == "" || r.Variant == "":
		return fmt.Errorf("game %q variant %q: want both named", r.Game, r.Variant)
	case r.Phase < 0 || r.Event < 0:
		return fmt.Errorf("phase %d, event %d: want neither negative", r.Phase, r.Event)
	case r.Weight < 1 || r.Total < 0 || (r.Total > 0 && r.Weight > r.Total):
		return fmt.Errorf("event weight %d of %d: want 1 <= weight <= total", r.Weight, r.Total)
	case r.ShallowDepth < 0 || r.DeepDepth <= r.ShallowDepth:
		return fmt.Errorf("depths %d and %d: want 0 <= shallow < deep", r.ShallowDepth, r.DeepDepth)
	case !finite(r.VShallow) || !finite(r.VDeep) || math.Abs(r.VShallow) > 1 || math.Abs(r.VDeep) > 1:
		return fmt.Errorf("values %v and %v: want scores in [-1, 1]", r.VShallow, r.VDeep)
	case r.NodesShallow < 0 || r.NodesDeep < 0 || r.GameID < 0:
		return fmt.Errorf("a negative count (nodes %d and %d, game %d)", r.NodesShallow, r.NodesDeep, r.GameID)
	case !finite(r.MsShallow) || !finite(r.MsDeep) || r.MsShallow < 0 || r.MsDeep < 0:
		return fmt.Errorf("times %v and %v ms: want finite and not negative", r.MsShallow, r.MsDeep)
	}
	return nil
}

// ReadRows reads collect rows from Parquet files: each argument a file, or
// a directory whose *.parquet files (and those of its rows/ directory, for
// a run directory) are read in name order. A file that two arguments
// reach (one given twice, or a run directory and one of its part files)
// is refused: its rows would count twice. What the arguments name (a path
// that is missing, given twice, or a file that is not collect rows) is a
// usage error; a damaged part file inside a directory, which starlab
// wrote, is not.
func ReadRows(paths ...string) ([]Row, error) {
	var files []string
	direct := map[string]bool{} // files given as arguments
	type seen struct {
		fi       os.FileInfo
		file, by string
	}
	var read []seen
	add := func(f, by string) error {
		fi, err := os.Stat(f)
		if err != nil {
			return runs.Usagef("collect rows: %v", err)
		}
		for _, s := range read {
			if os.SameFile(s.fi, fi) {
				if s.by == by {
					return runs.Usagef("collect rows: %s is given twice", by)
				}
				return runs.Usagef("collect rows: %s is read twice, from %s and from %s: its rows would count twice", s.file, s.by, by)
			}
		}
		read = append(read, seen{fi, f, by})
		files = append(files, f)
		return nil
	}
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			return nil, runs.Usagef("collect rows: %v", err)
		}
		if !fi.IsDir() {
			if err := add(p, p); err != nil {
				return nil, err
			}
			direct[p] = true
			continue
		}
		dir := p
		if _, err := os.Stat(filepath.Join(p, RowsDir)); err == nil {
			dir = filepath.Join(p, RowsDir)
		}
		found, err := filepath.Glob(filepath.Join(dir, "*.parquet"))
		if err != nil {
			return nil, err
		}
		if len(found) == 0 {
			return nil, runs.Usagef("%s: no Parquet files", p)
		}
		slices.Sort(found)
		for _, f := range found {
			if err := add(f, p); err != nil {
				return nil, err
			}
		}
	}
	var rows []Row
	for _, f := range files {
		rs, err := readPart(f)
		if err != nil {
			if direct[f] {
				return nil, runs.Usage(err)
			}
			return nil, err
		}
		rows = append(rows, rs...)
	}
	return rows, nil
}

// FormatPairs writes pairs as ParsePairs reads them: "3:7,5:9".
func FormatPairs(pairs []Pair) string {
	s := make([]string, len(pairs))
	for i, p := range pairs {
		s[i] = p.String()
	}
	return strings.Join(s, ",")
}
