package selfplay

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// z975 is the 97.5 % quantile of the standard normal law, 1.959963984540054:
// the factor of the two-sided 95 % normal interval used by cutechess-cli
// (elo.cpp), fastchess (CI95ZSCORE) and fishtest (stat_util.get_elo).
var z975 = distuv.UnitNormal.Quantile(0.975)

// neloPerT converts a t-value, the score excess over ½ in per-game standard
// deviations, to normalized Elo: 800/ln 10 ≈ 347.44
// (fishtest LLRcalc.nelo_divided_by_nt, fastchess scoreToNeloDiff).
const neloPerT = 800 / math.Ln10

// regularizeEps replaces an empty outcome category before the GSPRT so that
// every category keeps a positive probability (fishtest LLRcalc.regularize,
// fastchess sprt.cpp regularize).
const regularizeEps = 1e-3

// EloFromScore returns the logistic Elo difference −400·log10(1/s − 1) whose
// expected score is s (cutechess-cli elo.cpp Elo::diff, fastchess
// scoreToEloDiff, fishtest stat_util.elo without its clamp to [0.001, 0.999]).
// A score of 0 or less gives −Inf and a score of 1 or more gives +Inf: a side
// that never dropped a point has no finite Elo. s must not be NaN.
func EloFromScore(s float64) float64 {
	switch {
	case s <= 0:
		return math.Inf(-1)
	case s >= 1:
		return math.Inf(1)
	}
	return -400 * math.Log10(1/s-1)
}

// LuckElo returns EloFromScore(s) of a luck-adjusted score s, or NaN and
// why when s is below 0 or above 1. The luck-adjusted score, a pair's
// result minus the luck of its rolls as the reference values it, is an
// unbiased estimate of the score but not a score: a side that won what
// its rolls handed it and lost the rest can fall below 0 (or above 1),
// where the logistic model has no Elo, not an infinite one. At 0 and 1
// themselves it is ∓Inf, as for a plain score.
func LuckElo(s float64) (elo float64, why string) {
	switch {
	case s < 0:
		return math.NaN(), "the luck-adjusted score is below 0%, where no Elo is defined"
	case s > 1:
		return math.NaN(), "the luck-adjusted score is above 100%, where no Elo is defined"
	}
	return EloFromScore(s), ""
}

// ScoreFromElo returns the expected score 1/(1 + 10^(−elo/400)) of a side
// that is elo logistic Elo stronger (fishtest stat_util.L, fastchess
// leloToScore). It is the inverse of EloFromScore.
func ScoreFromElo(elo float64) float64 {
	return 1 / (1 + math.Pow(10, -elo/400))
}

// eloInterval maps the score interval mu ± half to Elo and returns its ends
// and the half-width (Elo(hi) − Elo(lo))/2 that cutechess-cli
// (elo.cpp errorMargin), fastchess (EloWDL, EloPentanomial) and fishtest
// (get_elo, elo95) print after "±". The score interval is clipped to [0, 1];
// an end that reaches 0 or 1 is ∓Inf and then the half-width is +Inf, which
// says the upper or lower Elo bound is unbounded.
func eloInterval(mu, half float64) (lo, hi, width float64) {
	lo = EloFromScore(math.Max(mu-half, 0))
	hi = EloFromScore(math.Min(mu+half, 1))
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return lo, hi, math.Inf(1)
	}
	return lo, hi, (hi - lo) / 2
}

// nelo returns the normalized Elo (mu − ½)/sigma · 800/ln 10 of a mean score
// mu with per-game standard deviation sigma (fastchess scoreToNeloDiff,
// fishtest LLR_normalized_alt). With sigma = 0 it is 0 when mu = ½ and ±Inf
// otherwise.
func nelo(mu, sigma float64) float64 {
	d := mu - 0.5
	if sigma == 0 {
		switch {
		case d > 0:
			return math.Inf(1)
		case d < 0:
			return math.Inf(-1)
		}
		return 0
	}
	return d / sigma * neloPerT
}

// losNormal returns Φ((mu − ½)/se), the likelihood of superiority under the
// normal approximation (fastchess EloWDL::los and EloPentanomial::los,
// fishtest stat_util.get_elo). With se = 0 it is 1, 0 or ½ as mu is above,
// below or at ½.
func losNormal(mu, se float64) float64 {
	d := mu - 0.5
	if se == 0 {
		switch {
		case d > 0:
			return 1
		case d < 0:
			return 0
		}
		return 0.5
	}
	return distuv.UnitNormal.CDF(d / se)
}

