package search

import (
	"flag"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"starlab/nn"
	"starlab/runs/usage"
)

// Defaults of a Config. DefaultETCMinDepth is 3 because move nodes of depth
// 1 are not stored (their children are leaves, cheaper to evaluate than a
// table miss), so at depth 2 there is nothing to find. DefaultTTMiB is 16:
// on the committed 5x5/4 suite a 16 MiB table searches within 0.4% of the
// nodes of a 256 MiB one to depth 13, and a larger table costs more in page
// faults than it saves on short searches.
const (
	DefaultEval          = "mlp"
	DefaultTTMiB         = 16
	DefaultProbingFactor = 1
	DefaultETCMinDepth   = 3
	DefaultProbCutR      = 2
	DefaultProbCutT      = 1.6
	DefaultProbCutMulti  = true
)

// Bounds on a Config: a table larger than MaxTTMiB is refused rather than
// left to fail in the allocator.
const (
	MaxTTMiB      = 1 << 16 // 64 GiB
	MaxDepthLimit = 2 * MaxPly
)

// Config is an engine's configuration: the algorithm and every option of
// it, but not the limits of a search (see Limits). It is written and read
// in one grammar, "algo:key=value,...", by ParseSpec and Spec.String, and
// the command-line flags of the same names are registered from the same
// table (RegisterFlags), so that a variant key and a flag never differ in
// name, default or check.
type Config struct {
	Algorithm Algorithm `json:"algo"`
	// Eval names the leaf evaluator: "zero", "mlp", or the game's hand
	// evaluator ("pairs" in Dice, "material" in ChanceBreakthrough).
	Eval string `json:"eval"`
	// Net is the weight file of the mlp evaluator ("" = the embedded net).
	Net string `json:"net,omitempty"`
	// TTMiB is the transposition table size in MiB; 0 is no table (Off).
	TTMiB int `json:"tt_mib"`
	// ProbingFactor is the number of moves the Star2 probing phase searches
	// at each chance event (Ballard's generalisation).
	ProbingFactor int `json:"k"`
	// ETCMinDepth is the smallest chance-node depth at which StarETC probes
	// the table for its successors (Veness 2006, section 3.2: the probe is
	// not free, so shallow nodes may skip it).
	ETCMinDepth int `json:"etc_min_depth"`
	// ProbCutR is ChanceProbCut's depth reduction R: the single depth
	// pair's under Multi false. With Multi it is DefaultProbCutR, what
	// the default CPCMinDepth (R+1) and the pairs of the identity guess
	// (DefaultProbCut) are made of; another value is refused (the key r
	// is read only with multi=0). ProbCutT is the width of the bounds in
	// sigmas, ProbCutFile the parameter file ("" = the built-in fit of
	// the board and net, else the identity guess, which is no fit).
	ProbCutR    int     `json:"r"`
	ProbCutT    float64 `json:"t"`
	ProbCutFile string  `json:"probcut,omitempty"`
	// CPCMinDepth and CPCMaxDepth are the chance-node depths where
	// ChanceProbCut applies; 0 means R+1 and no limit. CPCStep > 1 keeps
	// every CPCStep-th depth of that range from CPCMinDepth only: the
	// chapter's "d in {3, 5}" of ChanceBreakthrough is cpcmin=3,
	// cpcmax=5, cpcstep=2. 0 and 1 keep every depth.
	CPCMinDepth int `json:"cpc_min_depth"`
	CPCMaxDepth int `json:"cpc_max_depth"`
	CPCStep     int `json:"cpc_step,omitempty"`
	// Multi is Multi-ChanceProbCut: every depth pair of the parameters
	// whose deep depth is the events' is tried, shallowest first, instead
	// of the one pair of reduction ProbCutR. It is the default: with the
	// built-in 5x5/4 fit, starlab tune measures 51.2% fewer nodes than
	// staretc at depth 13 with t = 1.6 and a mean move error of 0.0031,
	// against 43.6% and 0.0026 for the pairs of R = 2 alone and 37.6% and
	// 0.0036 for R = 4, and at t = 0.8 70.3% (0.0085) against 59.2%
	// (0.0071) and 60.0% (0.0104).
	Multi bool `json:"multi"`
	// Noise is the chapter's random factor (section 5.5.4): a term
	// uniform in [-Noise, Noise] added to every leaf evaluation (clamped
	// to [-1, 1]), a function of the position and the game's salt
	// (Salter), so that one search sees one evaluation per position and
	// self-play games from one start differ where their players see
	// equal values. 0 (the default) is none; only games that have it
	// (ChanceBreakthrough) accept it (CheckNoise).
	Noise float64 `json:"noise,omitempty"`
	// Filter is gnubg's move filter at the root: before the search proper,
	// every play of a root decision is valued at depth 1 and only the
	// best, with at most Filter-1 others within FilterWidth of it (on the
	// value scale; DefaultFilterWidth for 0), are searched. 0 (the
	// default) searches every play.
	Filter      int     `json:"filter,omitempty"`
	FilterWidth float64 `json:"filter_width,omitempty"`
}

