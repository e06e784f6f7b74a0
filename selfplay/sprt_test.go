package selfplay

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat"
)

func TestSPRTBoundsAndDecision(t *testing.T) {
	s := SPRT{Elo0: 0, Elo1: 2, Alpha: 0.05, Beta: 0.05}
	lower, upper := s.Bounds()
	// ln(0.05/0.95) = −2.9444389791664403.
	if !near(lower, -2.9444389791664403, 1e-12) || !near(upper, 2.9444389791664403, 1e-12) {
		t.Fatalf("Bounds() = %v, %v, want ∓2.944439", lower, upper)
	}
	lower, upper = SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.10}.Bounds()
	if !near(lower, math.Log(0.10/0.95), 1e-12) || !near(upper, math.Log(0.90/0.05), 1e-12) {
		t.Errorf("α=0.05, β=0.10: Bounds() = %v, %v", lower, upper)
	}
	for _, tc := range []struct {
		llr  float64
		want Decision
		str  string
	}{
		{0, Continue, "continue"},
		{2.9, Continue, "continue"},
		{-2.9, Continue, "continue"},
		{2.95, AcceptH1, "H1"},
		{-2.95, AcceptH0, "H0"},
	} {
		got := s.Decision(tc.llr)
		if got != tc.want || got.String() != tc.str {
			t.Errorf("Decision(%v) = %v, want %v", tc.llr, got, tc.str)
		}
	}
}

// LLR values from fastchess app/tests/sprt_test.cpp (model "normalized",
// α = β = 0.05), printed there to two decimals. fastchess's Stats(w, l, d)
// and Stats(ll, ld, wl, dd, wd, ww) are rewritten here; WL and DD fold into
// pentanomial index 2.
func TestLLRFastchess(t *testing.T) {
	for _, tc := range []struct {
		name       string
		s          SPRT
		tri        *Trinomial
		penta      *Pentanomial
		want, tol  float64
		whyDiffers string
	}{
		{name: "normalized trinomial 1", s: SPRT{0, 2, .05, .05}, tri: &Trinomial{Wins: 36433, Draws: 68692, Losses: 36027}, want: 0.92, tol: 0.006},
		{name: "normalized trinomial 2", s: SPRT{-1.75, 0.25, .05, .05}, tri: &Trinomial{Wins: 10871, Draws: 20431, Losses: 10650}, want: 2.30, tol: 0.006},
		{name: "normalized pentanomial 1", s: SPRT{0, 2, .05, .05}, penta: &Pentanomial{365, 16618, 36029 + 200, 16974, 390}, want: 2.25, tol: 0.006},
		{name: "normalized pentanomial 2", s: SPRT{-1.75, 0.25, .05, .05}, penta: &Pentanomial{127, 4883, 10311 + 401, 5150, 104}, want: 3.01, tol: 0.006},
		// fastchess expects 2.94 for 104 WW pairs with [0, 5]. Its MLE
		// stops at a change of 1e-4 in p while four of the five regularised
		// categories weigh 1e-5, so it is far from the maximum there. With
		// nearly all mass on WW the constrained maxima are nearly two-point
		// distributions on 0 and 1: p0(WW) = ½ for t0 = 0 and
		// p1(WW) = ½(1 + t1/√(1 + t1²)) for t1 = √2·5/(800/ln 10), so
		// LLR ≈ 104·ln(1 + t1/√(1 + t1²)) = 2.094945.
		{name: "normalized pentanomial 3", s: SPRT{0, 5, .05, .05}, penta: &Pentanomial{0, 0, 0, 0, 104}, want: 2.094945, tol: 0.005},
	} {
		var got float64
		if tc.tri != nil {
			got = tc.s.LLRTrinomial(*tc.tri)
		} else {
			got = tc.s.LLRPentanomial(*tc.penta)
		}
		if !near(got, tc.want, tc.tol) {
			t.Errorf("%s: LLR = %.5f, want %.5f ± %v", tc.name, got, tc.want, tc.tol)
		}
	}
}

