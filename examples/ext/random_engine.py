#!/usr/bin/env python3
"""A random engine of the starlab engine protocol, version 2 (docs/protocol.md).

It knows no game's rules: it asks for the legal moves with every position
(feature legal) and plays one of them at random, so it plays every game.
Its random numbers come from the seed of each game, so its games can be
played again. Run it from the repository's root:

    starlab match -game dice -games 20 'ext:cmd=python3,args=examples/ext/random_engine.py' staretc:depth=1

Copy it to start an engine of your own: replace choose().
"""

import random
import sys


def send(line):
    """Write one line to starlab, flushed at once, as the protocol asks."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def choose(rng, legal):
    """Return the move to play among the legal ones: here any, uniformly."""
    return rng.choice(legal)


def main():
    rng = random.Random(0)
    legal = []
    for line in sys.stdin:  # ends at end of input
        line = line.rstrip("\n").removesuffix("\r")
        command, _, rest = line.partition(" ")
        if command == "protocol":
            send("id name random_engine.py")
            send("id author starlab")
            send("feature legal")
            send("protocolok")
        elif command == "game":
            send("gameok")  # it plays from the legal moves, so any game
        elif command == "ping":
            send("pong " + rest)  # all before it answered: the next position's lines follow
        elif command == "newgame":
            rng = random.Random(int(rest))
        elif command == "position":
            legal = []  # the legal line that follows fills it
        elif command == "legal":
            legal = rest.split("\t")
        elif command == "go":
            if legal:
                send("move " + choose(rng, legal))
            else:
                send("error go without the legal moves")
        elif command == "quit":
            break
        # Any other line (setoption among them) is ignored, as the
        # protocol lets a later version add lines.


if __name__ == "__main__":
    main()
