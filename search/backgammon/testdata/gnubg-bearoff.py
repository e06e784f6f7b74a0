# Two-sided bear-off values from GNU Backgammon, for checking
# search/backgammon's exact bear-off evaluation.
#
# Made with GNU Backgammon 1.07.001 (Debian package 1.07.001-1+b1), whose
# install builds the two-sided bear-off database /var/lib/gnubg/gnubg_ts0.bd
# (`makebearoff -t 6x6`: every position of up to 6 checkers a side on the 6
# home points). Run from the repository root (a few seconds):
#
#   /usr/games/gnubg -t -q -r -p search/backgammon/testdata/gnubg-bearoff.py
#
# It writes search/backgammon/testdata/gnubg-bearoff.jsonl, one JSON object
# per line:
#   {"position": "<PositionID>", "pwin": P}
# - PositionID: gnubg's 14-character Position ID of the board seen by the side
#   on roll (gnubg's pair (opp, me), the side on roll second). Both sides have
#   1 to 4 checkers, all on their home points 1-6, no contact.
# - P: the side on roll's probability of winning, before it rolls, as
#   gnubg.evaluate gives it at 0-ply, cubeless.
# Where P comes from: gnubg classifies these positions as CLASS_BEAROFF2, and
# for any class up to CLASS_BEAROFF_TS EvaluatePositionFull (eval.c) uses
# the static evaluator at every ply; for CLASS_BEAROFF2 that is a lookup in
# gnubg_ts0.bd (BearoffEvalTwoSided, bearoff.c), no neural net. The database
# holds the cubeless equity of optimal play as a 16-bit integer, so
# P = k / 65535; makebearoff builds it by full enumeration of the rolls and
# plays, in 16-bit integer arithmetic (each average over the 36 rolls
# truncated), so P can sit a little off the true probability: on these
# positions by at most 1.8/65535 (2.8e-5); compare with a tolerance of that
# order, or round P * 65535 to the database's integer.
# This script checks each P against its own exact computation (a small
# dynamic program over both sides' bear-offs with optimal play, which maximises
# P(win) since no gammon is possible here) and reports the largest
# difference, checks that P is k/65535 and that gnubg's 2-ply value is the
# same, and checks the trivial cases (pwin 1 for one checker on points 1-3).
# Summary and anomalies go to stderr, prefixed "gnubg-bearoff:".
import os
import gnubg, json, random, sys
from functools import lru_cache

OUT = os.environ.get("STARLAB_GNUBG_OUT", "search/backgammon/testdata/gnubg-bearoff.jsonl")  # another path: STARLAB_GNUBG_OUT
ROLLS = [(h, l) for l in range(1, 7) for h in range(l, 7)]
anomalies = []

def log(*a):
    sys.stderr.write("gnubg-bearoff: " + " ".join(str(x) for x in a) + "\n")
    if a[0] == "ANOMALY":
        anomalies.append(a)

def step(side, d):
    """One side's home board (6 counts) after one checker moves d pips."""
    for s in range(6):
        if side[s] and (s - d >= -1 or not any(side[s + 1:])):
            m = list(side)
            m[s] -= 1
            if s - d >= 0:
                m[s - d] += 1
            yield tuple(m)

def plays(side, r):
    out = set()
    def rec(side, dice):
        nxt = set(step(side, dice[0])) if dice else set()
        for s in nxt:
            rec(s, dice[1:])
        if not nxt:
            out.add(side)
    for seq in [r * 2] if r[0] == r[1] else [r, r[::-1]]:
        rec(side, seq)
    return out

@lru_cache(maxsize=None)
def exact(me, opp):
    """P(the side on roll, me, wins) with both sides playing to maximise it."""
    tot = 0.0
    for r in ROLLS:
        best = max(1.0 if not any(a) else 1.0 - exact(opp, a) for a in plays(me, r))
        tot += best * (1 if r[0] == r[1] else 2)
    return tot / 36

def board(me, opp):
    return list(opp) + [0] * 19, list(me) + [0] * 19

def side(rng):
    s = [0] * 6
    for _ in range(rng.randint(1, 4)):
        s[rng.randrange(6)] += 1
    return tuple(s)

def main():
    rng = random.Random(20261126)
    pts = lambda *c: tuple(c) + (0,) * (6 - len(c))
    trivial = [(pts(1), pts(1)), (pts(1), pts(0, 0, 0, 0, 0, 4)), (pts(0, 1), pts(1)),
               (pts(0, 0, 1), pts(2, 2)), (pts(0, 0, 0, 0, 0, 2), pts(1)),
               (pts(4), pts(1)), (pts(0, 0, 0, 0, 0, 1), pts(1)), (pts(0, 0, 0, 0, 0, 4), pts(1))]
    positions = list(trivial)
    while len(positions) < 80:
        p = (side(rng), side(rng))
        if p not in positions:
            positions.append(p)
    ci = gnubg.cubeinfo(1, -1, 1, 0)   # money, cube centred; cubeless below
    ec0, ec2 = gnubg.evalcontext(0, 0, 1, 0, 0.0), gnubg.evalcontext(0, 2, 1, 0, 0.0)
    worst, lines = 0.0, []
    for me, opp in positions:
        b = board(me, opp)
        if gnubg.classifypos(b) != 4:   # CLASS_BEAROFF2
            log("ANOMALY", "class", gnubg.classifypos(b), me, opp)
        p = gnubg.evaluate(b, ci, ec0)[0]
        k = round(p * 65535)
        if abs(p - k / 65535) > 1e-7:
            log("ANOMALY", "not k/65535", me, opp, p)
        if gnubg.evaluate(b, ci, ec2)[0] != p:
            log("ANOMALY", "2-ply differs", me, opp)
        worst = max(worst, abs(p - exact(me, opp)))
        lines.append({"position": gnubg.positionid(b), "pwin": p})
    for (me, opp), x in zip(trivial, lines):
        if sum(me) == 1 and me.index(1) < 3 and x["pwin"] != 1.0:
            log("ANOMALY", "trivial", me, opp, x["pwin"])
    with open(OUT, "w") as f:
        for x in lines:
            f.write(json.dumps(x) + "\n")
    log("%d positions; largest |gnubg - exact| = %.3g (%.2f / 65535)" % (len(lines), worst, worst * 65535))
    log("trivial:", " ".join("%s-%s:%.6f/%.6f" % ("".join(map(str, m)), "".join(map(str, o)), x["pwin"], exact(m, o))
                             for (m, o), x in zip(trivial, lines)))
    log("anomalies:", len(anomalies))

main()
