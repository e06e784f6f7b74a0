# gnubg's text drawing of boards with tall points and bars, the fixture
# for TestPictureGnubg.
#
# Made with GNU Backgammon 1.07.001 (Debian package 1.07.001-1+b1). Run
# from the repository root:
#
#   /usr/games/gnubg -t -q -r -p search/backgammon/testdata/gnubg-boards.py
#
# It writes search/backgammon/testdata/gnubg-boards.jsonl (another path:
# STARLAB_GNUBG_OUT), one JSON object per line:
#   {"id": "<PositionID>", "board": ["<13 lines>"]}
# - PositionID: the board seen by X, on roll with 31 (gnubg's pair (opp,
#   me), the side on roll second).
# - board: the 13 lines of gnubg's drawing (DrawBoard in drawboard.c, as
#   "export position text" writes it), each cut after the board's right
#   edge: what stands beside the board (player names, borne-off checkers,
#   the cube) is left out.
# The boards put 1 to 15 checkers on points of both sides and 2, 3, 6 and
# 7 on the bars: gnubg draws at most five checkers a point, the fifth
# place showing the count when there are more, 6 to 9 as digits and 10 to
# 15 as the letters A to F; a bar the same.
import json, os, tempfile

import gnubg

OUT = os.environ.get("STARLAB_GNUBG_OUT", "search/backgammon/testdata/gnubg-boards.jsonl")  # another path: STARLAB_GNUBG_OUT

# (me, opp): checkers by point, each from its side's view, "bar" the bar.
BOARDS = [
    ({6: 15}, {6: 15}),
    ({1: 10, 13: 5}, {1: 11, 11: 4}),
    ({24: 12, "bar": 3}, {19: 13, "bar": 2}),
    ({"bar": 7, 3: 8}, {"bar": 6, 4: 9}),
    ({2: 6, 4: 9}, {2: 7, 20: 8}),
    ({7: 14, 12: 1}, {7: 10, 9: 5}),
]


def side(points):
    """A side as gnubg's 25 counts, index 24 the bar."""
    s = [0] * 25
    for p, n in points.items():
        s[24 if p == "bar" else p - 1] = n
    return s


def main():
    for c in ["set player 0 human", "set player 1 human", "new game", "set turn 1", "set dice 3 1"]:
        gnubg.command(c)
    tmp = tempfile.mkdtemp()
    with open(OUT, "w") as out:
        for k, (me, opp) in enumerate(BOARDS):
            pid = gnubg.positionid([side(opp), side(me)])
            gnubg.command("set board " + pid)
            path = os.path.join(tmp, "board%d.txt" % k)
            gnubg.command("export position text " + path)
            lines = open(path).read().split("\n")
            top = next(i for i, l in enumerate(lines) if l.startswith(" +13-14-15"))
            board = [l[:44] for l in lines[top:top + 13]]
            out.write(json.dumps({"id": pid, "board": board}) + "\n")


main()
