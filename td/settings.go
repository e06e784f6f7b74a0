package td

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"starlab/nn"
	"starlab/runs"
	"starlab/search"
	"starlab/search/game"
)

// Settings configure the train stage.
type Settings struct {
	// Kit is the game trained, which must have a network (search.NetKit);
	// GameName names it in the settings' JSON, and Variant is the variant
	// trained ("" is the game's default, which Check fills in).
	Kit      search.Kit `json:"-"`
	GameName string     `json:"game"`
	Variant  string     `json:"variant"`
	Games    int64      `json:"games"` // self-play games in all
	Seed     uint64     `json:"seed"`
	// Rate is the learning rate alpha; with Anneal it decays as
	// Rate*(g/1000+1)^-0.3 over games g (gnubg's schedule). 0 is the
	// game's default rate of the variant, which Check fills in.
	Rate   float64 `json:"rate"`
	Anneal bool    `json:"anneal"`
	// Lambda is TD(lambda)'s trace decay; 0 is the thesis's TD(0).
	Lambda float64 `json:"lambda"`
	// Expected makes the target of a position the mean over every roll of
	// the best 1-ply value, instead of the value after the roll that came.
	Expected bool `json:"expected"`
	// Explore is the probability of a random move instead of the 1-ply
	// best (the move is played; its update is made as for any other).
	Explore float64 `json:"explore"`
	// Hidden is the net's hidden units; 0 is the game's own size for the
	// variant. Layers are the sizes of the hidden layers after it (none:
	// the thesis's one hidden layer).
	Hidden int   `json:"hidden,omitempty"`
	Layers []int `json:"layers,omitempty"`
	// Inputs names the net's input set, one of the game's
	// (search.NetKit.Inputs): "" is the game's own, as in the thesis;
	// Dice has "threats" besides.
	Inputs string `json:"inputs,omitempty"`
	// Outcomes gives a new net the game's outputs of probabilities
	// (search.NetKit.Outcomes; backgammon's win, gammon and backgammon
	// chances of each side) in place of its one tanh output.
	// Trained by TD, each output moves towards its own target: its value
	// at the next afterstate, or the game's result; by search or rollout
	// targets, the net's value (their combination) moves towards the
	// target's. A net of -from keeps its own outputs.
	Outcomes bool `json:"outcomes,omitempty"`
	// Target is what each position moves towards: TargetTD (the default)
	// or TargetSearch, the value of a search of it by TargetSpec (an
	// engine spec with a depth; DefaultTargetSpec). Optimizer is OptSGD,
	// TD's, or OptAdam over mini-batches of MiniBatch positions, the
	// default for search targets (Rate then 0.001 by default).
	Target     string `json:"target,omitempty"`
	TargetSpec string `json:"target_spec,omitempty"`
	// PlayDepth, above 1, makes TargetSearch's self-play choose its moves
	// by the target's engine searched to that depth (with Explore's random
	// moves) instead of by the net's 1-ply values, for games that reach
	// the positions a searching player meets.
	PlayDepth int `json:"play_depth,omitempty"`
	// TreeStrap, for TargetSearch, fits every position right after a move
	// in the target search's tree (the afterstate itself included) to its
	// value there, as TreeStrap does (Veness, Silver, Uther and Blair
	// 2009), and not the afterstate alone: the tree is expectimax's to
	// TargetSpec's depth, whose values every sound algorithm shares, with
	// the net's leaves (TargetSpec must be a sound algorithm with
	// eval=mlp).
	TreeStrap bool `json:"treestrap,omitempty"`
	// Plays, for TargetSearch, fits at every decision of the self-play
	// games the Plays plays best by the net's 1-ply values (every play,
	// when it has fewer), each afterstate to its target search's value,
	// in place of the afterstate played alone: the net learns the
	// differences between the plays it chooses among. 0 fits the
	// afterstates played.
	Plays int `json:"plays,omitempty"`
	// StartSuite is a file of positions (starlab gen) the self-play games
	// start from, game g from its position g modulo their number, so that
	// training meets the positions of later phases as often as the
	// openings, or only the positions of one phase (backgammon's races);
	// "" starts every game from the variant's start.
	StartSuite string `json:"start_suite,omitempty"`
	// Rollouts is the rollout run (starlab rollout) whose rows
	// TargetRollout fits: its first RolloutRows, every trial of which is
	// played. Check sets RolloutRows, when 0, to the most rows from the
	// first whose trials are all played, so that a rollout still going
	// gives what it has, and a resumed run, whose settings record it, fits
	// the same rows however far the rollout has gone since.
	Rollouts    string `json:"rollouts,omitempty"`
	RolloutRows int    `json:"rollout_rows,omitempty"`
	Optimizer   string `json:"optimizer,omitempty"`
	MiniBatch   int    `json:"minibatch,omitempty"`
	// Init is the half-width of the uniform initial weights.
	Init float64 `json:"init"`
	// From is a net file (of the game and variant) whose weights the
	// training starts from instead of Init's random ones: a net of TD
	// refined by search targets, or any net trained further. Its inputs
	// and layers are the net's, so Layers and Inputs stay unset; a Hidden
	// above a one-layer net's own widens it (nn.Net.Widen: the new units'
	// input weights drawn from ±Init, their output weights 0, so the net
	// starts valuing every position as From's net does).
	From string `json:"from,omitempty"`
	// Phase, with From, trains the net of this phase of From's net
	// (nn.Net.Phases; the game's NetKit.Phases names them) and leaves the
	// main net as it is: the self-play games are played, and their
	// targets taken, by the whole net, the phase net in its positions,
	// and only the positions of the phase are learnt. Where From's net
	// has no net of the phase, it starts as a copy of the main net. By TD
	// or -target search (its positions of the phase alone), not TreeStrap
	// or rollouts.
	Phase string `json:"phase,omitempty"`
	// Games are played in rounds of Batch games. Batch 1 is online TD: a
	// game is played with the weights as they are, and each update is
	// made at once, the next target taken with it (a second worker has
	// nothing to do). With Batch > 1, Workers play a round's games and
	// take their TD targets with a copy of the weights made before the
	// round before is learnt (the first round after the start, a
	// checkpoint or a measurement: the weights as they are), so that they
	// play one round while the learner learns the other; the learner moves
	// the net towards those targets in game order, each update made at
	// once. TargetSearch's rounds are played and labelled with the
	// weights of their start, then fitted. Results depend on Batch but not
	// on Workers.
	Workers int `json:"workers"`
	Batch   int `json:"batch"`
	// CheckpointEvery and MeasureEvery are in games: a checkpoint saves
	// the net and the state; a measurement plays MeasureGames duplicate-dice
	// games of the net against the game's hand evaluator at depth 1.
	CheckpointEvery int64 `json:"checkpoint_every"`
	MeasureEvery    int64 `json:"measure_every"`
	MeasureGames    int   `json:"measure_games"`
	// MeasureSuite is a file of start positions for the measurements
	// (starlab gen), played in turn; "" plays every measurement game from
	// the variant's start. A game whose depth-1 players never meet chance
	// (ChanceBreakthrough, where neither rolls from the start) needs one:
	// from one start every game of the measurement would be the same.
	MeasureSuite string `json:"measure_suite,omitempty"`
	// JudgeSuite is a suite whose every position has its exact value
	// (starlab gen -exact), held out from training: at each measurement
	// the net's static mean absolute error against them is a point of the
	// learning curve (gnubg keeps a net by its error on a fixed benchmark).
	// "" judges nothing.
	JudgeSuite string `json:"judge_suite,omitempty"`
	// JudgePositions and JudgeBy judge the net's play: a suite of
	// decisions (such as starlab export -positions writes) and the engine
	// that judges (such as gnubg:plies=1). At each measurement the net at
	// depth 1 chooses at every position and the judge values every legal
	// move, as starlab analyze -suite does (in the run's directory
	// judged-GAMES); the mean loss per decision and its interval are a
	// point of the learning curve. Both or neither.
	JudgePositions string `json:"judge_positions,omitempty"`
	JudgeBy        string `json:"judge_by,omitempty"`

	// res is what Check read from the settings' files and parsed from
	// their specs, for Run, which checks its settings again, to use
	// without reading or parsing them a second time.
	res *resolved
}

