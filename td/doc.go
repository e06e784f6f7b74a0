// Package td trains a game's evaluation network (a net of package nn over
// the game's inputs, search.NetKit) by self-play with temporal
// differences, as Veness 2006, section 4.2.3 trains its Dice net after
// Tesauro's TD-Gammon: the engine plays itself with 1-ply searches (a win
// in one is always found: a move that ends the game is valued by the
// rules), and the position each move leads to (its afterstate: in Dice the
// chance node before the opponent's roll) is moved towards the next
// afterstate's value, T_k = P_k - P_{k-1}, by backpropagation. It is
// written over the game contract (package search/game) and imports no
// game: the command hands it one.
//
// Values are the net's, from the mover's view, mapped to side 0's view
// (U = V with side 0 to move, -V otherwise; Dice's blue is side 0) so that
// TD(lambda)'s eligibility trace adds gradients of positions of both sides
// with the right sign. The target of the last position of a game is its
// result by the rules, never the net's value; the trace is reset every
// game. Options: TD(lambda) (Lambda), the expected 1-ply value as target
// instead of the sampled successor (Expected: at a chance node the mean,
// by the events' weights, of the best 1-ply value after each event), a
// learning rate annealed as gnubg's (t/1000+1)^-0.3, and exploration by
// random moves.
//
// Run is the train stage. Games are played in rounds of Batch games, one
// game per index with its own seeded dice. With Batch 1 it is online TD:
// each game is played with the weights as they are and each update is
// made at once, the next target taken with it. With Batch > 1 the workers
// play a round's games and take their targets with a copy of the weights
// made before the round before is learnt, so that they play one round
// while the learner learns the other: self-play and the targets' searches
// run in parallel, and only the learner's forward pass and update of each
// afterstate, in game order, are serial. A run is therefore a function of
// its settings and seed whatever the number of workers, bit for bit.
// Every CheckpointEvery games the net and the state (games done, learning
// curve) are written atomically, the net first to a file of its own that
// becomes the run's net only once the state counting its games is
// written; a run resumed after a kill (even one in a measurement)
// continues from there, losing only the games since, and ends with the
// net and the curve of an uninterrupted run. A score never measured, and
// the mean game length of a checkpoint without a measurement, stay
// undefined (NaN) through a resume. The curve's files (curve.parquet and
// its plots) are written at the end, and by a run cancelled (Ctrl-C) to
// its last checkpoint, so that a run stopped for good shows its curve; a
// resumed run removes them until it stops again, so that a kill never
// leaves them older than the state.
// Every MeasureEvery games the net plays the game's hand evaluator (pairs
// in Dice, material in ChanceBreakthrough; search.Kit.HandEval) at depth 1
// with duplicate dice (the match library, luck adjusted): the learning
// curve records that score, never training error alone, with the
// evaluator's name and how many of the measurement's pairs of games
// differ (from one start where the players never meet chance, all are
// one pair, and the interval means nothing), and the best net by it is
// kept. Each point holds too the mean training error since the point
// before, in a column named for what it is: td_error, TD's, or
// fit_error, the fit's to search targets, the other NaN (format
// starlab-train/4; files of formats 1 to 3, which had one td_error
// whatever the target, still load, their error in the column of the
// run's target).
//
// # Search targets
//
// With Target TargetSearch the positions of each round's games are fitted
// instead to the values a deeper search of them finds (TargetSpec; with
// eval=mlp and no net= the search evaluates with the net as it was at the
// round's start, bootstrapping from search as Veness, Silver, Uther and
// Blair 2009 do, and NNUE's trainers fit search-labelled positions). The
// workers play and label a round's games, each game's table emptied first;
// the learner shuffles the round's positions by the round's own stream
// and steps with Adam (nn.Adam) over mini-batches of the squared error,
// stepping a partial batch at each checkpoint and measurement and starting
// Adam afresh at each checkpoint, so that a resumed run is an
// uninterrupted one. With TreeStrap every position right after a move in
// the target search's tree is fitted to its value there (expectimax's
// tree through the game contract, the net at its leaves). Run's loop over
// rounds, points and checkpoints is the same for TD and for search
// targets: each is a trainer of its own, made once from settings checked
// once (the target spec parsed and the suites read by Check).
//
// With JudgePositions and JudgeBy each measurement also has an engine
// (such as gnubg) judge the net's play at depth 1 on a suite of decisions,
// as the analyze stage does, and the curve records the loss per decision
// (format starlab-train/5; files of formats 1 to 4 still load).
//
// Nets may have several hidden layers (Layers), and another of the game's
// input sets (Inputs, search.NetKit.Inputs: Dice's "threats", backgammon's
// "features"). Every random stream of a training comes from runs.StreamSeed, one derivation
// with a name per purpose (train/init, train/explore, train/dice,
// train/measure, train/shuffle).
package td
