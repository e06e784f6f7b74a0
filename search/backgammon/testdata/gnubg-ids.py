# gnubg-ids.py: gnubg's own Position IDs, Match IDs and readings of XGIDs,
# the fixture for TestPositionIDGnubg, TestMatchIDGnubg and TestXGIDGnubg.
#
# Run it from this directory with GNU Backgammon 1.07.001:
#
#     /usr/games/gnubg -t -q -r -p gnubg-ids.py
#
# It writes gnubg-ids.jsonl here, one record a line, by its "kind":
#
#   position     {"onroll": [26], "other": [26], "id": "..."}: a position
#                from a game of random legal plays, the sides as Points
#                (index 1..24 the side's own points, 25 its bar, 0 its
#                borne-off count), and gnubg.positionid of it; the script
#                checks that gnubg.positionfromid(id) gives the board back.
#   badposition  {"id": "...", "why": "..."}: an ID of an impossible
#                position (built with gnubg's own encoding) that
#                gnubg.positionfromid refuses.
#   match        {"id": "...", "cube": 4, "owner": -1|0|1, "move": 0|1,
#                "crawford": 0|1, "state": 0..4, "turn": 0|1, "doubled": 0|1,
#                "resigned": 0..3, "dice": [d1, d2], "length": n,
#                "score": [s0, s1], "jacoby": 0|1}: gnubg.matchid of
#                random match states.
#   xgid         {"xgid": "...", "positionid": "...", "matchid": "...",
#                "onroll": [26], "other": [26]}: what gnubg holds after
#                "set xgid": its Position ID, Match ID and board (the side
#                on roll and the other, as Points).
#
# The random choices use a fixed seed, so the output is the same on every
# run. Any disagreement with gnubg's own round trip stops the script with
# exit status 1.

import json
import random
import sys

import gnubg

SEED = 20240608
POSITIONS = 150
MATCHES = 150
XGIDS = 150

START = [0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0]

B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def ours(side):
    """A gnubg side (25 counts, index 24 the bar) as our Points."""
    return [15 - sum(side)] + list(side[:24]) + [side[24]]


