// Package engine builds each game's search engine from one engine source.
//
// The *-minimax algorithms (Expectimax, Star1, Star2, StarETC,
// ChanceProbCut), the transposition table's use, move ordering and
// iterative deepening are written once, in the Dice engine
// (search/engine/dice): every non-test file there but game.go is the
// engine source. Each other game's engine is a directory beside it,
// search/engine/<game>, holding its own hand-written game.go and copies of
// the engine source that go generate writes (Generate): the same code with
// the package clause of the game, so that every call into the board and
// the evaluator is a direct call the compiler can inline. Go's generics
// cannot do this today: a method call on a type parameter is an indirect
// call through the dictionary and is not inlined, which costs the Dice
// engine 48% to 110% per node (measured in the design review), so the
// engine is generated as Go's sort package generates its variants.
//
// A game's game.go gives the engine source what it needs of the game:
//
//   - the types Board (the position, searched in place), undo (what a
//     move changes that its take-back restores), eventUndo (the same for
//     a chance event), netEval (the network evaluator, concrete), move,
//     event and variantKey;
//   - the constants maxMoves, maxEvents, moveIDs (moves are numbered below
//     it), maxPly, and four that let the compiler fold away what a game
//     does not need: alternating (every move leads to a chance node),
//     uniformChance (every event has weight 1), countsChance (a search's
//     depth counts chance nodes) and eventsTouchEval (a chance event
//     changes what an evaluator reads);
//   - the functions isChance, chanceEvents, happen, unhappen,
//     keyAfterEvent, netHappen, netUnhappen, moveCount, mover, handEval,
//     endsOnChance and MaxDepth, and the method setBoard;
//   - on Board: Over, Result, Key, Moves, MakeSaving, UnmakeRestoring and
//     KeyAfter.
//
// Run go generate ./search/engine after changing the engine source;
// TestGeneratedEnginesAreCurrent fails while a copy differs from what
// Generate writes.
package engine

//go:generate go run ./gen
