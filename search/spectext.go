package search

import "strings"

// The functions below are the one place where the text of a spec is cut
// or edited after it is written: for a legend, a report or a progress
// line that shortens its file paths, or a summary that names the built-in
// net. They split a spec as ParseSpec does, so that no caller splits on
// ":" and "," by itself.

// FileKeys are the keys of the grammar whose values are file paths (or
// a pipeline's {name} products): net and probcut.
func FileKeys() []string { return []string{"net", "probcut"} }

// MapSpec returns spec with each key=value pair replaced by what f
// returns for it: the new value, and false to drop the pair. Text that
// is not a spec of the grammar's shape ("algo" or "algo:k=v,...") comes
// back as it is.
func MapSpec(spec string, f func(key, val string) (string, bool)) string {
	name, kvs, err := SplitSpec(spec)
	if err != nil || len(kvs) == 0 {
		return spec
	}
	var out []string
	for _, kv := range kvs {
		if v, keep := f(kv[0], kv[1]); keep {
			out = append(out, kv[0]+"="+v)
		}
	}
	if len(out) == 0 {
		return name
	}
	return name + ":" + strings.Join(out, ",")
}

// MapSpecFiles returns spec with the value of each file key (FileKeys)
// replaced by f of it: a path shortened for a legend or a page.
func MapSpecFiles(spec string, f func(path string) string) string {
	return MapSpec(spec, func(key, val string) (string, bool) {
		for _, k := range FileKeys() {
			if key == k {
				return f(val), true
			}
		}
		return val, true
	})
}

// MapSpecsIn applies MapSpecFiles to every word of text that is a spec
// with options (a status line naming its engines), leaving the other
// words and the spaces between them as they are.
func MapSpecsIn(text string, f func(path string) string) string {
	words := strings.Split(text, " ")
	for i, w := range words {
		if strings.Contains(w, ":") && strings.Contains(w, "=") {
			words[i] = MapSpecFiles(w, f)
		}
	}
	return strings.Join(words, " ")
}

// SpecValue returns the value spec gives key as written, and whether it
// gives it.
func SpecValue(spec, key string) (string, bool) {
	_, kvs, _ := SplitSpec(spec)
	for _, kv := range kvs {
		if kv[0] == key {
			return kv[1], true
		}
	}
	return "", false
}

// SpecProducts returns the names of the products ({name}) spec's file
// keys name, in FileKeys' order.
func SpecProducts(spec string) []string {
	var names []string
	for _, k := range FileKeys() {
		if v, ok := SpecValue(spec, k); ok {
			if name, ok := productName(v); ok {
				names = append(names, name)
			}
		}
	}
	return names
}
