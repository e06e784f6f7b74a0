// Package breakthrough is the game of ChanceBreakthrough (Schadd, Winands
// and Uiterwijk 2009, "ChanceProbCut", section 5.5.3): Breakthrough (Dan
// Troyka, 2001) with a roll of the dice as an extra move. The chapter
// gives the rules in prose; what follows fixes every detail it leaves
// open, so that any two implementations compute the same values.
//
// A board has W columns (a, b, ... from the left; 3 <= W <= 8) and H rows
// (1 at the bottom; 4 <= H <= 8). White starts on rows 1 and 2 and moves
// up, Black on rows H-1 and H and moves down; White moves first. A turn is
// one of: a piece moves one square forward, straight onto an empty square
// or diagonally onto an empty square or an opponent's piece, which is
// captured; or the roll, always allowed, a move whose child is a chance
// node: two dice pick one of the W*H squares, each with probability
// 1/(W*H), and the piece standing there, of either side, is removed. The
// chance node has one event per occupied square (weight 1) and Nothing,
// of weight the number of empty squares, when a square is empty; the
// weights sum to W*H. Either way the turn passes: after a roll's event
// the roller's opponent moves. A side with a piece on its far row has
// won, a side without a piece has lost, checked after every move and
// every event; both hold at once only when a capture onto the far row
// takes the opponent's last piece, and then they name the same winner.
// Values are from the side to move's view: +1 won, -1 lost. A search's depth counts decisions (moves and
// rolls), not chance nodes, as the chapter does (section 5.6.3); the
// 1,000-ply draw of self-play is the game loop's, not a position's.
//
// # Representation
//
// A Board holds the two sides' pieces as 64-bit sets of squares, square
// row*8 + column (0-based) on every board size, so that the moves of a
// side are three shifts of its set (Moves) and a take-back copies the two
// sets and the key back from an Undo. Moves are numbered from*64 + to,
// with Roll = 4096 (MoveIDs bounds them); events are the square whose
// piece is removed, or Nothing = 64. The Zobrist key covers the board
// size, the pieces, the side to move and the pending roll, and is kept
// incrementally by MakeSaving and HappenSaving, with computeKey its
// specification. Nothing in Moves, MakeSaving, UnmakeRestoring, Events,
// HappenSaving, UnhappenRestoring or the evaluator allocates.
//
// # Notation
//
// A position is "W H S ROWS": the size, the side to move S (w or b), and
// the H rows from row H (Black's home) down to row 1 separated by "/",
// each W characters of ".", "w" or "b". The 8x8 start is
//
//	8 8 w bbbbbbbb/bbbbbbbb/......../......../......../......../wwwwwwww/wwwwwwww
//
// A chance node (a roll chosen, the dice not cast) is written with S = rw
// or rb, the letter being the side that moves after the event, as the toy
// game writes its chance nodes. Parse accepts a position in which an end
// condition holds as a finished game (a roll that removed the roller's
// own last piece leaves the side to move the winner), one side on its far
// row while the other has none included (a capture onto the far row of
// the last opposing piece makes it), and refuses, in one line, what
// cannot arise in play: both sides on their far rows, both without
// pieces, a finished game with a roll pending. A move is written with its
// squares, "-" between them for a move onto an empty square ("b2-b3",
// "b2-c3") and "x" for a capture ("b2xc3"); ParseMove takes either
// separator. The roll is "roll"; an event is the square the dice pick
// ("c4"), or "nothing". Variants are "<W>x<H>", "8x8" by default; the
// phase (Game.Phase) is the number of pieces on the board.
//
// # Evaluators
//
// Evaluate is the material evaluator of the chapter (section 5.5.4): 200
// points per piece and 50 per row of its most advanced piece, own minus
// the opponent's, from the side to move's view, divided by 1,500 and
// clamped to [-1, 1]. The chapter's random term of 5 points is not part of
// Evaluate: an engine adds it to every leaf with noise=0.0033 (5 points /
// 1,500; search.Config.Noise), off by default, since duplicate dice
// already make self-play games from one start differ.
//
// The network (package nn, a perceptron with one hidden layer) reads the
// position from the side to move's view (Features): its pieces, one input
// per square, then the opponent's, with the board turned upside down for
// Black so that the mover always plays up the board and one net serves
// both sides, and one input for a pending roll, which a chance node sets;
// 2*W*H + 1 inputs (InputSize) and W*H/2 hidden units, at least 8
// (HiddenSize). A net's weight file names the game "breakthrough" and the
// variant (NetSize, CheckNet). NetEvaluator is the net as a search
// evaluator: both views' first-layer accumulators in a stack of one frame
// per move or event followed, a frame updated by the weight columns of the
// squares whose pieces changed and dropped by the take-back; Value
// computes the same from the pieces alone. The engine's zero evaluator is
// the third (search/engine/breakthrough).
//
// # Built-in net and fit
//
// EmbeddedNet is the built-in net of a board (nets/<W>x<H>.json; 8x8
// only), which eval=mlp uses without net=FILE; BuiltinFit is the
// ChanceProbCut fit made with that net (fits/<W>x<H>.json), which cpc uses
// with it without probcut=FILE. The net's weight file keeps its training
// settings (meta), the fit's file names the commands that made it
// (source), and docs/training.md gives both commands with their results.
//
// # Invariants
//
// The incremental key equals computeKey after any sequence of moves,
// events and take-backs, and every take-back restores the position bit
// for bit; the moves, events, end of game and evaluation agree with a
// plain grid implementation of the rules (the tests' reference)
// over thousands of random positions; the net evaluator's incremental
// value equals Value, and Value a forward pass of Features, to 1e-12
// along random lines of moves, rolls, events and take-backs; Board and
// Game pass the contract's conformance test (search/game/gametest) on
// 3x4, 4x5, 5x5 and 8x8.
package breakthrough
