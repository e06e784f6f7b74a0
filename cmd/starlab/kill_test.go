package main

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// childEnv is the environment variable through which a test starts the
// test binary again as "starlab ARGS...", to kill it for real.
const childEnv = "STARLAB_TEST_CHILD"

// TestMain runs the child's command line when the binary was started as a
// child, and the tests otherwise.
func TestMain(m *testing.M) {
	if args := os.Getenv(childEnv); args != "" {
		os.Exit(run(context.Background(), strings.Fields(args), os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// killWhen starts "starlab args..." as a child process, waits until ready
// reports true (until says what that is, for the failure message), and
// kills the child with SIGKILL.
func killWhen(t *testing.T, args []string, until string, ready func() bool) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+strings.Join(args, " "))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for !ready() {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("the child did not reach %s in 60 s", until)
		}
		time.Sleep(time.Millisecond)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
}