// ladderScores are the per-game scores of the categories of a trinomial
// (L, D, W) and of a pentanomial (pair scores 0, ½, 1, 1½, 2 halved), in the
// order of fishtest's results arrays: category i of k scores i/(k − 1)
// (fishtest LLRcalc.results_to_pdf).
var (
	triScores   = []float64{0, 0.5, 1}
	pentaScores = []float64{0, 0.25, 0.5, 0.75, 1}
)

// ladderMoments returns the number of samples, the mean score and the
// population variance Σ p̂_i (a_i − μ)² of counts over scores; all zero when
// there are no samples (fishtest stat_util.stats, fastchess calcScore and
// calcVariance).
func ladderMoments(scores []float64, counts []int) (n int, mu, variance float64) {
	w := make([]float64, len(counts))
	for i, c := range counts {
		n += c
		w[i] = float64(c)
	}
	if n <= 0 {
		return 0, 0, 0
	}
	mu, variance = stat.PopMeanVariance(scores, w)
	return n, mu, math.Max(variance, 0)
}

// ladderCI95 returns the half-width 1.959964·σ/√n of the normal 95 %
// interval of the mean score of counts over scores, n their samples and σ²
// their variance; 0 when there are no samples or σ = 0.
func ladderCI95(scores []float64, counts []int) float64 {
	n, _, v := ladderMoments(scores, counts)
	if n == 0 {
		return 0
	}
	return z975 * math.Sqrt(v/float64(n))
}

// ladderElo returns EloFromScore of the mean score of counts over scores,
// and the ends and the half-width of the Elo interval of that score ∓
// ladderCI95 (eloInterval); all 0 when there are no samples.
func ladderElo(scores []float64, counts []int) (elo, lo, hi, width float64) {
	n, mu, _ := ladderMoments(scores, counts)
	if n <= 0 {
		return 0, 0, 0, 0
	}
	lo, hi, width = eloInterval(mu, ladderCI95(scores, counts))
	return EloFromScore(mu), lo, hi, width
}

// ladderNElo returns the normalized Elo of the mean score of counts over
// scores (nelo), each sample being gamesPerSample games whose per-game
// variance is gamesPerSample times the samples' one; 0 when there are no
// samples.
func ladderNElo(scores []float64, counts []int, gamesPerSample int) float64 {
	n, mu, v := ladderMoments(scores, counts)
	if n <= 0 {
		return 0
	}
	return nelo(mu, math.Sqrt(float64(gamesPerSample)*v))
}

// Trinomial counts game results from the first variant's point of view.
// Counts are non-negative. A Trinomial with no games reports zero for every
// statistic except LOS, which is ½.
type Trinomial struct{ Wins, Draws, Losses int }

func (t Trinomial) counts() []int { return []int{t.Losses, t.Draws, t.Wins} }

// Games returns the number of games counted.
func (t Trinomial) Games() int { return t.Wins + t.Draws + t.Losses }

// Score returns the first variant's mean score per game, a win counting 1, a
// draw ½ and a loss 0; 0 when there are no games.
func (t Trinomial) Score() float64 {
	_, mu, _ := ladderMoments(triScores, t.counts())
	return mu
}

// Variance returns the per-game score variance σ² = Σ p_i (a_i − μ)² with the
// observed frequencies p_i (cutechess-cli elo.cpp, fastchess
// EloWDL::calcVariance); 0 when there are no games.
func (t Trinomial) Variance() float64 {
	_, _, v := ladderMoments(triScores, t.counts())
	return v
}

// ScoreCI95 returns the half-width 1.959964·σ/√N of the normal 95 % interval
// of Score, treating the N games as independent (cutechess-cli elo.cpp,
// fastchess EloWDL, fishtest stat_util.get_elo on a trinomial). It is 0 when
// there are no games or when every game ended alike (σ = 0).
func (t Trinomial) ScoreCI95() float64 { return ladderCI95(triScores, t.counts()) }

