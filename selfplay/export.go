package selfplay

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"starlab/runs"
	"starlab/search"
	"starlab/search/game"
)

// ExportSettings are the export stage's settings: the match run whose
// games are written in another program's format (search.Exporter).
type ExportSettings struct {
	Kit      search.Kit `json:"-"`
	GameName string     `json:"game"`
	// Match is the match run's directory.
	Match string `json:"match"`
	// Positions, if above 0, exports positions in place of games: a suite
	// (PositionsFile) of at most that many decisions with more than one
	// legal move a game, evenly spaced through it, each position once.
	Positions int `json:"positions,omitempty"`
}

// PositionsFile is the suite an export of positions writes.
const PositionsFile = "positions.suite"

// ExportResult is what the export stage wrote.
type ExportResult struct {
	Format string   `json:"format"`
	Files  []string `json:"files"`
	Games  int      `json:"games"`
	// Forfeits are the games an outside engine forfeited, which are not
	// written: no match file records a reply that could not be played.
	Forfeits int `json:"forfeits"`
}

// Export is the export stage: the games of a finished or stopped match of
// two engines, read from its journal through the one reader of match
// records, written into run as the game's Exporter writes them (backgammon:
// Jellyfish match files that gnubg imports), the first engine as the first
// player. A game an engine forfeited is left out and counted.
func Export(ctx context.Context, s ExportSettings, run *runs.Run, progress runs.Progress) (*ExportResult, error) {
	files, res, err := ExportFiles(ctx, s)
	if err != nil {
		return nil, err
	}
	for i, f := range files {
		if err := runs.WriteFileAtomic(run.Path(f.Name), func(w io.Writer) error { _, err := w.Write(f.Data); return err }); err != nil {
			return nil, err
		}
		res.Files = append(res.Files, run.Path(f.Name))
		progress(int64(i+1), int64(len(files)), "")
	}
	return res, nil
}

// ExportFiles returns the files Export writes, with its result but for
// their paths, writing nothing: a command calls it before a run directory
// exists, so that a match the format cannot hold (a game from a suite
// position, where match files start at the start) is refused first.
func ExportFiles(ctx context.Context, s ExportSettings) ([]search.ExportFile, *ExportResult, error) {
	g := s.Kit
	if err := g.Bind("export settings", &s.GameName); err != nil {
		return nil, nil, err
	}
	if s.Positions > 0 {
		return exportPositions(ctx, s)
	}
	if s.Positions < 0 {
		return nil, nil, runs.Usagef("-positions %d: want a number of positions a game, 1 or more", s.Positions)
	}
	if g.Export == nil {
		return nil, nil, runs.Usagef("%s has no other program's format to export its games in", g.Name())
	}
	set, recs, err := readMatchRun(g, s.Match)
	if err != nil {
		return nil, nil, err
	}
	m := search.ExportMatch{Variant: set.Variant, Names: set.twoEngines()}
	res := &ExportResult{Format: g.Export.Format}
	for _, r := range recs {
		for _, pgm := range r.Pair.Games {
			if pgm.Game.Forfeit != nil {
				res.Forfeits++
				continue
			}
			start, err := g.Parse(pgm.Game.Start)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: pair %d: start %q: %v", s.Match, r.Pair.Index, pgm.Game.Start, err)
			}
			eg := search.ExportGame{Start: start, First: 1}
			if pgm.AIsBlue {
				eg.First = 0
			}
			for _, a := range pgm.Game.Actions {
				eg.Actions = append(eg.Actions, int(a))
			}
			m.Games = append(m.Games, eg)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	files, err := g.Export.Files(m)
	if err != nil {
		// The match run is a file the user named: what the format cannot
		// hold in it, or a record that does not replay, is bad input.
		return nil, nil, runs.Usagef("%s: %v", s.Match, err)
	}
	res.Games = len(m.Games)
	return files, res, nil
}

// MatchOfTwo reads the settings of the match run in dir, which must be a
// match of two engines, without its game (a command looks the game up
// by the name they record) and without its records: what export and
// analyze refuse before a run directory exists.
func MatchOfTwo(dir string) (*MatchSettings, error) {
	src, err := runs.Open(dir)
	if err != nil {
		return nil, err
	}
	if c := src.Manifest().Command; c != "match" {
		return nil, runs.Usagef("%s is a %s run, not a match", dir, c)
	}
	var set MatchSettings
	if err := src.Settings(&set); err != nil {
		return nil, fmt.Errorf("%s: settings: %v", dir, err)
	}
	if n := len(set.Pairings()); n != 1 {
		return nil, runs.Usagef("%s is a match of %d engines, not of two", dir, len(set.Engines))
	}
	return &set, nil
}

// twoEngines returns the engines of a match of two, the first and the
// second (A and B).
func (s *MatchSettings) twoEngines() [2]string {
	pg := s.Pairings()[0]
	return [2]string{s.Engines[pg.A], s.Engines[pg.B]}
}

// readMatchRun reads the settings (MatchOfTwo) and the records of the
// match run in dir, of game g, its records in pair order.
func readMatchRun(g search.Kit, dir string) (*MatchSettings, []MatchRecord, error) {
	set, err := MatchOfTwo(dir)
	if err != nil {
		return nil, nil, err
	}
	set.Kit = g
	m, err := set.resolve(openNone)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", dir, err)
	}
	recs, err := LoadMatchRecords(m, dir, set.Shard)
	if err != nil {
		return nil, nil, err
	}
	slices.SortFunc(recs, func(a, b MatchRecord) int { return a.Pair.Index - b.Pair.Index })
	return set, recs, nil
}

// exportPositions returns the suite of an export of positions: each
// game's decisions with more than one legal move, at most s.Positions of
// them a game at evenly spaced places, in the match's order, each
// position once.
func exportPositions(ctx context.Context, s ExportSettings) ([]search.ExportFile, *ExportResult, error) {
	g := s.Kit
	_, recs, err := readMatchRun(g, s.Match)
	if err != nil {
		return nil, nil, err
	}
	res := &ExportResult{Format: "suite"}
	seen := map[string]bool{}
	var lines []string
	var moves []game.Move
	for _, r := range recs {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		for _, pgm := range r.Pair.Games {
			var decisions []string
			if _, err := pgm.Game.Replay(g, func(_ int, st game.State) bool {
				if st.Kind() == game.Decision {
					if moves = st.Legal(moves); len(moves) > 1 {
						decisions = append(decisions, st.String())
					}
				}
				return true
			}); err != nil {
				return nil, nil, fmt.Errorf("%s: pair %d: %v", s.Match, r.Pair.Index, err)
			}
			res.Games++
			n := min(s.Positions, len(decisions))
			for i := range n {
				text := decisions[(2*i+1)*len(decisions)/(2*n)]
				if !seen[text] {
					seen[text] = true
					lines = append(lines, text)
				}
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# starlab export -positions %d of %s: %d positions, decisions with more than one legal move, from %d games\n", s.Positions, filepath.Base(s.Match), len(lines), res.Games)
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	return []search.ExportFile{{Name: PositionsFile, Data: []byte(b.String())}}, res, nil
}
