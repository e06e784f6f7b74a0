package bench

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"starlab/runs"
	diceengine "starlab/search/engine/dice"
)

// TestRunFromGo: the bench stage, called from Go, measures every algorithm
// on every position of its shard, writes rows that read back with the
// checked reader, and the sound algorithms agree; two shards together
// measure what the whole measures, with the same nodes.
func TestRunFromGo(t *testing.T) {
	set := DefaultSettings(diceengine.Game())
	set.Suite = "../dice/suites/dice5x5-4.suite"
	set.Limit, set.Depths, set.Workers = 6, []int{3, 5}, 2
	set.Engine.TTMiB = 2
	run, err := runs.CreateAt(filepath.Join(t.TempDir(), "whole"), "bench", nil, set, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	sum, err := Run(context.Background(), set, run, runs.NoProgress)
	if err != nil {
		t.Fatal(err)
	}
	if !sum.SoundAgree || sum.SoundAlgos != 4 || sum.Positions != 6 {
		t.Fatalf("summary: agree %v, %d sound algorithms, %d positions", sum.SoundAgree, sum.SoundAlgos, sum.Positions)
	}
	rows, err := runs.ReadParquet[Row](run.Path(RowsFile), Format)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4*6*2 {
		t.Fatalf("%d rows, want %d", len(rows), 4*6*2)
	}
	whole := map[[3]any]int64{}
	for _, r := range rows {
		whole[[3]any{r.Algo, r.Position, r.Depth}] = r.Nodes
	}
	seen := 0
	for i := 0; i < 2; i++ {
		s := set
		s.Shard = runs.Shard{Index: i, Count: 2}
		r, err := runs.CreateAt(filepath.Join(t.TempDir(), "shard"), "bench", nil, s, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Run(context.Background(), s, r, runs.NoProgress); err != nil {
			t.Fatal(err)
		}
		part, err := runs.ReadParquet[Row](r.Path(RowsFile), Format)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range part {
			if int(x.Position-1)%2 != i || whole[[3]any{x.Algo, x.Position, x.Depth}] != x.Nodes {
				t.Fatalf("shard %d row %+v differs from the whole run", i, x)
			}
			seen++
		}
	}
	if seen != len(rows) {
		t.Fatalf("shards measured %d rows, the whole %d", seen, len(rows))
	}
}

func TestSettingsChecks(t *testing.T) {
	for _, bad := range []func(*Settings){
		func(s *Settings) { s.Algos = nil },
		func(s *Settings) { s.Algos = []string{"star9"} },
		func(s *Settings) { s.Depths = []int{5, 3} },
		func(s *Settings) { s.Depths = []int{3, 3} },
		func(s *Settings) { s.Workers = 0 },
		func(s *Settings) { s.Limit = -1 },
		func(s *Settings) { s.Engine.TTMiB = -1 },
		func(s *Settings) { s.Suite = "none.suite" },
	} {
		s := DefaultSettings(diceengine.Game())
		s.Suite = "../dice/suites/dice5x5-4.suite"
		bad(&s)
		if _, err := s.Resolve(); err == nil {
			t.Errorf("settings %+v accepted", s)
		}
	}
	if _, err := ParseDepths("3,x"); err == nil {
		t.Error("depths 3,x accepted")
	}
	if d, err := ParseDepths("5,1,5"); err == nil || !strings.Contains(err.Error(), "5 is given twice") {
		t.Errorf("depths 5,1,5: %v, %v", d, err)
	}
	if d, err := ParseDepths("5,1,3"); err != nil || !slices.Equal(d, []int{1, 3, 5}) {
		t.Errorf("depths 5,1,3: %v, %v", d, err)
	}
	if a, err := ParseAlgos("staretc,expectimax"); err != nil || len(a) != 2 {
		t.Errorf("ParseAlgos: %v %v", a, err)
	}
}
