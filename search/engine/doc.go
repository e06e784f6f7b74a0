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
// types, constants (some let the compiler fold away what a game does not
// need), functions it calls per node, Board's and the network evaluator's
// methods, and setBoard. The one list of them is the template's
// demands.go, part of the engine source and so of every engine, where each
// is declared with its type and what it is for: a game.go that lacks one
// fails to compile at its line there. Generated files carry a //line
// directive, so the compiler reports a position in one as the template's
// file and line (../dice/engine.go:197 from the engine's directory).
//
// Run go generate ./search/engine after changing the engine source: it
// writes every copy and removes the copies of files the engine source no
// longer has (Write). TestGeneratedEnginesAreCurrent fails while a copy
// differs from what Generate writes, is missing, or is stale.
package engine

//go:generate go run ./gen