// Elo returns EloFromScore(Score()): ±Inf when the first variant won or lost
// every game, and 0 when there are no games.
func (t Trinomial) Elo() float64 {
	elo, _, _, _ := ladderElo(triScores, t.counts())
	return elo
}

// EloCI95 returns the Elo values of Score() ∓ ScoreCI95() (cutechess-cli
// elo.cpp, fastchess EloWDL). An end whose score reaches 0 or 1 is ∓Inf; both
// are 0 when there are no games.
func (t Trinomial) EloCI95() (lo, hi float64) {
	_, lo, hi, _ = ladderElo(triScores, t.counts())
	return lo, hi
}

// EloCI95HalfWidth returns (hi − lo)/2 of EloCI95, the "±" that cutechess-cli
// and fastchess print after the Elo difference. It is +Inf when an end of
// EloCI95 is infinite and 0 when there are no games.
func (t Trinomial) EloCI95HalfWidth() float64 {
	_, _, _, w := ladderElo(triScores, t.counts())
	return w
}

// NElo returns the normalized Elo (μ − ½)/σ · 800/ln 10 in which fishtest and
// fastchess state SPRT bounds (fastchess EloWDL::scoreToNeloDiff). It is 0
// when there are no games and ±Inf when σ = 0 but μ ≠ ½.
func (t Trinomial) NElo() float64 { return ladderNElo(triScores, t.counts(), 1) }

// LOS returns the likelihood of superiority ½·(1 + erf((W − L)/√(2(W + L)))),
// the probability that the first variant is the stronger one, with draws
// ignored (cutechess-cli elo.cpp Elo::LOS). It is ½ when there are no
// decisive games.
func (t Trinomial) LOS() float64 {
	decisive := t.Wins + t.Losses
	if decisive <= 0 {
		return 0.5
	}
	return 0.5 * (1 + math.Erf(float64(t.Wins-t.Losses)/math.Sqrt(2*float64(decisive))))
}

// DrawRatio returns the fraction of games drawn; 0 when there are no games.
func (t Trinomial) DrawRatio() float64 {
	n := t.Games()
	if n <= 0 {
		return 0
	}
	return float64(t.Draws) / float64(n)
}

// Pentanomial counts game pairs (same start and dice, colours swapped) by the
// first variant's pair score, the sum of its two game scores: index 0 counts
// pair score 0 (LL), 1 counts ½ (LD), 2 counts 1 (WL or DD), 3 counts 1½ (WD)
// and 4 counts 2 (WW), as fastchess's Ptnml(0-2) and fishtest's pentanomial.
// Counts are non-negative. A Pentanomial with no pairs reports zero for every
// statistic except LOS, which is ½.
//
// The pair is the unit of the statistics: the two games of a pair share their
// start and dice and are correlated, and the per-pair variance accounts for
// that where the trinomial one cannot (fishtest issue #348, cutechess-cli
// issues #620 and #681).
type Pentanomial [5]int

// Pairs returns the number of game pairs counted.
func (p Pentanomial) Pairs() int { return p[0] + p[1] + p[2] + p[3] + p[4] }

// Games returns the number of games counted, twice Pairs.
func (p Pentanomial) Games() int { return 2 * p.Pairs() }

// Score returns the first variant's mean score per game, the mean over pairs
// of half the pair score (fastchess EloPentanomial::calcScore); 0 when there
// are no pairs. It equals the Score of the pairs' games counted one by one.
func (p Pentanomial) Score() float64 {
	_, mu, _ := ladderMoments(pentaScores, p[:])
	return mu
}

// Variance returns σ_p², the variance over pairs of half the pair score
// (fastchess EloPentanomial::calcVariance); 0 when there are no pairs. Twice
// it is the per-game variance with the pairing taken into account, to be
// compared with Trinomial.Variance (fishtest raw-statistics page).
func (p Pentanomial) Variance() float64 {
	_, _, v := ladderMoments(pentaScores, p[:])
	return v
}

// ScoreCI95 returns the half-width 1.959964·σ_p/√pairs of the normal 95 %
// interval of Score, with σ_p² the variance over pairs of half the pair
// score (fastchess EloPentanomial, fishtest stat_util.get_elo on a
// pentanomial). It is 0 when there are no pairs or σ_p = 0.
func (p Pentanomial) ScoreCI95() float64 { return ladderCI95(pentaScores, p[:]) }