// bruteTrinomialLLR computes the GSPRT LLR of tr without the fixed-point
// iteration. On three outcomes scored 0, ½, 1 the distributions with
// (μ − ½)/σ = t form a curve: with s = P(W) + P(L) and δ = P(W) − P(L),
// μ − ½ = δ/2 and σ² = (s − δ²)/4, so δ = t·√(s/(1 + t²)) and s runs over
// (t²/(1 + t²), 1]. The likelihood is maximised over s on a fine grid and
// then by golden-section search.
func bruteTrinomialLLR(tr Trinomial, s SPRT) float64 {
	c := []float64{float64(tr.Losses), float64(tr.Draws), float64(tr.Wins)}
	n := 0.0
	for i := range c {
		if c[i] == 0 {
			c[i] = 1e-3
		}
		n += c[i]
	}
	maxLogLik := func(t float64) float64 {
		smin := t * t / (1 + t*t)
		ell := func(x float64) float64 {
			pd := (1 - smin) / (1 + math.Exp(x)) // P(D) = 1 − s, kept exact near s = 1
			sum := 1 - pd
			d := t * math.Sqrt(sum/(1+t*t))
			pw, pl := (sum+d)/2, (sum-d)/2
			return (c[0]*math.Log(pl) + c[1]*math.Log(pd) + c[2]*math.Log(pw)) / n
		}
		const step = 0.01
		best, bestX := math.Inf(-1), 0.0
		for x := -60.0; x <= 60; x += step {
			if v := ell(x); v > best {
				best, bestX = v, x
			}
		}
		a, b := bestX-step, bestX+step
		g := (math.Sqrt(5) - 1) / 2
		for range 200 {
			x1, x2 := b-g*(b-a), a+g*(b-a)
			if ell(x1) < ell(x2) {
				a = x1
			} else {
				b = x2
			}
		}
		return math.Max(best, ell((a+b)/2))
	}
	return n * (maxLogLik(s.Elo1/neloPerT) - maxLogLik(s.Elo0/neloPerT))
}

func TestLLRTrinomialMatchesBruteForce(t *testing.T) {
	for _, tc := range []struct {
		tr Trinomial
		s  SPRT
	}{
		{Trinomial{Wins: 36433, Draws: 68692, Losses: 36027}, SPRT{0, 2, .05, .05}},
		{Trinomial{Wins: 10871, Draws: 20431, Losses: 10650}, SPRT{-1.75, 0.25, .05, .05}},
		// fastchess's "normalized trinomial 3" expects +2.97 here, but with
		// every game drawn H0 (t = 0) fits the data exactly, so the GLR
		// cannot be positive; the exact value is about −3.45.
		{Trinomial{Draws: 16700}, SPRT{0, 5, .05, .05}},
		{Trinomial{Wins: 60, Draws: 20, Losses: 20}, SPRT{0, 50, .05, .05}},
		{Trinomial{Wins: 30, Losses: 20}, SPRT{-10, 10, .05, .05}},
		{Trinomial{Wins: 5}, SPRT{0, 5, .05, .05}},
		{Trinomial{Wins: 400, Draws: 100, Losses: 500}, SPRT{-20, 30, .05, .05}},
	} {
		got, want := tc.s.LLRTrinomial(tc.tr), bruteTrinomialLLR(tc.tr, tc.s)
		if !near(got, want, 1e-6*math.Max(1, math.Abs(want))) {
			t.Errorf("%+v %v: LLR = %.9f, brute force %.9f", tc.tr, tc.s, got, want)
		}
	}
	if got := (SPRT{0, 5, .05, .05}).LLRTrinomial(Trinomial{Draws: 16700}); got > -3.4 || got < -3.5 {
		t.Errorf("16700 draws: LLR = %v, want about −3.45", got)
	}
}

// tValue returns (μ − ½)/σ of the distribution p over scores.
func tValue(scores, p []float64) float64 {
	mu, v := stat.PopMeanVariance(scores, p)
	return (mu - 0.5) / math.Sqrt(v)
}

