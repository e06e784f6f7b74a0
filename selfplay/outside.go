package selfplay

import (
	"context"
	"fmt"
	"io"

	"starlab/outside"
	"starlab/search"
	"starlab/search/game"
)

// Forfeit is the loss of a game by an outside engine, as a game's record
// keeps it (outside.Forfeit).
type Forfeit = outside.Forfeit

// maxStartFailures is how many times in a row an outside engine may fail
// to start before a match stops: before that, each failure forfeits the
// game it was started for.
const maxStartFailures = 3

// outsidePlayer keeps one instance of an outside engine running for a match
// worker, starting it again before a game when it died in the last.
type outsidePlayer struct {
	o       outside.Engine
	g       search.Kit
	variant string
	log     io.Writer
	p       outside.Player
	failed  int    // starts that failed in a row
	lost    string // why this game is lost before it starts (a failed start), or ""
}

func (r *outsidePlayer) Name() string { return r.o.Name() }

func (r *outsidePlayer) newGame(ctx context.Context, seed uint64) error {
	r.lost = ""
	if r.p != nil && !r.p.Alive() {
		r.p.Close()
		r.p = nil
	}
	if r.p == nil {
		p, err := r.o.Start(ctx, r.g, r.variant, r.log)
		if ctx.Err() != nil {
			if p != nil {
				p.Close()
			}
			return ctx.Err()
		}
		if err != nil {
			r.failed++
			if r.failed >= maxStartFailures {
				return fmt.Errorf("%v (%d starts in a row failed)", err, r.failed)
			}
			outside.Notef(r.log, "%v; it forfeits this game and is started again before the next", err)
			r.lost = "could not be started: " + err.Error()
			return nil
		}
		r.p, r.failed = p, 0
	}
	if err := r.p.NewGame(ctx, seed); err != nil {
		r.lost = err.Error()
	}
	return nil
}

func (r *outsidePlayer) Choose(ctx context.Context, s game.State) Choice {
	if r.lost != "" {
		return Choice{Forfeit: outside.NewForfeit("exited", r.lost, "")}
	}
	rp := r.p.Choose(ctx, s)
	return Choice{Move: rp.Move, Score: rp.Score, Depth: rp.Depth, Nodes: rp.Nodes, Forfeit: rp.Forfeit}
}

func (r *outsidePlayer) close() {
	if r.p != nil {
		r.p.Close()
		r.p = nil
	}
}