// DefaultFilterWidth is the move filter's width when none is given:
// gnubg's 0.16 of its "normal" filter for 2-ply, on the value scale (a
// one-point game's equity; money play's value is its equity over 3).
const DefaultFilterWidth = 0.16

// MaxFilter bounds the plays a move filter keeps.
const MaxFilter = 64

// DefaultConfig returns the configuration of algo with every option at its
// default.
func DefaultConfig(algo Algorithm) Config {
	return Config{Algorithm: algo, Eval: DefaultEval, TTMiB: DefaultTTMiB, ProbingFactor: DefaultProbingFactor,
		ETCMinDepth: DefaultETCMinDepth, ProbCutR: DefaultProbCutR, ProbCutT: DefaultProbCutT, Multi: DefaultProbCutMulti}
}

// Spec is an engine configuration with the limits of its searches: what a
// match variant, a luck reference or a search command names.
type Spec struct {
	Config
	Limits Limits
}

// DefaultSpec returns DefaultConfig(algo) with no limits.
func DefaultSpec(algo Algorithm) Spec { return Spec{Config: DefaultConfig(algo)} }

// option is one key of the grammar and the flag of the same name.
type option struct {
	key, usage string
	// reads says which algorithms read the option; nil means all.
	reads func(Algorithm) bool
	set   func(s *Spec, val string) error
	get   func(s *Spec) string
	// always prints the key in the canonical string even at its default.
	always bool
	// readWith, when set, is the value of another key without which an
	// algorithm that reads the option would ignore it: the option is
	// refused in a spec that does not have it.
	readWith *readCond
}

// readCond is the value of key under which an option is read, and why.
type readCond struct{ key, val, why string }

// holds reports whether s has the value the condition asks for.
func (c *readCond) holds(s *Spec) bool { return lookupOption(c.key).get(s) == c.val }

// The algorithms that read an option: those whose techniques (the
// algorithms table) use it.
func usesProbing(a Algorithm) bool  { return a.Techniques().Star2Probing }
func usesChanceTT(a Algorithm) bool { return a.Techniques().ChanceTT }
func usesProbCut(a Algorithm) bool  { return a.Techniques().ProbCut }

func positive(val, want string) (int, error) { return positiveOf(val, strconv.Atoi, want) }

// positiveOf parses val with parse and refuses a value that does not parse
// or is not above 0 with "want" and what is wanted, so that every count,
// depth and budget of the grammar is refused alike.
func positiveOf[T int | int64 | time.Duration](val string, parse func(string) (T, error), want string) (T, error) {
	x, err := parse(val)
	if err != nil || x <= 0 {
		return 0, fmt.Errorf("want %s", want)
	}
	return x, nil
}

func parseInt64(val string) (int64, error) { return strconv.ParseInt(val, 10, 64) }

