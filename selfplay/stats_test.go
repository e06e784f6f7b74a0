package selfplay

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// near reports whether got is within tol of want; equal infinities match.
func near(got, want, tol float64) bool {
	if math.IsInf(want, 0) || math.IsInf(got, 0) {
		return got == want
	}
	return math.Abs(got-want) <= tol
}

func TestZ975(t *testing.T) {
	// Φ⁻¹(0.975) as fastchess's CI95ZSCORE spells it.
	if !near(z975, 1.959963984540054, 1e-12) {
		t.Fatalf("z975 = %.15f, want 1.959963984540054", z975)
	}
}

func TestEloFromScore(t *testing.T) {
	for _, tc := range []struct{ s, elo float64 }{
		{0.5, 0},
		{0.7, 400 * math.Log10(7.0/3)},
		{0.25, -400 * math.Log10(3)},
		{1.0 / 11, -400},
		{0, math.Inf(-1)},
		{-0.1, math.Inf(-1)},
		{1, math.Inf(1)},
	} {
		if got := EloFromScore(tc.s); !near(got, tc.elo, 1e-9) {
			t.Errorf("EloFromScore(%v) = %v, want %v", tc.s, got, tc.elo)
		}
		if math.IsInf(tc.elo, 0) {
			continue
		}
		if got := ScoreFromElo(tc.elo); !near(got, tc.s, 1e-12) {
			t.Errorf("ScoreFromElo(%v) = %v, want %v", tc.elo, got, tc.s)
		}
	}
}

// Worked trinomials. The 60/20/20 row is done by hand: s = 0.7,
// σ² = 0.6·0.3² + 0.2·0.2² + 0.2·0.7² = 0.16, SE = 0.04, CI = 1.959964·0.04,
// Elo = 400·log10(7/3); the Elo ends and LOS were evaluated with Python's
// math.erf and statistics.NormalDist from the formulas in the anchors. The
// 136/111/96 row is fastchess app/tests/elo_test.cpp "EloWDL 2" (Elo 40.70
// ± 30.43, nElo 49.77); its LOS there (99.60 %) is fastchess's Φ formula, the
// cutechess value below was evaluated in Python.
func TestTrinomialWorked(t *testing.T) {
	for _, tc := range []struct {
		tr                   Trinomial
		score, variance, ci  float64
		elo, lo, hi, hw, los float64
		nelo, draws          float64
		tol                  float64
	}{
		{
			tr:    Trinomial{Wins: 60, Draws: 20, Losses: 20},
			score: 0.7, variance: 0.16, ci: 0.07839855938160215,
			elo: 147.19071411783776, lo: 86.22501520030423, hi: 218.2517776410748,
			hw: 66.01338122038528, los: 0.9999961278917845,
			nelo: 173.71779276130067, draws: 0.2, tol: 1e-9,
		},
		{
			tr:    Trinomial{Wins: 136, Draws: 111, Losses: 96},
			score: 0.5583090379008746, variance: 0.1656962660116108, ci: 0.04307818448475483,
			elo: 40.70, lo: 10.58675629865129, hi: 71.44119218585327, hw: 30.43,
			los: 0.9956818916198402, nelo: 49.77, draws: 111.0 / 343, tol: 0.005,
		},
	} {
		tr := tc.tr
		lo, hi := tr.EloCI95()
		for _, c := range []struct {
			name      string
			got, want float64
		}{
			{"Score", tr.Score(), tc.score},
			{"Variance", tr.Variance(), tc.variance},
			{"ScoreCI95", tr.ScoreCI95(), tc.ci},
			{"Elo", tr.Elo(), tc.elo},
			{"EloCI95 lo", lo, tc.lo},
			{"EloCI95 hi", hi, tc.hi},
			{"EloCI95HalfWidth", tr.EloCI95HalfWidth(), tc.hw},
			{"LOS", tr.LOS(), tc.los},
			{"NElo", tr.NElo(), tc.nelo},
			{"DrawRatio", tr.DrawRatio(), tc.draws},
		} {
			if !near(c.got, c.want, tc.tol) {
				t.Errorf("%+v.%s = %.10g, want %.10g", tr, c.name, c.got, c.want)
			}
		}
	}
}

