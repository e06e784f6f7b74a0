package breakthrough

import "starlab/search"

// ChapterCPC is the chapter's ChanceProbCut configuration in
// ChanceBreakthrough: R = 2 at chance-node depths 3 and 5 (the events'
// depths: depth counts decisions only there), one depth pair each
// (section 5.6.3).
const ChapterCPC = "cpc:multi=0,r=2,cpcmin=3,cpcmax=5,cpcstep=2"

// chapterVariant is the board of the chapter's ChanceBreakthrough table.
const chapterVariant = "8x8"

// chapter holds the chapter's table 5.10 (Schadd et al. 2009): ChapterCPC
// over 500 of its positions; its evaluation is bound to [-1500, 1500]
// (section 5.5.4).
var chapter = search.Chapter{Tables: "table 5.10", Engine: ChapterCPC, Positions: "500 other positions", Points: 1500, Depths: []int{5},
	Rows: map[int]map[float64][3]int{
		5: {3.2: {516, 3026, 17266}, 1.6: {539, 3202, 18273}, 0.8: {613, 3317, 18783}, 0.4: {682, 3405, 19026}, 0.2: {725, 3512, 19143}, 0.1: {760, 3558, 19207}, 0.05: {772, 3580, 19230}},
	}}

// Chapter returns the chapter's tuning tables of variant: table 5.10 for
// 8x8, nil for every board the chapter did not measure. The table is
// shared: callers must not change it.
func Chapter(variant string) *search.Chapter {
	if variant != chapterVariant {
		return nil
	}
	return &chapter
}
