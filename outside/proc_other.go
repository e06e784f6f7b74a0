//go:build !linux

package outside

import (
	"os"
	"os/exec"
	"path/filepath"
)

// dieWithParent does nothing where the kernel cannot kill a child with its
// parent: an engine that outlives a killed match is then stopped by hand.
func dieWithParent(*exec.Cmd) {}

// killGroup kills the program.
func killGroup(p *os.Process) { p.Kill() }

// ProcessAlive reports true: where starlab cannot tell, a folder a killed
// starlab left behind is kept.
func ProcessAlive(int) bool { return true }

// LockDir opens dir's .lock file and takes no lock where starlab cannot:
// a folder is then never found ownerless, since ProcessAlive says true.
func LockDir(dir string) (*os.File, error) {
	return os.OpenFile(filepath.Join(dir, ".lock"), os.O_CREATE|os.O_RDWR, 0o600)
}
