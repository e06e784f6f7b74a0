package search

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"sync"

	"starlab/runs"
)

// ProbCutFormat is the format name and ProbCutVersion the version written
// into, and checked on load of, a ChanceProbCut parameter file.
const (
	ProbCutFormat  = "starlab-probcut"
	ProbCutVersion = 1
)

// DepthPair holds the linear model v_deep ~ A*v_shallow + B with residual
// standard deviation Sigma, fitted over positions searched to both depths
// (Buro 1995; Schadd et al. 2009, equations 5.6 and 5.7).
type DepthPair struct {
	Shallow int      `json:"shallow"`
	Deep    int      `json:"deep"`
	A       float64  `json:"a"`
	B       float64  `json:"b"`
	Sigma   float64  `json:"sigma"`
	N       int      `json:"n,omitempty"`  // number of pairs the fit used, 0 for defaults
	R2      runs.Num `json:"r2,omitempty"` // the fit's coefficient of determination, null when undefined
}

// ProbCutParams is a ChanceProbCut parameter file: one DepthPair per
// (shallow, deep) depth pair. Depths are those of the chance event's
// subtree, the rolled position below the chance node.
type ProbCutParams struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
	Source  string `json:"source"` // "defaults" or what produced the fit
	// Eval and NetID name the evaluator (and network) the fit was made
	// with, N and M the board; a fit is refused for another (Resolved.CheckProbCut).
	// Empty for defaults, which are no fit.
	Eval  string      `json:"eval,omitempty"`
	NetID string      `json:"net_id,omitempty"`
	N     int         `json:"n,omitempty"`
	M     int         `json:"m,omitempty"`
	Pairs []DepthPair `json:"pairs"`
}

// checkFor reports whether a fit made with eval (and net netID) on n x n
// boards with win length m may be used by an engine of eval and netID.
func (p *ProbCutParams) checkFor(name, eval, netID string, n, m int) error {
	if p.Eval == "" {
		return nil
	}
	switch {
	case p.N != 0 && (p.N != n || p.M != m):
		return fmt.Errorf("probcut %s was fitted on %dx%d boards with win length %d, not %dx%d/%d", name, p.N, p.N, p.M, n, n, m)
	case p.Eval != eval:
		return fmt.Errorf("probcut %s was fitted with eval=%s; this engine evaluates with eval=%s", name, p.Eval, eval)
	case p.NetID != netID:
		return fmt.Errorf("probcut %s was fitted for net %s; this engine's net is %s", name, p.NetID, netID)
	}
	return nil
}

// DefaultProbCutSigma is the residual deviation the default parameters
// assume: a guess, not a fit.
const DefaultProbCutSigma = 0.1

// DefaultProbCut returns parameters that are defaults, not a fit: the
// identity model (a = 1, b = 0) with sigma DefaultProbCutSigma for every depth
// pair with R = r and deep depth up to maxDeep. Fit real ones from paired
// searches and pass them with --probcut.
func DefaultProbCut(r, maxDeep int) *ProbCutParams {
	p := &ProbCutParams{Format: ProbCutFormat, Version: ProbCutVersion, Source: "defaults (identity model, sigma 0.1; not fitted)"}
	for d := r; d <= maxDeep; d++ {
		p.Pairs = append(p.Pairs, DepthPair{Shallow: d - r, Deep: d, A: 1, B: 0, Sigma: DefaultProbCutSigma})
	}
	return p
}

// Lookup returns the model for the depth pair, if the parameters have one.
func (p *ProbCutParams) Lookup(shallow, deep int) (DepthPair, bool) {
	for _, dp := range p.Pairs {
		if dp.Shallow == shallow && dp.Deep == deep {
			return dp, true
		}
	}
	return DepthPair{}, false
}

// fits holds the built-in fits: fits/<n>x<n>-<m>.json, each a
// probcut.json from starlab fit for the built-in net of its board, which
// cpc uses without probcut=FILE when it evaluates with that net. The
// README gives the commands that made each.
//
//go:embed fits/*.json
var fits embed.FS

