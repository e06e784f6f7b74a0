package search

import "fmt"

// Stats counts what a search did, by kind of cut-off, so that the effect of
// each enhancement can be seen.
type Stats struct {
	Nodes        int64 // entries into the recursive search, leaves and cut-offs included
	ChanceNodes  int64 // chance nodes among them
	Leaves       int64 // evaluated leaves
	TTHits       int64 // table entries found
	AlphaBeta    int64 // beta cut-offs at move nodes
	TTCutMove    int64 // table cut-offs at move nodes
	TTCutChance  int64 // table cut-offs at chance nodes (StarETC)
	ETCCut       int64 // successor-probing cut-offs (StarETC)
	Star2Cut     int64 // Star2 probing-phase cut-offs
	Star1Cut     int64 // Star1 cut-offs
	CPCCut       int64 // ChanceProbCut cut-offs
	CPCSearches  int64 // ChanceProbCut shallow searches
	ProbeSearch  int64 // Star2 probe searches (negamax-probe calls)
	ExactSkipped int64 // chance events already exact in the table, not searched
}

// Cutoffs are the cut-off counts of a search by kind, spelled one way in
// every output: search -json, bench.parquet and the tables.
type Cutoffs struct {
	AlphaBeta   int64 `json:"alpha_beta" parquet:"alpha_beta"`
	TTCutMove   int64 `json:"tt_cut_move" parquet:"tt_cut_move"`
	TTCutChance int64 `json:"tt_cut_chance" parquet:"tt_cut_chance"`
	ETCCut      int64 `json:"etc_cut" parquet:"etc_cut"`
	Star2Cut    int64 `json:"star2_cut" parquet:"star2_cut"`
	Star1Cut    int64 `json:"star1_cut" parquet:"star1_cut"`
	CPCCut      int64 `json:"cpc_cut" parquet:"cpc_cut"`
}

// Cutoffs returns the cut-off counts of s.
func (s Stats) Cutoffs() Cutoffs {
	return Cutoffs{s.AlphaBeta, s.TTCutMove, s.TTCutChance, s.ETCCut, s.Star2Cut, s.Star1Cut, s.CPCCut}
}

// String returns the counts as "alpha_beta 12, tt_cut_move 3, ...".
func (c Cutoffs) String() string {
	return fmt.Sprintf("alpha_beta %d, tt_cut_move %d, tt_cut_chance %d, etc_cut %d, star2_cut %d, star1_cut %d, cpc_cut %d",
		c.AlphaBeta, c.TTCutMove, c.TTCutChance, c.ETCCut, c.Star2Cut, c.Star1Cut, c.CPCCut)
}
