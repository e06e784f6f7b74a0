// Package games is the registry of starlab's games: the one place that
// names every game, so that a stage, a command or a file can pick a game by
// its name ("dice") and see it only through the contract of package
// starlab/search/game and its engine through search.Engine: Lookup gives
// a search.Kit, which a command hands to the stages, so that no stage
// imports a game. It holds no state: Lookup returns a fresh descriptor
// and Names a fresh list on every call.
//
// The toy game (package starlab/search/game/toy, a race of weighted,
// optional chance) is registered as the smallest complete game: the one
// to copy when adding a game, and the one the tests drive every command
// with.
//
// A game joins the registry with one line in its table (its name and its
// engine's Game), and its own tests run the contract's conformance test
// (starlab/search/game/gametest); this package's tests check that every
// name looks up a game of that name that passes it.
package games
