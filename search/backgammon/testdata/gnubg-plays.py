# Legal plays of backgammon positions as GNU Backgammon lists them, for
# checking search/backgammon's move generator play by play.
#
# Made with GNU Backgammon 1.07.001 (Debian package 1.07.001-1+b1). Run from
# the repository root (about 30 s):
#
#   /usr/games/gnubg -t -q -r -p search/backgammon/testdata/gnubg-plays.py
#
# It writes search/backgammon/testdata/gnubg-plays.jsonl. gnubg's own screen
# output goes to stdout; this script's summary and any anomaly go to stderr,
# prefixed "gnubg-plays:". Everything is seeded, and a rerun on the same
# machine writes the same file; but on another machine, with the same gnubg
# package, its self-play games (and so the "selfplay" positions) and its
# order of plays of equal value were seen to differ (the last bits of its
# evaluations depend on the processor the code runs on). With STARLAB_GNUBG_POSITIONS=FILE the
# script lists the plays of FILE's positions (a fixture it wrote) in place of
# building its own: the test that holds the fixture to gnubg runs it so, and
# compares each position's plays as a set.
#
# One JSON object per line:
#   {"case": C, "position": "<PositionID> <dice>",
#    "plays": [{"move": M, "after": A}, ...]}
# - PositionID: gnubg's 14-character Position ID of the board seen by the side
#   on roll (gnubg's pair (opp, me), the side on roll second); dice: two
#   digits, larger first ("31", "66").
# - plays: gnubg's hint list at 0-ply (every legal play, one per distinct
#   resulting position, in gnubg's order, best first). M is gnubg's text of
#   the play ("8/5 6/5", "24/18(2) 13/7(2)", "bar/22", "6/off", "13/7*"). A is
#   the Position ID after the play, for the side that rolls next (the pair
#   swapped): the board gnubg reaches by `move M`, or, when M bears off the
#   last checker (gnubg then starts a new game), this script's application of
#   gnubg.parsemove(M). "plays": [] when no play is legal (gnubg's hint list
#   is then empty).
# - C: opening (the start, all 21 rolls); bar-closed (on the bar against a
#   closed board); bar-partly (one or two on the bar against 2-5 home points
#   made); bearoff-larger (a die larger than the highest point, or a die whose
#   point is empty with checkers above it); one-die (only one die can be
#   played); partial-double (1-3 moves of a double can be played); hits
#   (plays that hit, some hitting twice); selfplay (positions and rolls from
#   gnubg 0-ply self-play games, and the doubles among them with most plays).
# Checked, each failure reported as an anomaly: gnubg takes every board as
# given; every A holds at most 15 checkers a side and the opponent's count
# is unchanged; the mover's pips drop by exactly the pips of M (from - to over
# gnubg.parsemove, off = 0) and its checkers by the bear-offs in M; the
# opponent's bar grows by the number of '*' in M; the pips of M equal the dice
# played (at most, when bearing off); the As are distinct; and they are the
# set of plays this script's own small generator finds.
import os
import gnubg, json, random, sys, time

OUT = os.environ.get("STARLAB_GNUBG_OUT", "search/backgammon/testdata/gnubg-plays.jsonl")  # another path: STARLAB_GNUBG_OUT
ROLLS = [(h, l) for l in range(1, 7) for h in range(l, 7)]  # 11 21 31 .. 66
T0, anomalies = time.time(), []

def log(*a):
    sys.stderr.write("gnubg-plays: " + " ".join(str(x) for x in a) + "\n")
    if a[0] == "ANOMALY":
        anomalies.append(a)

# --- boards: (opp, me), 25 counts each from that side's view, index 24 the bar
def valid(b):
    opp, me = b
    return (min(opp + me) >= 0 and sum(opp) <= 15 and sum(me) <= 15
            and not any(me[j] and opp[23 - j] for j in range(24)))

def pips(side):
    return sum((i + 1) * n for i, n in enumerate(side))

