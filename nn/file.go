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

// FileFormat and FileVersion name the weight file format.
const (
	FileFormat  = "starlab-net"
	FileVersion = 1
)

// file is a weight file: JSON, so that any tool can read it, with the
// topology, what made the net, the weights, and a SHA-256 of the topology
// and weights (Checksum) that catches a file damaged by hand or by a disk.
type file struct {
	Format     string    `json:"format"`
	Version    int       `json:"version"`
	N          int       `json:"n"`
	M          int       `json:"m"`
	Inputs     int       `json:"inputs"`
	Hidden     int       `json:"hidden"`
	Activation string    `json:"activation"`
	Meta       Meta      `json:"meta"`
	W1         []float64 `json:"w1"` // inputs x hidden, input-major
	B1         []float64 `json:"b1"`
	W2         []float64 `json:"w2"`
	B2         float64   `json:"b2"`
	SHA256     string    `json:"sha256"`
}

// Checksum returns the hex SHA-256 of the net's topology and weights as
// little-endian integers and float64s: n, m, inputs, hidden, w1, b1, w2, b2.
// It identifies the net (the first 12 digits are its id in data files).
func (net *Net) Checksum() string {
	h := sha256.New()
	var buf [8]byte
	put := func(u uint64) {
		binary.LittleEndian.PutUint64(buf[:], u)
		h.Write(buf[:])
	}
	for _, v := range []int{net.N, net.M, net.In, net.H} {
		put(uint64(v))
	}
	for _, w := range [][]float64{net.W1, net.B1, net.W2, {net.B2}} {
		for _, x := range w {
			put(math.Float64bits(x))
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// ID returns the net's short identity: the first 12 digits of its checksum.
func (net *Net) ID() string { return net.Checksum()[:12] }

// Write writes the net as a weight file. To save a net, give Write to
// runs.WriteFileAtomic, so that a file that exists is whole.
func (net *Net) Write(w io.Writer) error {
	f := file{Format: FileFormat, Version: FileVersion, N: net.N, M: net.M, Inputs: net.In, Hidden: net.H, Activation: "tanh",
		Meta: net.Meta, W1: net.W1, B1: net.B1, W2: net.W2, B2: net.B2, SHA256: net.Checksum()}
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(f)
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

// Parse decodes and checks the bytes of a weight file: one JSON object
// with no unknown field, of this format and version, whose topology fits
// its board, whose weights are finite and match its checksum, and whose
// games trained on are not negative.
func Parse(data []byte) (*Net, error) {
	var f file
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("not a weight file (bad or truncated JSON: %v)", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("not a weight file (data after the net)")
	}
	if f.Meta.Games < 0 {
		return nil, fmt.Errorf("meta games %d: want a count, not negative", f.Meta.Games)
	}
	if f.Format != FileFormat {
		return nil, fmt.Errorf("format %q, want %q", f.Format, FileFormat)
	}
	if f.Version != FileVersion {
		return nil, fmt.Errorf("unsupported version %d (this build reads %d)", f.Version, FileVersion)
	}
	if f.Activation != "tanh" {
		return nil, fmt.Errorf("activation %q, this build has tanh", f.Activation)
	}
	net := &Net{N: f.N, M: f.M, In: f.Inputs, H: f.Hidden, W1: f.W1, B1: f.B1, W2: f.W2, B2: f.B2, Meta: f.Meta}
	if err := net.check(); err != nil {
		return nil, err
	}
	if sum := net.Checksum(); sum != f.SHA256 {
		return nil, fmt.Errorf("checksum %.12s... does not match the weights (%.12s...): the file is damaged", f.SHA256, sum)
	}
	net.index()
	return net, nil
}
