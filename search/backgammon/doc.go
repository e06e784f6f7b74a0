// Package backgammon implements backgammon without the doubling cube, in
// two variants: 1pt, a single game (+1 a win, -1 a loss; the value is
// 2·P(win) - 1, gnubg's equity in a one-point match), and money, cubeless
// money play (a single game, a gammon and a backgammon are 1, 2 and 3
// points, the value their points over 3).
//
// # Rules
//
// Side 0 is O, who moves first, and side 1 is X, gnubg's letters. A side's
// checkers are counted from its own view (Points): points 1 to 24, moving
// from 24 towards 1, its home board 1 to 6, the bar 25 and the borne-off
// checkers 0. The roll is a chance node before every decision, its 21
// rolls weighted 1 (doubles) or 2 out of 36; the mover of the chance node
// is the side that rolls. A decision is one complete play for the roll:
// both dice when that is possible, else the larger one when it can be
// played, else the smaller; a double four times, or as many as possible;
// checkers on the bar enter first (a die d on the opponent's d point, the
// mover's 25-d); a point held by two or more of the opponent's checkers is
// closed, and a single one is hit and goes to the bar; bearing off only
// with all fifteen home, by the exact die, or from the highest occupied
// point by a larger one. Distinct plays are distinct resulting positions,
// as gnubg counts them; when no checker can move the decision has one
// play, the empty one. The first to bear off all fifteen wins. The game
// starts from the standard position with O to roll the opening roll,
// which is never a double (under the standard rules each side rolls one
// die and the higher moves first with both): its chance node has the 15
// other rolls, each of weight 2 out of 30.
//
// Depth counts chance plies as Hauk, Buro and Schaeffer do ("a ply
// consists of a min, max, or chance node"), so from a rolled position
// gnubg's 0-ply (every play evaluated) is depth 1, its 1-ply depth 3 and
// its 2-ply depth 5.
//
// # Notation
//
// A position is "POSITIONID SIDE DICE [VARIANT]": gnubg's Position ID of
// the board for the side on roll (positionid.c), that side's letter, the
// roll (two digits, or "-" before it) and "money" for a money game, as
// "4HPwATDgc/ABMA O 31". Plays are written as gnubg writes them in its
// hint list (drawboard.c FormatMove: "8/5 6/5", "24/18(2) 13/7(2)",
// "bar/22", "6/off", "13/7*"; the empty play "Cannot move", as gnubg's
// text export has it) and read in that form or as gnubg's external socket
// answers ("25/20 6/0"). gnubg's "POSITIONID:MATCHID" and XG's "XGID=..."
// are read too (see Parse).
//
// # The search
//
// The engine knows a play by its code (Moves, MakeSaving), decoded with
// the board's roll, and keeps a Zobrist key over every side's point counts,
// the side to move and the roll. The evaluators are eval=race (pip counts,
// with the side to move's roll), eval=contact (race, plus while the sides
// are in contact their made points, primes, blots in direct reach and
// checkers back or on the bar) and eval=mlp, a net over 202 inputs from the
// side to move's view (Features), or 250 with the input set "features",
// whose first layer follows the plays made (NetEvaluator); a net may carry
// a race net (RacePhase), which values the positions with no contact in
// its place, and may give gnubg's five outcome probabilities in place of
// one value (OutcomeValue: win, win and lose a gammon and a backgammon;
// its value is their cubeless equity in money play). The built-in nets
// (nets/1pt.json, nets/money.json; EmbeddedNet) read the features, give
// the outcomes and carry race nets; testdata/nets keeps the raw-input
// nets of the first built-ins, the one-output main nets of the second
// and the nets of outcomes before their second stages.
package backgammon
