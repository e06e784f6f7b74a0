package selfplay

import (
	"os"
	"os/exec"
	"syscall"
)

// dieWithParent makes the kernel kill the program when starlab ends,
// however it ends: a match killed with SIGKILL leaves no engine behind
// (gnubg, listening on its socket, would never notice). The program leads
// a process group of its own (killGroup).
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true}
}

// killGroup kills the program and what it started (a wrapper script's
// engine), which would otherwise hold its output open.
func killGroup(p *os.Process) {
	syscall.Kill(-p.Pid, syscall.SIGKILL)
}

// ProcessAlive reports whether a process pid exists: a folder a killed
// starlab left behind names its process, and is removed once that is
// gone.
func ProcessAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}
