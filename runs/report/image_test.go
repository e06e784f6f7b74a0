package report

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"starlab/runs"
)

// TestImageRefusesDamagedPNG: a whole PNG is inlined; a truncated one, or
// a file that is no PNG, is refused in one line naming it, not inlined.
func TestImageRefusesDamagedPNG(t *testing.T) {
	run, err := runs.CreateAt(filepath.Join(t.TempDir(), "r"), "train", nil, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewRGBA(image.Rect(0, 0, 40, 30))); err != nil {
		t.Fatal(err)
	}
	whole := b.Bytes()
	for name, data := range map[string][]byte{
		"whole":     whole,
		"truncated": whole[:len(whole)-20],
		"header":    whole[:40],
		"empty":     nil,
		"garbage":   []byte("\x00\xff not a png"),
	} {
		if err := os.WriteFile(run.Path("p.png"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		var s Section
		err := s.image(run, "p.png", "plot")
		if name == "whole" {
			if err != nil || len(s.Images) != 1 {
				t.Errorf("a whole PNG: %v, %d images", err, len(s.Images))
			}
			continue
		}
		if err == nil || len(s.Images) != 0 || !strings.Contains(err.Error(), run.Path("p.png")) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s PNG: %v, %d images; want one line naming the file and no image", name, err, len(s.Images))
		}
	}
}
