package regression

import (
	"strings"
	"testing"
)

// TestFitSettingsRefuse: each setting out of its range is refused by
// CheckSyntax, before the inputs are read, in one line naming its flag.
func TestFitSettingsRefuse(t *testing.T) {
	if s := DefaultFitSettings(); s.CheckSyntax() != nil {
		t.Fatalf("the defaults are refused: %v", s.CheckSyntax())
	}
	for want, bad := range map[string]func(*FitSettings){
		"-folds 1":       func(s *FitSettings) { s.Folds = 1 },
		"-sigma-floor 1": func(s *FitSettings) { s.SigmaFloor = 1 },
		"-bands -1":      func(s *FitSettings) { s.Bands = -1 },
		"-min-band -5":   func(s *FitSettings) { s.MinBandRows = -5 },
		"-t 0":           func(s *FitSettings) { s.T = 0 },
	} {
		s := DefaultFitSettings()
		bad(&s)
		if err := s.CheckSyntax(); err == nil || !strings.HasPrefix(err.Error(), want+":") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v", want, err)
		}
	}
	s := DefaultFitSettings()
	s.MinBandRows = 0
	if err := s.CheckSyntax(); err != nil {
		t.Errorf("-min-band 0: %v", err)
	}
}
