# gnubg-movetext.py: gnubg's own move text for plays on random positions, the
# fixture for FormatPlay and ParsePlay (TestFormatPlayGnubg, TestParsePlayGnubg).
#
# Run it from this directory with GNU Backgammon 1.07.001:
#
#     /usr/games/gnubg -t -q -r -p gnubg-movetext.py
#
# It writes gnubg-movetext.jsonl here, one play a line:
#
#     {"dice": [d1, d2], "mover": [26], "opp": [26], "moves": [[from, to], ...],
#      "text": "...", "source": "hint" | "movetupletostring", "parsed": [[from, to], ...]}
#
# mover and opp are the two sides' Points (index 1..24 the side's own points,
# 25 its bar, 0 its borne-off count), mover on roll with the dice. moves are
# the play's checker moves in the order gnubg's move generator made them, in
# the same indices (25 = bar, 0 = off). text is the play as gnubg writes it:
# with source "hint" it is the text of gnubg.hint's entry for that play; with
# source "movetupletostring" the moves are another sequence of single checker
# moves that gnubg's generator also found for the same play (the same
# position after it), and text is what gnubg.movetupletostring writes for
# them. parsed is gnubg.parsemove(text).
#
# gnubg's hint entries carry only the text, not the checker moves, so the
# script finds the moves by repeating gnubg's move generator (eval.c:
# GenerateMoves, GenerateMovesSub, SaveMoves, LegalMove, ApplySubMove at
# release-1_07_001) and checks, for every sampled position, that the texts
# gnubg writes for the generated plays (movetupletostring, which is
# FormatMove, the function the hint list uses) are exactly the hint list's
# texts, one play each; where no play is possible both lists are empty. Any
# disagreement stops the script with exit status 1.
#
# The positions come from games of random legal plays from the start, with a
# fixed seed, so the output is the same on every run. Every sampled position
# is checked; the plays of about one in eight of them are written. Set ALL=1
# in the environment to write every hint entry of every sampled position (the
# same positions) to gnubg-movetext-all.jsonl instead, a much larger file: put
# it in place of gnubg-movetext.jsonl to run the Go tests on all of it.

import json
import os
import random
import sys

import gnubg

SEED = 20240607
GAMES = 40
SAMPLE = 0.35  # chance that a ply's position is checked against gnubg's hint list
WRITE = 0.12  # chance that a checked position's plays are written
PER_POSITION = 2  # hint entries written per written position (ALL=1: every entry of every position)

ALL = os.environ.get("ALL") == "1"
OUT = "gnubg-movetext-all.jsonl" if ALL else "gnubg-movetext.jsonl"

START = [0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0]


# A board is [opp, me] as gnubg holds it: each side 25 counts from its own
# view, index 0..23 its points 1..24, index 24 its bar; me is on roll.

def apply_sub(b, src, n):
    opp, me = b
    me[src] -= 1
    dst = src - n
    if dst < 0:
        return
    me[dst] += 1
    if opp[23 - dst] == 1:
        opp[23 - dst] = 0
        opp[24] += 1


def legal_move(b, src, n):
    opp, me = b
    dst = src - n
    if dst >= 0:
        return opp[23 - dst] < 2
    back = 24
    while back > 0:
        if me[back] > 0:
            break
        back -= 1
    return back <= 5 and (src == back or dst == -1)


class MoveList:
    def __init__(self):
        self.moves = []  # [key, cmoves, cpips, anmove]
        self.max_moves = 0
        self.max_pips = 0
        self.all = []  # every complete sequence: (key, anmove)

    def save(self, cmoves, cpips, anmoves, b):
        key = (tuple(b[0]), tuple(b[1]))
        raw = [a if a > -1 else -1 for a in anmoves[:cmoves * 2]]
        if cmoves < self.max_moves or cpips < self.max_pips:
            return
        if cmoves > self.max_moves or cpips > self.max_pips:
            self.moves = []
            self.all = []
        self.max_moves = cmoves
        self.max_pips = cpips
        self.all.append((key, raw))
        for m in self.moves:
            if m[0] == key:
                if cmoves > m[1] or cpips > m[2]:
                    m[1], m[2], m[3] = cmoves, cpips, raw
                return
        self.moves.append([key, cmoves, cpips, raw])


def gen_sub(ml, roll, depth, ipip, cpip, b, anmoves):
    if depth > 3 or not roll[depth]:
        return True
    opp, me = b
    if me[24]:
        if opp[roll[depth] - 1] >= 2:
            return True
        anmoves[depth * 2] = 24
        anmoves[depth * 2 + 1] = 24 - roll[depth]
        nb = [opp[:], me[:]]
        apply_sub(nb, 24, roll[depth])
        if gen_sub(ml, roll, depth + 1, 23, cpip + roll[depth], nb, anmoves):
            ml.save(depth + 1, cpip + roll[depth], anmoves, nb)
        return False
    used = False
    for i in range(ipip, -1, -1):
        if me[i] and legal_move(b, i, roll[depth]):
            anmoves[depth * 2] = i
            anmoves[depth * 2 + 1] = i - roll[depth]
            nb = [opp[:], me[:]]
            apply_sub(nb, i, roll[depth])
            nxt = i if roll[0] == roll[1] else 23
            if gen_sub(ml, roll, depth + 1, nxt, cpip + roll[depth], nb, anmoves):
                ml.save(depth + 1, cpip + roll[depth], anmoves, nb)
            used = True
    return not used