func itoa0(n int) string { return orEmpty(n, strconv.Itoa) }

// orEmpty returns format(v), or "" for the zero value: an option at its
// zero (no limit, no noise, a default of its own) prints as nothing, and
// the canonical spec leaves it out.
func orEmpty[T comparable](v T, format func(T) string) string {
	var zero T
	if v == zero {
		return ""
	}
	return format(v)
}

// options is the one table of engine options, in canonical order.
var options = []option{
	{key: "depth", usage: "deepest iteration in plies (whether a chance node is a ply is the game's: see starlab search -h)",
		set: func(s *Spec, v string) (err error) {
			s.Limits.Depth, err = positive(v, "a positive depth")
			if err == nil && s.Limits.Depth > MaxDepthLimit {
				err = fmt.Errorf("want a depth of at most %d", MaxDepthLimit)
			}
			return err
		},
		get: func(s *Spec) string { return itoa0(s.Limits.Depth) }},
	{key: "nodes", usage: "node budget over all iterations",
		set: func(s *Spec, v string) error {
			n, err := positiveOf(v, parseInt64, "a positive node count")
			if err == nil {
				s.Limits.Nodes = n
			}
			return err
		},
		get: func(s *Spec) string {
			return orEmpty(s.Limits.Nodes, func(n int64) string { return strconv.FormatInt(n, 10) })
		}},
	{key: "movetime", usage: "time budget per search, such as 100ms",
		set: func(s *Spec, v string) error {
			d, err := positiveOf(v, time.ParseDuration, "a positive duration such as 100ms")
			if err == nil {
				s.Limits.MoveTime = d
			}
			return err
		},
		get: func(s *Spec) string { return orEmpty(s.Limits.MoveTime, time.Duration.String) }},
	{key: "eval", usage: "leaf evaluator: " + strings.Join(EvaluatorNames(), ", ") + " or the game's hand evaluator (default: mlp, or the hand evaluator of a game without built-in nets)", always: true,
		set: func(s *Spec, v string) error {
			if !ValidEvalName(v) {
				return fmt.Errorf("not an evaluator name (want %s or the game's hand evaluator)", strings.Join(EvaluatorNames(), ", "))
			}
			s.Eval = v
			return nil
		},
		get: func(s *Spec) string { return s.Eval }},
	{key: "net", usage: "network weight file of the mlp evaluator",
		set: func(s *Spec, v string) error { s.Net = v; return nil },
		get: func(s *Spec) string { return s.Net }},
	{key: "tt", usage: fmt.Sprintf("transposition table size in MiB (1 to %d; 0 turns the table off, for checks against an exact solver)", MaxTTMiB),
		set: func(s *Spec, v string) (err error) {
			s.TTMiB, err = strconv.Atoi(v)
			if err != nil || s.TTMiB < 0 {
				return fmt.Errorf("want a table size in MiB, or 0 for no table")
			}
			if s.TTMiB > MaxTTMiB {
				err = fmt.Errorf("want a table size of at most %d MiB", MaxTTMiB)
			}
			return err
		},
		get: func(s *Spec) string { return strconv.Itoa(s.TTMiB) }},
	{key: "k", usage: "Star2 probing factor: moves probed per chance event", reads: usesProbing,
		set: func(s *Spec, v string) (err error) {
			s.ProbingFactor, err = positive(v, "a probing factor of at least 1")
			return err
		},
		get: func(s *Spec) string { return strconv.Itoa(s.ProbingFactor) }},
	{key: "etc", usage: "smallest chance-node depth of StarETC's successor probing", reads: usesChanceTT,
		set: func(s *Spec, v string) (err error) {
			s.ETCMinDepth, err = positive(v, "a depth of at least 1")
			return err
		},
		get: func(s *Spec) string { return strconv.Itoa(s.ETCMinDepth) }},
	{key: "t", usage: "ChanceProbCut bound width in sigmas (0 or more)", reads: usesProbCut,
		set: func(s *Spec, v string) error {
			x, err := strconv.ParseFloat(v, 64)
			if err != nil || !(x >= 0) || math.IsInf(x, 0) {
				return fmt.Errorf("want a non-negative number")
			}
			s.ProbCutT = x
			return nil
		},
		get: func(s *Spec) string { return strconv.FormatFloat(s.ProbCutT, 'g', -1, 64) }},
	{key: "r", usage: "ChanceProbCut depth reduction R of the single depth pair of multi=0; refused under multi=1, which tries every depth pair of the parameters", reads: usesProbCut,
		readWith: &readCond{key: "multi", val: "0", why: "multi=1 (the default) tries every depth pair of the parameters, and r is the single pair's reduction under multi=0"},
		set: func(s *Spec, v string) (err error) {
			s.ProbCutR, err = positive(v, "a reduction of at least 1")
			return err
		},
		get: func(s *Spec) string { return strconv.Itoa(s.ProbCutR) }},
	{key: "probcut", usage: "ChanceProbCut parameter file (default: the built-in fit for the built-in net, else an identity guess)", reads: usesProbCut,
		set: func(s *Spec, v string) error { s.ProbCutFile = v; return nil },
		get: func(s *Spec) string { return s.ProbCutFile }},
	{key: "cpcmin", usage: "smallest chance-node depth where ChanceProbCut applies (default R+1)", reads: usesProbCut,
		set: func(s *Spec, v string) (err error) {
			s.CPCMinDepth, err = positive(v, "a depth of at least 1")
			return err
		},
		get: func(s *Spec) string { return itoa0(s.CPCMinDepth) }},
	{key: "cpcmax", usage: "largest chance-node depth where ChanceProbCut applies (default: no limit)", reads: usesProbCut,
		set: func(s *Spec, v string) (err error) {
			s.CPCMaxDepth, err = positive(v, "a depth of at least 1")
			return err
		},
		get: func(s *Spec) string { return itoa0(s.CPCMaxDepth) }},
	{key: "cpcstep", usage: "apply ChanceProbCut at every step-th chance-node depth from cpcmin only (cpcmin=3,cpcmax=5,cpcstep=2 is the chapter's d in {3, 5}; default every depth)", reads: usesProbCut,
		set: func(s *Spec, v string) (err error) {
			s.CPCStep, err = positive(v, "a step of at least 1")
			if s.CPCStep == 1 {
				s.CPCStep = 0 // every depth, the default: one engine, one name
			}
			return err
		},
		get: func(s *Spec) string { return itoa0(s.CPCStep) }},
	{key: "noise", usage: "evaluation noise: a term uniform in [-x, x] at every leaf, fixed per position and game (the chapter's random factor, 5 of its points in ChanceBreakthrough: noise=0.0033; default none)",
		set: func(s *Spec, v string) error {
			x, err := strconv.ParseFloat(v, 64)
			if err != nil || !(x >= 0 && x <= 0.5) {
				return fmt.Errorf("want a number from 0 to 0.5")
			}
			s.Noise = x
			return nil
		},
		get: func(s *Spec) string {
			return orEmpty(s.Noise, func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) })
		}},
	{key: "filter", usage: "move filter at the root: search only the best plays by a depth-1 look, at most N, those within filterwidth of the best (gnubg's move filter; default none)",
		set: func(s *Spec, v string) (err error) {
			s.Filter, err = positive(v, "a positive number of plays")
			if err == nil && s.Filter > MaxFilter {
				err = fmt.Errorf("want at most %d plays", MaxFilter)
			}
			return err
		},
		get: func(s *Spec) string { return itoa0(s.Filter) }},
	{key: "filterwidth", usage: fmt.Sprintf("the move filter's width on the value scale (default %g)", DefaultFilterWidth),
		set: func(s *Spec, v string) error {
			x, err := strconv.ParseFloat(v, 64)
			if err != nil || !(x > 0 && x <= 2) {
				return fmt.Errorf("want a number above 0, at most 2")
			}
			s.FilterWidth = x
			return nil
		},
		get: func(s *Spec) string {
			return orEmpty(s.FilterWidth, func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) })
		}},
	{key: "multi", usage: "Multi-ChanceProbCut: 1 tries every depth pair of the parameters, shallowest first; 0 the single pair of reduction r", reads: usesProbCut,
		set: func(s *Spec, v string) error {
			switch v {
			case "0":
				s.Multi = false
			case "1":
				s.Multi = true
			default:
				return fmt.Errorf("want 0 or 1")
			}
			return nil
		},
		get: func(s *Spec) string {
			if s.Multi {
				return "1"
			}
			return "0"
		}},
}