// resolved is what the settings name, read and parsed: the target
// search's spec (TargetSearch), the starts of the self-play games and of
// the measurements, and the held-out suite that judges the nets (nil
// without one). It is not changed once made, so that copies of the
// settings may share it.
type resolved struct {
	from    resolvedFrom
	spec    search.Spec
	starts  []game.State
	measure []game.State
	judge   *judgement
	// plays are the judged positions, in the game's notation.
	plays []string
	// initial is the net of Settings.From, nil without one: the training
	// starts from a copy of it.
	initial *nn.Net
	// rolled are the rows of Rollouts that TargetRollout fits.
	rolled []rolledRow
}

// resolvedFrom is what a resolved was made from: settings changed in any
// of these since are resolved afresh.
type resolvedFrom struct {
	game, variant, target, targetSpec    string
	startSuite, measureSuite, judgeSuite string
	judgePositions, judgeBy              string
	from, phase, rollouts                string
	rolloutRows                          int
	treeStrap                            bool
	hidden                               int     // From's net widened to it,
	seed                                 uint64  // its new units drawn
	init                                 float64 // from these
}

// DefaultSettings returns 20,000 games of online TD(0) of game g's
// default variant (Dice: 5x5/4) with the variant's default rate,
// annealed, 1% exploration.
func DefaultSettings(g search.Kit) Settings {
	s := Settings{Kit: g, Games: 20000, Seed: 1, Anneal: true, Explore: 0.01, Init: 0.1,
		Workers: 1, Batch: 1, CheckpointEvery: 5000, MeasureEvery: 5000, MeasureGames: 400}
	if g.Game != nil {
		s.GameName = g.Name()
	}
	return s
}

