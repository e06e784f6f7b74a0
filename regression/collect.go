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
	"starlab/search/dice"
	diceengine "starlab/search/engine/dice"
	"starlab/selfplay"
)

// RowsFormat names the schema of the collect stage's Parquet files.
const RowsFormat = "starlab-collect/1"

// Files of a collect run.
const (
	SuiteFile = "suite.txt" // the positions, one DPN per line
	RowsDir   = "rows"      // part-NNNNN.parquet, one per chunk of positions
)

// Pair is one depth pair: the shallow and the deep depth of the chance
// event's subtree (the rolled position), the depths search.DepthPair
// holds.
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

// CollectSettings configure the collect stage.
type CollectSettings struct {
	// Suite is the file of positions; "" samples Count positions with Min
	// to Max checkers from self-play games seeded by Seed (starlab gen),
	// on an N x N board with win length M.
	Suite string `json:"suite,omitempty"`
	N     int    `json:"n"`
	M     int    `json:"m"`
	Count int    `json:"count"`
	Min   int    `json:"min"`
	Max   int    `json:"max"`
	Seed  uint64 `json:"seed"`
	Pairs []Pair `json:"pairs"`
	// Engine is the sound engine of every search, without limits, such as
	// "staretc:eval=mlp"; each search has a fresh table and a full window.
	Engine  string `json:"engine"`
	Workers int    `json:"workers"`
	// Chunk is the number of positions per Parquet part file.
	Chunk int        `json:"chunk"`
	Shard runs.Shard `json:"shard"`
}

// DefaultCollectSettings returns the chapter's setting (section 5.6.2):
// 1,000 5x5/4 positions with 5 to 12 checkers, depth pairs (3, 7) and
// (5, 9), searched by staretc with the default evaluator.
func DefaultCollectSettings() CollectSettings {
	return CollectSettings{N: 5, M: 4, Count: 1000, Min: 5, Max: 12, Seed: 1,
		Pairs: []Pair{{3, 7}, {5, 9}}, Engine: "staretc", Workers: 1, Chunk: 50}
}