// OptionKeys lists the keys of the grammar, in canonical order.
func OptionKeys() []string {
	keys := make([]string, len(options))
	for i, o := range options {
		keys[i] = o.key
	}
	return keys
}

func lookupOption(key string) *option {
	for i := range options {
		if options[i].key == key {
			return &options[i]
		}
	}
	return nil
}

// ParseSpec parses "algo" or "algo:key=value,..." (keys in any order, each
// at most once). Errors name the spec and the bad key or value in one line.
// Keys the algorithm does not read are refused, so that two specs of one
// engine can never differ; a spec without a limit is allowed here (a
// search to the end of the game) and refused where a limit is needed.
func ParseSpec(spec string) (Spec, error) {
	name, kvs, splitErr := SplitSpec(spec)
	a, err := ParseAlgorithm(name)
	if err != nil {
		return Spec{}, fmt.Errorf("spec %q: %v", spec, err)
	}
	if splitErr != nil {
		return Spec{}, splitErr
	}
	s := DefaultSpec(a)
	seen := map[string]bool{}
	for _, kv := range kvs {
		key, val := kv[0], kv[1]
		o := lookupOption(key)
		if o == nil {
			return Spec{}, fmt.Errorf("spec %q: unknown key %q (want %s)", spec, key, strings.Join(OptionKeys(), ", "))
		}
		if seen[key] {
			return Spec{}, fmt.Errorf("spec %q: key %q given twice", spec, key)
		}
		seen[key] = true
		if err := o.set(&s, val); err != nil {
			return Spec{}, fmt.Errorf("spec %q: %s=%s: %v", spec, key, val, err)
		}
	}
	for _, kv := range kvs {
		o := lookupOption(kv[0])
		if o.reads != nil && !o.reads(a) {
			return Spec{}, fmt.Errorf("spec %q: %s does not read %s", spec, a, o.key)
		}
		if w := o.readWith; w != nil && !w.holds(&s) {
			return Spec{}, fmt.Errorf("spec %q: %s is read only with %s=%s: %s (want %s)", spec, o.key, w.key, w.val, w.why, withKey(name, kvs, w.key, w.val, o.key))
		}
	}
	if err := s.check(); err != nil {
		return Spec{}, fmt.Errorf("spec %q: %v", spec, err)
	}
	return s, nil
}