// The win ratios the papers report, "50.6% ± 0.5%" style, from their win and
// loss counts (no draws): Schadd, Winands and Uiterwijk, ChanceProbCut,
// Table 5.9 (Dice 11×11), Table 5.5 (Stratego) and Table 5.11
// (ChanceBreakthrough), and the 4,000-game ChanceBreakthrough total quoted in
// the text (54.4 % of 4,000 games is 2,176 wins).
func TestTrinomialPaperTables(t *testing.T) {
	for _, tc := range []struct {
		wins, losses int
		want         string
	}{
		{20226, 19774, "50.6% ± 0.5%"},
		{10103, 9897, "50.5% ± 0.7%"},
		{9882, 10118, "49.4% ± 0.7%"},
		{3102, 2898, "51.7% ± 1.3%"},
		{2981, 3019, "49.7% ± 1.3%"},
		{1096, 904, "54.8% ± 2.2%"},
		{2176, 1824, "54.4% ± 1.5%"},
	} {
		tr := Trinomial{Wins: tc.wins, Losses: tc.losses}
		got := fmt.Sprintf("%.1f%% ± %.1f%%", 100*tr.Score(), 100*tr.ScoreCI95())
		if got != tc.want {
			t.Errorf("%d-%d: %s, paper %s", tc.wins, tc.losses, got, tc.want)
		}
	}
}

// Worked pentanomials. {5,10,20,40,25} by hand: mean pair score/2 =
// (0.25·10 + 0.5·20 + 0.75·40 + 25)/100 = 0.675; the rest evaluated in Python
// from the anchors' formulas. The others are fastchess
// app/tests/elo_test.cpp "EloPentanomial 1..3", whose Stats(ll, ld, wl, dd,
// wd, ww) fold WL and DD into index 2; fastchess prints two decimals.
func TestPentanomialWorked(t *testing.T) {
	for _, tc := range []struct {
		p                  Pentanomial
		score, variance    float64
		ci, elo, hw, nelo  float64
		los                float64
		tol                float64
		checkScoreVariance bool
	}{
		{
			p:     Pentanomial{5, 10, 20, 40, 25},
			score: 0.675, variance: 0.075625, ci: 0.05389900957485148,
			elo: 126.96816474086026, hw: 42.979500833310944, nelo: 156.3380372581683,
			los: 0.9999999999014839, tol: 1e-9, checkScoreVariance: true,
		},
		{p: Pentanomial{34, 54, 63, 64, 75}, elo: 55.58, hw: 27.65, nelo: 57.94, los: 1.0000, tol: 0.005},
		{p: Pentanomial{332, 433, 498, 333, 334}, elo: -8.64, hw: 10.33, nelo: -9.17, los: 0.0505, tol: 0.005},
		{p: Pentanomial{7895, 8757, 5685, 568, 9999}, elo: -21.04, hw: 2.95, nelo: -19.01, los: 0, tol: 0.005},
	} {
		p := tc.p
		type check struct {
			name      string
			got, want float64
			tol       float64
		}
		checks := []check{
			{"Elo", p.Elo(), tc.elo, tc.tol},
			{"EloCI95HalfWidth", p.EloCI95HalfWidth(), tc.hw, tc.tol},
			{"NElo", p.NElo(), tc.nelo, tc.tol},
			{"LOS", p.LOS(), tc.los, math.Max(tc.tol/100, 1e-12)},
		}
		if tc.checkScoreVariance {
			checks = append(checks,
				check{"Score", p.Score(), tc.score, 1e-12},
				check{"Variance", p.Variance(), tc.variance, 1e-12},
				check{"ScoreCI95", p.ScoreCI95(), tc.ci, 1e-12})
		}
		for _, c := range checks {
			if !near(c.got, c.want, c.tol) {
				t.Errorf("%v.%s = %.10g, want %.10g", p, c.name, c.got, c.want)
			}
		}
	}
}