// The pentanomial MLE meets its constraint and no feasible step along the
// constraint surface raises the likelihood.
func TestPentanomialMLEIsConstrainedMaximum(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	logLik := func(phat, p []float64) float64 {
		l := 0.0
		for i := range p {
			l += phat[i] * math.Log(p[i])
		}
		return l
	}
	for _, tc := range []struct {
		counts Pentanomial
		nelo   float64
	}{
		{Pentanomial{365, 16618, 36229, 16974, 390}, 2},
		{Pentanomial{127, 4883, 10712, 5150, 104}, -1.75},
		{Pentanomial{0, 0, 0, 0, 104}, 5},
		{Pentanomial{5, 10, 20, 40, 25}, 100},
		{Pentanomial{50, 10, 0, 10, 3}, -60},
	} {
		phat := make([]float64, 5)
		n := 0.0
		for i, c := range tc.counts {
			phat[i] = float64(c)
			if c == 0 {
				phat[i] = 1e-3
			}
			n += phat[i]
		}
		for i := range phat {
			phat[i] /= n
		}
		tt := math.Sqrt2 * tc.nelo / neloPerT
		p, ok := mleTValue(phat, pentaScores, 0.5, tt)
		if !ok {
			t.Fatalf("%v at %v nElo: no MLE", tc.counts, tc.nelo)
		}
		sum := 0.0
		for _, x := range p {
			sum += x
		}
		// Near-empty categories make p_i = p̂_i/(1 + θφ_i) with 1 + θφ_i
		// near 0, which turns θ's last bit into about 1e-11 here.
		if !near(sum, 1, 1e-9) || !near(tValue(pentaScores, p), tt, 1e-9) {
			t.Errorf("%v at %v nElo: Σp = %v, t = %v, want 1 and %v", tc.counts, tc.nelo, sum, tValue(pentaScores, p), tt)
			continue
		}
		best := logLik(phat, p)
		for range 200 {
			q := perturbOnConstraint(rng, p, tt)
			if q == nil {
				continue
			}
			if l := logLik(phat, q); l > best+1e-13 {
				t.Errorf("%v at %v nElo: neighbour %v has log-likelihood %.15g > %.15g at the MLE %v",
					tc.counts, tc.nelo, q, l, best, p)
				break
			}
		}
	}
}

// perturbOnConstraint moves p a small random step within the simplex and
// back onto the surface t-value = tt; nil if the step leaves the simplex.
func perturbOnConstraint(rng *rand.Rand, p []float64, tt float64) []float64 {
	k := len(p)
	grad := func(q []float64) []float64 {
		mu, v := stat.PopMeanVariance(pentaScores, q)
		sd := math.Sqrt(v)
		g := make([]float64, k)
		mean := 0.0
		for i, a := range pentaScores {
			// ∂/∂q_i of (μ − ½)/σ with μ = Σqa, σ² = Σqa² − μ².
			g[i] = a/sd - (mu-0.5)*(a*a-2*mu*a)/(2*sd*sd*sd)
			mean += g[i] / float64(k)
		}
		for i := range g {
			g[i] -= mean // keep Σq = 1
		}
		return g
	}
	dot := func(a, b []float64) float64 {
		s := 0.0
		for i := range a {
			s += a[i] * b[i]
		}
		return s
	}
	g := grad(p)
	v := make([]float64, k)
	mean := 0.0
	for i := range v {
		v[i] = rng.NormFloat64() * p[i]
		mean += v[i] / float64(k)
	}
	for i := range v {
		v[i] -= mean
	}
	c := dot(v, g) / dot(g, g)
	for i := range v {
		v[i] -= c * g[i]
	}
	q := make([]float64, k)
	for i := range q {
		q[i] = p[i] + 1e-3*v[i]
	}
	for range 50 { // Newton back onto the surface along the gradient
		r := tValue(pentaScores, q) - tt
		if math.Abs(r) < 1e-14 {
			break
		}
		gq := grad(q)
		lambda := r / dot(gq, gq)
		for i := range q {
			q[i] -= lambda * gq[i]
		}
	}
	for _, x := range q {
		if !(x > 0) {
			return nil
		}
	}
	if math.Abs(tValue(pentaScores, q)-tt) > 1e-12 {
		return nil
	}
	return q
}