// Elo returns EloFromScore(Score()): ±Inf when the first variant won or lost
// every game, and 0 when there are no pairs.
func (p Pentanomial) Elo() float64 {
	elo, _, _, _ := ladderElo(pentaScores, p[:])
	return elo
}

// EloCI95 returns the Elo values of Score() ∓ ScoreCI95() (fastchess
// EloPentanomial). An end whose score reaches 0 or 1 is ∓Inf; both are 0 when
// there are no pairs.
func (p Pentanomial) EloCI95() (lo, hi float64) {
	_, lo, hi, _ = ladderElo(pentaScores, p[:])
	return lo, hi
}

// EloCI95HalfWidth returns (hi − lo)/2 of EloCI95, the "±" fastchess prints
// after the Elo difference. It is +Inf when an end of EloCI95 is infinite
// and 0 when there are no pairs.
func (p Pentanomial) EloCI95HalfWidth() float64 {
	_, _, _, w := ladderElo(pentaScores, p[:])
	return w
}

// NElo returns the normalized Elo (μ − ½)/√(2σ_p²) · 800/ln 10, with √(2σ_p²)
// the per-game standard deviation implied by the pairs (fastchess
// EloPentanomial::scoreToNeloDiff). It is 0 when there are no pairs and ±Inf
// when σ_p = 0 but μ ≠ ½.
func (p Pentanomial) NElo() float64 { return ladderNElo(pentaScores, p[:], 2) }

// LOS returns the likelihood of superiority Φ((μ − ½)/SE) with
// SE = σ_p/√pairs, the normal approximation fastchess
// (EloPentanomial::los) and fishtest (stat_util.get_elo) use. With SE = 0 it
// is 1, 0 or ½ as μ is above, below or at ½.
func (p Pentanomial) LOS() float64 {
	n, mu, v := ladderMoments(pentaScores, p[:])
	if n == 0 {
		return 0.5
	}
	return losNormal(mu, math.Sqrt(v/float64(n)))
}

// Trinomial returns game counts implied by the pairs. A pair score of 1 may
// be a win and a loss or two draws; Trinomial counts it as a win and a loss,
// so Games and Score are exact but Draws is the least number of draws
// consistent with p. Count the games themselves when draws matter.
func (p Pentanomial) Trinomial() Trinomial {
	return Trinomial{
		Wins:   2*p[4] + p[3] + p[2],
		Draws:  p[3] + p[1],
		Losses: p[2] + p[1] + 2*p[0],
	}
}

// Decision is the state of a sequential probability ratio test.
type Decision int

const (
	// Continue means the LLR lies between the bounds: play more games.
	Continue Decision = iota
	// AcceptH0 means the LLR fell below the lower bound: the Elo difference
	// is Elo0 or less (fishtest "rejected").
	AcceptH0
	// AcceptH1 means the LLR rose above the upper bound: the Elo difference
	// is Elo1 or more (fishtest "accepted").
	AcceptH1
)

// String returns "continue", "H0" or "H1".
func (d Decision) String() string {
	switch d {
	case Continue:
		return "continue"
	case AcceptH0:
		return "H0"
	case AcceptH1:
		return "H1"
	}
	return "Decision(" + strconv.Itoa(int(d)) + ")"
}

// SPRT is a generalised sequential probability ratio test of H0: the first
// variant is Elo0 stronger against H1: it is Elo1 stronger, with type I error
// Alpha and type II error Beta.
//
// Elo0 and Elo1 are normalized Elo, fishtest's default elo_model
// "normalized" (fishtest PR #914) and fastchess's default model: a t-value
// (μ − ½)/σ_game times 800/ln 10, so the expected test length does not
// depend on the draw ratio or on how much the pairing removes. One normalized
// Elo is about one logistic Elo when the per-game σ is ½ (no draws, no
// pairing benefit); compare bounds with Trinomial.NElo and Pentanomial.NElo.
type SPRT struct {
	Elo0  float64 `json:"elo0"`  // H0 in normalized Elo
	Elo1  float64 `json:"elo1"`  // H1 in normalized Elo
	Alpha float64 `json:"alpha"` // false-positive rate
	Beta  float64 `json:"beta"`  // false-negative rate
}

