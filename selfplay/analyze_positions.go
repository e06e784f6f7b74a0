package selfplay

import (
	"context"
	"fmt"
	"io"

	"starlab/runs"
	"starlab/search/game"
)

// judgedPosition is one position of an analysis of engines on positions:
// its number (from 1, in the settings' order) and its state.
type judgedPosition struct {
	number int
	state  game.State
}

// positionJudge is one worker's judge and the engines it judges.
type positionJudge struct {
	*gameJudge
	players []matchPlayer
}

// analyzePositions is Analyze of engines on positions: at each position
// with more than one legal move every engine chooses (its tables emptied
// first, so that its choice is the same on any worker), and the judge
// values every legal move once. Each position is journalled as it is
// judged, keyed by its number.
func (s *AnalyzeSettings) analyzePositions(ctx context.Context, judge Engine, run *runs.Run, progress runs.Progress) (*AnalyzeResult, error) {
	engines, positions, variant, err := s.resolvePositions()
	if err != nil {
		return nil, err
	}
	done, err := loadAnalysed(run.Dir())
	if err != nil {
		return nil, err
	}
	var todo []judgedPosition
	for _, p := range positions {
		a, ok := done[p.number]
		switch {
		case ok && a.Start != p.state.String():
			return nil, fmt.Errorf("position %d is not the position this run judged: start the analysis afresh", p.number)
		case !ok:
			todo = append(todo, p)
		}
	}
	if len(todo) > 0 {
		if err := s.judgePositions(ctx, judge, engines, variant, todo, done, len(positions), run, progress); err != nil {
			return nil, err
		}
	}
	var names [2]string
	for i, e := range engines {
		names[i] = e.Name()
	}
	return writeJudged(run, s.judgeName(), names, done, true)
}

// resolvePositions parses the engines (one or two) and the positions this
// shard judges: decisions of one variant, those with one legal move left
// out.
func (s *AnalyzeSettings) resolvePositions() ([]Engine, []judgedPosition, string, error) {
	g := s.Kit
	if n := len(s.Engines); n < 1 || n > 2 {
		return nil, nil, "", runs.Usagef("give one or two engines to judge on the positions, not %d", n)
	}
	var engines []Engine
	for _, spec := range s.Engines {
		e, err := ParseEngine(g, spec)
		if err != nil {
			return nil, nil, "", err
		}
		if e.Outside == nil && !e.Deterministic() {
			return nil, nil, "", runs.Usagef("%s: give a depth or node limit, so that its choices are the same on any machine", spec)
		}
		engines = append(engines, e)
	}
	var positions []judgedPosition
	var moves []game.Move
	variant := ""
	for i, text := range s.Positions {
		st, err := g.Parse(text)
		if err != nil {
			return nil, nil, "", runs.Usagef("position %d: %v", i+1, err)
		}
		if st.Kind() != game.Decision {
			return nil, nil, "", runs.Usagef("position %d (%s): not a decision (a position after its chance event)", i+1, text)
		}
		if variant == "" {
			variant = g.Variant(st)
		}
		if v := g.Variant(st); v != variant {
			return nil, nil, "", runs.Usagef("position %d (%s) is of variant %s, the first's is %s", i+1, text, v, variant)
		}
		for _, e := range engines {
			if e.Resolved != nil {
				if err := g.Check(e.Resolved, st); err != nil {
					return nil, nil, "", runs.Usagef("%s, position %d: %v", e.Name(), i+1, err)
				}
			}
		}
		if moves = st.Legal(moves); len(moves) > 1 && s.Shard.Owns(i) {
			positions = append(positions, judgedPosition{number: i + 1, state: st})
		}
	}
	return engines, positions, variant, nil
}

// judgePositions judges the positions in todo on the workers, journalling
// each and adding it to done.
func (s *AnalyzeSettings) judgePositions(ctx context.Context, judge Engine, engines []Engine, variant string, todo []judgedPosition, done map[int]analysedGame, total int, run *runs.Run, progress runs.Progress) error {
	journal, log, closeWork, err := openWork(run.Dir(), AnalyzeJournal, AnalyzeFormat)
	if err != nil {
		return err
	}
	defer closeWork()
	cfg := &MatchConfig{Kit: s.Kit, EngineLog: log}
	progress(int64(total-len(todo)), int64(total), "")
	var ws workers[*positionJudge]
	defer ws.close()
	return runs.Pool(ctx, s.Workers, todo,
		func() *positionJudge {
			w := &positionJudge{gameJudge: s.newJudge(ctx, judge, variant, io.Writer(log))}
			for _, e := range engines {
				w.players = append(w.players, cfg.playerOf(e, variant))
			}
			return ws.keep(w)
		},
		func(ctx context.Context, w *positionJudge, p judgedPosition) (analysedGame, error) {
			if w.err != nil {
				return analysedGame{}, w.err
			}
			return w.judgePosition(ctx, s, p)
		},
		func(a analysedGame) (bool, error) {
			done[a.Game] = a
			progress(int64(len(done)), int64(total), "")
			return false, journal.Append(a)
		})
}

// close stops the judge's program and the engines' outside programs.
func (w *positionJudge) close() {
	w.gameJudge.close()
	for _, p := range w.players {
		if o, ok := p.(*outsidePlayer); ok {
			o.close()
		}
	}
}

// judgePosition has each engine choose at p and the judge value every
// legal move.
func (w *positionJudge) judgePosition(ctx context.Context, s *AnalyzeSettings, p judgedPosition) (analysedGame, error) {
	out := analysedGame{Game: p.number, Start: p.state.String()}
	moves := p.state.Legal(nil)
	var verr error
	values := valueMoves(p.state, moves, w.scale, w.afresh(ctx, &verr))
	if verr != nil {
		return out, verr
	}
	for i, player := range w.players {
		if err := player.newGame(ctx, PairSeed(0, 0, p.number)); err != nil {
			return out, err
		}
		ch := player.Choose(ctx, p.state)
		if err := ctx.Err(); err != nil {
			return out, err
		}
		if ch.Forfeit != nil {
			return out, fmt.Errorf("position %d: %s gave no legal move: %s", p.number, player.Name(), ch.Forfeit.Reason)
		}
		d, err := decisionOf(s.Kit, p.state, moves, values, ch.Move)
		if err != nil {
			return out, fmt.Errorf("position %d: %s: %v", p.number, player.Name(), err)
		}
		d.Game, d.Player = int32(p.number), string(rune('A'+i))
		out.Decisions = append(out.Decisions, d)
	}
	return out, nil
}
