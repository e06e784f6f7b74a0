// Command gen writes every game's engine from the engine source (package
// starlab/search/engine) and removes the generated files the engine source
// no longer has: run by go generate in search/engine.
package main

import (
	"fmt"
	"os"

	"starlab/search/engine"
)

func main() {
	if err := engine.Write("."); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