// Check checks the settings, filling in the variant and the default
// rate; errors are runs.UsageError.
func (s *Settings) Check() error {
	if s.Kit.Game == nil {
		return runs.Usagef("train settings without a game")
	}
	s.GameName = s.Kit.Name()
	if s.Kit.Net == nil {
		return runs.Usagef("-game %s: the game has no network to train", s.GameName)
	}
	if s.Variant == "" {
		s.Variant = s.Kit.DefaultVariant()
	}
	if _, err := s.Kit.New(s.Variant); err != nil {
		return runs.Usagef("-variant %s: %v", s.Variant, err)
	}
	if err := s.checkTarget(); err != nil {
		return err
	}
	if s.Rate == 0 {
		s.Rate = s.Kit.Net.Rate(s.Variant)
	}
	for _, h := range s.Layers {
		if h < 1 || h > nn.MaxHidden {
			return runs.Usagef("-hidden: a layer of %d units, want 1 to %d", h, nn.MaxHidden)
		}
	}
	if len(s.Layers)+1 > nn.MaxLayers {
		return runs.Usagef("-hidden: %d layers, want at most %d", len(s.Layers)+1, nn.MaxLayers)
	}
	if s.Outcomes {
		if s.Kit.Net.Outcomes == nil {
			return runs.Usagef("-outcomes: %s's nets have one value", s.Kit.Name())
		}
		if s.From != "" || len(s.Layers) > 0 {
			return runs.Usagef("-outcomes: a new net of one hidden layer gets outputs of probabilities; give no -from (its net keeps its own outputs) or second layer")
		}
	}
	if s.Inputs != "" {
		if s.Kit.Net.Inputs == nil {
			return runs.Usagef("-inputs %s: %s has one input set, its own", s.Inputs, s.Kit.Name())
		}
		if _, err := s.Kit.Net.Inputs(s.Variant, s.Inputs); err != nil {
			return runs.Usagef("-inputs %s: %v", s.Inputs, err)
		}
	}
	switch {
	case s.Games < 1:
		return runs.Usagef("-games %d: want at least 1", s.Games)
	case !(s.Rate > 0 && s.Rate < 10):
		return runs.Usagef("-rate %v: want a positive learning rate below 10", s.Rate)
	case !(s.Lambda >= 0 && s.Lambda <= 1):
		return runs.Usagef("-lambda %v: want 0 to 1", s.Lambda)
	case !(s.Explore >= 0 && s.Explore <= 1):
		return runs.Usagef("-explore %v: want 0 to 1", s.Explore)
	case s.Hidden < 0 || s.Hidden > nn.MaxHidden:
		return runs.Usagef("-hidden %d: want 0 (the game's size) to %d", s.Hidden, nn.MaxHidden)
	case !(s.Init > 0 && s.Init <= 1):
		return runs.Usagef("-init %v: want a half-width in (0, 1]", s.Init)
	case s.Batch < 1 || s.Batch > 4096:
		return runs.Usagef("-batch %d: want 1 to 4096", s.Batch)
	case s.CheckpointEvery < 1 || s.MeasureEvery < 1:
		return runs.Usagef("-checkpoint and -measure-every must be at least 1 game")
	case s.MeasureGames < 2 || s.MeasureGames%2 != 0:
		return runs.Usagef("-measure-games %d: want an even number of at least 2", s.MeasureGames)
	}
	if err := s.resolve(); err != nil {
		return err
	}
	return runs.CheckWorkers("workers", s.Workers)
}