// Row is one chance event searched to one depth pair. DPN is the position
// before the roll (the chance node); the event is Roll, the line the die
// shows, and both searches start from the rolled position. Values are for
// the side to move at the chance node, who is the side to move after the
// roll.
type Row struct {
	DPN          string  `parquet:"dpn" json:"dpn"`
	GameID       int64   `parquet:"game_id" json:"game_id"`
	N            int32   `parquet:"n" json:"n"`
	M            int32   `parquet:"m" json:"m"`
	Checkers     int32   `parquet:"checkers" json:"checkers"`
	Roll         int32   `parquet:"roll" json:"roll"`
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

// Check checks the settings and everything the stage will read: the
// suite (one board size, no finished position), the engine's net and
// parameters, and that they fit the positions' board. A command calls it
// before it makes the run directory, so bad input leaves no run behind.
// Errors are runs.UsageError.
func (s *CollectSettings) Check() error {
	r, err := s.resolve()
	if err != nil {
		return err
	}
	n, m, err := s.Board()
	if err != nil {
		return err
	}
	if err := diceengine.CheckBoard(r, n, m); err != nil {
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
	_, _, err := s.Board()
	return err
}

// Board returns the board size of the positions: the suite's, which must
// hold one board size and no finished position, or N x M for sampled
// positions. Errors are runs.UsageError.
func (s *CollectSettings) Board() (n, m int, err error) {
	if s.Suite == "" {
		return s.N, s.M, nil
	}
	ps, err := search.ReadSuite(dice.Game{}, s.Suite)
	if err != nil {
		return 0, 0, runs.Usagef("-suite: %v", err)
	}
	boards := make([]*dice.Board, len(ps))
	for i, p := range ps {
		boards[i] = p.Pos.(*dice.Board)
	}
	if n, m, err = checkPositions(boards); err != nil {
		return 0, 0, runs.Usagef("-suite %s: %v", s.Suite, err)
	}
	return n, m, nil
}

// checkPositions checks that the positions have one board size and
// chance events to search, and returns the size.
func checkPositions(boards []*dice.Board) (n, m int, err error) {
	n, m = boards[0].N(), boards[0].M()
	for i, b := range boards {
		if b.N() != n || b.M() != m {
			return 0, 0, fmt.Errorf("suite position %d is %dx%d/%d, the first is %dx%d/%d: one board size per collect", i+1, b.N(), b.N(), b.M(), n, n, m)
		}
		if b.Over() {
			return 0, 0, fmt.Errorf("suite position %d is finished: it has no chance events", i+1)
		}
	}
	return n, m, nil
}

// resolve checks the settings and resolves the engine.
func (s *CollectSettings) resolve() (*search.Resolved, error) {
	spec, err := s.engineSpec()
	if err != nil {
		return nil, err
	}
	r, err := spec.Config.Resolve()
	if err != nil {
		return nil, runs.Usagef("-engine %s: %v", s.Engine, err)
	}
	return r, nil
}

// engineSpec checks the settings and parses the engine, which must be
// sound and carry no limits.
func (s *CollectSettings) engineSpec() (search.Spec, error) {
	var none search.Spec
	if s.Suite == "" { // a suite is read by Board, or from the run on a resume
		if _, err := dice.New(s.N, s.M); err != nil {
			return none, runs.Usagef("-n %d -m %d: %v", s.N, s.M, err)
		}
		ss := s.sample()
		if err := ss.Check(); err != nil {
			return none, err
		}
		if s.Max >= s.N*s.N {
			return none, runs.Usagef("-min %d -max %d: want 0 <= min <= max < %d", s.Min, s.Max, s.N*s.N)
		}
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
	spec, err := search.ParseSpec(s.Engine)
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

func (s *CollectSettings) sample() selfplay.SampleSettings {
	ss := selfplay.DefaultSampleSettings(diceengine.Game())
	ss.Variant = dice.Variant(s.N, s.M)
	ss.Count, ss.Min, ss.Max, ss.Seed, ss.Rolled = s.Count, s.Min, s.Max, s.Seed, 0
	return ss
}

// CollectResult is what a collect wrote.
type CollectResult struct {
	Positions int     `json:"positions"`
	Rows      int     `json:"rows"`
	Parts     int     `json:"parts"`
	Resumed   int     `json:"parts_resumed"` // part files found from an earlier process
	Seconds   float64 `json:"seconds"`
	Dir       string  `json:"dir"` // the directory of the part files
}

// positions reads or samples the suite; a run keeps its suite in
// suite.txt, so a resume searches the same positions.
func (s *CollectSettings) positions(ctx context.Context, run *runs.Run, progress runs.Progress) ([]*dice.Board, error) {
	path := run.Path(SuiteFile)
	if _, err := os.Stat(path); err != nil {
		var lines []string
		if s.Suite != "" {
			ps, err := search.ReadSuite(dice.Game{}, s.Suite)
			if err != nil {
				return nil, err
			}
			for _, p := range ps {
				lines = append(lines, p.Pos.(*dice.Board).DPN())
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
	ps, err := search.ReadSuite(dice.Game{}, path)
	if err != nil {
		return nil, err
	}
	boards := make([]*dice.Board, len(ps))
	for i, p := range ps {
		b := *p.Pos.(*dice.Board)
		if b.Roll() != dice.NoRoll {
			b.ClearRoll() // the chance node before the position's roll
		}
		boards[i] = &b
	}
	return boards, nil
}

// partName is the file of chunk c.
func partName(c int) string { return filepath.Join(RowsDir, fmt.Sprintf("part-%05d.parquet", c)) }

// Collect searches every chance event of every position to both depths
// of every pair and writes the rows, chunk by chunk, as Parquet part files
// under rows/ in the run directory. A part file is written whole or not
// at all, so a resumed collect redoes only the chunks without one and ends
// with the rows of an uninterrupted collect (times aside). With a Shard it
// does only the chunks the shard owns.
func Collect(ctx context.Context, s CollectSettings, run *runs.Run, progress runs.Progress) (CollectResult, error) {
	start := time.Now()
	res, err := s.resolve()
	if err != nil {
		return CollectResult{}, err
	}
	boards, err := s.positions(ctx, run, progress)
	if err != nil {
		return CollectResult{}, err
	}
	n, m, err := checkPositions(boards)
	if err != nil {
		return CollectResult{}, fmt.Errorf("%s: %v", run.Path(SuiteFile), err)
	}
	if err := diceengine.CheckBoard(res, n, m); err != nil {
		return CollectResult{}, err
	}
	netID := diceengine.Game().NetID(res, boards[0])
	if err := os.MkdirAll(run.Path(RowsDir), 0o755); err != nil {
		return CollectResult{}, err
	}
	out := CollectResult{Positions: len(boards), Dir: run.Path(RowsDir)}
	chunks := (len(boards) + s.Chunk - 1) / s.Chunk
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
			out.Resumed++
			out.Rows += len(rows)
			continue
		}
		for p := c * s.Chunk; p < min(len(boards), (c+1)*s.Chunk); p++ {
			jobs = append(jobs, job{c, p})
			pending[c]++
		}
	}
	total := int64(len(jobs))
	progress(0, total, "")
	rowsOf := map[int][]Row{}
	done := int64(0)
	meta := []string{"starlab.engine", res.Config().String(), "starlab.net_id", netID, "starlab.build", runs.BuildVersion()}
	err = runs.Pool(ctx, s.Workers, jobs,
		func() *diceengine.Engine { return diceengine.New(res) },
		func(ctx context.Context, e *diceengine.Engine, j job) (chunkRows, error) {
			rows, err := s.events(ctx, e, boards[j.pos], int64(j.pos), netID)
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
				if err := runs.WriteParquet(run, partName(c), RowsFormat, part, meta...); err != nil {
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
	out.Seconds = time.Since(start).Seconds()
	return out, nil
}

// events searches every chance event of the chance node b to every depth
// pair, fresh table and full window for each search.
func (s *CollectSettings) events(ctx context.Context, e *diceengine.Engine, b *dice.Board, id int64, netID string) ([]Row, error) {
	var lines [dice.MaxN]int8
	k := b.Rolls(&lines)
	var rows []Row
	dpn := b.DPN()
	checkers := int32(b.N()*b.N() - b.Empties())
	for i := 0; i < k; i++ {
		rolled := *b
		rolled.SetRoll(int(lines[i]))
		searched := map[int]search.Iteration{}
		value := func(depth int) (search.Iteration, error) {
			if it, ok := searched[depth]; ok {
				return it, nil
			}
			it, err := searchFresh(ctx, e, &rolled, depth)
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
			rows = append(rows, Row{DPN: dpn, GameID: id, N: int32(b.N()), M: int32(b.M()), Checkers: checkers,
				Roll: int32(lines[i]), ShallowDepth: int32(p.Shallow), DeepDepth: int32(p.Deep),
				VShallow: sh.Score, VDeep: dp.Score, NodesShallow: sh.Nodes, NodesDeep: dp.Nodes,
				MsShallow: ms(sh.Time), MsDeep: ms(dp.Time), Eval: e.Config().Eval, NetID: netID, Seed: int64(s.Seed)})
		}
	}
	return rows, nil
}

// searchFresh searches root to depth with a fresh table and a full
// window, as every search of collect and tune does.
func searchFresh(ctx context.Context, e *diceengine.Engine, root *dice.Board, depth int) (search.Iteration, error) {
	e.ClearTT()
	r := e.Search(ctx, root, search.Limits{Depth: depth}, nil)
	if err := ctx.Err(); err != nil {
		return search.Iteration{}, err
	}
	if r.Stopped {
		return search.Iteration{}, fmt.Errorf("the search of %s to depth %d stopped early", root.DPN(), depth)
	}
	return r.Last(), nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// readPart reads a part file and checks its rows: a board of a known
// size, 0 <= shallow < deep depths, values finite and within the score
// range [-1, 1], counts and times not negative. Errors name the file and
// the row.
func readPart(path string) ([]Row, error) {
	rows, err := runs.ReadParquet[Row](path, RowsFormat)
	if err != nil {
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
	case r.N < 1 || r.N > dice.MaxN || r.M < 1 || r.M > r.N:
		return fmt.Errorf("board %dx%d/%d", r.N, r.N, r.M)
	case r.Checkers < 0 || r.Checkers > r.N*r.N:
		return fmt.Errorf("%d checkers on a %dx%d board", r.Checkers, r.N, r.N)
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
