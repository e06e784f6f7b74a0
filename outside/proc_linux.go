package outside

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
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

// LockDir takes an exclusive lock on the file .lock in dir, held until
// the returned file is closed or the process ends, however it ends (a
// kill -9 too): a folder whose lock can be taken has no owner.
func LockDir(dir string) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, ".lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// ProcessAlive reports whether a process pid runs (a zombie, which no
// one reaped, has ended): a folder a killed starlab left behind names its
// process, and is removed once that is gone.
func ProcessAlive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	_, rest, _ := strings.Cut(string(b), ") ")
	return !strings.HasPrefix(rest, "Z") && !strings.HasPrefix(rest, "X")
}
