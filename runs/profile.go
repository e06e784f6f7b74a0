package runs

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// CPUProfileEnv names the environment variable that asks for a CPU
// profile of a whole command, for go tool pprof: where a stage's time
// goes.
const CPUProfileEnv = "STARLAB_CPUPROFILE"

// StartCPUProfile starts the CPU profile the environment asks for
// (CPUProfileEnv=FILE) and returns the function that stops it and closes
// the file; without the variable it starts nothing and stop does nothing.
func StartCPUProfile() (stop func(), err error) {
	path := os.Getenv(CPUProfileEnv)
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", CPUProfileEnv, err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %v", CPUProfileEnv, err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}