// ParseSPRT parses "elo0,elo1,alpha,beta", for example "0,5,0.05,0.05", and
// checks it with Validate. The error is one line naming the bad field.
func ParseSPRT(spec string) (SPRT, error) {
	fields := strings.Split(spec, ",")
	if len(fields) != 4 {
		return SPRT{}, fmt.Errorf("sprt %q: want elo0,elo1,alpha,beta, got %d fields", spec, len(fields))
	}
	names := [4]string{"elo0", "elo1", "alpha", "beta"}
	var v [4]float64
	for i, f := range fields {
		x, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return SPRT{}, fmt.Errorf("sprt %q: %s %q is not a finite number", spec, names[i], strings.TrimSpace(f))
		}
		v[i] = x
	}
	s := SPRT{Elo0: v[0], Elo1: v[1], Alpha: v[2], Beta: v[3]}
	if err := s.Validate(); err != nil {
		return SPRT{}, fmt.Errorf("sprt %q: %w", spec, err)
	}
	return s, nil
}

// Validate reports whether s is a usable test, with the checks of fastchess
// SPRT::isValid: finite values, elo0 < elo1, alpha and beta in (0, 1) and
// alpha + beta < 1. The error names the bad field.
func (s SPRT) Validate() error {
	for _, f := range []struct {
		name string
		v    float64
	}{{"elo0", s.Elo0}, {"elo1", s.Elo1}, {"alpha", s.Alpha}, {"beta", s.Beta}} {
		if math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			return fmt.Errorf("%s %v is not a finite number", f.name, f.v)
		}
	}
	switch {
	case !(s.Elo0 < s.Elo1):
		return fmt.Errorf("elo1 %v must be greater than elo0 %v", s.Elo1, s.Elo0)
	case !(s.Alpha > 0 && s.Alpha < 1):
		return fmt.Errorf("alpha %v must lie strictly between 0 and 1", s.Alpha)
	case !(s.Beta > 0 && s.Beta < 1):
		return fmt.Errorf("beta %v must lie strictly between 0 and 1", s.Beta)
	case !(s.Alpha+s.Beta < 1):
		return fmt.Errorf("alpha + beta = %v must be less than 1", s.Alpha+s.Beta)
	}
	return nil
}

// String returns s in the form ParseSPRT reads.
func (s SPRT) String() string {
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	return g(s.Elo0) + "," + g(s.Elo1) + "," + g(s.Alpha) + "," + g(s.Beta)
}

// Bounds returns Wald's stopping bounds on the LLR, ln(β/(1 − α)) and
// ln((1 − β)/α): ∓2.944 for α = β = 0.05 (fishtest stat_util.SPRT,
// fastchess and cutechess-cli sprt.cpp). fishtest additionally shifts them by
// an overshoot estimate; that needs the LLR's history and is not done here.
func (s SPRT) Bounds() (lower, upper float64) {
	return math.Log(s.Beta / (1 - s.Alpha)), math.Log((1 - s.Beta) / s.Alpha)
}

// Decision returns AcceptH1 when llr is above the upper bound, AcceptH0 when
// it is below the lower bound and Continue otherwise (fishtest update_SPRT
// without overshoot correction, cutechess-cli Sprt::status).
func (s SPRT) Decision(llr float64) Decision {
	lower, upper := s.Bounds()
	switch {
	case llr > upper:
		return AcceptH1
	case llr < lower:
		return AcceptH0
	}
	return Continue
}

// LLRTrinomial returns the generalised log-likelihood ratio of H1 against H0
// for game results t, treating the games as independent: fishtest
// LLRcalc.LLR_normalized on a trinomial, with t-values Elo0/(800/ln 10) and
// Elo1/(800/ln 10). See LLRPentanomial for the method. It is 0 when there are
// no games.
func (s SPRT) LLRTrinomial(t Trinomial) float64 {
	return llrNormalized(triScores, t.counts(), s.Elo0/neloPerT, s.Elo1/neloPerT, 1)
}

