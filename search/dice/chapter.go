package dice

import "starlab/search"

// chapterVariant is the board of the chapter's Dice tables: 5x5, win
// length 4.
const chapterVariant = "5x5-4"

// ChapterCPC is the chapter's configuration of ChanceProbCut in Dice
// (Schadd, Winands and Uiterwijk 2009, section 5.6.2: "We limit the
// applicability to d in {7, 9}. R is set to 4"): the single depth pair of
// reduction 4 (multi=0, r=4) at the chance nodes whose events are searched
// to 7 or 9 plies. Those are the chance-node depths 8 to 11: the events of
// a node of depth d are searched to d-1, and an even d-1 ends on a chance
// ply with the value of d-2, so depths 8 and 9 use the pair (3, 7) and 10
// and 11 the pair (5, 9). The pairs' a, b and sigma are those of the
// parameters (probcut=FILE, else the built-in fit, which has both pairs).
// The default, cpc, is Multi-ChanceProbCut at every chance-node depth
// from 3 instead. Keys may follow it: ChapterCPC + ",probcut=FILE".
const ChapterCPC = "cpc:multi=0,r=4,cpcmin=8,cpcmax=11"

// chapter holds the chapter's tables 5.6 to 5.8 (Schadd et al. 2009,
// section 5.6.2): the configuration ChapterCPC over 1,000 of its
// positions; its evaluation is bound to [-10, 10] (section 5.5.4).
var chapter = search.Chapter{Tables: "tables 5.6-5.8", Engine: ChapterCPC, Positions: "1,000 other positions", Points: 10, Depths: []int{9, 11, 13},
	Rows: map[int]map[float64][3]int{
		9:  {3.2: {141, 0, 2}, 1.6: {274, 1, 5}, 0.8: {410, 5, 9}, 0.4: {527, 10, 15}, 0.2: {619, 14, 14}, 0.1: {666, 16, 15}, 0.05: {690, 18, 16}},
		11: {3.2: {162, 1, 4}, 1.6: {305, 2, 5}, 0.8: {443, 5, 9}, 0.4: {561, 9, 11}, 0.2: {643, 12, 19}, 0.1: {686, 14, 15}, 0.05: {708, 15, 15}},
		13: {3.2: {166, 1, 2}, 1.6: {315, 3, 8}, 0.8: {457, 6, 11}, 0.4: {574, 10, 13}, 0.2: {659, 13, 14}, 0.1: {697, 14, 15}, 0.05: {714, 15, 15}},
	}}

// Chapter returns the chapter's tuning tables of variant: tables 5.6 to
// 5.8 for 5x5-4, nil for every board the chapter did not measure. The
// tables are shared: callers must not change them.
func Chapter(variant string) *search.Chapter {
	if variant != chapterVariant {
		return nil
	}
	return &chapter
}