// pentaScaled multiplies every count of a distribution by k, so the LLR of
// the same frequencies can be watched as the sample grows.
func pentaScaled(p Pentanomial, k int) Pentanomial {
	for i := range p {
		p[i] *= k
	}
	return p
}

// With the same observed frequencies the LLR grows in proportion to the
// sample, and with enough pairs it crosses the upper bound for the stronger
// side and the lower bound for equal sides.
func TestLLRCrossesBounds(t *testing.T) {
	s := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}
	equal := Pentanomial{10, 25, 30, 25, 10}   // symmetric: t = 0
	stronger := Pentanomial{8, 24, 30, 27, 11} // μ = 0.5225
	for _, tc := range []struct {
		name string
		p    Pentanomial
		want Decision
	}{
		{"equal", equal, AcceptH0},
		{"stronger", stronger, AcceptH1},
	} {
		small := s.LLRPentanomial(tc.p)
		if s.Decision(small) != Continue {
			t.Errorf("%s on %d pairs: already %v at LLR %v", tc.name, tc.p.Pairs(), s.Decision(small), small)
		}
		big := s.LLRPentanomial(pentaScaled(tc.p, 1000))
		if got := s.Decision(big); got != tc.want {
			t.Errorf("%s on %d pairs: LLR %v gives %v, want %v", tc.name, 1000*tc.p.Pairs(), big, got, tc.want)
		}
		// Regularisation aside (no empty cells here), LLR is linear in N.
		if !near(big, 1000*small, 1e-6*math.Abs(big)) {
			t.Errorf("%s: LLR(1000·counts) = %v, 1000·LLR(counts) = %v", tc.name, big, 1000*small)
		}
		tr := pentaScaled(tc.p, 1000).Trinomial()
		if got := s.Decision(s.LLRTrinomial(tr)); got != tc.want {
			t.Errorf("%s trinomial %+v: LLR %v gives %v, want %v", tc.name, tr, s.LLRTrinomial(tr), got, tc.want)
		}
	}
}

// A sequential test on simulated pairs stops with the right decision.
func TestSPRTSequential(t *testing.T) {
	s := SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}
	for _, tc := range []struct {
		name string
		edge float64
		want Decision
	}{
		{"stronger", 0.04, AcceptH1},
		{"weaker", -0.04, AcceptH0},
	} {
		rng := rand.New(rand.NewPCG(11, 13))
		var p Pentanomial
		got := Continue
		for batch := 0; got == Continue && batch < 2000; batch++ {
			_, more := simulatePairs(rng, 50, tc.edge, 0.3, 0.05)
			for i := range p {
				p[i] += more[i]
			}
			got = s.Decision(s.LLRPentanomial(p))
		}
		if got != tc.want {
			t.Errorf("%s: stopped with %v after %d pairs, want %v", tc.name, got, p.Pairs(), tc.want)
		}
	}
}

func TestLLREdgeCases(t *testing.T) {
	s := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}
	if got := s.LLRTrinomial(Trinomial{}); got != 0 {
		t.Errorf("no games: LLR = %v, want 0", got)
	}
	if got := s.LLRPentanomial(Pentanomial{}); got != 0 {
		t.Errorf("no pairs: LLR = %v, want 0", got)
	}
	// Bounds far out fall back to fishtest's LLR_normalized_alt; the result
	// is finite and favours the hypothesis nearer the data.
	far := SPRT{Elo0: 0, Elo1: 500, Alpha: 0.05, Beta: 0.05}
	p := Pentanomial{10, 10, 10, 10, 104} // about 190 nElo
	got := far.LLRPentanomial(p)
	if math.IsNaN(got) || math.IsInf(got, 0) || got <= 0 {
		t.Errorf("[0, 500] on %v: LLR = %v, want finite and positive", p, got)
	}
	tr := Trinomial{Wins: 10, Draws: 10, Losses: 10}
	if got := (SPRT{Elo0: -400, Elo1: 400, Alpha: 0.05, Beta: 0.05}).LLRTrinomial(tr); math.IsNaN(got) || math.IsInf(got, 0) || math.Abs(got) > 1e-9 {
		t.Errorf("[−400, 400] on an even match: LLR = %v, want 0", got)
	}
}

