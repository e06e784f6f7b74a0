# GNU Backgammon's own rollouts of suite positions, the numbers a rollout in
# search/backgammon with gnubg's 0-ply evaluation as both players must
# estimate, and gnubg's rollout speed.
#
# Made with GNU Backgammon 1.07.001 (Debian package 1.07.001-1+b1). Run from
# the repository root (about 7 minutes of CPU, gnubg on one thread; longer
# when other work shares the core):
#
#   /usr/games/gnubg -t -q -r -p search/backgammon/testdata/gnubg-rollouts.py
#
# It writes search/backgammon/testdata/gnubg-rollouts.jsonl (another path:
# STARLAB_GNUBG_OUT), one JSON object per line, and beside it, the name's
# ".jsonl" replaced by "-speed.json", gnubg's rollout speed (below). gnubg's
# own screen output goes to stdout; this script's summary and any anomaly go
# to stderr, prefixed "gnubg-rollouts:".
#
# The positions: the first 12 position lines of
# search/backgammon/suites/backgammon.suite, "PositionID SIDE ROLL", each
# rolled out BEFORE the roll (ROLL is ignored): SIDE is on roll and about to
# roll, the position starlab reads from "PositionID SIDE -"
# (backgammon.Parse). PositionID is gnubg's Position ID of the board seen by
# the side on roll: gnubg's pair (opp, me), the side on roll second, what
# gnubg.positionid(gnubg.board()) gives while that side is on roll (see
# PositionID in search/backgammon/posid.go). SIDE: O is gnubg's player 0, X
# its player 1 (starlab's SideLetters "OX"). So each line is set up in gnubg,
# once `new match 1` has started a game, by
#   set turn 0|1          (O|X; this also clears the dice)
#   set board PositionID  (gnubg reads the ID from the view of the player
#                          on roll)
# and the script checks that gnubg then holds that ID, that side on roll and
# no dice, before `rollout` rolls out the current position for the side on
# roll. The board is the same whichever side is named; the side only says
# whose P(win) it is.
#
# One line per position:
#   {"position": "<PositionID>", "side": "X"|"O", "initial": false,
#    "trials": 1296, "pwin": P, "pwin_se": SE, "pgammon": G,
#    "seconds": S, "cpu_seconds": C}
# - P: the side on roll's cubeless probability of winning, the rollout's
#   mean; SE: gnubg's standard error of that mean (the sample standard
#   deviation of the 1296 variance-reduced trial results over sqrt(1296));
#   G: its probability of winning a gammon (backgammons included), which a
#   1-point match does not score but gnubg counts. Each to gnubg's 6
#   printed decimals.
# - S: wall-clock seconds of that one rollout, gnubg on one thread; C: the
#   CPU seconds gnubg's process spent meanwhile (all its threads), the
#   better measure when other work shares the cores (in the committed file
#   S is up to 1.7 times C where it did).
#   Timings, so they differ from run to run.
# - initial: true for the start position with O on roll
#   ("4HPwATDgc/ABMA O"), which starlab reads as the opening roll (no
#   doubles: its chance node has the 15 other rolls, 2 of 30 each); gnubg
#   rolls it out the same way with `set rollout initial on` (no double as
#   the first roll), and its rollout code then turns the quasi-random dice
#   off for that rollout (RolloutGeneral in rollout.c: "quasi random dice may
#   not be thread safe ... for initial positions"), so that line's dice are
#   plain Mersenne Twister ones. Every other line: false.
#
# The rollout settings, gnubg commands (after `set threads 1`, and both
# players human so that gnubg moves for neither):
#   new match 1                  1-point match: gnubg's checker play maximises
#                                its match-winning chance, which at double
#                                match point is P(win) (gammons worth no more)
#   set rollout cubeful off      cubeless
#   set rollout player 0|1 chequerplay plies 0, cubeful off, prune off,
#       noise 0, deterministic on (both players; prune and cubeful make no
#       difference at 0 ply in a 1-point match, off to say so)
#   set rollout [player 0|1] cubedecision: the same (unused: cubeless)
#   set rollout players-are-same on, cube-equal-chequer on,
#       truncate-equal-player0 on
#   set rollout truncation enable off                 play every game out
#   set rollout bearofftruncation exact off, onesided off  (no bear-off
#       database truncation either; gnubg's 0-ply play in a bear-off is
#       still its database evaluation)
#   set rollout later enable off                      no late evaluation change
#   set rollout limit enable off, jsd stop off        no early stop
#   set rollout varredn on       lookahead variance reduction (0-ply: the
#                                mean over the 21 rolls of the 0-ply values
#                                after each roll's best play)
#   set rollout quasirandom on   gnubg's rotation of the dice
#   set rollout rng mersenne, set rollout seed 20261126
#   set rollout trials 1296
#   set rollout initial off      (on for the start position, above)
#   set rollout log off
#
# How the numbers are read: gnubg's Python module has no rollout function
# (gnubg.rolloutcontext only describes settings; rollout results reach
# Python only inside a match's analysis), so the script runs `rollout` and
# reads the final result it prints, here of the first position with 36
# trials:
#   Rollout done. Printing final results.
#
#   Current Position:
#     0.558305 0.310627 0.075037 - 0.441695 0.062821 0.004089 CL +0.116610
#    [0.018652 0.024083 0.024401 - 0.018652 0.013271 0.001329 CL  0.037304] 1r
#   Full cubeless rollout with variance reduction
#   36 games, Mersenne Twister dice gen. with seed 20261126 and quasi-random dice
#   Play: 0-ply cubeful
# (P(win), P(win gammon), P(win backgammon) - P(loss), ...; the line in
# brackets their standard errors; "cubeful" is how gnubg names any 0-ply
# play there, whatever the setting), with `set output winpc off` and `set
# output digits 6` (probabilities, 6 decimals), stdout captured around the
# command. Checked, each failure
# fatal: the block is there and whole; 1 - P is the loss figure printed; the
# cubeless equity is 2P - 1 (a 1-point match) and its SE 2 SE; the trials
# are 1296; the context says cubeless, untruncated, with or without variance
# reduction as set, this seed, quasi-random dice (or the initial position's
# plain ones) and 0-ply play. gnubg prints rollout results only when its
# stdout is a terminal (it decides at start-up: fShowProgress =
# isatty(stdout)), so when stdout is not one (a pipe, a file), the script
# runs itself again in gnubg under a pseudo-terminal (Python's pty module,
# the same command line, from /proc/self/cmdline), copies that run's screen
# output to stdout and ends with its exit status.
# Also checked, reported as anomalies: 0 <= P <= 1 (a near-certain win or
# loss prints as 1 or 0 to 6 decimals, noted as such); 0 < SE < 0.02 (on
# these positions, with variance reduction, 0.0008 to 0.0026, and 6e-6 for
# the near-certain win; without it, on the start position, 0.014: the
# 0-ply lookahead takes out most of the dice's noise); P within 0.1 of
# gnubg's own 0-ply evaluation of the position (here at most 0.043 apart:
# that evaluation is not the value of 0-ply play); and the first position
# rolled out a second time gives the same numbers (same seed, same dice:
# everything but the timings is the same on a rerun).
#
# The speed file: {"gnubg": "1.07.001", "threads": 1, "position":
# "4HPwATDgc/ABMA", "side": "O", "initial": true, "plies": 0, "trials": 1296,
# "varredn_on": {"seconds": S, "trials_per_second": T, "cpu_seconds": C,
# "trials_per_cpu_second": U}, "varredn_off": {...}}: wall and CPU time of a
# 1296-trial rollout of the start position, O on roll before
# the first roll (as starlab reads "4HPwATDgc/ABMA O -", so gnubg's initial
# position rollout: no double first), with the settings above, once with
# variance reduction and once without.
import os
import gnubg, json, re, sys, time

