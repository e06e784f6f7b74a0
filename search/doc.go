// Package search is what every starlab engine shares and no game owns: the
// configuration of an engine and its grammar, the limits and results of a
// search, the transposition table, ChanceProbCut's parameters, and the two
// interfaces through which the stages search (Engine, one call per search)
// and know a game (Game: the contract of package search/game with its
// engine). The algorithms themselves are written once, in the Dice engine
// (package search/engine/dice), and every other game's engine is generated
// from that source (package search/engine), so that each calls its own
// board and evaluator directly in the hot loop. The games are packages of
// their own (search/dice; search/breakthrough, ChanceBreakthrough;
// search/game/toy, a small game of weighted, optional chance for the
// tests), and the registry (search/games) names them.
//
// # Configuration
//
// An engine is configured by a Config (algorithm, evaluator and net file,
// table size, probing factor, successor-probing depth, every ChanceProbCut
// setting), and a search is bounded by Limits (depth, nodes, movetime). A
// Spec is both, written in one grammar, "algo:key=value,...", parsed by
// ParseSpec and printed by Spec.String in canonical form (keys in a fixed
// order, defaults left out but eval): the canonical string is an engine's
// identity everywhere. RegisterFlags declares command-line flags from the
// same table, so flags and spec keys share names, defaults and checks, and
// a key the algorithm does not read is refused by both, as is r without
// multi=0 (under Multi every depth pair is tried, and r would change
// nothing). Config.Resolve loads the files once into an immutable
// Resolved; a game's NewEngine (Kit.NewEngine) builds an Engine, with its
// own table and its own evaluator, from it, so engines of one
// configuration run side by side in different goroutines.
//
// Evaluators are the engine's concrete types, called directly at every
// leaf: zero, the game's hand evaluator (eval=pairs in Dice, eval=material
// in ChanceBreakthrough: search.Kit.HandEval; a game refuses another
// game's), and the network,
// whose first layer is an accumulator the engine keeps in step: reset at
// the root of every search, updated after every move, before every
// take-back and, in a game whose chance events change what it reads,
// after every event. TestHotLoopCallsDirectly (in search/engine/enginetest)
// reads the disassembly of the per-node functions for an indirect call.
//
// # Algorithms
//
// Chance nodes are searched by one of (Algorithm):
//
//   - Expectimax: every chance event with the full window (Veness 2006,
//     "Expectimax Enhancements for Stochastic Game Players", section 2.4.1).
//   - Star1: the window of each event is narrowed by the bounds of the others
//     (equations 2.11 and 2.12), with a cut-off as soon as the weighted bounds
//     leave the window (Ballard 1983; Veness 2006, section 2.4.3).
//   - Star2: a probing phase first searches the first ProbingFactor moves of
//     each event (negamax-probe) for lower bounds, cutting off on beta
//     (Ballard 1983; Veness 2006, section 2.4.4). A probe that sees every
//     move (a leaf, or a rolled line with no more empty cells than the
//     probing factor) is a full search, and its value is also used as an
//     upper bound.
//   - StarETC: Star2 plus transposition-table cut-offs at chance nodes and
//     the successor-probing phase, which gathers every bound the table holds
//     on the events before searching any (Veness and Blair 2007, figure 4.1;
//     Veness 2006, chapter 3). Config.ETCMinDepth is the smallest depth at
//     which successors are probed.
//   - CPC, ChanceProbCut on top of StarETC (Schadd, Winands and Uiterwijk
//     2009, algorithm 5.2): for each event a shallow search at depth-1-R with
//     the full window predicts bounds a*v+b -/+ t*sigma, clipped to [L, U];
//     the node is cut off when the mean predicted bounds leave the window;
//     otherwise the Star2 and Star1 phases follow, and Star1 searches each
//     event in the union of its Star1 window and its predicted bounds, as
//     algorithm 5.2 (lines 36-37) does (an earlier intersection of the two
//     erred 11 to 31 times more for a few nodes fewer: measured at
//     the Star1 phase, search/engine/dice, and in docs/chanceprobcut.md). The parameters a, b, sigma per depth
//     pair come from a ProbCutParams file (probcut=FILE, from starlab fit;
//     version 2 names the game and variant it was fitted for, version 1, a
//     Dice fit, the board by n and m), else from the game's built-in fit
//     of the variant, which the game's engine passes to
//     Resolved.ProbCutFor (Dice's search/dice/fits/<n>x<n>-<m>.json for
//     the built-in nets, used only when the engine evaluates with the net
//     it was fitted for), else DefaultProbCut, an identity model with a
//     guessed sigma, not a fit. The events of a chance node of depth d are
//     searched to d-1; when d-1 is even the search ends on a chance ply and
//     has the value of d-2, so the pair for d-2 is used and the shallow
//     search is one ply shorter. With Config.Multi, the default, every
//     pair for that depth is tried, shallowest first (Multi-ChanceProbCut,
//     the chapter's future work, after Buro's Multi-ProbCut); without it,
//     the single pair of reduction R (the key r, read only with multi=0).
//     The models of each chance-node depth are looked up once per board
//     size. "cpc:multi=0,r=4,cpcmin=8,cpcmax=11" (dice.ChapterCPC) is the
//     chapter's configuration in Dice (section 5.6.2: R = 4 at d in
//     {7, 9}, the pairs (3, 7) and (5, 9), at chance-node depths 8 to 11).
//     In ChanceBreakthrough, where depth counts decisions only and a
//     chance node's depth is its events', the chapter's R = 2 at d in
//     {3, 5} (section 5.6.3) is cpc:multi=0,r=2,cpcmin=3,cpcmax=5,cpcstep=2:
//     Config.CPCStep keeps every step-th depth of [cpcmin, cpcmax].
//
// Config.Noise is the chapter's random factor (section 5.5.4), a term
// uniform in [-noise, noise] added to every leaf evaluation (Noisy): a
// function of the position's key and a salt that a match sets to each
// game's seed (Salter), so a search sees one evaluation per position and
// self-play games from one start differ. Only ChanceBreakthrough's engines
// have it (CheckNoise); Dice's fold it away.
//
// A chance node runs in named phases, each of which may decide it: the
// table cut (tableCut), successor probing (successorProbing), ChanceProbCut
// (probCut), Star2 probing (star2Probing) and the Star1 search (star1). The
// algorithm is resolved into switches when the engine is built.
//
// Move nodes are searched by the same negamax for every algorithm: fail-soft
// alpha-beta with a transposition table, table move first, two killer moves
// per ply and the history heuristic (Veness 2006, section 4.3.1).
//
// # Conventions
//
// Scores are float64 in [L, U] = [-1, 1] from the mover's view, negated on
// every edge that leaves a decision and never on one that leaves a chance
// node (package search/game). How depth counts is the game's: in Dice it
// counts chance plies and move plies alike, as the thesis does (a pre-roll
// root at depth 3 is chance, move, chance, leaf); in a game whose chance is
// optional, as in ChanceBreakthrough and the toy game, it counts decisions
// only, as the chapter does. A node is one entry into the recursive search
// for a position (chance node, move node, probe or leaf), cut-offs included;
// table look-ups by successor probing are not nodes. Iterative deepening
// reports nodes and time cumulated over the iterations, as the thesis does.
//
// A chance node's events carry integer weights w_i of total W (their
// probabilities are w_i/W), and chance nodes keep the weighted sums of the
// events' bounds rather than means: the Star1 window of event i is
// (W*alpha - sum_{j!=i} w_j*hi_j)/w_i .. (W*beta - sum_{j!=i} w_j*lo_j)/w_i
// (Ballard 1983). All chance events of Dice are equally likely, and its
// engine compiles the uniform case, n*alpha - sum_{j!=i} hi_j .. n*beta -
// sum_{j!=i} lo_j, exact in floating point up to one rounding. A cut-off
// returns the node's bound clamped to the window edge it crossed, so that
// rounding can never make a bound look like an exact value inside the
// window; when all events are exact the mean is summed in event order, as
// expectimax does.
//
// # Transposition table
//
// One table serves chance and move nodes (the key includes the roll). An
// entry holds a lower and an upper bound, each with its own depth, and the
// best move; 32-byte entries in buckets of four, full 64-bit keys verified,
// replacement by generation then depth (see TT). Move nodes of depth 1 skip
// the table: their children are leaves, cheaper to evaluate than a table
// miss; successor probing therefore starts at depth 3. Clearing is O(1) by
// epochs, so a match can give every game an empty table. A bound is used only at a depth no
// greater than its own. In Dice a position's distance from the root is fixed
// by its number of checkers, so within one search every entry a node meets
// was searched to exactly its depth, and the sound algorithms agree with
// expectimax to 1e-9; a table kept between searches (as in a game) can hold
// deeper bounds, which are then used as they are. Where positions recur at
// other depths within one search (the toy game; ChanceBreakthrough), an
// entry of a deeper search answers a shallower one, and the sound
// algorithms agree with the depth-limited value only with the table off:
// tt=0 (a table of 0 MiB finds nothing, at no cost in the hot loop), which
// the exact-solver tests use.
//
// ChanceProbCut stores its forward-pruned values in cpc's own table like
// any other, with the node's full depth and no mark, as ProbCut engines
// do: a ChanceProbCut cut-off returns the window edge it crossed and stores
// nothing at the chance node, but the move node above stores the value it
// leads to as a bound or an exact value of its depth; a chance node that
// ChanceProbCut did not cut stores what its Star1 phase found, as staretc
// does (the values below it may rest on cut-offs deeper down); the
// shallow searches store their entries at their own depth.
// Later probes, in the same search and in the later searches of a table
// kept between them (a game), trust these entries as full searches. No
// other engine shares the table: staretc, the reference of starlab tune,
// searches with its own.
//
// What each algorithm keeps, and where positions recur at many depths of
// one search (Pig, the toy game: engines whose game.go sets exactFirst),
// what the Star algorithms keep instead, is in docs/search.md, "What the
// table keeps".
//
// # Iterative deepening
//
// An engine's Search counts every iteration, as the thesis's tables do. With
// Limits.PlayDepths, as players search, iterations that end on a chance
// ply are skipped (EndsOnChance): no evaluator reads the roll, so such an
// iteration has the value of the one before it at two to three times the
// cost.
//
// # Speed
//
// The engine keeps a per-ply Undo, so a take-back restores the board's
// streak and pair counters instead of walking the lines again
// (dice.Board.MakeSaving); before searching the children of a node it
// prefetches their table buckets (PREFETCHT0 on amd64) so that their
// misses overlap; the table asks the kernel for transparent huge pages;
// chance nodes work in frames kept per ply rather than zeroed on the
// stack. The binary is built with profile-guided optimisation
// (cmd/starlab/default.pgo).
//
// # Invariants
//
// The hot path allocates nothing: boards are make/unmake, move and event
// lists are fixed-size arrays, the table is allocated once.
// Every sound algorithm is tested against an unpruned expectimax and an
// exact solver on thousands of generated positions.
package search