def moves1(b, d):
    """Boards after one checker of the side on roll moves d pips."""
    opp, me = b
    home = not any(me[6:])
    for s in [24] if me[24] else [i for i in range(24) if me[i]]:
        t, o, m = s - d, list(opp), list(me)
        m[s] -= 1
        if t >= 0 and opp[23 - t] < 2:
            m[t] += 1
            if o[23 - t] == 1:
                o[23 - t], o[24] = 0, o[24] + 1
        elif not (t < 0 and home and (t == -1 or not any(me[s + 1:6]))):
            continue
        yield tuple(o), tuple(m)

def legal(b, r):
    """Our own generator: boards after the legal plays, and (dice, pips) played."""
    best, done = {}, set()

    def rec(b, dice, n, p):
        if (b, dice) not in done:
            done.add((b, dice))
            nxt = list(moves1(b, dice[0])) if dice else []
            for b2 in nxt:
                rec(b2, dice[1:], n + 1, p + dice[0])
            if not nxt:
                best[b] = max(best.get(b, (0, 0)), (n, p))
    for seq in [r * 2] if r[0] == r[1] else [r, r[::-1]]:
        rec((tuple(b[0]), tuple(b[1])), tuple(seq), 0, 0)
    top = max(best.values())
    return ([k for k, v in best.items() if v == top] if top[0] else []), top

def info(b, r):
    afters, top = legal(b, r)
    return dict(n=top[0], plays=len(afters), hits=max([a[0][24] - b[0][24] for a in afters] or [0]),
                hi=any(moves1(b, r[0])), lo=any(moves1(b, r[1])))

def apply(b, parsed):
    o, m = list(b[0]), list(b[1])
    for f, t in parsed:      # parsemove: 25 = bar, 0 = off
        m[f - 1] -= 1
        if t:
            m[t - 1] += 1
            if o[24 - t] == 1:
                o[24 - t], o[24] = 0, o[24] + 1
    return tuple(o), tuple(m)

def pid_of(b):
    return gnubg.positionid((list(b[0]), list(b[1])))

# --- the cases
cases, seen, sub = [], set(), {}

def add(case, b, r, tag=None):
    if not valid(b):
        return log("ANOMALY", "invalid hand-built board", case, b)
    pid = pid_of(b)
    if (pid, r) in seen:
        return False
    seen.add((pid, r))
    cases.append((case, (tuple(b[0]), tuple(b[1])), r, pid))
    key = case + ("/" + tag if tag else "")
    sub[key] = sub.get(key, 0) + 1
    return True

def scatter(rng, side, n, where, other):
    free = [j for j in where if not other[23 - j]] or [j for j in range(24) if not other[23 - j]]
    for _ in range(n):
        side[rng.choice(free)] += 1

def opp_board(rng, made, extra_where):
    opp = [0] * 25
    for i in made:
        opp[i] = 2
    for _ in range(15 - 2 * len(made)):
        opp[rng.choice(extra_where)] += 1
    return opp, [0] * 25

def selfplay_pool(games, seed):
    for c in ["set rng mersenne", "set seed %d" % seed, "set cube use off"] + [
            "set player %d gnubg" % i for i in (0, 1)] + [
            "set player %d chequerplay evaluation plies 0" % i for i in (0, 1)]:
        gnubg.command(c)
    pool = []
    for _ in range(games):
        gnubg.command("new match 1")
        for rec in gnubg.match(0, 1, 0, 0)["games"][-1]["game"]:
            if rec.get("action") == "move" and rec.get("dice"):
                b = gnubg.positionfromid(rec["board"])
                pool.append((b, tuple(sorted(rec["dice"], reverse=True))))
    return pool

def fill(case, quota, gen, classify):
    for _ in range(100000):
        if not any(quota.values()):
            return
        b, r = gen()
        tag = classify(b, r)
        if tag and quota[tag] and add(case, b, r, tag):
            quota[tag] -= 1
    log("ANOMALY", "quota not met", case, quota)

