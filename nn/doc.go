// Package nn is starlab's evaluation network for Dice (Veness 2006, section
// 4.2.3): a perceptron with one hidden layer and a tanh output, so its value
// lies in [-1, 1] and estimates the expected result for the side to move,
// as an expectimax evaluation must (section 4.2.1).
//
// # Inputs
//
// Net.Features is the one definition of the inputs, used by play and
// training alike: 12 streak features (the counts of runs of length 2 to 7
// of the side to move, then of its opponent, times 1/n; lengths at or above
// the win length stay zero), then two inputs per cell, (mine, theirs):
// 62 inputs at 5x5, 174 at 9x9, 350 at 13x13, 590 at 17x17, with 10, 15, 20
// and 30 hidden units as in the thesis's figure 4.4 (HiddenSize gives the
// rule for the other sizes).
//
// The side to move enters by symmetry, not by an input: a position with
// red to move is seen transposed with the colours swapped, which turns red,
// the column player, into the row player. Dice's rules are symmetric under
// that map, so one net, which always sees the mover as the row player,
// serves both sides, and every input means the same thing for either; a
// turn input or separate blue and red inputs would make the net learn the
// game twice, once per orientation.
//
// # Evaluation
//
// Hidden units use Act, the [3/2] Padé approximant of tanh clamped at
// |x| >= 3 (within 0.025 of tanh, continuous with its slope), because
// math.Tanh at every hidden unit of every leaf cost the search half its
// speed; the output keeps the exact tanh. Evaluator keeps the first layer
// as two accumulators (the blue and the red view, as NNUE keeps two
// perspectives), updated by one weight column each when a checker is
// placed or taken back, through the search's Incremental hooks; the streak
// features, which the board keeps incrementally, are added at evaluation.
// The incremental value equals Net.Forward of Net.Features after any
// make/unmake sequence (tested on every board size); at 5x5 a leaf costs
// 202 ns against 457 ns for a recompute (BenchmarkLeaf*).
//
// # Weight files
//
// A weight file is JSON (format "starlab-net", version 1): board size, win
// length, inputs, hidden units, activation, what made the net (games,
// source, trainer settings), the weights (w1 input-major), and the SHA-256
// of the topology and weights, whose first 12 hex digits are the net's id.
// Load refuses a truncated, corrupted, wrong-size or wrong-version file
// with a one-line error naming the file and the problem.
//
// # Built-in nets
//
// nets/<n>x<n>-<m>.json are embedded (Embedded): what eval=mlp without
// net=FILE uses, the net of the board size the search engine is given.
// The README gives the command that trained each.
package nn
