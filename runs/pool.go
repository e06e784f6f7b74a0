package runs

import (
	"context"
	"fmt"
	"runtime"
	"sync"
)

// MaxWorkers bounds the workers of a stage: each owns engines with their
// own tables, so a mistyped count must not take the machine's memory.
const MaxWorkers = 256

// CheckWorkers checks a worker count given by a user as the flag (and
// setting) called name: "workers", or "concurrency" for a match.
func CheckWorkers(name string, n int) error {
	if n < 1 || n > MaxWorkers {
		return Usagef("-%s %d: want 1 to %d (this machine has %d cores)", name, n, MaxWorkers, runtime.NumCPU())
	}
	return nil
}

// Pool runs job on every element of jobs on workers goroutines, each with
// its own worker state from newWorker (engines, tables, evaluators: never
// shared), and calls done from the calling goroutine with each result, in
// the order they finish. It returns when every job is done, when done
// returns stop (later results are dropped), at the first error of a job,
// or when ctx is cancelled (with ctx's error; jobs in flight are dropped).
// job should return promptly once ctx is cancelled.
func Pool[J, R, W any](ctx context.Context, workers int, jobs []J, newWorker func() W,
	job func(ctx context.Context, w W, j J) (R, error), done func(R) (stop bool, err error)) error {
	workers = max(1, min(workers, len(jobs)))
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type result struct {
		r   R
		err error
	}
	feed := make(chan J)
	results := make(chan result)
	var wg sync.WaitGroup
	for k := 0; k < workers; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := newWorker()
			for j := range feed {
				r, err := job(ctx, w, j)
				select {
				case results <- result{r, err}:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() {
		defer close(feed)
		for _, j := range jobs {
			select {
			case feed <- j:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()
	var firstErr error
	stopped := false
	for r := range results {
		if firstErr != nil || stopped {
			continue // drain
		}
		if r.err != nil {
			if parent.Err() == nil {
				firstErr = r.err
			}
			cancel()
			continue
		}
		stop, err := done(r.r)
		if err != nil {
			firstErr = err
			cancel()
			continue
		}
		if stop {
			stopped = true
			cancel()
		}
	}
	if firstErr != nil {
		return firstErr
	}
	if err := parent.Err(); err != nil {
		return err
	}
	return nil
}

// Shard is one share of a stage's work split over machines: shard Index of
// Count owns the units whose index is Index modulo Count. The zero Shard
// (and 0/1) owns everything.
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// Set parses "i/N" (0 <= i < N) into s, so that a Shard is a flag.Value
// (-shard i/N).
func (s *Shard) Set(v string) error {
	var sh Shard
	var tail string
	if n, _ := fmt.Sscanf(v+"\n", "%d/%d%s", &sh.Index, &sh.Count, &tail); n != 2 || sh.Count < 1 || sh.Index < 0 || sh.Index >= sh.Count {
		return fmt.Errorf("want i/N with 0 <= i < N, such as 0/4")
	}
	*s = sh
	return nil
}

// Owns reports whether unit i is the shard's.
func (s Shard) Owns(i int) bool { return s.Count <= 1 || i%s.Count == s.Index }

// String returns "i/N", or "" for the whole.
func (s Shard) String() string {
	if s.Count <= 1 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}