func TestPentanomialTrinomial(t *testing.T) {
	for _, tc := range []struct {
		p    Pentanomial
		want Trinomial
	}{
		{Pentanomial{}, Trinomial{}},
		{Pentanomial{1, 0, 0, 0, 0}, Trinomial{Losses: 2}},
		{Pentanomial{0, 1, 0, 0, 0}, Trinomial{Draws: 1, Losses: 1}},
		{Pentanomial{0, 0, 1, 0, 0}, Trinomial{Wins: 1, Losses: 1}},
		{Pentanomial{0, 0, 0, 1, 0}, Trinomial{Wins: 1, Draws: 1}},
		{Pentanomial{0, 0, 0, 0, 1}, Trinomial{Wins: 2}},
		{Pentanomial{5, 10, 20, 40, 25}, Trinomial{Wins: 110, Draws: 50, Losses: 40}},
	} {
		if got := tc.p.Trinomial(); got != tc.want {
			t.Errorf("%v.Trinomial() = %+v, want %+v", tc.p, got, tc.want)
		}
	}
	// Games and Score survive the conversion for any counts.
	rng := rand.New(rand.NewPCG(7, 11))
	for range 1000 {
		var p Pentanomial
		for i := range p {
			p[i] = rng.IntN(50)
		}
		tr := p.Trinomial()
		if tr.Games() != p.Games() || !near(tr.Score(), p.Score(), 1e-12) {
			t.Fatalf("%v: trinomial %+v has %d games score %v, pairs give %d games score %v",
				p, tr, tr.Games(), tr.Score(), p.Games(), p.Score())
		}
	}
}

// Degenerate inputs give the documented values and never NaN.
func TestEdgeCases(t *testing.T) {
	inf, ninf := math.Inf(1), math.Inf(-1)
	type stats struct{ score, ci, elo, lo, hi, hw, los, nelo float64 }
	triStats := func(tr Trinomial) stats {
		lo, hi := tr.EloCI95()
		return stats{tr.Score(), tr.ScoreCI95(), tr.Elo(), lo, hi, tr.EloCI95HalfWidth(), tr.LOS(), tr.NElo()}
	}
	pentaStats := func(p Pentanomial) stats {
		lo, hi := p.EloCI95()
		return stats{p.Score(), p.ScoreCI95(), p.Elo(), lo, hi, p.EloCI95HalfWidth(), p.LOS(), p.NElo()}
	}
	for _, tc := range []struct {
		name string
		got  stats
		want stats
	}{
		{"no games", triStats(Trinomial{}), stats{los: 0.5}},
		{"all draws", triStats(Trinomial{Draws: 10}), stats{score: 0.5, los: 0.5}},
		{"all wins", triStats(Trinomial{Wins: 10}), stats{1, 0, inf, inf, inf, inf, 0.5 * (1 + math.Erf(10/math.Sqrt(20))), inf}},
		{"all losses", triStats(Trinomial{Losses: 3}), stats{0, 0, ninf, ninf, ninf, inf, 0.5 * (1 - math.Erf(3/math.Sqrt(6))), ninf}},
		{"no pairs", pentaStats(Pentanomial{}), stats{los: 0.5}},
		{"all even pairs", pentaStats(Pentanomial{0, 0, 7, 0, 0}), stats{score: 0.5, los: 0.5}},
		{"all WW", pentaStats(Pentanomial{0, 0, 0, 0, 4}), stats{1, 0, inf, inf, inf, inf, 1, inf}},
		{"all WD", pentaStats(Pentanomial{0, 0, 0, 4, 0}), stats{0.75, 0, EloFromScore(0.75), EloFromScore(0.75), EloFromScore(0.75), 0, 1, inf}},
	} {
		g, w := tc.got, tc.want
		gs := []float64{g.score, g.ci, g.elo, g.lo, g.hi, g.hw, g.los, g.nelo}
		ws := []float64{w.score, w.ci, w.elo, w.lo, w.hi, w.hw, w.los, w.nelo}
		for i := range gs {
			if math.IsNaN(gs[i]) || !near(gs[i], ws[i], 1e-12) {
				t.Errorf("%s: got %+v, want %+v", tc.name, g, w)
				break
			}
		}
	}
	// A score interval that reaches past 1 has an unbounded upper Elo end.
	tr := Trinomial{Wins: 9, Losses: 1}
	if lo, hi := tr.EloCI95(); math.IsInf(lo, 0) || !math.IsInf(hi, 1) || !math.IsInf(tr.EloCI95HalfWidth(), 1) {
		t.Errorf("9-1: EloCI95 = %v, %v, half-width %v; want finite, +Inf, +Inf", lo, hi, tr.EloCI95HalfWidth())
	}
	if got := (Trinomial{}).DrawRatio(); got != 0 {
		t.Errorf("no games: DrawRatio = %v, want 0", got)
	}
}

