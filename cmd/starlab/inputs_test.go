package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"starlab/outside/gnubg"
	"starlab/runs/pipeline"
	"starlab/search/games"
	"starlab/selfplay"
)

// TestInputsRefused: inputs that commands once took, silently reading
// them as something else or starting work that could not finish, are
// refused with exit 2 and one line naming the input and the problem,
// before any run directory or file is made.
func TestInputsRefused(t *testing.T) {
	backgammonSuite, err := filepath.Abs("../../search/backgammon/suites/backgammon.suite")
	if err != nil {
		t.Fatal(err)
	}
	suite, err := filepath.Abs(benchTestSuite)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	t.Chdir(dir)
	write := func(name, text string) string {
		t.Helper()
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return name
	}
	start := "5 4 b -1 - - - - - - - - - - - - - - - - - - - - - - - - -"
	endgame := "5 4 b -1 r b r b - b b r - - r - r - r - b - - - b - - - -"
	match := []string{"match", "staretc:depth=1,eval=pairs", "staretc:depth=3,eval=pairs", "-games", "2"}
	money := []string{"match", "-game", "backgammon", "-variant", "money", "-games", "2", "staretc:depth=1,eval=contact", "staretc:depth=1,eval=race"}
	var cases []badInput

	// 1. A suite's values are finite decimal numbers in [-1, 1], read by
	// one reader whichever command reads the suite.
	nan := write("nan.suite", endgame+" ; exact=0.25\n"+endgame+" ; exact=NaN\n")
	hex := write("hex.suite", endgame+" ; exact=0x1p-1\n")
	cases = append(cases,
		badInput{[]string{"eval", "-suite", nan}, 2, `nan.suite: line 2: exact value "NaN" is not a decimal number`},
		badInput{[]string{"eval", "-suite", hex}, 2, `hex.suite: line 1: exact value "0x1p-1" is not a decimal number`},
		badInput{[]string{"train", "-games", "2", "-judge", nan}, 2, `nan.suite: line 2: exact value "NaN"`},
		badInput{append(match, "-suite", nan), 2, `nan.suite: line 2: exact value "NaN"`},
	)

	// 2. What cannot finish: a midgame solved exactly, a search deeper
	// than the game's bound.
	cases = append(cases,
		badInput{[]string{"gen", "-game", "backgammon", "-exact", "-count", "1", "-exact-nodes", "100000"}, 2, "is not solved within 100000 nodes (-exact-nodes)"},
		badInput{[]string{"eval", "-game", "backgammon", "-depth", "1164", "-suite", backgammonSuite}, 2, "-depth 1164: no search of these backgammon positions goes deeper than 120 plies"},
		badInput{[]string{"eval", "-depth", "51", start}, 2, "goes deeper than 50 plies"},
	)
	if !testing.Short() {
		cases = append(cases, badInput{[]string{"gen", "-game", "backgammon", "-exact", "-count", "1"}, 2, "is not solved within 100000000 nodes"})
	}

	// 3. Lenient inputs.
	afile := write("afile", "mine\n")
	cases = append(cases,
		badInput{[]string{"show", "-game", "backgammon", "4HPwATDgc/ABMA o 31"}, 2, `side "o": want O or X`},
		badInput{[]string{"search", "-game", "backgammon", "-depth", "1", "4HPwATDgc/ABMA x 31"}, 2, `side "x": want O or X`},
		badInput{[]string{"eval", "-eval", "", start}, 2, "-eval is given an empty value; leave it out for its default"},
		badInput{append(match, "-luck", ""), 2, "-luck is given an empty value"},
		badInput{[]string{"gen", "-variant", ""}, 2, "-variant is given an empty value"},
		badInput{[]string{"train", "-inputs", ""}, 2, "-inputs is given an empty value"},
		badInput{[]string{"bench", "-depths", "1,1", suite}, 2, `-depths "1,1": 1 is given twice`},
		badInput{[]string{"collect", "-pairs", "3:7,3:7"}, 2, "-pairs: 3:7 given twice"},
		badInput{[]string{"fit", "-min-band", "-5", "nowhere"}, 2, "-min-band -5: want a number of rows, 0 or more"},
		badInput{append(match, "-out", filepath.Join(afile, "M")), 2, "-out " + filepath.Join(afile, "M") + ": cannot make the run directory"},
		badInput{[]string{"gen", "-count", "2", "-o", filepath.Join(afile, "x.suite")}, 2, "-o " + filepath.Join(afile, "x.suite") + ": there is no directory"},
		badInput{append(money, "-luck", "staretc:depth=1,eval=race"), 2, "-luck staretc:depth=1,eval=race: backgammon money games are played for points, and a match of them reports no luck-adjusted score"},
	)
	recipe := func(name, text string) []string { return []string{"run", write(name+".json", text)} }
	const v2 = `{"format": "starlab-recipe/2", "name": "x", "seed": 1, `
	cases = append(cases,
		badInput{recipe("v1", `{"format": "starlab-recipe/1", "name": "x", "game": "backgammon", "matches": [{"name": "a", "games": 2, "variants": ["staretc:depth=1", "staretc:depth=1,eval=contact"]}]}`), 2,
			`format "starlab-recipe/1" is Dice's, its board given by n and m; a recipe of backgammon is of format "starlab-recipe/2"`},
		badInput{recipe("nostage", v2+`"game": "dice"}`), 2, "no stage: give train, collect (and fit), bench, tune or matches"},
		badInput{recipe("money", v2+`"game": "backgammon", "variant": "money", "matches": [{"name": "a", "games": 2, "luck": "staretc:depth=1,eval=race", "variants": ["staretc:depth=1,eval=contact", "staretc:depth=1"]}]}`), 2,
			"match a: -luck staretc:depth=1,eval=race: backgammon money games are played for points"},
	)

	// 4. Every spec of every stage of a recipe is checked before its run
	// directory exists, those beside a product the recipe makes too.
	const trained = v2 + `"game": "dice", "train": {"games": 100}, "matches": [`
	cases = append(cases,
		badInput{recipe("ext", trained+`{"name": "a", "games": 2, "variants": ["staretc:depth=1,net={net}", "ext:cmd=/nonexistent"]}]}`), 2, "match a: engine ext:cmd=/nonexistent"},
		badInput{recipe("exttrue", trained+`{"name": "a", "games": 2, "variants": ["staretc:depth=1,net={net}", "ext:cmd=/bin/true"]}]}`), 2,
			"match a: engine ext:cmd=/bin/true: the program ended (exit status 0) before protocolok"},
		badInput{recipe("luckeval", trained+`{"name": "a", "games": 2, "luck": "staretc:depth=3,eval=race", "variants": ["staretc:depth=1,net={net}", "star1:depth=1"]}]}`), 2, "match a: -luck: "},
		badInput{recipe("lucknet", trained+`{"name": "a", "games": 2, "luck": "staretc:depth=3,net=missing.json", "variants": ["staretc:depth=1,net={net}", "star1:depth=1"]}]}`), 2, "missing.json"},
		badInput{recipe("lateluck", trained+`{"name": "a", "games": 2, "variants": ["staretc:depth=1,net={net}", "star1:depth=1"]}, {"name": "b", "games": 2, "luck": "ext:cmd=/bin/true", "variants": ["staretc:depth=1,eval=pairs", "star1:depth=1"]}]}`), 2,
			"match b: -luck ext:cmd=/bin/true: this outside engine cannot value positions"},
	)
	checkNothingLeft(t, dir, cases)
}

