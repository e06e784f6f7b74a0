package nn

import (
	"errors"
	"fmt"
	"io/fs"
	"sync"
)

// Builtin is a game's built-in nets: weight files embedded in its package,
// each parsed and checked once, then shared.
type Builtin struct {
	files  fs.FS
	parsed sync.Map // file name -> *Net
}

// NewBuiltin returns the built-in nets held in files.
func NewBuiltin(files fs.FS) *Builtin { return &Builtin{files: files} }

// Load returns the net of the file name, checked by check the first time.
// A missing file gives missing's error, in which the game says in its own
// words that it has no such net and what to give instead; a file that
// does not parse or check gives a one-line error naming it. The net is
// shared: callers must not change it.
func (b *Builtin) Load(name string, check func(*Net) error, missing func() error) (*Net, error) {
	if net, ok := b.parsed.Load(name); ok {
		return net.(*Net), nil
	}
	data, err := fs.ReadFile(b.files, name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, missing()
	}
	if err != nil {
		return nil, err
	}
	net, err := Parse(data)
	if err == nil {
		err = check(net)
	}
	if err != nil {
		return nil, fmt.Errorf("built-in net %s: %v", name, err)
	}
	b.parsed.Store(name, net)
	return net, nil
}
