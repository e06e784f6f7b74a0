// Package nn is starlab's evaluation network, with no game in it: a
// perceptron with one hidden layer and a tanh output over a plain input
// vector (Veness 2006, section 4.2.3), or with more hidden layers after the
// first (Deep, made by NewLayout), so its value lies in [-1, 1] and
// estimates the expected result for the side to move, as an expectimax
// evaluation must (section 4.2.1). What the inputs mean, which position
// sets which input, belongs to the game the net is for: package
// starlab/search/dice lays out Dice positions (its features, the sizes of
// its nets, its incremental evaluator and its built-in nets).
//
// # Evaluation and training
//
// Forward is the specification of the net's value; Backward is its
// gradient by backpropagation (tested against finite differences), Step a
// gradient step, and Update the two at once touching only the first-layer
// rows of non-zero inputs, which is all TD(0) needs. Adam (Kingma and Ba
// 2015) steps a net against the gradient of a loss, for training towards
// fixed targets in mini-batches (Grad.AddScaled sums a batch). SetWeights
// copies weights into a net without allocating, where evaluators of it see
// them.
//
// Deeper layers keep the first layer as it is, the accumulator below, and
// follow it with dense layers of Act units; the output weighs the last
// one. Their weights are drawn with Glorot's uniform initialisation.
//
// Hidden units use Act, the [3/2] Padé approximant of tanh clamped at
// |x| >= 3 (within 0.025 of tanh, continuous with its slope), because
// math.Tanh at every hidden unit of every leaf cost the search half its
// speed; the output keeps the exact tanh.
//
// An incremental evaluator keeps the first layer's pre-activations,
// B1 + W1·x, as an accumulator (NNUE's idea): AddInput adds one weight
// column when one input changes, and Output finishes the forward pass from
// the accumulator; the two give exactly Forward's value (tested).
//
// A search's leaves use a Kernel: the net with its hidden layer padded to
// a multiple of Lanes units, whose Update moves an accumulator by a few
// weight columns (a move's) and whose UpdateValue does that and finishes
// the pass in the same call, Lanes units at a time in AVX and FMA
// assembly on amd64 (the Go code is the assembly's specification, bit for
// bit, and runs elsewhere, or with the build tag purego). Its value is
// Output's with the output's sum split into Lanes partial sums and the
// output's tanh by a table and a short polynomial (Tang's method, within
// 1e-15 of math.Tanh at about half its latency, which a leaf waits for),
// within KernelTolerance (1e-12) of Forward's; training uses Forward and
// Output only. AddValue32 adds inputs whose terms are recomputed at every
// leaf (such as backgammon's features) in float32, eight units to a
// register and one fused multiply-add a term (Go's fma32, rounded once, is
// its specification), to an accumulator kept in float64: a quarter of the
// arithmetic, at a rounding of the added part to about 1e-7 of itself;
// where the processor has AVX-512, eighty units at a time, bit for bit
// the same. AddInt32 keeps an accumulator of fixed-point columns instead,
// in int32 (exact, so the same however it was reached), and ValueInt32
// values it (backgammon's evaluator of a net with features uses these
// two): B1 plus the accumulator times its power-of-two scale, the
// float32 terms as AddValue32 adds them, and the activations in float32
// (act32, its division four units at a time, within 2e-7 of Act, tested),
// but for a net whose value Output computes (more hidden layers, or a
// Head of several outputs), which keeps Output's.
//
// # Weight files
//
// A weight file is JSON (format "starlab-net"), of version 3 for a net of
// more than one hidden layer: as version 2, with "layout", the sizes of
// the hidden layers (the first equal to "hidden"), and "layers", each
// deeper layer's "w" (output-major) and "b"; the checksum then hashes,
// after version 2's fields, each deeper layer's size and weights. A net of
// one hidden layer is still written as version 2 (version 2: the game and
// variant the net is for ("dice", "5x5-4"), the variant key (the variant
// as integers: 5, 4), inputs, hidden units, activation, what made the net
// (games, source, trainer settings), the weights (w1 input-major), and the
// SHA-256 of the variant key, topology and weights, whose first 12 hex
// digits are the net's id). Version-1 files, from before nets named their
// game, are Dice nets with the board side n and win length m in place of
// the game and variant; they read as game "dice", variant "<n>x<n>-<m>",
// key (n, m), and their checksum, which hashed n, m, the topology and the
// weights, is the same definition, so a net keeps its id from one version
// to the next. Write writes version 2; saving atomically is the caller's
// (runs.WriteFileAtomic). Load refuses a truncated, corrupted, wrongly
// shaped or wrong-version file with a one-line error naming the file and
// the problem; whether the net fits the game's variant is the game's to
// check.
package nn