// SplitSpec splits "algo" or "algo:key=value,..." into the algorithm's
// (or an outside engine's) name and the key=value pairs as written; the
// name comes back with an error too.
func SplitSpec(spec string) (name string, kvs [][2]string, err error) {
	name, rest, hasRest := strings.Cut(spec, ":")
	if !hasRest {
		return name, nil, nil
	}
	if rest == "" {
		return name, nil, fmt.Errorf("spec %q: nothing after the colon", spec)
	}
	for _, kv := range strings.Split(rest, ",") {
		key, val, ok := strings.Cut(kv, "=")
		if !ok || val == "" {
			return name, nil, fmt.Errorf("spec %q: %q is not key=value", spec, kv)
		}
		kvs = append(kvs, [2]string{key, val})
	}
	return name, kvs, nil
}

// withKey returns the spec of name and kvs with key set to val: its value
// replaced where the spec gives it, else the pair put before the key
// before.
func withKey(name string, kvs [][2]string, key, val, before string) string {
	var out []string
	gives := slices.ContainsFunc(kvs, func(kv [2]string) bool { return kv[0] == key })
	for _, kv := range kvs {
		switch {
		case kv[0] == key:
			kv[1] = val
		case kv[0] == before && !gives:
			out = append(out, key+"="+val)
		}
		out = append(out, kv[0]+"="+kv[1])
	}
	return name + ":" + strings.Join(out, ",")
}