def encode(board):
    """gnubg's Position ID of board = [opp, me], without its checks."""
    key = [0] * 10
    bit = 0
    for side in board:
        for n in side:
            for _ in range(n):
                if bit < 80:
                    key[bit // 8] |= 1 << (bit % 8)
                bit += 1
            bit += 1
    s = ""
    for i in range(0, 9, 3):
        b0, b1, b2 = key[i], key[i + 1], key[i + 2]
        s += B64[b0 >> 2] + B64[((b0 & 3) << 4) | (b1 >> 4)] + B64[((b1 & 15) << 2) | (b2 >> 6)] + B64[b2 & 63]
    return s + B64[key[9] >> 2] + B64[(key[9] & 3) << 4]


def random_positions(rng, n):
    """n positions [opp, me], me on roll, from games of random steps: each
    die moves a random checker that the rules let it move on its own (not
    always a legal play of the whole roll, but always a position of a game),
    enough for a variety of contact, bar and bear-off positions."""
    out = []
    while len(out) < n:
        b = [START[:], START[:]]
        while sum(b[0]) and sum(b[1]) and len(out) < n:
            if rng.random() < 0.3:
                out.append([b[0][:], b[1][:]])
            d = [rng.randint(1, 6), rng.randint(1, 6)]
            if d[0] == d[1]:
                d += d
            for die in d:
                opp, me = b
                srcs = []
                for src in range(24, -1, -1):
                    if not me[src] or (me[24] and src != 24):
                        continue
                    dst = src - die
                    if dst >= 0:
                        if opp[23 - dst] < 2:
                            srcs.append(src)
                    elif all(me[k] == 0 for k in range(6, 25)) and (dst == -1 or all(me[k] == 0 for k in range(src + 1, 6))):
                        srcs.append(src)
                if not srcs:
                    continue
                src = rng.choice(srcs)
                me[src] -= 1
                dst = src - die
                if dst >= 0:
                    me[dst] += 1
                    if opp[23 - dst] == 1:
                        opp[23 - dst] = 0
                        opp[24] += 1
            b = [b[1], b[0]]
    return out


def xgid_of(bottom, top):
    pos = "abcdefghijklmnop"[top[24] - 1] if top[24] else "-"
    for i in range(1, 25):
        if bottom[i - 1]:
            pos += "ABCDEFGHIJKLMNOP"[bottom[i - 1] - 1]
        elif top[24 - i]:
            pos += "abcdefghijklmnop"[top[24 - i] - 1]
        else:
            pos += "-"
    pos += "ABCDEFGHIJKLMNOP"[bottom[24] - 1] if bottom[24] else "-"
    return pos


def main():
    rng = random.Random(SEED)
    out = open("gnubg-ids.jsonl", "w")

    def emit(rec):
        out.write(json.dumps(rec, separators=(",", ":")) + "\n")

    # Position IDs.
    boards = [[START[:], START[:]]] + random_positions(rng, POSITIONS - 3)
    boards.append([[0] * 25, [0, 0, 0, 1] + [0] * 21])  # the other side has borne off all
    boards.append([[0, 2, 2, 2, 2, 2, 0] + [0] * 17 + [3], [2, 2, 2, 2, 2, 2] + [0] * 18 + [3]])
    for b in boards:
        pid = gnubg.positionid([list(b[0]), list(b[1])])
        back = gnubg.positionfromid(pid)
        if [list(back[0]), list(back[1])] != b or pid != encode(b):
            print("gnubg-ids: position %s: positionfromid gave %s, our encoding %s" % (b, back, encode(b)))
            sys.exit(1)
        emit({"kind": "position", "onroll": ours(b[1]), "other": ours(b[0]), "id": pid})

    # Impossible positions gnubg refuses.
    bad = [
        ([START[:], START[:6] + [1] + START[7:]], "16 checkers on the side on roll"),
        ([START[:6] + [1] + START[7:], START[:]], "16 checkers on the side not on roll"),
        ([[0] * 24 + [15], [0] * 24 + [16]], "16 checkers on the bar"),
        ([[1] + [0] * 24, [0] * 23 + [1, 0]], "a point held by both sides"),
        ([[2] * 6 + [0] * 18 + [3], [2] * 6 + [0] * 18 + [3]], "both on the bar against closed boards"),
    ]
    for b, why in bad:
        pid = encode(b)
        try:
            gnubg.positionfromid(pid)
        except ValueError:
            emit({"kind": "badposition", "id": pid, "why": why})
            continue
        print("gnubg-ids: gnubg accepts %s (%s)" % (pid, why))
        sys.exit(1)

    # Match IDs.
    for i in range(MATCHES):
        length = rng.choice([0, 0, 1, 3, 5, 7, 11, 25, 64])
        score = [rng.randint(0, length), rng.randint(0, length)] if length else [rng.randint(0, 30), rng.randint(0, 30)]
        dice = [0, 0] if rng.random() < 0.3 else [rng.randint(1, 6), rng.randint(1, 6)]
        rec = {"cube": 1 << rng.randint(0, 12), "owner": rng.choice([-1, 0, 1]), "move": rng.randint(0, 1),
               "crawford": rng.randint(0, 1) if length else 0, "state": rng.randint(0, 4),
               "turn": rng.randint(0, 1), "doubled": rng.randint(0, 1), "resigned": rng.randint(0, 3),
               "dice": dice, "length": length, "score": score, "jacoby": rng.randint(0, 1)}
        ci = {"cube": rec["cube"], "cubeowner": rec["owner"], "move": rec["move"], "crawford": rec["crawford"],
              "matchto": length, "score": tuple(score), "jacoby": rec["jacoby"]}
        pi = {"turn": rec["turn"], "resigned": rec["resigned"], "doubled": rec["doubled"],
              "gamestate": rec["state"], "dice": tuple(dice)}
        rec = dict({"kind": "match", "id": gnubg.matchid(ci, pi)}, **rec)
        emit(rec)

    # XGIDs.
    gnubg.command("set player 0 human")
    gnubg.command("set player 1 human")
    for b in random_positions(rng, XGIDS):
        opp, me = b
        bottom_on_roll = rng.random() < 0.5
        bottom, top = (me, opp) if bottom_on_roll else (opp, me)
        pos = xgid_of(bottom, top)
        cv = rng.choice([0, 0, 1, 2, 3, 6])
        cp = 0 if cv == 0 else rng.choice([-1, 0, 1])
        dice = rng.choice(["00", "D", "%d%d" % (rng.randint(1, 6), rng.randint(1, 6)),
                           "%d%d" % (rng.randint(1, 6), rng.randint(1, 6))])
        ml = rng.choice([0, 0, 1, 3, 5, 7, 9, 13])
        if ml:
            s1, s2 = rng.randint(0, ml - 1), rng.randint(0, ml - 1)
            cj = 0
            if rng.random() < 0.3:
                s1 = ml - 1
                cj = rng.randint(0, 1)
                if cj:
                    cv, cp = 0, 0  # no one doubles in the Crawford game
        else:
            s1, s2, cj = rng.randint(0, 5), rng.randint(0, 5), rng.randint(0, 3)
        x = "XGID=%s:%d:%d:%d:%s:%d:%d:%d:%d:%d" % (pos, cv, cp, 1 if bottom_on_roll else -1, dice, s1, s2, cj, ml,
                                                      rng.choice([0, 10]))
        if rng.random() < 0.2:
            x = x[5:]
        gnubg.command("set xgid " + x)
        g = gnubg.board()
        if [list(g[0]), list(g[1])] != b:
            print("gnubg-ids: set xgid %s gave the board %s, want %s" % (x, g, b))
            sys.exit(1)
        emit({"kind": "xgid", "xgid": x, "positionid": gnubg.positionid(), "matchid": gnubg.matchid(),
              "onroll": ours(g[1]), "other": ours(g[0])})
    out.close()
    print("gnubg-ids: %d positions, %d refused, %d match IDs, %d XGIDs written to gnubg-ids.jsonl"
          % (len(boards), len(bad), MATCHES, XGIDS))


main()