OUT = os.environ.get("STARLAB_GNUBG_OUT", "search/backgammon/testdata/gnubg-rollouts.jsonl")  # another path: STARLAB_GNUBG_OUT
SPEED = re.sub(r"\.jsonl$", "", OUT) + "-speed.json"
SUITE = "search/backgammon/suites/backgammon.suite"
POSITIONS, TRIALS, SEED = 12, 1296, 20261126
START = "4HPwATDgc/ABMA"
CHILD = "STARLAB_GNUBG_ROLLOUTS_TTY"   # set in the run under a pseudo-terminal
T0, anomalies = time.time(), []


def log(*a):
    sys.stderr.write("gnubg-rollouts: " + " ".join(str(x) for x in a) + "\n")
    sys.stderr.flush()
    if a[0] == "ANOMALY":
        anomalies.append(a)


def fatal(*a):
    log("FATAL", *a)
    sys.exit(1)


def under_terminal():
    """Run this same gnubg command line with its stdout a pseudo-terminal,
    copying what it writes there to our stdout; its stderr is ours."""
    import pty, subprocess, termios
    with open("/proc/self/cmdline", "rb") as f:
        argv = [a.decode() for a in f.read().split(b"\0")]
    while argv and argv[-1] == "":
        argv.pop()
    master, slave = pty.openpty()
    attrs = termios.tcgetattr(slave)
    attrs[1] &= ~termios.OPOST          # no "\n" -> "\r\n" on the copy
    termios.tcsetattr(slave, termios.TCSANOW, attrs)
    log("stdout is not a terminal, so gnubg would not print its rollout results:",
        "running under a pseudo-terminal:", " ".join(argv))
    p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=slave,
                         env=dict(os.environ, **{CHILD: "1"}), close_fds=True)
    os.close(slave)
    while True:
        try:
            data = os.read(master, 1 << 16)
        except OSError:     # EIO: the run has closed its terminal
            break
        if not data:
            break
        os.write(1, data)
    os.close(master)
    rc = p.wait()
    if rc:
        sys.exit(rc if rc > 0 else 1)


