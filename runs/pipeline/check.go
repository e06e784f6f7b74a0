package pipeline

import (
	"context"
	"fmt"
	"slices"

	"starlab/runs"
	"starlab/search"
	"starlab/search/game"
)

// Check reports every problem of the recipe that can be seen before its
// first stage runs. Besides what LoadRecipe checks, it reads the files the
// stages will read that the recipe does not make (suites, nets, parameter
// files, relative to the working directory) and checks them as the stage
// would: the bench's suite and engines, the collect's and the tune's
// suites and engines, every match whose variants name none of the
// pipeline's products. Run calls it before the first stage; starlab run
// calls it before it makes the run directory.
func (r *Recipe) Check() error {
	if err := r.check(); err != nil {
		return err
	}
	collectVariant := r.Variant
	if r.Collect != nil {
		c := *r.Collect // its checks fill in the suite's variant, which the recipe leaves out
		var err error
		if namesProduct(c.Engine) {
			if collectVariant, err = c.PositionsVariant(); err == nil {
				err = r.sameVariant(c.Suite, collectVariant)
			}
		} else if err = c.Check(); err == nil {
			collectVariant, err = c.PositionsVariant()
		}
		if err != nil {
			return fmt.Errorf("collect: %v", err)
		}
	}
	if r.Bench != nil {
		if _, err := r.Bench.Resolve(); err != nil {
			return fmt.Errorf("bench: %v", err)
		}
	}
	if r.Tune != nil {
		if err := r.checkTune(collectVariant); err != nil {
			return err
		}
	}
	// Every match as match resolves it, but for the products the
	// recipe's stages will make ({net}, {probcut}).
	for _, m := range r.Matches {
		if err := r.matchSettings(m, "", "").CheckPending(); err != nil {
			return fmt.Errorf("match %s: %v", m.Name, err)
		}
	}
	return nil
}

// checkTune checks the tune stage's suite and engines as Check does: a
// suite or engines that name the pipeline's products against the variant
// of collectVariant, the collect's positions, or of the suite, without the
// products' files.
func (r *Recipe) checkTune(collectVariant string) error {
	t := r.Tune
	var err error
	switch named := slices.ContainsFunc(t.CPC, namesProduct); {
	case t.Suite == SuiteProduct || named:
		suite, v := "{suite}", collectVariant
		if t.Suite != SuiteProduct {
			var ps []search.SuitePosition
			if ps, err = search.ReadSuite(r.Kit, t.Suite); err == nil {
				suite, v = t.Suite, r.Kit.Variant(ps[0].Pos)
			}
		}
		if err == nil && named {
			err = r.sameVariant(suite, v)
		}
		// The files of the engines that name no product, on the
		// suite's variant.
		for _, c := range t.CPC {
			if err == nil && !namesProduct(c) {
				err = r.resolveOn(c, v)
			}
		}
	default:
		err = t.Check()
	}
	if err != nil {
		return fmt.Errorf("tune: %v", err)
	}
	return nil
}

// namesProduct reports whether spec s names one of the pipeline's products.
func namesProduct(s string) bool { return len(search.SpecProducts(s)) > 0 }

// sameVariant refuses a suite of variant v that is not the recipe's, for which
// its net and parameters are made.
func (r *Recipe) sameVariant(suite, v string) error {
	if v != r.Variant {
		return fmt.Errorf("suite %s is of %s variant %s, but the recipe's net and parameters are for %s", suite, r.GameName, v, r.Variant)
	}
	return nil
}

// StartOutsiders starts each outside engine of the recipe's matches once
// and stops it (selfplay.MatchSettings.StartPending): the command calls it
// after Check, before the run directory exists, so that a program that
// exists but cannot play refuses the recipe before its first stage.
func (r *Recipe) StartOutsiders(ctx context.Context) error {
	for _, m := range r.Matches {
		if err := r.matchSettings(m, "", "").StartPending(ctx); err != nil {
			return fmt.Errorf("match %s: %w", m.Name, err)
		}
	}
	return nil
}

// resolveOn reads the files an engine spec names and checks the engine
// can search positions of the recipe game's variant.
func (r *Recipe) resolveOn(spec, variant string) error {
	sp, err := r.Kit.ParseSpec(spec)
	if err != nil {
		return runs.Usagef("%q: %v", spec, err)
	}
	res, err := sp.Config.Resolve()
	var start game.State
	if err == nil {
		start, err = r.Kit.New(variant)
	}
	if err == nil {
		err = r.Kit.Check(res, start)
	}
	if err != nil {
		return runs.Usagef("%q: %v", spec, err)
	}
	return nil
}