def generate(b, d0, d1):
    ml = MoveList()
    roll = [d0, d1, d0 if d0 == d1 else 0, d0 if d0 == d1 else 0]
    gen_sub(ml, roll, 0, 23, 0, b, [0] * 8)
    if d0 != d1:
        roll[0], roll[1] = roll[1], roll[0]
        gen_sub(ml, roll, 0, 23, 0, b, [0] * 8)
    return ml


def ours(side):
    """A gnubg side as our Points: 26 counts, 0 = off, 25 = bar."""
    return [15 - sum(side)] + side[:24] + [side[24]]


def pairs(raw):
    return [[raw[i] + 1, raw[i + 1] + 1] for i in range(0, len(raw), 2)]


def flat(raw):
    return tuple(a + 1 for a in raw)


def text_of(raw, b):
    return gnubg.movetupletostring(flat(raw), [list(b[0]), list(b[1])])


def main():
    rng = random.Random(SEED)  # the games
    pick = random.Random(SEED + 1)  # what is written, so that ALL=1 sees the same games
    gnubg.command("set threads 1")
    gnubg.command("set player 0 human")
    gnubg.command("set player 1 human")
    gnubg.command("set cube use off")
    gnubg.command("set evaluation chequerplay evaluation plies 0")
    gnubg.command("new game")

    out = open(OUT, "w")
    positions = lines = plays = empty = 0
    for game in range(GAMES):
        b = [START[:], START[:]]
        while sum(b[0]) and sum(b[1]):
            d0, d1 = rng.randint(1, 6), rng.randint(1, 6)
            ml = generate(b, d0, d1)
            if rng.random() < SAMPLE:
                posid = gnubg.positionid([list(b[0]), list(b[1])])
                gnubg.command("set board " + posid)
                gnubg.command("set dice %d %d" % (d0, d1))
                if gnubg.positionid() != posid:
                    print("gnubg-movetext: set board %s gave %s" % (posid, gnubg.positionid()))
                    sys.exit(1)
                hint = [e["move"] for e in gnubg.hint(5000)["hint"]] if ml.moves else []
                byText = {}
                for m in ml.moves:
                    byText.setdefault(text_of(m[3], b), []).append(m)
                if sorted(hint) != sorted(byText) or any(len(v) != 1 for v in byText.values()):
                    print("gnubg-movetext: %s dice %d%d: hint %s, generated %s"
                          % (posid, d0, d1, sorted(hint), sorted(byText)))
                    sys.exit(1)
                positions += 1
                plays += len(hint)
                if not hint:
                    empty += 1
                texts = sorted(hint)
                if not ALL and pick.random() >= WRITE:
                    chosen = []
                elif ALL:
                    chosen = texts
                else:
                    odd = [t for t in texts if "*" in t or "(" in t or "bar" in t or "off" in t
                           or t.count("/") > t.count(" ") + 1]
                    chosen = []
                    if odd:
                        chosen.append(pick.choice(odd))
                    chosen += pick.sample(texts, min(len(texts), PER_POSITION - len(chosen)))
                    chosen = sorted(set(chosen))
                for t in chosen:
                    raw = byText[t][0][3]
                    rec = {"dice": [d0, d1], "mover": ours(b[1]), "opp": ours(b[0]),
                           "moves": pairs(raw), "text": t, "source": "hint",
                           "parsed": [list(p) for p in gnubg.parsemove(t)]}
                    out.write(json.dumps(rec, separators=(",", ":")) + "\n")
                    lines += 1
                    # The same play reached by another order of steps, as
                    # movetupletostring writes it.
                    key = byText[t][0][0]
                    alts = [r for k, r in ml.all if k == key and r != raw]
                    if alts:
                        alt = pick.choice(alts)
                        at = text_of(alt, b)
                        rec = {"dice": [d0, d1], "mover": ours(b[1]), "opp": ours(b[0]),
                               "moves": pairs(alt), "text": at, "source": "movetupletostring",
                               "parsed": [list(p) for p in gnubg.parsemove(at)]}
                        out.write(json.dumps(rec, separators=(",", ":")) + "\n")
                        lines += 1
            if ml.moves:
                raw = rng.choice(ml.moves)[3]
                for i in range(0, len(raw), 2):
                    apply_sub(b, raw[i], raw[i] - raw[i + 1] if raw[i + 1] >= 0 else raw[i] + 1)
            b = [b[1], b[0]]
    out.close()
    print("gnubg-movetext: %d positions (%d with no legal play), %d hint entries checked, %d lines written to %s"
          % (positions, empty, plays, lines, OUT))


main()