// resolve parses the target search's spec and reads the suites the
// settings name, once: settings resolved already, and not changed since
// in what they name, keep what they have. Errors are runs.UsageError.
func (s *Settings) resolve() error {
	from := resolvedFrom{game: s.GameName, variant: s.Variant, target: s.Target, targetSpec: s.TargetSpec,
		startSuite: s.StartSuite, measureSuite: s.MeasureSuite, judgeSuite: s.JudgeSuite,
		judgePositions: s.JudgePositions, judgeBy: s.JudgeBy, from: s.From, phase: s.Phase, rollouts: s.Rollouts, rolloutRows: s.RolloutRows, treeStrap: s.TreeStrap,
		hidden: s.Hidden, seed: s.Seed, init: s.Init}
	if s.res != nil && s.res.from == from {
		return nil
	}
	r := &resolved{from: from}
	var err error
	if s.Target == TargetSearch {
		if r.spec, err = s.targetSpec(); err != nil {
			return err
		}
		if s.TreeStrap && (!r.spec.Config.Algorithm.Sound() || r.spec.Config.Eval != "mlp") {
			return runs.Usagef("-treestrap: -target-spec %s: want a sound algorithm (its tree's values are expectimax's) with eval=mlp (its leaves are the net's)", s.TargetSpec)
		}
	}
	if r.measure, err = s.measureStarts(); err != nil {
		return err
	}
	if r.starts, err = s.trainStarts(); err != nil {
		return err
	}
	if r.judge, err = s.judgeSuite(); err != nil {
		return err
	}
	if r.plays, err = s.judgedPlays(); err != nil {
		return err
	}
	if r.initial, err = s.fromNet(); err != nil {
		return err
	}
	if r.rolled, err = s.rolledRows(); err != nil {
		return err
	}
	r.from.rolloutRows = s.RolloutRows // as rolledRows set it
	s.res = r
	return nil
}

// fromNet reads the net of From, nil without one: a net of the game and
// variant, whose inputs and layers no -inputs or second layer contradicts,
// widened to Hidden units when Hidden is set (nn.Net.Widen).
// Errors are runs.UsageError naming the file.
func (s *Settings) fromNet() (*nn.Net, error) {
	if s.From == "" {
		if s.Phase != "" {
			return nil, runs.Usagef("-phase %s: give -from, the net whose phase net is trained", s.Phase)
		}
		return nil, nil
	}
	if len(s.Layers) > 0 || s.Inputs != "" {
		return nil, runs.Usagef("-from %s: the net's inputs and layers are its own; give no -inputs or second layer (-hidden N only widens)", s.From)
	}
	net, err := nn.Load(s.From)
	if err != nil {
		return nil, runs.Usagef("-from %s: %v", s.From, err)
	}
	if err := s.Kit.Net.Check(net, s.Variant); err != nil {
		return nil, runs.Usagef("-from %s: %v", s.From, err)
	}
	if s.Phase != "" {
		return s.phaseNet(net)
	}
	if s.Hidden != 0 && s.Hidden != net.H {
		// The new units' weights from a stream of their own, so that
		// the games' streams are those of the unwidened net's run.
		wide, err := net.Widen(s.Hidden, runs.Stream(s.Seed, "train/widen", 0), s.Init)
		if err != nil {
			return nil, runs.Usagef("-hidden %d with -from %s: %v", s.Hidden, s.From, err)
		}
		return wide, nil
	}
	return net, nil
}