def build():
    rng = random.Random(20261126)
    for r in ROLLS:
        add("opening", gnubg.positionfromid("4HPwATDgc/ABMA"), r)
    for nbar in (1, 2):   # bar-closed: the opponent holds its points 1-6
        opp, me = opp_board(rng, range(6), range(6, 24))
        me[24] = nbar
        scatter(rng, me, 15 - nbar, range(18), opp)
        for r in ROLLS:
            add("bar-closed", (opp, me), r)

    def bar_board():
        opp, me = opp_board(rng, rng.sample(range(6), rng.randint(2, 5)), range(24))
        me[24] = rng.randint(1, 2)
        scatter(rng, me, 15 - me[24], range(6) if rng.random() < .5 else range(24), opp)
        return (opp, me), rng.choice(ROLLS)

    def bar_class(b, r):
        if not 2 <= sum(b[0][i] >= 2 for i in range(6)) <= 5:
            return None
        f = info(b, r)
        return ("dance" if f["n"] == 0 else "double-partly" if r[0] == r[1] and f["n"] < 4 else
                "one-enters" if b[1][24] == 2 and r[0] != r[1] and f["n"] == 1 else "enters")
    fill("bar-partly", {"one-enters": 20, "double-partly": 15, "dance": 10, "enters": 35}, bar_board, bar_class)

    def bearoff_board():
        opp, me = opp_board(rng, [], range(18))
        scatter(rng, me, rng.randint(1, 15), rng.sample(range(6), rng.randint(1, 5)), opp)
        return (opp, me), rng.choice(ROLLS)

    def bearoff_class(b, r):
        me = b[1]
        if any(not me[d - 1] and any(me[d:6]) for d in r):
            return "inside"
        return "from-highest" if r[0] > max(i + 1 for i in range(6) if me[i]) else None
    fill("bearoff-larger", {"from-highest": 30, "inside": 30}, bearoff_board, bearoff_class)

    pool = selfplay_pool(40, 20261126)
    log("self-play pool: %d positions from 40 games, %.1f s" % (len(pool), time.time() - T0))
    finfo = [info(b, r) for b, r in pool]

    def trapped():   # the side on roll stuck behind the opponent's points
        made = rng.sample(range(18), rng.randint(5, 7))
        opp, me = opp_board(rng, made, made)
        me[24] = rng.choice([0, 0, 0, 1, 2])
        free = [j for j in range(6, 24) if not opp[23 - j]]
        scatter(rng, me, 15 - me[24], rng.sample(free, rng.randint(1, 3)), opp)
        return (opp, me), rng.choice(ROLLS)

    def loose():     # blots everywhere
        opp, me = opp_board(rng, [], range(24))
        scatter(rng, me, 15, range(24), opp)
        return (opp, me), rng.choice(ROLLS)

    def one_die(f, r):
        if r[0] != r[1] and f["n"] == 1:
            return "either-larger" if f["hi"] and f["lo"] else "only-larger" if f["hi"] else "only-smaller"

    def partial(f, r):   # the play is then forced: a side's own checkers never block each other
        return "moves-%d" % f["n"] if r[0] == r[1] and 1 <= f["n"] <= 3 else None

    def hits(f, r):
        return "twice" if f["hits"] >= 2 else "once" if f["hits"] == 1 else None

    for case, cls, gen, q in [
            ("one-die", one_die, trapped, {"either-larger": 15, "only-larger": 15, "only-smaller": 15}),
            ("partial-double", partial, trapped, {"moves-1": 12, "moves-2": 12, "moves-3": 12}),
            ("hits", hits, loose, {"twice": 25, "once": 25})]:
        for (b, r), f in zip(pool, finfo):   # from self-play first, then hand-built
            tag = cls(f, r)
            if tag and q[tag] and add(case, b, r, tag + "/selfplay"):
                q[tag] -= 1
        fill(case, q, gen, lambda b, r: cls(info(b, r), r))
    doubles = sorted((i for i, (b, r) in enumerate(pool) if r[0] == r[1]), key=lambda i: -finfo[i]["plays"])
    for i in doubles[:20]:
        add("selfplay", pool[i][0], pool[i][1], "many-doubles")
    for i in sorted(rng.sample(range(len(pool)), 260)):
        add("selfplay", pool[i][0], pool[i][1])

