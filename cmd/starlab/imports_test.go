package main

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImportsNoGame: the command sees games only through the registry
// (search/games) and the contract (search/game): none of its files
// imports a game's package or a game's engine, so a game joins starlab
// without a line of the command changing.
func TestImportsNoGame(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		ast, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range ast.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			seen++
			switch {
			case !strings.HasPrefix(path, "starlab/search/"):
			case path == "starlab/search/game", path == "starlab/search/games", path == "starlab/search/bench":
			default:
				t.Errorf("%s imports %s: the command reaches games through search/games", f, path)
			}
		}
	}
	if seen == 0 {
		t.Fatal("no imports read")
	}
}
