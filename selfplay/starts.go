package selfplay

import (
	"bufio"
	"fmt"
	"os"
	"strings"

	"starlab/search"
	"starlab/search/game"
)

// chanceBefore is what a state offers that can be taken back to the chance
// node before it: a Dice position after the roll (the roll taken back).
type chanceBefore interface{ ClearRoll() }

// readStarts reads the start positions of a match from a suite file of g:
// one position per line in the game's notation, optionally followed by
// "; field=value ..." (the suite's annotations, such as an exact value,
// which a match does not read); blank lines and lines starting with # are
// skipped. A decision that can be taken back to the chance node before it
// (a Dice position after the roll) starts there, so that the pair's chance
// stream draws that event too. Errors name the file and the line.
func readStarts(g search.Game, path string) ([]game.State, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("suite: %v", err)
	}
	defer f.Close()
	var starts []game.State
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' {
			continue
		}
		pos, _, _ := strings.Cut(text, ";")
		st, err := g.Parse(strings.TrimSpace(pos))
		if err != nil {
			return nil, fmt.Errorf("suite %s: line %d: %v", path, line, err)
		}
		if c, ok := st.(chanceBefore); ok && st.Kind() == game.Decision {
			c.ClearRoll()
		}
		starts = append(starts, st)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("suite %s: %v", path, err)
	}
	if len(starts) == 0 {
		return nil, fmt.Errorf("suite %s: no positions", path)
	}
	return starts, nil
}
