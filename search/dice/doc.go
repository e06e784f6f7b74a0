// Package dice implements the game of Dice (Hauk 2004; rules as in Veness,
// "Expectimax Enhancements for Stochastic Game Players", 2006, section 4.1).
//
// # Rules
//
// Dice is played on an n x n board (3 <= n <= 17) with win length m
// (2 <= m <= n). Blue is the row player and moves first; red is the column
// player. Before each move the mover rolls a die that picks, uniformly, one of
// the mover's lines (rows for blue, columns for red) that still has an empty
// cell: rolling a full line means rolling again, so the chance events at a
// chance node are the mover's non-full lines, each with probability
// 1/(number of non-full lines). The mover then places a checker on an empty
// cell of the rolled line. m checkers of one colour connected in a row, a
// column or either diagonal win at once; a full board without a win is a draw.
//
// # Positions and notation
//
// A Board is a plain value of fixed-size arrays (sized by MaxN and MaxCells),
// so a 17x17 board needs no allocation and copying a Board copies a position.
// Cells are numbered row-major from 0: cell = row*n + column. Move notation is
// the column letter then the 1-based row: "d3" is column d, row 3, where row 1
// is the first row of the DPN. Dice Position Notation (thesis section 4.5,
// with the roll 0-based) is
//
//	<n> <m> <stm> <roll> <n*n cells>
//
// with cells "-", "b" or "r", row 1 first and column a first, and roll -1 when
// the die must be rolled or k >= 0 when line k (0-based) was rolled. Since
// blue moved first, #b - #r is 0 with blue to move and 1 with red to move.
//
// # Make and unmake
//
// SetRoll/ClearRoll make and unmake a chance event; Make/Unmake a placement.
// All four are O(m) and allocation-free (walks run on a padded grid with an
// off-board border, so they need no bounds checks); Unmake restores the exact previous
// position (the roll is recovered from the cell's line). Make keeps up to date:
//
//   - the Zobrist key (Zobrist 1970) over cells, side to move and roll state;
//   - the empty-cell count of every row and column (for Rolls);
//   - the winner, found by walking the four directions from the placed cell;
//   - streak counts: a run is a maximal sequence of consecutive checkers of one
//     colour along one of the four directions (row, column, diagonal,
//     anti-diagonal); a checker is part of four runs, one per direction, and a
//     single checker is a run of length 1, not counted. Streaks(c, k) is the
//     number of runs of colour c of length exactly k, 2 <= k < m. A run is
//     counted whatever lies at its ends (open, blocked or the edge);
//   - Hauk's pair counts: a pair is two checkers of one colour next to each
//     other in a row, column or diagonal, or two such checkers with exactly
//     one empty cell between them on such a line.
//
// Each incremental field has a from-scratch twin (recompute, used by
// ParseDPN), and the tests check the two agree after every make and unmake.
//
// # The game contract
//
// The stages see Dice through the contract of package starlab/search/game,
// one call per move or per game: *Board is a game.State and Game is the
// game.Game descriptor. A position whose die is not rolled is a chance node
// with one event per line of Rolls (ID the line, Weight 1); a rolled one is
// a decision among the cells of Moves (Move the cell); Play, Happen and
// Result are Make, SetRoll and Result, so values keep the side to move's
// view at every node. Variants are written "<n>x<n>-<m>" (Variant,
// ParseVariant), "5x5-4" by default; positions in DPN, moves in cell
// notation, events as the rolled line ("row 3", "column c"); the phase is
// the number of checkers; a search's depth counts rolls as plies. The
// search engine does not go through the contract: it calls Board's own
// methods in its hot loop. Tests check every contract method against the
// Board's own API and run the contract's conformance test
// (starlab/search/game/gametest) on several variants.
//
// # The network's inputs
//
// A Dice net is a generic net of package starlab/nn laid out for one board
// (game "dice", variant "<n>x<n>-<m>", variant key (n, m); NewNet,
// NetSize, CheckNet). Features is the one definition of its
// inputs, used by play and training alike: 12 streak features (the counts
// of runs of length 2 to 7 of the side to move, then of its opponent,
// times 1/n; lengths at or above the win length stay zero), then two
// inputs per cell, (mine, theirs): 62 inputs at 5x5, 174 at 9x9, 350 at
// 13x13, 590 at 17x17, with 10, 15, 20 and 30 hidden units as in Veness
// 2006's figure 4.4 (InputSize, HiddenSize).
//
// The side to move enters by symmetry, not by an input: a position with
// red to move is seen transposed with the colours swapped, which turns red,
// the column player, into the row player. Dice's rules are symmetric under
// that map, so one net, which always sees the mover as the row player,
// serves both sides, and every input means the same thing for either; a
// turn input or separate blue and red inputs would make the net learn the
// game twice, once per orientation.
//
// A net may have a second input set, "threats" (SetInputs, InputSets;
// starlab train -inputs threats): the inputs above, then ThreatInputs = 6
// more, for the side to move and then its opponent: the share of its
// rolls (its lines with an empty cell) whose line holds a winning cell
// (an empty cell where its checker would complete m in a line), the share
// holding two or more, and its number of winning cells times 1/n
// (Board.Threats). A net's input set is its number of inputs, and
// Features writes the set its x has room for. A winning cell is a
// conjunction of m-1 checkers and an empty cell, which one hidden layer of
// cell inputs judges poorly: over the held-out exact 5x5/4 suite, a
// depth-4 search with the zero evaluator, which sees both sides' winning
// rolls, is off by less than the thesis-input net alone. The evaluator
// keeps each frame's winning cells of both colours as bit sets by line
// (a frame's come from the frame below and the ends of its checker's
// runs) and adds the six inputs to a copy of the accumulator at each
// leaf.
//
// NetEvaluator is the net as the search's incremental evaluator: the first
// layer as two accumulators (the blue and the red view, as NNUE keeps two
// perspectives), updated by one weight column each when a checker is
// placed or taken back; the streak features, which the board keeps
// incrementally, are added at evaluation. The incremental value equals
// nn.Net.Forward of Features after any make/unmake sequence (tested on
// every board size), and following a move allocates nothing; at 5x5 a
// leaf costs about 130 ns against about 220 ns for a recompute
// (BenchmarkLeaf*).
//
// nets/<n>x<n>-<m>.json are the built-in nets (EmbeddedNet): what eval=mlp
// without net=FILE uses, the net of the board size the search engine is
// given. They are kept as starlab train wrote them (version 1 of the
// weight file, 5x5/4's version 2); docs/training.md gives the command
// that trained each. 5x5/4's is a net of the input set "threats".
// fits/<n>x<n>-<m>.json are the built-in ChanceProbCut fits (BuiltinFit),
// one per built-in net, made by starlab collect and fit with that net and
// kept as fit wrote them (version 1 of the parameter file, 5x5/4's version
// 2, with the source naming the commands that made it); the Dice
// engine passes the fit of the board to search.Resolved.ProbCutFor.
package dice
