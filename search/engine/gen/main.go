// Command gen writes every game's engine from the engine source (package
// starlab/search/engine): run by go generate in search/engine.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"starlab/search/engine"
)

func main() {
	files, err := engine.Generate(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	for path, src := range files {
		if err := os.WriteFile(filepath.Clean(path), src, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
	}
}