// SpecGives reports whether the spec gives key, whatever its value (a
// value equal to the default included, which the parsed Spec cannot tell).
func SpecGives(spec, key string) bool {
	_, ok := SpecValue(spec, key)
	return ok
}

// checkValues checks every option of a Spec built in Go, not parsed, with
// the grammar's own parsers: each value is written as its key would be and
// read back, so a value no spec could give is refused in the same words.
func (s *Spec) checkValues() error {
	for i := range options {
		o := &options[i]
		v := o.get(s)
		if v == "" && !o.always {
			continue // unset: a limit, a file or a depth bound left open
		}
		var scratch Spec
		if err := o.set(&scratch, v); err != nil {
			return fmt.Errorf("%s=%s: %v", o.key, v, err)
		}
	}
	return nil
}

// check tests what no single key can: the options that only make sense
// together.
func (s *Spec) check() error {
	if s.Net != "" && s.Eval != "mlp" {
		return fmt.Errorf("net=%s needs eval=mlp", s.Net)
	}
	if s.CPCMaxDepth > 0 && s.CPCMaxDepth < s.CPCMinDepth {
		return fmt.Errorf("cpcmin=%d is above cpcmax=%d", s.CPCMinDepth, s.CPCMaxDepth)
	}
	if s.CPCMaxDepth > 0 && s.CPCMinDepth == 0 && s.CPCMaxDepth < s.ProbCutR+1 {
		return fmt.Errorf("cpcmax=%d is below the default cpcmin=%d (r+1)", s.CPCMaxDepth, s.ProbCutR+1)
	}
	if s.FilterWidth != 0 && s.Filter == 0 {
		return fmt.Errorf("filterwidth=%g is read only with filter=N: it is the move filter's width", s.FilterWidth)
	}
	// A configuration built in Go has no keys, only values: one off its
	// default where it is not read is what a spec giving it would be.
	def := DefaultSpec(s.Algorithm)
	for i := range options {
		o := &options[i]
		if w := o.readWith; w != nil && !w.holds(s) && o.get(s) != o.get(&def) {
			return fmt.Errorf("%s=%s is read only with %s=%s: %s", o.key, o.get(s), w.key, w.val, w.why)
		}
	}
	return nil
}

// String returns the canonical spec: the algorithm, then the keys in the
// fixed order of OptionKeys, each only when it differs from its default
// (eval always). Two specs of one engine and limits have one string; it is
// a variant's identity in tables, journals, resumes and merges.
func (s Spec) String() string {
	def := DefaultSpec(s.Algorithm)
	var kv []string
	for i := range options {
		o := &options[i]
		v := o.get(&s)
		if v == "" || (!o.always && v == o.get(&def)) {
			continue
		}
		kv = append(kv, o.key+"="+v)
	}
	return s.Algorithm.String() + ":" + strings.Join(kv, ",")
}

// String returns the canonical spec of the configuration without limits.
func (c Config) String() string { return Spec{Config: c}.String() }

// specFlag is a flag.Value that sets one option of a Spec through the
// grammar's own parser.
type specFlag struct {
	s *Spec
	o *option
}

func (f specFlag) String() string {
	if f.s == nil {
		return ""
	}
	return f.o.get(f.s)
}

func (f specFlag) Set(v string) error { return f.o.set(f.s, v) }