// LLRPentanomial returns the generalised log-likelihood ratio of H1 against
// H0 for game pairs p: fishtest LLRcalc.LLR_normalized on a pentanomial, the
// model fishtest runs by default, with the t-values of Elo0 and Elo1 scaled
// by √2 because a pair's mean score has √2 less spread per unit than a game.
// It is 0 when there are no pairs.
//
// Method (Van den Bergh, "Comments on Normalized Elo", Section 4.1, and
// "Support for the MLE of a multinomial", Proposition 1.1; fishtest
// LLRcalc.MLE_t_value, fastchess getLLR_normalized): empty categories get
// count 0.001; for each hypothesis the distribution p_k over the pair
// scores that maximises the likelihood of the observed frequencies p̂ subject
// to (μ − ½)/σ = t_k is found by fixed-point iteration from the uniform
// distribution, each step solving the secular equation
// Σ p̂_i φ_i/(1 + θφ_i) = 0 exactly (safeguarded Newton; fishtest uses Brent,
// fastchess ITP) and setting p_i = p̂_i/(1 + θφ_i); the iteration runs to a
// change below 1e-12 rather than fishtest's 10 rounds. The LLR is
// N·Σ p̂_i ln(p1_i/p0_i). On data with near-empty categories this exact value
// can differ from fastchess's, whose iteration stops at a change of 1e-4 in p.
// For bounds so far from 0 (beyond about 230 nElo for pairs, 340 for games)
// that the first step has no solution, it falls back to fishtest's
// approximation LLR_normalized_alt, (games/2)·ln((1 + (t − t0)²)/(1 + (t − t1)²)).
func (s SPRT) LLRPentanomial(p Pentanomial) float64 {
	return llrNormalized(pentaScores, p[:], math.Sqrt2*s.Elo0/neloPerT, math.Sqrt2*s.Elo1/neloPerT, 2)
}

// llrNormalized is fishtest LLRcalc.LLR_normalized for counts over scores,
// with t0 and t1 already scaled to the sample unit (a game or a pair) and
// gamesPerSample the number of games a sample stands for.
func llrNormalized(scores []float64, counts []int, t0, t1 float64, gamesPerSample int) float64 {
	total := 0
	for _, c := range counts {
		total += c
	}
	if total <= 0 {
		return 0
	}
	phat := make([]float64, len(counts))
	n := 0.0
	for i, c := range counts {
		phat[i] = float64(c)
		if c == 0 {
			phat[i] = regularizeEps
		}
		n += phat[i]
	}
	for i := range phat {
		phat[i] /= n
	}
	p0, ok0 := mleTValue(phat, scores, 0.5, t0)
	p1, ok1 := mleTValue(phat, scores, 0.5, t1)
	if !ok0 || !ok1 {
		return llrNormalizedAlt(phat, scores, n, t0, t1, gamesPerSample)
	}
	llr := 0.0
	for i := range phat {
		llr += phat[i] * (math.Log(p1[i]) - math.Log(p0[i]))
	}
	return n * llr
}

// llrNormalizedAlt is fishtest LLRcalc.LLR_normalized_alt (Van den Bergh,
// "Comments on Normalized Elo", Section 4.2) for the regularised frequencies
// phat of n samples, with t0 and t1 in the sample unit.
func llrNormalizedAlt(phat, scores []float64, n, t0, t1 float64, gamesPerSample int) float64 {
	mu, v := stat.PopMeanVariance(scores, phat)
	// Per-game t-value and t-bounds: a sample of k games has σ_game = √k·σ.
	k := float64(gamesPerSample)
	t := (mu - 0.5) / math.Sqrt(k*v)
	g0, g1 := t0/math.Sqrt(k), t1/math.Sqrt(k)
	games := k * n
	return games / 2 * math.Log((1+(t-g0)*(t-g0))/(1+(t-g1)*(t-g1)))
}

// Iteration limits of mleTValue and secularRoot. The fixed point converges
// geometrically and Newton quadratically; the limits only guard against a
// cycle.
const (
	mleMaxIter     = 500
	mleTol         = 1e-12 // relative change of every p_i
	secularMaxIter = 200
)

