package selfplay

import (
	"os/exec"
	"syscall"
)

// dieWithParent makes the kernel kill the program when starlab ends,
// however it ends: a match killed with SIGKILL leaves no engine behind
// (gnubg, listening on its socket, would never notice).
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