// builtinFits parses the built-in fits once.
var builtinFits = sync.OnceValue(func() map[[2]int]*ProbCutParams {
	m := map[[2]int]*ProbCutParams{}
	entries, _ := fits.ReadDir("fits")
	for _, e := range entries {
		data, err := fits.ReadFile("fits/" + e.Name())
		if err != nil {
			panic(err)
		}
		p, err := parseProbCut("built-in "+e.Name(), data)
		if err != nil {
			panic(err) // a test loads every built-in fit
		}
		// Where the parameters come from is said wherever they are
		// reported (tune, bench, match): the built-in fit, by its file.
		p.Source = "built-in fit search/fits/" + e.Name() + " (" + p.Source + ")"
		m[[2]int{p.N, p.M}] = p
	}
	return m
})

// BuiltinProbCut returns the built-in fit for searches of n x n boards with
// win length m that evaluate with eval and net netID, or the defaults,
// which are no fit, when there is none for them.
func BuiltinProbCut(eval, netID string, n, m, r int) *ProbCutParams {
	if p, ok := builtinFits()[[2]int{n, m}]; ok && p.Eval == eval && p.NetID == netID {
		return p
	}
	return DefaultProbCut(r, 2*MaxPly)
}

// LoadProbCut reads a parameter file and checks it; errors name the file.
func LoadProbCut(path string) (*ProbCutParams, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("probcut file: %v", err)
	}
	return parseProbCut(path, data)
}

// maxProbCutCoef bounds the size of a, b and sigma in a parameter file.
// Scores lie in [L, U] = [-1, 1]; a fit of them (starlab fit) gives a slope
// near 1, an intercept near 0 and a sigma well under 1. A figure beyond this
// bound predicts nothing inside the score range and is damage, not a fit.
const maxProbCutCoef = 1000

// parseProbCut decodes and checks a parameter file: no unknown field and
// nothing after the object; the format and version; at least one depth
// pair, each once, with 0 <= shallow < deep <= 2*MaxPly; a, b and sigma
// finite and at most maxProbCutCoef in size, sigma not negative (sigma 0
// is what an exact fit with -sigma-floor 0 gives); n and the board not
// negative; r2 finite and at most 1.
func parseProbCut(path string, data []byte) (*ProbCutParams, error) {
	var p ProbCutParams
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("probcut file %s: bad JSON: %v", path, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("probcut file %s: bad JSON: data after the parameters", path)
	}
	if p.Format != ProbCutFormat {
		return nil, fmt.Errorf("probcut file %s: format %q, want %q", path, p.Format, ProbCutFormat)
	}
	if p.Version != ProbCutVersion {
		return nil, fmt.Errorf("probcut file %s: unsupported version %d (this build reads %d)", path, p.Version, ProbCutVersion)
	}
	if p.N < 0 || p.M < 0 {
		return nil, fmt.Errorf("probcut file %s: board %dx%d/%d: want sizes that are not negative", path, p.N, p.N, p.M)
	}
	if len(p.Pairs) == 0 {
		return nil, fmt.Errorf("probcut file %s: no depth pairs", path)
	}
	seen := map[[2]int]int{}
	for i, dp := range p.Pairs {
		bad := func(what string) error {
			return fmt.Errorf("probcut file %s: pair %d (shallow %d, deep %d): %s", path, i+1, dp.Shallow, dp.Deep, what)
		}
		if dp.Shallow < 0 || dp.Deep <= dp.Shallow || dp.Deep > 2*MaxPly {
			return nil, bad(fmt.Sprintf("want 0 <= shallow < deep <= %d", 2*MaxPly))
		}
		if j, dup := seen[[2]int{dp.Shallow, dp.Deep}]; dup {
			return nil, bad(fmt.Sprintf("the depth pair is given twice (pairs %d and %d)", j, i+1))
		}
		seen[[2]int{dp.Shallow, dp.Deep}] = i + 1
		for _, v := range []float64{dp.A, dp.B, dp.Sigma} {
			if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > maxProbCutCoef {
				return nil, bad(fmt.Sprintf("a, b and sigma must be finite and at most %d in size", maxProbCutCoef))
			}
		}
		if dp.Sigma < 0 {
			return nil, bad("sigma is negative")
		}
		if dp.N < 0 {
			return nil, bad("n is negative")
		}
		// R² is null (NaN) for a flat line, where it is 0/0.
		if r2 := float64(dp.R2); math.IsInf(r2, 0) || r2 > 1 {
			return nil, bad("r2 must be at most 1 (or null: undefined)")
		}
	}
	return &p, nil
}