// simulatePairs plays pairs of games between variant A and variant B with
// the same dice and colours swapped. Each pair's dice favour the first seat
// by b, uniform in [−biasMax, biasMax]: A holds the first seat in game 1 and
// the second in game 2, so its two scores are anti-correlated, as in Dice
// with dice indexed by seat. A's win probability is ½ − draw/2 + edge ± b.
func simulatePairs(rng *rand.Rand, pairs int, edge, biasMax, draw float64) (Trinomial, Pentanomial) {
	var tr Trinomial
	var p Pentanomial
	game := func(win float64) int { // A's score in half points
		switch u := rng.Float64(); {
		case u < win:
			tr.Wins++
			return 2
		case u < win+draw:
			tr.Draws++
			return 1
		}
		tr.Losses++
		return 0
	}
	for range pairs {
		b := biasMax * (2*rng.Float64() - 1)
		base := 0.5 - draw/2 + edge
		p[game(base+b)+game(base-b)]++
	}
	return tr, p
}

// With seat-biased dice the pentanomial interval is narrower than the
// trinomial one on the same games, and without bias the two agree.
func TestPentanomialNarrowerOnCorrelatedPairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(2026, 1))
	for _, tc := range []struct {
		biasMax     float64
		minR, maxR  float64
		description string
		pairs       int
		edge, draw  float64
	}{
		// Var(b) = 0.45²/3 = 0.0675, per-game σ² ≈ 0.25: the pair variance
		// falls to about (0.5 − 2·0.0675)/0.5 of the independent one, a CI
		// ratio near 0.85.
		{biasMax: 0.45, minR: 0.80, maxR: 0.90, description: "seat bias", pairs: 20000, edge: 0.02, draw: 0.05},
		{biasMax: 0, minR: 0.97, maxR: 1.03, description: "no bias", pairs: 20000, edge: 0.02, draw: 0.05},
	} {
		tr, p := simulatePairs(rng, tc.pairs, tc.edge, tc.biasMax, tc.draw)
		if tr.Games() != p.Games() || !near(tr.Score(), p.Score(), 1e-12) {
			t.Fatalf("%s: trinomial %+v and pentanomial %v disagree on games or score", tc.description, tr, p)
		}
		r := p.ScoreCI95() / tr.ScoreCI95()
		if r < tc.minR || r > tc.maxR {
			t.Errorf("%s: pentanomial CI %.5f / trinomial CI %.5f = %.3f, want in [%.2f, %.2f]",
				tc.description, p.ScoreCI95(), tr.ScoreCI95(), r, tc.minR, tc.maxR)
		}
	}
}

// Under seat-biased dice the pentanomial 95 % interval covers the true score
// about 95 % of the time, while the trinomial one, blind to the correlation,
// over-covers.
func TestCoverageOnCorrelatedPairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	const reps, pairs, edge = 1000, 400, 0.03
	truth := 0.5 + edge
	var coverTri, coverPenta int
	for range reps {
		tr, p := simulatePairs(rng, pairs, edge, 0.45, 0.05)
		if math.Abs(tr.Score()-truth) <= tr.ScoreCI95() {
			coverTri++
		}
		if math.Abs(p.Score()-truth) <= p.ScoreCI95() {
			coverPenta++
		}
	}
	ct, cp := float64(coverTri)/reps, float64(coverPenta)/reps
	// Binomial sd of a 95 % coverage over 1000 reps is 0.7 %.
	if cp < 0.93 || cp > 0.97 {
		t.Errorf("pentanomial coverage %.3f, want 0.95 ± 0.02", cp)
	}
	if ct <= cp {
		t.Errorf("trinomial coverage %.3f not above pentanomial %.3f", ct, cp)
	}
}