def rebuild(path):
    # the cases of a fixture this script wrote, in its order
    for line in open(path):
        x = json.loads(line)
        pid, dice = x["position"].split()
        add(x["case"], gnubg.positionfromid(pid), (int(dice[0]), int(dice[1])))

def setup(pid, r):
    gnubg.command("set board " + pid)
    gnubg.command("set dice %d %d" % r)

def fixture(case, b, r, pid):
    setup(pid, r)
    if gnubg.positionid(gnubg.board()) != pid:
        log("ANOMALY", "gnubg did not take the board", pid)
    hint = gnubg.hint(5000)["hint"]
    ours, top = legal(b, r)
    plays = []
    for text in [h["move"] for h in hint]:
        parsed = gnubg.parsemove(text)
        own = apply(b, parsed)
        setup(pid, r)
        gnubg.command("move " + text)
        gb = gnubg.board()
        if any(own[1]):   # the game goes on: gnubg's board is the answer
            if (tuple(gb[1]), tuple(gb[0])) != own:
                log("ANOMALY", "gnubg's board after", repr(text), "is not its parsemove", pid, r)
            after = gnubg.positionid(gb)
        else:             # the last checker is off: gnubg began a new game
            after = pid_of((own[1], own[0]))
        plays.append({"move": text, "after": after})
        m, o = gnubg.positionfromid(after)   # (mover, opponent) after the play
        off, said = sum(t == 0 for f, t in parsed), sum(f - t for f, t in parsed)
        if min(m) < 0 or sum(m) > 15 or sum(o) != sum(b[0]):
            log("ANOMALY", "checker count", pid, r, text, after)
        if pips(b[1]) - pips(m) != said or sum(b[1]) - sum(m) != off:
            log("ANOMALY", "pips or bear-offs", pid, r, text, after)
        if o[24] - b[0][24] != text.count("*"):
            log("ANOMALY", "hits vs '*'", pid, r, text)
        if said > top[1] or (not off and said != top[1]):
            log("ANOMALY", "pips vs dice", pid, r, text)
    afters = [p["after"] for p in plays]
    if len(set(afters)) != len(afters):
        log("ANOMALY", "repeated after", pid, r)
    if set(afters) != {pid_of((a[1], a[0])) for a in ours}:
        log("ANOMALY", "gnubg's plays differ from ours", pid, r, len(afters), len(ours))
    return {"case": case, "position": "%s %d%d" % (pid, r[0], r[1]), "plays": plays}

def main():
    gnubg.command("set threads 1")
    gnubg.command("set confirm new off")
    if os.environ.get("STARLAB_GNUBG_POSITIONS"):
        rebuild(os.environ["STARLAB_GNUBG_POSITIONS"])
    else:
        build()
    log("built %d cases in %.1f s" % (len(cases), time.time() - T0))
    for c in ["set player 0 human", "set player 1 human", "set automatic roll off",
              "set evaluation chequerplay evaluation plies 0",
              "set evaluation chequerplay evaluation cubeful off", "new session"]:
        gnubg.command(c)
    t = time.time()
    lines = [fixture(*c) for c in cases]
    opening = " ".join("%s:%d" % (x["position"][-2:], len(x["plays"])) for x in lines if x["case"] == "opening")
    if opening != ("11:42 21:15 31:16 41:14 51:8 61:10 22:75 32:17 42:18 52:8 62:14 33:73 "
                   "43:17 53:9 63:14 44:52 54:9 64:14 55:4 65:7 66:11"):
        log("ANOMALY", "opening counts", opening)
    for x in lines:
        if x["case"] == "bar-closed" and x["plays"]:
            log("ANOMALY", "bar-closed has a play", x["position"])
    with open(OUT, "w") as f:
        for x in lines:
            f.write(json.dumps(x) + "\n")
    log("hinted %d positions, %d plays in %.1f s; total %.1f s" %
        (len(lines), sum(len(x["plays"]) for x in lines), time.time() - t, time.time() - T0))
    for k in sorted(sub):
        log("  %-34s %d" % (k, sub[k]))
    log("anomalies:", len(anomalies))

main()
