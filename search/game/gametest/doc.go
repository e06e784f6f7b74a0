// Package gametest is the conformance test of the game contract (package
// starlab/search/game): any game runs Check from its own tests, over the
// variants it supports, and a game that passes it can be played, recorded
// and trained on by the stages without them knowing which game it is.
//
// Check plays random games through the contract only: from Game.New(variant)
// it draws a legal move uniformly at a decision and an event with
// probability Weight/total at a chance node, from a math/rand/v2 PCG seeded
// by the caller, so a failure is reproduced by its seed. At every state it
// checks:
//
//   - Kind is Decision, Chance or Over, and agrees with Legal and Outcomes:
//     a decision has moves, none repeated, and no events; a chance node has
//     events, no ID repeated, every Weight > 0, the weights summing to the
//     total Outcomes returns, and no moves; a state that is over has
//     neither, and a Result in [-1, 1];
//   - Legal and Outcomes fill dst[:0], not dst: a buffer with stale
//     contents gives the same answer as a nil one;
//   - Mover is 0 or 1 (values follow the mover, whoever it is); and, with
//     CheckFixedSigns, the fixed signs of game.State hold: every legal
//     move leads to a state (of any kind, over included) whose Mover is
//     the other side, and every event to one whose Mover is the chance
//     node's;
//   - Game.Variant gives the variant the game started in, and Game.Phase is
//     not negative and, unless the state is over, within Game.PhaseRange;
//   - String is read back by Game.Parse into a state with the same String,
//     Key, Kind, Mover and Phase;
//   - every legal move survives Game.FormatMove then Game.ParseMove, and
//     its text is one word (or, where the records' separator is
//     not a space, one line without the separator); every event's Game.FormatEvent is a non-empty
//     line whose last word, which stands for the event in game records,
//     differs from its siblings';
//   - Clone is independent: playing the drawn move or event on the clone
//     leaves the original's String and Key unchanged, playing it on the
//     original gives the clone's String and Key, and leaves a second clone
//     unchanged;
//   - the calls that only read (Kind to FormatEvent) leave String and Key
//     unchanged;
//   - over every state seen, equal Strings have equal Keys, and different
//     Strings different Keys (a 64-bit key collision among a few thousand
//     states is improbable, and a Key that ignores part of the state, the
//     roll say, makes one certain);
//   - every game ends within 10,000 plies (moves and events), and New gives
//     the same start every time.
//
// Check stops at the first state that breaks the contract and reports every
// problem found there, with the game, the ply and the state's String.
package gametest