func TestMeanCI95(t *testing.T) {
	for _, tc := range []struct {
		xs   []float64
		want MeanCI
	}{
		{nil, MeanCI{}},
		{[]float64{0.25}, MeanCI{N: 1, Mean: 0.25, CI95: math.Inf(1)}},
		{[]float64{0.5, 0.5, 0.5}, MeanCI{N: 3, Mean: 0.5}},
		// var = ((1.5² + 0.5²)·2)/3 = 5/3; CI = 1.959964·√(5/12).
		{[]float64{1, 2, 3, 4}, MeanCI{N: 4, Mean: 2.5, Var: 5.0 / 3, CI95: 1.26515131188166}},
		{[]float64{-1, 1}, MeanCI{N: 2, Mean: 0, Var: 2, CI95: 1.959963984540054}},
	} {
		got := MeanCI95(tc.xs)
		if got.N != tc.want.N || !near(got.Mean, tc.want.Mean, 1e-12) ||
			!near(got.Var, tc.want.Var, 1e-12) || !near(got.CI95, tc.want.CI95, 1e-12) {
			t.Errorf("MeanCI95(%v) = %+v, want %+v", tc.xs, got, tc.want)
		}
	}
}

// Luck adjustment shows in MeanCI95 as a smaller interval around the same
// mean: adding an independent zero-mean luck term to each pair score widens
// it by √((σ² + τ²)/σ²).
func TestMeanCI95VarianceRatio(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 19))
	const n = 50000
	adjusted := make([]float64, n)
	raw := make([]float64, n)
	for i := range adjusted {
		adjusted[i] = 0.52 + 0.1*rng.NormFloat64()
		raw[i] = adjusted[i] + 0.3*rng.NormFloat64()
	}
	a, r := MeanCI95(adjusted), MeanCI95(raw)
	ratio := r.Var / a.Var // want (0.01 + 0.09)/0.01 = 10
	if ratio < 9.5 || ratio > 10.5 {
		t.Errorf("variance ratio %v, want 10 ± 0.5", ratio)
	}
	if !near(r.CI95/a.CI95, math.Sqrt(ratio), 1e-12) {
		t.Errorf("CI ratio %v, want √%v", r.CI95/a.CI95, ratio)
	}
	if math.Abs(a.Mean-0.52) > 3*a.CI95/1.96 {
		t.Errorf("adjusted mean %v ± %v misses 0.52", a.Mean, a.CI95)
	}
}

// TestPopMeanCI95: worked values with the variance divided by n.
func TestPopMeanCI95(t *testing.T) {
	for _, tc := range []struct {
		xs   []float64
		want MeanCI
	}{
		{nil, MeanCI{}},
		{[]float64{0.7}, MeanCI{N: 1, Mean: 0.7}},
		// mean 0.5, variance ((0.5)^2 + (0.5)^2)/2 = 0.25, 1.959964*sqrt(0.25/2)
		{[]float64{0, 1}, MeanCI{N: 2, Mean: 0.5, Var: 0.25, CI95: 0.6929519}},
		// mean 1, variance (1 + 0 + 0 + 1)/4 = 0.5, 1.959964*sqrt(0.5/4)
		{[]float64{0, 1, 1, 2}, MeanCI{N: 4, Mean: 1, Var: 0.5, CI95: 0.6929519}},
	} {
		got := PopMeanCI95(tc.xs)
		if got.N != tc.want.N || math.Abs(got.Mean-tc.want.Mean) > 1e-12 || math.Abs(got.Var-tc.want.Var) > 1e-12 || math.Abs(got.CI95-tc.want.CI95) > 1e-6 {
			t.Errorf("PopMeanCI95(%v) = %+v, want %+v", tc.xs, got, tc.want)
		}
	}
}
