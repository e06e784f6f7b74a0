package selfplay

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"starlab/runs"
)

// recordFixture plays a two-pair match and returns it resolved with the
// journal lines of its records.
func recordFixture(t testing.TB) (*Match, [][]byte) {
	run, err := runs.CreateAt(filepath.Join(t.TempDir(), "m"), "match", nil, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	s := matchSettings("staretc:depth=1", "staretc:depth=1,eval=zero")
	s.Games, s.Luck, s.Concurrency = 4, "none", 1
	if _, err := RunMatch(context.Background(), s, run, runs.NoProgress); err != nil {
		t.Fatal(err)
	}
	m, err := s.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(run.Path(MatchJournal))
	if err != nil {
		t.Fatal(err)
	}
	var lines [][]byte
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		lines = append(lines, bytes.Clone(sc.Bytes()))
	}
	return m, lines[1:] // the header is not a record
}

// matchRecordDamage are edits of a journal line into records no match
// writes, each a replacement of the first occurrence of a string.
var matchRecordDamage = map[string][2]string{
	"result out of range":  {`"result":`, `"result":7,"x":`},
	"result 7":             {`"result":1`, `"result":7`},
	"result flipped":       {`"result":1`, `"result":-1`},
	"negative plies":       {`"plies":`, `"plies":-`},
	"negative pairing":     {`"pairing":0`, `"pairing":-1`},
	"pairing too big":      {`"pairing":0`, `"pairing":5`},
	"pair index too big":   {`"index":`, `"index":9`},
	"negative index":       {`"index":0,`, `"index":-1,`},
	"game of another pair": {`"games":[{"pair":`, `"games":[{"pair":7`},
	"round swapped":        {`"round":0`, `"round":1`},
	"seat swapped":         {`"a_is_blue":true`, `"a_is_blue":false`},
	"other seed":           {`"seed":`, `"seed":1`},
	"start out of range":   {`"start":0`, `"start":-3`},
	"other start":          {`"start":"5 4`, `"start":"4 3`},
	"roll out of range":    {`"actions":[`, `"actions":[9,`},
	"cell out of range":    {`"actions":[`, `"actions":[0,99,`},
	"cell twice":           {`"actions":[`, `"actions":[0,0,0,0,`},
	"action after the end": {`],"result"`, `,0],"result"`},
	"action too big":       {`"actions":[`, `"actions":[70000,`},
	"other game":           {`"game":"dice"`, `"game":"toy"`},
	"other variant":        {`"variant":"5x5-4"`, `"variant":"4x4-3"`},
	"missing move":         {`"actions":[`, `"actions":[0,`},
	"negative nodes":       {`"nodes":[`, `"nodes":[-`},
	"negative turns":       {`"turns":[`, `"turns":[-`},
	"negative time":        {`"time_ns":[`, `"time_ns":[-`},
	"negative elapsed":     {`"elapsed_s":`, `"elapsed_s":-`},
	"wrong type":           {`"plies":`, `"plies":"23",`},
	"huge luck":            {`"luck":0`, `"luck":1e999`},
	"unknown field":        {`"pairing":`, `"pairingg":1,"pairing":`},
	"truncated":            {`"games":[`, `"games":[{`},
	"two values":           {`{"pairing":`, `{}{"pairing":`},
}

// TestDecodeMatchRecordDamaged: every record a match writes decodes, and
// each damaged one is refused with a one-line error, so resume and merge
// never count it.
func TestDecodeMatchRecordDamaged(t *testing.T) {
	m, lines := recordFixture(t)
	for _, l := range lines {
		if _, err := m.DecodeMatchRecord(l, m.Settings.Shard); err != nil {
			t.Fatalf("a record the match wrote: %v", err)
		}
	}
	line := string(lines[0])
	for name, d := range matchRecordDamage {
		bad := strings.Replace(line, d[0], d[1], 1)
		if bad == line {
			t.Fatalf("%s: the damage changes nothing", name)
		}
		_, err := m.DecodeMatchRecord([]byte(bad), m.Settings.Shard)
		if err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: got %v, want a one-line error", name, err)
		}
	}
	if _, err := m.DecodeMatchRecord(lines[0], runs.Shard{Index: 1, Count: 2}); err == nil {
		t.Errorf("pair 0 accepted as a record of shard 1/2")
	}
}

// FuzzDecodeMatchRecord: no journal line makes the decoder panic, and a
// record it accepts is one the report and games.parquet can be made from.
func FuzzDecodeMatchRecord(f *testing.F) {
	m, lines := recordFixture(f)
	for _, l := range lines {
		f.Add(l)
		for _, d := range matchRecordDamage {
			f.Add([]byte(strings.Replace(string(l), d[0], d[1], 1)))
		}
	}
	f.Add([]byte{})
	f.Add([]byte("\x00\xff{"))
	f.Fuzz(func(t *testing.T, line []byte) {
		r, err := m.DecodeMatchRecord(line, m.Settings.Shard)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error of more than one line: %q", err)
			}
			return
		}
		if c := r.Pair.Category(); c < 0 || c > 4 {
			t.Fatalf("accepted a pair of category %d", c)
		}
		Report(m, "", []MatchRecord{r})
		if _, err := GameRows(m, []MatchRecord{r}); err != nil {
			t.Fatalf("accepted a record whose rows fail: %v", err)
		}
	})
}