type algoFlag struct{ s *Spec }

func (f algoFlag) String() string {
	if f.s == nil {
		return ""
	}
	return f.s.Algorithm.String()
}

func (f algoFlag) Set(v string) error {
	a, err := ParseAlgorithm(v)
	if err != nil {
		return err
	}
	f.s.Algorithm = a
	return nil
}

// RegisterFlags defines on fs the flag -algo and one flag per option of the
// grammar, with the key as its name ("-tt", "-k", "-depth", ...), setting s,
// but for the names in skip. s should start as DefaultSpec. After parsing,
// call CheckFlags.
func RegisterFlags(fs *flag.FlagSet, s *Spec, skip ...string) {
	if !slices.Contains(skip, "algo") {
		fs.Var(algoFlag{s}, "algo", "algorithm: "+strings.Join(AlgorithmNames(), ", "))
	}
	for i := range options {
		o := &options[i]
		if !slices.Contains(skip, o.key) {
			fs.Var(specFlag{s, o}, o.key, o.usage)
		}
	}
}

// CheckFlags applies the grammar's checks to flags registered by
// RegisterFlags and parsed into s: an option given that none of algos reads
// is refused, as in a spec, and so is one given without the value of
// another that it is read only with (-r without -multi 0), and options
// that contradict each other. As in a spec, -net without -eval names the
// mlp evaluator's net, whatever evaluator the flags defaulted to (a game
// without built-in nets defaults to its hand evaluator: Kit.Config).
func CheckFlags(fs *flag.FlagSet, s *Spec, algos ...Algorithm) error {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if given["net"] && !given["eval"] {
		s.Eval = "mlp"
	}
	var err error
	fs.Visit(func(f *flag.Flag) {
		o := lookupOption(f.Name)
		if err != nil || o == nil {
			return
		}
		if o.reads != nil && !slices.ContainsFunc(algos, o.reads) {
			names := make([]string, len(algos))
			for i, a := range algos {
				names[i] = a.String()
			}
			err = fmt.Errorf("-%s: %s does not read it", f.Name, strings.Join(names, ", "))
			return
		}
		if w := o.readWith; w != nil && !w.holds(s) {
			err = fmt.Errorf("-%s: read only with -%s %s: %s (want -%s %s -%s %s)", f.Name, w.key, w.val, w.why, w.key, w.val, f.Name, f.Value)
		}
	})
	if err != nil {
		return err
	}
	return s.check()
}

// Resolved is a Config with its files loaded and checked: immutable, so one
// value can be shared by every worker, each of which builds its own Engine
// (with its own table and evaluator) from it with NewEngine.
type Resolved struct {
	cfg     Config
	probcut *ProbCutParams
	// probcutFile is the file probcut=FILE names: the product's file
	// where the option names a product.
	probcutFile string
	net         *nn.Net // the mlp evaluator's network from net=FILE
}

// Resolve checks the configuration and loads its files (the ChanceProbCut
// parameters, the network). Errors name the file or the option, and are
// usage errors (usage.Error): a configuration and its files are what a
// user gave.
func (c Config) Resolve() (*Resolved, error) { return c.ResolveIn(nil) }

// Products are the files a pipeline makes, by name. A spec names one in a
// file option as {name} (net={net}, probcut={probcut}) and keeps the name:
// its text, a variant's identity in journals and tables, is the same
// wherever the run directory is and whatever characters its path holds,
// and the file reaches the engine as a value of the settings, not spliced
// into the text. ResolveIn opens the products' files.
type Products map[string]string

// productName returns the name a file option's value {name} gives a
// product.
func productName(v string) (string, bool) {
	if len(v) > 2 && v[0] == '{' && v[len(v)-1] == '}' {
		return v[1 : len(v)-1], true
	}
	return "", false
}