def flush_c_stdio():
    import ctypes
    sys.stdout.flush()
    ctypes.CDLL(None).fflush(None)


def captured(cmd):
    """gnubg.command(cmd), returning what it printed on stdout."""
    import tempfile
    flush_c_stdio()
    saved = os.dup(1)
    with tempfile.TemporaryFile() as f:
        os.dup2(f.fileno(), 1)
        try:
            gnubg.command(cmd)
        finally:
            flush_c_stdio()
            os.dup2(saved, 1)
            os.close(saved)
        f.seek(0)
        return f.read().decode("utf-8", "replace")


def suite_positions():
    out = []
    with open(SUITE) as f:
        for line in f:
            fields = line.split()
            if not fields or fields[0].startswith("#"):
                continue
            if len(fields) != 3 or fields[1] not in ("O", "X"):
                fatal("suite line not 'PositionID SIDE ROLL':", line.strip())
            out.append((fields[0], fields[1]))
            if len(out) == POSITIONS:
                return out
    fatal("the suite has fewer than %d positions" % POSITIONS)


def setup():
    common = ["plies 0", "cubeful off", "prune off", "noise 0", "deterministic on"]
    for c in (["set threads 1", "set confirm new off", "set display off",
               "set player 0 human", "set player 1 human",
               "set output winpc off", "set output digits 6", "set output mwc off",
               "set rollout players-are-same on", "set rollout cube-equal-chequer on",
               "set rollout truncate-equal-player0 on"]
              + ["set rollout %schequerplay %s" % (p, s) for p in ("", "player 0 ", "player 1 ") for s in common]
              + ["set rollout %scubedecision %s" % (p, s) for p in ("", "player 0 ", "player 1 ") for s in common]
              + ["set rollout cubeful off", "set rollout truncation enable off",
                 "set rollout bearofftruncation exact off", "set rollout bearofftruncation onesided off",
                 "set rollout later enable off", "set rollout limit enable off", "set rollout jsd stop off",
                 "set rollout varredn on", "set rollout quasirandom on", "set rollout rng mersenne",
                 "set rollout seed %d" % SEED, "set rollout trials %d" % TRIALS,
                 "set rollout initial off", "set rollout log off",
                 "new match 1"]):
        gnubg.command(c)
    shown = captured("show rollout")
    for want in ["%d games will be played per rollout." % TRIALS, "No truncation.",
                 "Lookahead variance reduction is enabled.", "Quasi-random dice are enabled.",
                 "Cubeless rollout.", "Rollout as opening move disabled.",
                 "Mersenne Twister dice generator with seed %d." % SEED, "0-ply evaluation.",
                 "Cubeless evaluations.", "Noiseless evaluations."]:
        if want not in shown:
            fatal("`show rollout` lacks %r:\n%s" % (want, shown))
    for bad in ["Will truncate", "Player 0", "Player 1", "later", "Stop"]:
        if bad in shown:
            fatal("`show rollout` says %r:\n%s" % (bad, shown))