// phaseNet returns net with a net of the phase Phase, its own or a copy
// of its main net (nn.Net.Phases), to train by TD (Settings.Phase).
// Errors are runs.UsageError.
func (s *Settings) phaseNet(net *nn.Net) (*nn.Net, error) {
	if _, ok := s.Kit.Net.Phases[s.Phase]; !ok {
		names := slices.Sorted(maps.Keys(s.Kit.Net.Phases))
		if len(names) == 0 {
			return nil, runs.Usagef("-phase %s: %s's nets have no phases", s.Phase, s.GameName)
		}
		return nil, runs.Usagef("-phase %s: %s's nets have the phases %s", s.Phase, s.GameName, strings.Join(names, ", "))
	}
	if s.Target == TargetRollout || s.TreeStrap || s.Hidden != 0 {
		return nil, runs.Usagef("-phase %s: a phase net is trained by TD or -target search, without -treestrap, with the main net's hidden units (no -hidden)", s.Phase)
	}
	if net.PhaseNet(s.Phase) == nil {
		p := net.Clone()
		p.Phases, p.Phase = nil, s.Phase
		net.Phases = append(net.Phases, p)
	}
	return net, nil
}

// trained returns the net of whole that a run steps: whole itself, or its
// net of the phase Phase (phaseNet made it).
func (s *Settings) trained(whole *nn.Net) *nn.Net {
	if s.Phase == "" {
		return whole
	}
	return whole.PhaseNet(s.Phase)
}

// learnt returns whether a position is one a run learns, the phase
// Phase's (NetKit.Phases), or nil when every position is.
func (s *Settings) learnt() func(game.State) bool {
	if s.Phase == "" {
		return nil
	}
	return s.Kit.Net.Phases[s.Phase]
}

// rate returns the learning rate for game g.
func (s *Settings) rate(g int64) float64 {
	if !s.Anneal {
		return s.Rate
	}
	return s.Rate * math.Pow(float64(g)/1000+1, -0.3)
}

// measureStarts returns the start positions of a measurement: the
// suite's, each of the variant and not over, or the variant's start.
// Errors are runs.UsageError naming the suite.
func (s *Settings) measureStarts() ([]game.State, error) {
	return s.suiteStarts("measure-suite", s.MeasureSuite)
}

// trainStarts returns the start positions of the self-play games: the
// suite of StartSuite, game g starting from its position g modulo its
// length, or the variant's start.
func (s *Settings) trainStarts() ([]game.State, error) {
	return s.suiteStarts("starts", s.StartSuite)
}

// gameStart returns the start of self-play game g, resolved: its
// position of StartSuite, or the variant's start. It is not to be
// changed: the games (selfplay.Play) and their replays start from copies
// of it.
func (s *Settings) gameStart(g int64) game.State {
	return s.res.starts[g%int64(len(s.res.starts))]
}

// suiteStarts reads the suite of flag -name: positions of the variant, none
// over; without one, the variant's start.
func (s *Settings) suiteStarts(name, path string) ([]game.State, error) {
	if path == "" {
		start, err := s.Kit.New(s.Variant)
		return []game.State{start}, err
	}
	ps, err := search.ReadSuite(s.Kit, path)
	if err != nil {
		return nil, runs.Usagef("-%s: %v", name, err)
	}
	var starts []game.State
	for _, p := range ps {
		switch {
		case s.Kit.Variant(p.Pos) != s.Variant:
			return nil, runs.Usagef("-%s %s: line %d is of variant %s, the training's is %s", name, path, p.Line, s.Kit.Variant(p.Pos), s.Variant)
		case p.Pos.Kind() == game.Over:
			return nil, runs.Usagef("-%s %s: line %d is a finished game", name, path, p.Line)
		}
		starts = append(starts, p.Pos)
	}
	return starts, nil
}

// source says what made the net, for its weight file.
func (s *Settings) source() string {
	if s.Target == TargetRollout {
		return fmt.Sprintf("starlab train, each position of the rollout %s fitted to its rolled-out value (%s)", s.Rollouts, s.Optimizer)
	}
	if s.Target == TargetSearch {
		return fmt.Sprintf("starlab train, self-play with 1-ply searches, each afterstate fitted to its value by %s (%s)", s.TargetSpec, s.Optimizer)
	}
	return fmt.Sprintf("starlab train, TD(%g) self-play with 1-ply searches", s.Lambda)
}