// mleTValue returns the distribution over scores that maximises the
// likelihood of the frequencies phat subject to (μ − ref)/σ = t (Van den
// Bergh, "Comments on Normalized Elo", Section 4.1; fishtest
// LLRcalc.MLE_t_value). ok is false when a step's secular equation has no
// root.
func mleTValue(phat, scores []float64, ref, t float64) (p []float64, ok bool) {
	k := len(scores)
	p = make([]float64, k)
	for i := range p {
		p[i] = 1 / float64(k)
	}
	phi := make([]float64, k)
	for range mleMaxIter {
		mu, v := stat.PopMeanVariance(scores, p)
		sigma := math.Sqrt(v)
		for i, a := range scores {
			z := (a - mu) / sigma
			phi[i] = a - ref - t*sigma*(1+z*z)/2
		}
		theta, ok := secularRoot(phat, phi)
		if !ok {
			return nil, false
		}
		change := 0.0
		for i := range p {
			q := phat[i] / (1 + theta*phi[i])
			change = math.Max(change, math.Abs(q-p[i])/q)
			p[i] = q
		}
		if change < mleTol {
			break
		}
	}
	return p, true
}

// secularRoot solves the secular equation Σ w_i φ_i/(1 + θφ_i) = 0 for θ in
// the interval (−1/max φ, −1/min φ) where every 1 + θφ_i is positive
// (fishtest LLRcalc.secular). For positive weights the left side falls
// strictly from +Inf to −Inf there, so the root is unique; a Newton step is
// taken when it stays inside the current bracket and a bisection otherwise.
// ok is false when the φ_i do not take both signs and there is no root.
func secularRoot(w, phi []float64) (theta float64, ok bool) {
	minPhi, maxPhi := math.Inf(1), math.Inf(-1)
	for _, f := range phi {
		minPhi = math.Min(minPhi, f)
		maxPhi = math.Max(maxPhi, f)
	}
	if !(minPhi < 0 && maxPhi > 0) {
		return 0, false
	}
	lo, hi := -1/maxPhi, -1/minPhi
	x := 0.0
	for range secularMaxIter {
		f, df := 0.0, 0.0
		for i, ph := range phi {
			d := 1 + x*ph
			f += w[i] * ph / d
			df -= w[i] * ph * ph / (d * d)
		}
		if f == 0 {
			return x, true
		}
		if f > 0 {
			lo = x
		} else {
			hi = x
		}
		next := x - f/df
		if !(next > lo && next < hi) {
			next = lo + (hi-lo)/2
		}
		if math.Abs(next-x) <= 1e-15*math.Max(1, math.Abs(x)) || next == lo || next == hi {
			return next, true
		}
		x = next
	}
	return x, true
}

// MeanCI is the mean of a sample with its unbiased variance and the
// half-width of its normal 95 % interval.
type MeanCI struct {
	N    int     // sample size
	Mean float64 // sample mean
	Var  float64 // unbiased sample variance, divided by N − 1
	CI95 float64 // 1.959964·√(Var/N)
}

// MeanCI95 summarises xs, for example the luck-adjusted scores of game
// pairs (gnubg's "luck adjusted result"; Zare, "Hedging Toward Skill") or
// per-pair score differences, with the normal interval of Section 9 of the
// tournament anchors: mean ± Φ⁻¹(0.975)·√(var/n). Mean and Var come from
// gonum's stat.MeanVariance. With no samples every field is 0; with one
// sample Var is 0 and CI95 is +Inf, since one sample says nothing about the
// spread. xs must be finite.
func MeanCI95(xs []float64) MeanCI {
	switch len(xs) {
	case 0:
		return MeanCI{}
	case 1:
		return MeanCI{N: 1, Mean: xs[0], CI95: math.Inf(1)}
	}
	mean, v := stat.MeanVariance(xs, nil)
	v = math.Max(v, 0)
	return MeanCI{N: len(xs), Mean: mean, Var: v, CI95: z975 * math.Sqrt(v/float64(len(xs)))}
}

// PopMeanCI95 is MeanCI95 with the variance divided by n instead of n − 1
// (Var holds it), the convention of the trinomial and pentanomial
// statistics, so that variance ratios between those and a per-pair sample
// such as luck-adjusted scores compare like with like. One sample gives a
// zero-width interval, as a pentanomial of one pair does.
func PopMeanCI95(xs []float64) MeanCI {
	if len(xs) == 0 {
		return MeanCI{}
	}
	mean, v := stat.PopMeanVariance(xs, nil)
	v = math.Max(v, 0)
	return MeanCI{N: len(xs), Mean: mean, Var: v, CI95: z975 * math.Sqrt(v/float64(len(xs)))}
}