// Near H0 and H1 the exact GLR and fishtest's approximation
// LLR_normalized_alt agree closely (Van den Bergh, "Comments on Normalized
// Elo", Section 4.2).
func TestLLRApproximationAgrees(t *testing.T) {
	s := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}
	p := Pentanomial{1187, 7410, 13475, 7378, 1164} // from fishtest stat_util.py's self-test
	exact := s.LLRPentanomial(p)
	phat := make([]float64, 5)
	for i, c := range p {
		phat[i] = float64(c) / float64(p.Pairs())
	}
	t0, t1 := math.Sqrt2*s.Elo0/neloPerT, math.Sqrt2*s.Elo1/neloPerT
	alt := llrNormalizedAlt(phat, pentaScores, float64(p.Pairs()), t0, t1, 2)
	if !near(exact, alt, 0.02*math.Abs(exact)) {
		t.Errorf("exact LLR %v, approximation %v", exact, alt)
	}
}

func TestParseSPRT(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    SPRT
		errWord string
	}{
		{in: "0,5,0.05,0.05", want: SPRT{0, 5, 0.05, 0.05}},
		{in: " -1.75, 0.25 ,0.05,0.1", want: SPRT{-1.75, 0.25, 0.05, 0.1}},
		{in: "0,5,0.05", errWord: "3 fields"},
		{in: "0,5,0.05,0.05,1", errWord: "5 fields"},
		{in: "", errWord: "1 fields"},
		{in: "x,5,0.05,0.05", errWord: "elo0"},
		{in: "0,,0.05,0.05", errWord: "elo1"},
		{in: "0,5,five,0.05", errWord: "alpha"},
		{in: "0,5,0.05,NaN", errWord: "beta"},
		{in: "0,Inf,0.05,0.05", errWord: "elo1"},
		{in: "5,0,0.05,0.05", errWord: "elo1"},
		{in: "0,0,0.05,0.05", errWord: "elo1"},
		{in: "0,5,0,0.05", errWord: "alpha"},
		{in: "0,5,1,0.05", errWord: "alpha"},
		{in: "0,5,0.05,-0.1", errWord: "beta"},
		{in: "0,5,0.6,0.5", errWord: "alpha + beta"},
	} {
		got, err := ParseSPRT(tc.in)
		switch {
		case tc.errWord == "" && err != nil:
			t.Errorf("ParseSPRT(%q): %v", tc.in, err)
		case tc.errWord == "" && got != tc.want:
			t.Errorf("ParseSPRT(%q) = %+v, want %+v", tc.in, got, tc.want)
		case tc.errWord != "" && err == nil:
			t.Errorf("ParseSPRT(%q) = %+v, want an error naming %s", tc.in, got, tc.errWord)
		case tc.errWord != "" && (!strings.Contains(err.Error(), tc.errWord) || strings.Contains(err.Error(), "\n")):
			t.Errorf("ParseSPRT(%q) error %q does not name %q on one line", tc.in, err, tc.errWord)
		}
	}
}

func FuzzParseSPRT(f *testing.F) {
	for _, s := range []string{"0,5,0.05,0.05", "-1.75,0.25,0.05,0.05", "0,2,0.05,0.1", "1e3,2e3,0.5,0.49", ",,,", "0,5,0.05"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := ParseSPRT(in)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("ParseSPRT(%q): multi-line error %q", in, err)
			}
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("ParseSPRT(%q) = %+v, which fails Validate: %v", in, s, err)
		}
		lower, upper := s.Bounds()
		if !(lower < 0 && upper > 0) || math.IsInf(lower, 0) || math.IsInf(upper, 0) {
			t.Fatalf("ParseSPRT(%q) = %+v: bounds %v, %v", in, s, lower, upper)
		}
		back, err := ParseSPRT(s.String())
		if err != nil || back != s {
			t.Fatalf("round trip of %+v through %q gave %+v, %v", s, s.String(), back, err)
		}
	})
}
