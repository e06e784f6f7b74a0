package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestLocalClusterStopEndsOnlyItsOwn runs deploy/slurm/localcluster.sh
// stop against stand-ins for the daemons (sleep, under the daemons'
// names): it ends the processes whose PIDs its state directory records
// and no other process of the same name, as on a shared machine other
// people's daemons are not the script's; a pid file that names a process
// of another name (a reused PID) ends nothing.
func TestLocalClusterStopEndsOnlyItsOwn(t *testing.T) {
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep to stand in for the daemons")
	}
	dir, state := t.TempDir(), t.TempDir()
	start := func(name string) *exec.Cmd {
		bin := filepath.Join(dir, name)
		if _, err := os.Stat(bin); err != nil {
			data, err := os.ReadFile(sleep)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(bin, data, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		cmd := exec.Command(bin, "60")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Reaped as soon as it ends, as init reaps a daemon, so that the
		// script sees an ended process gone rather than a zombie.
		go cmd.Wait()
		t.Cleanup(func() { cmd.Process.Kill() })
		return cmd
	}
	record := func(name string, pid int) {
		if err := os.WriteFile(filepath.Join(state, name+".pid"), []byte(strconv.Itoa(pid)+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ours := map[string]*exec.Cmd{}
	var others []*exec.Cmd
	for _, d := range []string{"slurmd", "slurmctld", "munged"} {
		ours[d] = start(d)
		others = append(others, start(d))
	}
	for _, d := range []string{"slurmd", "slurmctld"} {
		record(d, ours[d].Process.Pid)
	}
	// munged's pid file names the other slurmd: not a munged, so not ours.
	record("munged", others[0].Process.Pid)

	cmd := exec.Command("bash", "../../deploy/slurm/localcluster.sh", "stop")
	cmd.Env = append(os.Environ(), "STARLAB_SLURM_STATE="+state)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("localcluster.sh stop: %v\n%s", err, out)
	}
	// alive reads the process's state: one that has ended is gone, or a
	// zombie for the moment before it is reaped.
	alive := func(c *exec.Cmd) bool {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(c.Process.Pid) + "/stat")
		_, rest, _ := strings.Cut(string(stat), ") ")
		return err == nil && !strings.HasPrefix(rest, "Z") && !strings.HasPrefix(rest, "X")
	}
	for _, d := range []string{"slurmd", "slurmctld"} {
		for i := 0; i < 100 && alive(ours[d]); i++ {
			time.Sleep(20 * time.Millisecond)
		}
		if alive(ours[d]) {
			t.Errorf("stop left the %s it recorded running", d)
		}
	}
	for _, c := range append(others, ours["munged"]) {
		if !alive(c) {
			t.Errorf("stop ended %s (pid %d), which it did not record", filepath.Base(c.Path), c.Process.Pid)
		}
	}
	for _, d := range []string{"slurmd", "slurmctld", "munged"} {
		if _, err := os.Stat(filepath.Join(state, d+".pid")); err == nil {
			t.Errorf("stop left %s.pid", d)
		}
	}
}