def put(pid, side):
    turn = "OX".index(side)
    gnubg.command("set turn %d" % turn)
    gnubg.command("set board " + pid)
    info = gnubg.posinfo()
    if gnubg.positionid(gnubg.board()) != pid or info["turn"] != turn or tuple(info["dice"]) != (0, 0) \
            or info["gamestate"] != 1:
        fatal("gnubg did not take", pid, side, gnubg.positionid(gnubg.board()), info)


FLOAT = re.compile(r"[-+]?\d+\.\d+")


def read_result(text, vr, initial):
    """The final result `rollout` printed: (pwin, pwin_se, pgammon)."""
    done = text.rfind("Rollout done. Printing final results.")
    if done < 0:
        fatal("no final result in the rollout's output:\n" + text[-2000:])
    lines = [l.rstrip("\r") for l in text[done:].split("\n")]
    try:
        i = lines.index("Current Position:")
        val, se, ctx, games, play = lines[i + 1:i + 6]
    except ValueError:
        fatal("no 'Current Position:' after the final result:\n" + text[done:])
    v, s = [float(x) for x in FLOAT.findall(val)], [float(x) for x in FLOAT.findall(se)]
    if len(v) != 7 or len(s) != 7 or " - " not in val or " CL " not in val or not se.lstrip().startswith("["):
        fatal("result lines not as expected:", repr(val), repr(se))
    p, g, eq, sp, seq = v[0], v[1], v[6], s[0], s[6]
    # (gnubg keeps each output's mean and variance in floats and clamps the
    # probabilities' means, not the equity's, to [0, 1], so near a sure
    # result the equity and its SE can be off 2P - 1 and 2 SE by a little)
    if abs(v[3] - (1 - p)) > 1.5e-6 or abs(eq - (2 * p - 1)) > 1e-4 or s[3] != sp or abs(seq - 2 * sp) > 1e-4:
        fatal("result lines inconsistent (1 - P, 2P - 1, 2 SE):", repr(val), repr(se))
    want_ctx = "Full cubeless rollout %s variance reduction" % ("with" if vr else "without")
    want_dice = ("%d games, rollout as initial position, Mersenne Twister dice generator with seed %d" % (TRIALS, SEED)
                 if initial else
                 "%d games, Mersenne Twister dice gen. with seed %d and quasi-random dice" % (TRIALS, SEED))
    if ctx.strip() != want_ctx or games.strip() != want_dice or not play.startswith("Play: 0-ply") \
            or "noise" in play:
        fatal("rollout context not as set:", repr(ctx), repr(games), repr(play))
    return p, sp, g


