package selfplay

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"starlab/search"
)

// Variant is an engine configuration under test, parsed from a short spec
// that names the algorithm first, then its settings, evaluator and limit:
//
//	staretc:depth=9
//	cpc:t=1.6,movetime=100ms
//	star2:nodes=200000,eval=pairs
//	staretc:eval=mlp,net=FILE,depth=5
//
// Keys: depth, nodes, movetime (limits; at least one is required), eval
// (zero, pairs, mlp), net (weight file for mlp), tt (table MiB, default 16),
// k (Star2 probing factor), etc (StarETC successor-probing minimum depth),
// t, r, probcut, cpcmin, cpcmax (ChanceProbCut width, reduction, parameter
// file and the chance-node depths where it applies).
type Variant struct {
	Spec    string // the spec as given, which is also the variant's name
	Options search.Options
	Limits  search.Limits
}

// ParseVariant parses a variant spec; errors name the spec and the bad key or
// value in one line.
func ParseVariant(spec string) (Variant, error) {
	v := Variant{Spec: spec}
	algo, rest, _ := strings.Cut(spec, ":")
	a, err := search.ParseAlgorithm(algo)
	if err != nil {
		return v, fmt.Errorf("variant %q: %v", spec, err)
	}
	opt := search.Options{Algorithm: a, Eval: search.Pairs{}}
	evalName, net, probcut := "pairs", "", ""
	seen := map[string]bool{}
	if rest != "" {
		for _, kv := range strings.Split(rest, ",") {
			key, val, ok := strings.Cut(kv, "=")
			if !ok || val == "" {
				return v, fmt.Errorf("variant %q: %q is not key=value", spec, kv)
			}
			if seen[key] {
				return v, fmt.Errorf("variant %q: key %q given twice", spec, key)
			}
			seen[key] = true
			bad := func(want string) error {
				return fmt.Errorf("variant %q: %s=%q: want %s", spec, key, val, want)
			}
			// atLeast1 parses a positive integer or says what it wanted.
			atLeast1 := func(want string) (int, error) {
				n, err := strconv.Atoi(val)
				if err != nil || n < 1 {
					return 0, bad(want)
				}
				return n, nil
			}
			switch key {
			case "depth":
				if v.Limits.Depth, err = atLeast1("a positive depth"); err != nil {
					return v, err
				}
			case "nodes":
				n, err := strconv.ParseInt(val, 10, 64)
				if err != nil || n < 1 {
					return v, bad("a positive node count")
				}
				v.Limits.Nodes = n
			case "movetime":
				d, err := time.ParseDuration(val)
				if err != nil || d <= 0 {
					return v, bad("a positive duration such as 100ms")
				}
				v.Limits.MoveTime = d
			case "eval":
				evalName = val
			case "net":
				net = val
			case "tt":
				if opt.TTMiB, err = atLeast1("a table size of at least 1 MiB"); err != nil {
					return v, err
				}
			case "k":
				if opt.ProbingFactor, err = atLeast1("a probing factor of at least 1"); err != nil {
					return v, err
				}
			case "etc":
				if opt.ETCMinDepth, err = atLeast1("a depth of at least 1"); err != nil {
					return v, err
				}
			case "t":
				x, err := strconv.ParseFloat(val, 64)
				if err != nil || !(x >= 0) {
					return v, bad("a non-negative number")
				}
				opt.ProbCut.T = x
			case "r":
				if opt.ProbCut.R, err = atLeast1("a reduction of at least 1"); err != nil {
					return v, err
				}
			case "probcut":
				probcut = val
			case "cpcmin":
				if opt.ProbCut.MinDepth, err = atLeast1("a depth of at least 1"); err != nil {
					return v, err
				}
			case "cpcmax":
				if opt.ProbCut.MaxDepth, err = atLeast1("a depth of at least 1"); err != nil {
					return v, err
				}
			default:
				return v, fmt.Errorf("variant %q: unknown key %q (want depth, nodes, movetime, eval, net, tt, k, etc, t, r, probcut, cpcmin or cpcmax)", spec, key)
			}
		}
	}
	if v.Limits == (search.Limits{}) {
		return v, fmt.Errorf("variant %q: no limit (give depth=, nodes= or movetime=)", spec)
	}
	if net != "" && evalName != "mlp" {
		return v, fmt.Errorf("variant %q: net=%s needs eval=mlp", spec, net)
	}
	if opt.Eval, err = search.NewEvaluator(evalName); err != nil {
		return v, fmt.Errorf("variant %q: %v", spec, err)
	}
	if probcut != "" {
		if a != search.CPC {
			return v, fmt.Errorf("variant %q: probcut= needs the cpc algorithm", spec)
		}
		if opt.ProbCut.Params, err = search.LoadProbCut(probcut); err != nil {
			return v, fmt.Errorf("variant %q: %v", spec, err)
		}
	}
	v.Options = opt
	return v, nil
}

// Deterministic reports whether the variant's games are a pure function of
// their seed: true unless a time limit is set.
func (v Variant) Deterministic() bool { return v.Limits.MoveTime == 0 }

// NewPlayer returns a player with its own engine for the variant.
func (v Variant) NewPlayer() *EnginePlayer {
	return NewEnginePlayer(v.Spec, search.NewEngine(v.Options), v.Limits)
}
