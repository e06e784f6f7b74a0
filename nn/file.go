package nn

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
)

// FileFormat and FileVersion name the weight file format. Version 3 gives
// the layout of a net of more than one hidden layer and its deeper
// layers; version 4 adds the nets of a net's phases (Net.Phases), each a
// file object of its own with its phase; version 5 adds outputs of
// probabilities (Net.Head) as "outputs". A net is written in the lowest
// version that holds it: a net of one hidden layer and one phase is
// still a version-2 file, which names the net's game and variant, so that
// its file is what it was.
// Parse still reads version 1, whose nets are all Dice nets (see fileV1).
const (
	FileFormat  = "starlab-net"
	FileVersion = 5
)

// phasesVersion is the version that brought phase nets.
const phasesVersion = 4

// file is a weight file: JSON, so that any tool can read it, with the game
// and variant the net is for, its topology, what made the net, the
// weights, and a SHA-256 of the variant key, topology and weights
// (Checksum) that catches a file damaged by hand or by a disk.
type file struct {
	Format     string    `json:"format"`
	Version    int       `json:"version"`
	Game       string    `json:"game"`
	Variant    string    `json:"variant"`
	VariantKey []int     `json:"variant_key"`
	Inputs     int       `json:"inputs"`
	Hidden     int       `json:"hidden"`
	Activation string    `json:"activation"`
	Meta       Meta      `json:"meta"`
	W1         []float64 `json:"w1"` // inputs x hidden, input-major
	B1         []float64 `json:"b1"`
	W2         []float64 `json:"w2"`
	B2         float64   `json:"b2"`
	// Layout and Layers are version 3's: the hidden layers' sizes, the
	// first (Hidden) included, and the layers after the first.
	Layout []int   `json:"layout,omitempty"`
	Layers []Layer `json:"layers,omitempty"`
	// Phase and Phases are version 4's: a phase net's phase, and a main
	// net's phase nets.
	Phase  string `json:"phase,omitempty"`
	Phases []file `json:"phases,omitempty"`
	// Outputs is version 5's: the outputs of probabilities (Net.Head),
	// with w2 empty and b2 0.
	Outputs *Head  `json:"outputs,omitempty"`
	SHA256  string `json:"sha256"`
}

// fileV1 is a version-1 weight file, from before nets named their game:
// every such net is a Dice net of an n x n board with win length m, so it
// reads as game "dice", variant "<n>x<n>-<m>" and variant key (n, m), and
// its checksum is unchanged. It has the fields of file but those of
// laterFields, and n and m.
type fileV1 struct {
	file
	N int `json:"n"`
	M int `json:"m"`
}

// laterFields are the fields of file that version 1 did not have.
var laterFields = []string{"game", "variant", "variant_key", "layout", "layers", "phase", "phases", "outputs"}

// v2 returns the version-1 file as the version-2 file of the same net.
func (f *fileV1) v2() file {
	v2 := f.file
	v2.Game, v2.Variant, v2.VariantKey = "dice", fmt.Sprintf("%dx%d-%d", f.N, f.N, f.M), []int{f.N, f.M}
	return v2
}