def rollout(pid, side, initial=False, vr=True):
    gnubg.command("set rollout initial " + ("on" if initial else "off"))
    gnubg.command("set rollout varredn " + ("on" if vr else "off"))
    put(pid, side)
    t, c = time.time(), time.process_time()
    text = captured("rollout")
    secs, cpu = time.time() - t, time.process_time() - c
    p, se, g = read_result(text, vr, initial)
    gnubg.command("set rollout initial off")
    gnubg.command("set rollout varredn on")
    return {"position": pid, "side": side, "initial": initial, "trials": TRIALS,
            "pwin": p, "pwin_se": se, "pgammon": g, "seconds": round(secs, 2),
            "cpu_seconds": round(cpu, 2)}


def main():
    if not os.isatty(1):
        if os.environ.get(CHILD):
            fatal("stdout is still not a terminal under the pseudo-terminal")
        return under_terminal()
    positions = suite_positions()
    setup()
    log("%d positions from %s, %d trials each; settings checked" % (len(positions), SUITE, TRIALS))
    lines, worst = [], 0.0
    for pid, side in positions:
        x = rollout(pid, side, initial=(pid == START and side == "O"))
        put(pid, side)
        p0 = gnubg.evaluate(gnubg.board(), gnubg.cubeinfo(1, -1, "OX".index(side), 1),
                            gnubg.evalcontext(0, 0, 1, 0, 0.0))[0]
        worst = max(worst, abs(x["pwin"] - p0))
        if not 0 <= x["pwin"] <= 1 or not 0 < x["pwin_se"] < 0.02 or abs(x["pwin"] - p0) > 0.1:
            log("ANOMALY", "out of range", x, "0-ply", p0)
        elif x["pwin"] in (0.0, 1.0):
            log("note: pwin %.6f is a near-certain result rounded to 6 decimals (se %.6f, 0-ply eval %.8f)" %
                (x["pwin"], x["pwin_se"], p0))
        log("%s %s%s pwin %.6f se %.6f pgammon %.6f (0-ply eval %.4f) %.1f s" %
            (pid, side, " (initial)" if x["initial"] else "", x["pwin"], x["pwin_se"], x["pgammon"], p0, x["seconds"]),
            "(%.1f s CPU)" % x["cpu_seconds"])
        lines.append(x)
    again = rollout(*positions[0], initial=lines[0]["initial"])
    if any(again[k] != lines[0][k] for k in ("pwin", "pwin_se", "pgammon", "trials")):
        log("ANOMALY", "a second rollout of", positions[0], "differs:", again, lines[0])
    with open(OUT, "w") as f:
        for x in lines:
            f.write(json.dumps(x) + "\n")
    speed = {"gnubg": "1.07.001", "threads": 1, "position": START, "side": "O", "initial": True,
             "plies": 0, "trials": TRIALS}
    for vr in (True, False):
        x = rollout(START, "O", initial=True, vr=vr)
        speed["varredn_" + ("on" if vr else "off")] = {
            "seconds": x["seconds"], "trials_per_second": round(TRIALS / x["seconds"], 1),
            "cpu_seconds": x["cpu_seconds"], "trials_per_cpu_second": round(TRIALS / x["cpu_seconds"], 1)}
        log("speed, variance reduction %s: %.2f s, %.1f trials/s; %.2f s CPU, %.1f trials/CPU s (pwin %.6f se %.6f)" %
            ("on" if vr else "off", x["seconds"], TRIALS / x["seconds"], x["cpu_seconds"],
             TRIALS / x["cpu_seconds"], x["pwin"], x["pwin_se"]))
    with open(SPEED, "w") as f:
        f.write(json.dumps(speed) + "\n")
    ses = [x["pwin_se"] for x in lines]
    log("wrote %s and %s; SE %.4f to %.4f; largest |rollout - 0-ply eval| %.4f; rerun of the first: %s; %.0f s" %
        (OUT, SPEED, min(ses), max(ses), worst, "same" if again["pwin"] == lines[0]["pwin"] else "DIFFERS",
         time.time() - T0))
    log("anomalies:", len(anomalies))


main()
