package backgammon

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"starlab/search"
)

// matColumn is where the second player's plays start on a line of moves,
// as gnubg writes them.
const matColumn = 28

// WriteMat writes games of variant v between two players as a Jellyfish
// match file, the plain-text format gnubg reads with import mat (and
// eXtreme Gammon, BGBlitz and others): " N point match" with N the match
// length (0 for a money session), each game's score line, its numbered
// lines of rolls and plays (the first player's on the left, each play as
// its checkers' steps "from/to", 25 the bar, 0 off, "*" a hit) and who won
// how many points. Each game must start at the variant's start and end
// with the game over: WriteMat replays it through the rules and refuses,
// naming the game, an action that is not legal there or a game that does
// not end. names are the players' names, without spaces or colons. A
// game's Actions are as game records keep them (a roll's number, then the
// play's code, and so on) and First is the side (0, O, or 1, X) the
// file's first player played; its Start is not read.
func WriteMat(w io.Writer, v Variant, length int, names [2]string, games []search.ExportGame) error {
	var out strings.Builder
	fmt.Fprintf(&out, " %d point match\n", length)
	var score [2]int
	for i, g := range games {
		lines, winner, points, err := matGame(v, g)
		if err != nil {
			return fmt.Errorf("game %d: %w", i+1, err)
		}
		first := fmt.Sprintf("%s : %d", names[0], score[0])
		fmt.Fprintf(&out, "\n Game %d\n %-30s %s : %d\n", i+1, first, names[1], score[1])
		for _, l := range lines {
			out.WriteString(l)
		}
		plural := "s"
		if points == 1 {
			plural = ""
		}
		if winner == 0 {
			fmt.Fprintf(&out, "      Wins %d point%s\n", points, plural)
		} else {
			fmt.Fprintf(&out, "%34sWins %d point%s\n", "", points, plural)
		}
		score[winner] += points
	}
	_, err := io.WriteString(w, out.String())
	return err
}

// matGame replays g and returns its numbered lines, which player (0 the
// first, 1 the second) won and the points won.
func matGame(v Variant, g search.ExportGame) (lines []string, winner, points int, err error) {
	b := StartBoard(v)
	var turns []string // each turn's "DD: steps", from the first mover on
	firstMover := -1
	for k, a := range g.Actions {
		switch {
		case b.Over():
			return nil, 0, 0, fmt.Errorf("action %d after the end", k+1)
		case !b.Rolled():
			if a < 0 || a >= Rolls {
				return nil, 0, 0, fmt.Errorf("action %d: %d is not a roll", k+1, a)
			}
			hi, lo := RollDice(a)
			b.Roll(hi, lo)
		default:
			if firstMover < 0 {
				firstMover = b.SideToMove()
			}
			dice := fmt.Sprintf("%d%d: ", b.d1, b.d2)
			text, err := b.matPlay(a)
			if err != nil {
				return nil, 0, 0, fmt.Errorf("action %d: %v", k+1, err)
			}
			turns = append(turns, dice+text)
		}
	}
	if !b.Over() {
		return nil, 0, 0, fmt.Errorf("the game does not end")
	}
	// The points are what the game's end is worth by its checkers (a
	// gammon 2), as gnubg records every game's, whatever the variant.
	end := *b
	end.variant = Money
	w, pts := end.Winning()
	player := func(side int) int { return (side - g.First + 2) % 2 }
	// The first player's turns are on the left: a game the second player
	// opens has an empty left half on its first line.
	if firstMover >= 0 && player(firstMover) == 1 {
		turns = append([]string{""}, turns...)
	}
	for i := 0; i < len(turns); i += 2 {
		left, right := turns[i], ""
		if i+1 < len(turns) {
			right = turns[i+1]
		}
		if len(left) < matColumn {
			left += strings.Repeat(" ", matColumn-len(left))
		} else {
			left += " "
		}
		lines = append(lines, fmt.Sprintf("%3d) %s%s\n", i/2+1, left, right))
	}
	return lines, player(w), pts, nil
}

// matPlay makes play code m of b's roll and returns it as a Jellyfish
// match file writes it: each checker's step "from/to" in the order made,
// 25 the bar and 0 off, with "*" where it hit; "" for a roll with no play.
func (b *Board) matPlay(m int) (string, error) {
	var codes [MaxPlays]int16
	n := b.Moves(&codes)
	legal := false
	for _, c := range codes[:n] {
		legal = legal || int(c) == m
	}
	if !legal {
		return "", fmt.Errorf("play %d is not legal in %s", m, b)
	}
	steps := b.PlaySteps(m)
	var u Undo
	b.MakeSaving(m, &u) // the steps made in the same order, their hits in u
	parts := make([]string, len(steps))
	for i, s := range steps {
		parts[i] = fmt.Sprintf("%d/%d", s[0], s[1])
		if u.hits&(1<<i) != 0 {
			parts[i] += "*"
		}
	}
	return strings.Join(parts, " "), nil
}

// exporter writes a match's games as Jellyfish match files: a money
// match as one session (session.mat, "0 point match"), a 1pt match as one
// one-point match a game (game-0001.mat, ...), since a file holds one
// match and a one-point match ends after its game. Every game must start
// at the variant's start, as the format's do.
var exporter = search.Exporter{
	Format: "Jellyfish match files (.mat)",
	Files: func(m search.ExportMatch) ([]search.ExportFile, error) {
		v, err := ParseVariant(m.Variant)
		if err != nil {
			return nil, err
		}
		names := matNames(m.Names[0], m.Names[1])
		start := StartBoard(v).String()
		for i, g := range m.Games {
			if g.Start.String() != start {
				return nil, fmt.Errorf("game %d starts at %s, not at the start: a match file's games start there", i+1, g.Start)
			}
		}
		if v == Money {
			var buf strings.Builder
			if err := WriteMat(&buf, v, 0, names, m.Games); err != nil {
				return nil, err
			}
			return []search.ExportFile{{Name: "session.mat", Data: []byte(buf.String())}}, nil
		}
		files := make([]search.ExportFile, len(m.Games))
		for i, g := range m.Games {
			var buf strings.Builder
			if err := WriteMat(&buf, v, 1, names, []search.ExportGame{g}); err != nil {
				// The file's one game is the match's game i+1.
				return nil, fmt.Errorf("game %d: %w", i+1, errors.Unwrap(err))
			}
			files[i] = search.ExportFile{Name: fmt.Sprintf("game-%04d.mat", i+1), Data: []byte(buf.String())}
		}
		return files, nil
	},
}

// matName is a player's name as a match file can hold it: one word, no
// colon (the score line's separator), other characters than letters,
// digits and "=,._+-" written "-", and at most 24 characters (gnubg keeps
// 31, and the score line has room for 30 with the score), the two players'
// names told apart by a "-a" and "-b" where they would read the same.
func matNames(a, b string) [2]string {
	n := [2]string{matName(a), matName(b)}
	for i := range n {
		if len(n[i]) > 24 {
			n[i] = n[i][:24]
		}
	}
	if n[0] == n[1] {
		n[0], n[1] = n[0][:min(len(n[0]), 22)]+"-a", n[1][:min(len(n[1]), 22)]+"-b"
	}
	return n
}

// matName is a name with only the characters a match file's names hold.
func matName(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("=,._+-", r)) {
			return r
		}
		return '-'
	}, s)
}
