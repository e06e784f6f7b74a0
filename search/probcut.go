package search

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"sync"

	"starlab/runs/jsonnum"
)

// ProbCutFormat is the format name and ProbCutVersion the version written
// into, and checked on load of, a ChanceProbCut parameter file. Version 2
// names the game and the variant of the fit; version 1, which named the
// board by n and m, is still read (parseProbCut).
const (
	ProbCutFormat  = "starlab-probcut"
	ProbCutVersion = 2
)

// DepthPair holds the linear model v_deep ~ A*v_shallow + B with residual
// standard deviation Sigma, fitted over positions searched to both depths
// (Buro 1995; Schadd et al. 2009, equations 5.6 and 5.7).
type DepthPair struct {
	Shallow int         `json:"shallow"`
	Deep    int         `json:"deep"`
	A       float64     `json:"a"`
	B       float64     `json:"b"`
	Sigma   float64     `json:"sigma"`
	N       int         `json:"n,omitempty"`  // number of pairs the fit used, 0 for defaults
	R2      jsonnum.Num `json:"r2,omitempty"` // the fit's coefficient of determination, null when undefined
}

// ProbCutParams is a ChanceProbCut parameter file: one DepthPair per
// (shallow, deep) depth pair. Depths are those of the chance event's
// subtree, the rolled position below the chance node.
type ProbCutParams struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
	Source  string `json:"source"` // "defaults" or what produced the fit
	// Eval and NetID name the evaluator (and network) the fit was made
	// with, Game and Variant the game and its variant ("dice", "5x5-4");
	// a fit is refused for another (Resolved.CheckProbCut). Empty for
	// defaults, which are no fit; an empty Variant fits every variant of
	// Game.
	Eval    string      `json:"eval,omitempty"`
	NetID   string      `json:"net_id,omitempty"`
	Game    string      `json:"game,omitempty"`
	Variant string      `json:"variant,omitempty"`
	Pairs   []DepthPair `json:"pairs"`
}

// checkFor reports whether a fit made with eval (and net netID) for a
// variant of a game may be used by an engine of eval and netID searching
// variant of game.
func (p *ProbCutParams) checkFor(name, eval, netID, game, variant string) error {
	if p.Eval == "" {
		return nil
	}
	switch {
	case p.Game != "" && p.Game != game:
		return fmt.Errorf("probcut %s was fitted for %s, not %s", name, p.Game, game)
	case p.Variant != "" && p.Variant != variant:
		return fmt.Errorf("probcut %s was fitted for %s variant %s, not %s", name, p.Game, p.Variant, variant)
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

// LoadProbCut reads a parameter file and checks it; errors name the file.
func LoadProbCut(path string) (*ProbCutParams, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("probcut file: %v", err)
	}
	return ParseProbCut(path, data)
}

// maxProbCutCoef bounds the size of a, b and sigma in a parameter file.
// Scores lie in [L, U] = [-1, 1]; a fit of them (starlab fit) gives a slope
// near 1, an intercept near 0 and a sigma well under 1. A figure beyond this
// bound predicts nothing inside the score range and is damage, not a fit.
const maxProbCutCoef = 1000

// probCutFile is a parameter file of either version as it is read:
// version 1 named the board by N and M, where version 2 names the game
// and the variant.
type probCutFile struct {
	ProbCutParams
	N int `json:"n"`
	M int `json:"m"`
}

// ParseProbCut decodes and checks a parameter file, naming it path in its
// errors: no unknown field and nothing after the object; the format and
// version; at least one depth pair, each once, with 0 <= shallow < deep <=
// 2*MaxPly; a, b and sigma finite and at most maxProbCutCoef in size,
// sigma not negative (sigma 0 is what an exact fit with -sigma-floor 0
// gives); n not negative; r2 finite and at most 1. A version-1 file names
// no game but the board by n and m, and is returned as the version-2
// parameters it means.
func ParseProbCut(path string, data []byte) (*ProbCutParams, error) {
	var f probCutFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("probcut file %s: bad JSON: %v", path, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("probcut file %s: bad JSON: data after the parameters", path)
	}
	p := f.ProbCutParams
	if p.Format != ProbCutFormat {
		return nil, fmt.Errorf("probcut file %s: format %q, want %q", path, p.Format, ProbCutFormat)
	}
	switch p.Version {
	case 1:
		if p.Game != "" || p.Variant != "" {
			return nil, fmt.Errorf("probcut file %s: version 1 names the board by n and m, not by game and variant", path)
		}
		if f.N < 0 || f.M < 0 {
			return nil, fmt.Errorf("probcut file %s: board %dx%d/%d: want sizes that are not negative", path, f.N, f.N, f.M)
		}
		// Every version-1 file is a Dice fit, made before a second game
		// existed: n x n boards with win length m, the Dice variant
		// "<n>x<n>-<m>" (any variant when n is left out).
		p.Game, p.Version = "dice", ProbCutVersion
		if f.N != 0 {
			p.Variant = fmt.Sprintf("%dx%d-%d", f.N, f.N, f.M)
		}
	case ProbCutVersion:
		if f.N != 0 || f.M != 0 {
			return nil, fmt.Errorf("probcut file %s: n and m are version 1's board; version %d names the game and variant", path, ProbCutVersion)
		}
	default:
		return nil, fmt.Errorf("probcut file %s: unsupported version %d (this build reads 1 and %d)", path, p.Version, ProbCutVersion)
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

// BuiltinFits returns a lookup of a game's built-in ChanceProbCut fits by
// variant: every dir/*.json of files (probcut.json files from starlab fit,
// embedded as written), parsed once on first use, each saying in its
// Source that it is the built-in fit at pkg/dir/NAME (pkg: the package's
// path in the module, as "search/dice"). The
// lookup returns nil for a variant without one; the fits are shared, and
// callers must not change them. A file that does not parse panics: each
// game's tests load its fits.
func BuiltinFits(files fs.FS, pkg, dir string) func(variant string) *ProbCutParams {
	fits := sync.OnceValue(func() map[string]*ProbCutParams {
		m := map[string]*ProbCutParams{}
		names, err := fs.Glob(files, dir+"/*.json")
		if err != nil {
			panic(err)
		}
		for _, name := range names {
			data, err := fs.ReadFile(files, name)
			if err != nil {
				panic(err)
			}
			base := name[len(dir)+1:]
			p, err := ParseProbCut("built-in "+base, data)
			if err != nil {
				panic(err)
			}
			// Where the parameters come from is said wherever they are
			// reported (tune, bench, match): the built-in fit, by its file.
			p.Source = "built-in fit " + pkg + "/" + name + " (" + p.Source + ")"
			m[p.Variant] = p
		}
		return m
	})
	return func(variant string) *ProbCutParams { return fits()[variant] }
}