// TestRecipeLuckIsMatchLuck: a recipe's match luck is read by the parser
// of match -luck: what one refuses the other refuses in the same words,
// and what one takes (gnubg's 0-ply, where gnubg is installed) the other
// takes.
func TestRecipeLuckIsMatchLuck(t *testing.T) {
	dir := t.TempDir()
	backgammon, err := games.Lookup("backgammon")
	if err != nil {
		t.Fatal(err)
	}
	lucks := []string{"ext:cmd=/bin/true", "staretc:movetime=10ms,eval=contact", "staretc:depth=1,eval=contact", "gnubg:plies=0", "gnubg:plies=0,noise=0"}
	for i, luck := range lucks {
		variants := []string{"staretc:depth=1,eval=contact", "staretc:depth=1,eval=race"}
		ms := selfplay.DefaultMatchSettings(backgammon, variants...)
		ms.Luck, ms.Games, ms.Concurrency = luck, 2, 1
		_, matchErr := ms.Resolve()
		path := filepath.Join(dir, "r.json")
		text := `{"format": "starlab-recipe/2", "name": "x", "game": "backgammon", "seed": 1, "matches": [{"name": "a", "games": 2, "luck": "` + luck + `", "variants": ["` + strings.Join(variants, `", "`) + `"]}]}`
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		r, recipeErr := pipeline.LoadRecipe(path, games.Lookup)
		if recipeErr == nil {
			recipeErr = r.Check()
		}
		switch {
		case matchErr == nil && recipeErr == nil:
		case matchErr == nil || recipeErr == nil || !strings.HasSuffix(recipeErr.Error(), "match a: "+matchErr.Error()):
			t.Errorf("luck %s: match -luck says %v, the recipe %v", luck, matchErr, recipeErr)
		}
		if i >= 3 { // gnubg's, taken by both where it is installed
			if _, err := (&gnubg.Spec{}).Program(); err == nil && (matchErr != nil || recipeErr != nil) {
				t.Errorf("luck %s, gnubg installed: match -luck says %v, the recipe %v", luck, matchErr, recipeErr)
			}
		}
	}
}