// Checksum returns the hex SHA-256 of the net's variant key, topology and
// weights as little-endian 64-bit integers and float64s: the variant key's
// integers, inputs, hidden, w1, b1, w2, b2. It identifies the net (the first
// 12 digits are its id in data files). For a Dice net the variant key is
// (n, m), so its checksum is that of the version-1 file format, which
// hashed n, m, inputs, hidden and the weights: a net keeps its id across
// the two versions.
func (net *Net) Checksum() string {
	h := sha256.New()
	var buf [8]byte
	put := func(u uint64) {
		binary.LittleEndian.PutUint64(buf[:], u)
		h.Write(buf[:])
	}
	for _, v := range net.VariantKey {
		put(uint64(v))
	}
	for _, v := range []int{net.In, net.H} {
		put(uint64(v))
	}
	for _, w := range [][]float64{net.W1, net.B1, net.W2, {net.B2}} {
		for _, x := range w {
			put(math.Float64bits(x))
		}
	}
	// A deeper net's layers follow, each its size and weights, so that a
	// net of one hidden layer keeps its checksum.
	for _, l := range net.Deep {
		put(uint64(len(l.B)))
		for _, w := range [][]float64{l.W, l.B} {
			for _, x := range w {
				put(math.Float64bits(x))
			}
		}
	}
	// Then a Head's outputs, weights and value terms, so that a net of a
	// tanh output keeps its checksum.
	if hd := net.Head; hd != nil {
		put(uint64(hd.K()))
		for _, w := range [][]float64{hd.W, hd.B, hd.Value} {
			for _, x := range w {
				put(math.Float64bits(x))
			}
		}
	}
	// Then each phase net's name and checksum, so that a net of one phase
	// keeps its checksum and a phase net's is its own.
	for _, p := range net.Phases {
		put(uint64(len(p.Phase)))
		h.Write([]byte(p.Phase))
		sum, _ := hex.DecodeString(p.Checksum())
		h.Write(sum)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// ID returns the net's short identity: the first 12 digits of its checksum.
func (net *Net) ID() string { return net.Checksum()[:12] }

// Write writes the net as a weight file of the current version. To save a net, give Write to
// runs.WriteFileAtomic, so that a file that exists is whole.
func (net *Net) Write(w io.Writer) error {
	f := net.file()
	for _, p := range net.Phases {
		f.Version = max(f.Version, phasesVersion)
		f.Phases = append(f.Phases, p.file())
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(f)
}

// file returns the net, without its phases, as a file object: version 2
// for one hidden layer, 3 for more, 5 with outputs of probabilities.
func (net *Net) file() file {
	f := file{Format: FileFormat, Version: 2, Game: net.Game, Variant: net.Variant, VariantKey: net.VariantKey,
		Inputs: net.In, Hidden: net.H, Activation: "tanh", Meta: net.Meta, W1: net.W1, B1: net.B1, W2: net.W2, B2: net.B2, Phase: net.Phase, SHA256: net.Checksum()}
	if len(net.Deep) > 0 {
		f.Version, f.Layout, f.Layers = 3, net.Layout(), net.Deep
	}
	if net.Head != nil {
		f.Version, f.Outputs = FileVersion, net.Head
	}
	return f
}

// Load reads a weight file and checks it. A truncated, corrupted,
// wrong-size or wrong-version file is refused with a one-line error naming
// the file and the problem.
func Load(path string) (*Net, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("net file: %v", err)
	}
	net, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("net file %s: %v", path, err)
	}
	return net, nil
}

// Parse decodes and checks the bytes of a weight file: one JSON object of
// this format and of version 1 or 2, with no field unknown to its version,
// that names a game and a variant, whose topology is in bounds and matches
// its weight arrays, whose weights are finite and match its checksum, and
// whose games trained on are not negative. Whether the net fits the game's
// variant is the game's to check.
func Parse(data []byte) (*Net, error) {
	var head struct {
		Format  string `json:"format"`
		Version int    `json:"version"`
	}
	if err := decode(data, &head, false); err != nil {
		return nil, err
	}
	if head.Format != FileFormat {
		return nil, fmt.Errorf("format %q, want %q", head.Format, FileFormat)
	}
	var f file
	switch head.Version {
	case 1:
		var f1 fileV1
		if err := decode(data, &f1, true); err != nil {
			return nil, err
		}
		var keys map[string]json.RawMessage
		_ = json.Unmarshal(data, &keys) // decoded above
		for _, k := range laterFields {
			if _, ok := keys[k]; ok {
				return nil, fmt.Errorf("unknown field %q in a version-1 file", k)
			}
		}
		f = f1.v2()
	case 2, 3, phasesVersion, FileVersion:
		if err := decode(data, &f, true); err != nil {
			return nil, err
		}
		if head.Version < phasesVersion && (f.Phase != "" || f.Phases != nil) {
			return nil, fmt.Errorf("a version-%d file with phase or phases, which version 4 brought", head.Version)
		}
		if f.Phase != "" {
			return nil, fmt.Errorf("phase %q in a main net: only the nets of its phases name one", f.Phase)
		}
	default:
		return nil, fmt.Errorf("unsupported version %d (this build reads 1 to %d)", head.Version, FileVersion)
	}
	net, err := f.net(head.Version)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for k, pf := range f.Phases {
		switch {
		case pf.Format != FileFormat || pf.Version < 2 || pf.Version == phasesVersion || pf.Version > FileVersion:
			return nil, fmt.Errorf("phase net %d: format %q version %d, want %q version 2, 3 or 5", k+1, pf.Format, pf.Version, FileFormat)
		case pf.Phase == "" || seen[pf.Phase]:
			return nil, fmt.Errorf("phase net %d: phase %q, want a name of its own", k+1, pf.Phase)
		case pf.Phases != nil:
			return nil, fmt.Errorf("phase net %d (%s) has phases of its own", k+1, pf.Phase)
		}
		p, err := pf.net(pf.Version)
		if err == nil {
			err = damaged(pf.SHA256, p.Checksum())
		}
		if err != nil {
			return nil, fmt.Errorf("phase net %d: %v", k+1, err)
		}
		switch {
		case p.Game != net.Game || p.Variant != net.Variant || fmt.Sprint(p.VariantKey) != fmt.Sprint(net.VariantKey) || p.In != net.In:
			return nil, fmt.Errorf("phase net %d (%s) is for %s %s with %d inputs, the net for %s %s with %d", k+1, p.Phase, p.Game, p.Variant, p.In, net.Game, net.Variant, net.In)
		}
		seen[p.Phase] = true
		net.Phases = append(net.Phases, p)
	}
	if err := damaged(f.SHA256, net.Checksum()); err != nil {
		return nil, err
	}
	return net, nil
}

// damaged says that a file's checksum want is not sum, the weights' as
// read, or nothing when it is.
func damaged(want, sum string) error {
	if sum != want {
		return fmt.Errorf("checksum %.12s... does not match the weights (%.12s...): the file is damaged", want, sum)
	}
	return nil
}

// net returns the net of the file object f of version v, checked but for
// its checksum, which Parse checks once the net's phase nets are read.
func (f *file) net(v int) (*Net, error) {
	if v == 2 && (f.Layout != nil || f.Layers != nil) {
		return nil, fmt.Errorf("a version-2 file with layout or layers, which version 3 brought")
	}
	if v < FileVersion && f.Outputs != nil {
		return nil, fmt.Errorf("a version-%d file with outputs, which version 5 brought", v)
	}
	if v == 3 || f.Layout != nil || f.Layers != nil {
		if len(f.Layout) < 2 || f.Layout[0] != f.Hidden || len(f.Layers) != len(f.Layout)-1 {
			return nil, fmt.Errorf("layout %v with hidden %d and %d deeper layers: want the hidden layers' sizes, the first equal to hidden, one deeper layer for each after it", f.Layout, f.Hidden, len(f.Layers))
		}
	}
	for k, l := range f.Layers {
		if len(l.B) != f.Layout[k+1] {
			return nil, fmt.Errorf("hidden layer %d has %d units, the layout says %d", k+2, len(l.B), f.Layout[k+1])
		}
	}
	if f.Meta.Games < 0 {
		return nil, fmt.Errorf("meta games %d: want a count, not negative", f.Meta.Games)
	}
	if f.Game == "" || f.Variant == "" {
		return nil, fmt.Errorf("game %q, variant %q: a net names both", f.Game, f.Variant)
	}
	if f.Activation != "tanh" {
		return nil, fmt.Errorf("activation %q, this build has tanh", f.Activation)
	}
	net := &Net{Game: f.Game, Variant: f.Variant, VariantKey: f.VariantKey, In: f.Inputs, H: f.Hidden, W1: f.W1, B1: f.B1, W2: f.W2, B2: f.B2, Deep: f.Layers, Meta: f.Meta, Phase: f.Phase, Head: f.Outputs}
	if err := net.check(); err != nil {
		return nil, err
	}
	return net, nil
}

// decode decodes data, one JSON object and nothing after it, into v;
// strict refuses fields v does not have.
func decode(data []byte, v any, strict bool) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if strict {
		dec.DisallowUnknownFields()
	}
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("not a weight file (bad or truncated JSON: %v)", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("not a weight file (data after the net)")
	}
	return nil
}