// ResolveIn is Resolve with the files a {name} option names taken from
// products; the Resolved's Config keeps the names.
func (c Config) ResolveIn(products Products) (*Resolved, error) {
	files := c
	for _, f := range []*string{&files.Net, &files.ProbCutFile} {
		name, ok := productName(*f)
		if !ok {
			continue
		}
		path, ok := products[name]
		if !ok {
			return nil, usage.Errorf("%s names the product {%s}, which only a pipeline that makes it gives; give a file", *f, name)
		}
		*f = path
	}
	r, err := files.resolve()
	if err != nil {
		return nil, usage.Mark(err)
	}
	r.cfg = c
	return r, nil
}

func (c Config) resolve() (*Resolved, error) {
	s := Spec{Config: c}
	if !c.Algorithm.valid() {
		return nil, fmt.Errorf("unknown algorithm %d", int(c.Algorithm))
	}
	if err := s.checkValues(); err != nil {
		return nil, err
	}
	if err := s.check(); err != nil {
		return nil, err
	}
	r := &Resolved{cfg: c}
	if c.Eval == "mlp" && c.Net != "" { // else the game's built-in net of each variant
		net, err := nn.Load(c.Net)
		if err != nil {
			return nil, err
		}
		r.net = net
	}
	if c.ProbCutFile != "" {
		p, err := LoadProbCut(c.ProbCutFile)
		if err != nil {
			return nil, err
		}
		r.probcut, r.probcutFile = p, c.ProbCutFile
	}
	return r, nil
}

// ProbCutFor returns the ChanceProbCut parameters of searches of variant
// of game with the network netID ("" for none): the probcut=FILE, else
// builtin, the game's built-in fit of the variant (nil for none), when it
// was made for the evaluator and net, else the defaults, which are no fit
// (DefaultProbCut).
func (r *Resolved) ProbCutFor(builtin *ProbCutParams, game, variant, netID string) *ProbCutParams {
	if r.probcut != nil {
		return r.probcut
	}
	if b := builtin; b != nil && b.Eval == r.cfg.Eval && b.NetID == netID && b.Game == game && b.Variant == variant {
		return builtin
	}
	return DefaultProbCut(r.cfg.ProbCutR, 2*MaxPly)
}

// MustResolve is Resolve for configurations known to be valid, such as
// those built in; it panics on an error.
func (c Config) MustResolve() *Resolved {
	r, err := c.Resolve()
	if err != nil {
		panic(err)
	}
	return r
}

// Config returns the configuration.
func (r *Resolved) Config() Config { return r.cfg }

// NetFile returns the network of net=FILE, nil without one: a game's
// engine checks it against the variant it searches and otherwise uses its
// built-in net of the variant.
func (r *Resolved) NetFile() *nn.Net { return r.net }

// WithNet returns a copy of r whose mlp evaluator evaluates with net, a
// net in memory rather than from a file: training's, whose weights are
// searched with before they are saved.
func (r *Resolved) WithNet(net *nn.Net) *Resolved {
	c := *r
	c.net = net
	return &c
}

// CheckProbCut reports whether the probcut=FILE, if any, may serve searches
// of variant of game with the network netID: a fit is made for one
// evaluator, net, game and variant.
func (r *Resolved) CheckProbCut(game, variant, netID string) error {
	if r.cfg.Algorithm.Techniques().ProbCut && r.cfg.ProbCutFile != "" {
		return r.probcut.checkFor(r.probcutFile, r.cfg.Eval, netID, game, variant)
	}
	return nil
}

// ProbCutSource says where the ChanceProbCut parameters of searches of
// variant of game with the network netID come from (ProbCutFor, builtin
// the game's built-in fit of the variant or nil): the file's source, or
// that they are defaults and no fit.
func (r *Resolved) ProbCutSource(builtin *ProbCutParams, game, variant, netID string) string {
	if r.cfg.ProbCutFile != "" {
		return r.probcutFile + ": " + r.probcut.Source
	}
	return r.ProbCutFor(builtin, game, variant, netID).Source
}
