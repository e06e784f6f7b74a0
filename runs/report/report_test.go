package report

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"starlab/regression"
	"starlab/runs"
	"starlab/search/bench"
	"starlab/selfplay"
	"starlab/td"
)

// stages runs small train, collect, fit, tune, bench and match stages into
// subdirectories of root, as a pipeline run would be laid out.
func stages(t *testing.T, root string) {
	t.Helper()
	ctx := context.Background()
	create := func(name, command string, settings any) *runs.Run {
		run, err := runs.CreateAt(filepath.Join(root, name), command, []string{command}, settings, 1)
		if err != nil {
			t.Fatal(err)
		}
		return run
	}
	finish := func(run *runs.Run, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		if err := run.Finish(nil); err != nil {
			t.Fatal(err)
		}
		run.Close()
	}

	ts := td.DefaultSettings()
	ts.Games, ts.CheckpointEvery, ts.MeasureEvery, ts.MeasureGames = 2000, 1000, 1000, 40
	run := create("1-train", "train", ts)
	_, err := td.Run(ctx, ts, run, runs.NoProgress)
	finish(run, err)

	cs := regression.DefaultCollectSettings()
	cs.Count, cs.Pairs, cs.Engine, cs.Chunk = 12, []regression.Pair{{Shallow: 1, Deep: 3}, {Shallow: 3, Deep: 5}}, "staretc:eval=pairs,tt=1", 4
	run = create("2-collect", "collect", cs)
	_, err = regression.Collect(ctx, cs, run, runs.NoProgress)
	finish(run, err)

	fs := regression.DefaultFitSettings()
	fs.Inputs = []string{filepath.Join(root, "2-collect")}
	run = create("3-fit", "fit", fs)
	_, err = regression.RunFit(ctx, fs, run, runs.NoProgress)
	finish(run, err)

	tu := regression.DefaultTuneSettings("../../search/testdata/dice5x5-4.suite")
	tu.Limit, tu.Depths, tu.Ts, tu.CPC = 4, []int{5}, []float64{1.6, 0.2}, "cpc:eval=pairs,tt=1"
	run = create("4-tune", "tune", tu)
	_, err = regression.Tune(ctx, tu, run, runs.NoProgress)
	finish(run, err)

	bs := bench.DefaultSettings()
	bs.Suite, bs.Limit, bs.Depths, bs.Engine.Eval, bs.Engine.TTMiB = "../../search/testdata/dice5x5-4.suite", 4, []int{3, 5}, "pairs", 1
	run = create("5-bench", "bench", bs)
	_, err = bench.Run(ctx, bs, run, runs.NoProgress)
	finish(run, err)

	ms := selfplay.DefaultMatchSettings("staretc:depth=5,eval=pairs,tt=1", "staretc:depth=1,eval=pairs,tt=1")
	ms.Games = 20
	run = create("6-match", "match", ms)
	_, err = selfplay.RunMatch(ctx, ms, run, runs.NoProgress)
	finish(run, err)
}

// TestReport writes the page of a directory of stage runs and checks what
// it holds; then, where Chromium is installed (CI installs it), opens it
// headless and checks that it loads without console errors and that every
// image has a natural size.
func TestReport(t *testing.T) {
	root := t.TempDir()
	stages(t, root)
	res, err := Run(context.Background(), root, runs.NoProgress)
	if err != nil {
		t.Fatal(err)
	}
	// train: curve; fit: two scatter plots; tune: one; bench: one.
	if res.Sections != 6 || res.Images != 5 {
		t.Fatalf("report %+v, want 6 sections and 5 images", res)
	}
	page, err := os.ReadFile(res.Path)
	if err != nil {
		t.Fatal(err)
	}
	html := string(page)
	for _, want := range []string{"Learning curve", "per depth pair", "chapter: reduction", "Mean nodes against depth", "pentanomial", "1:3", "3:5"} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	for _, bad := range []string{"http://", "https://", "<script"} {
		if strings.Contains(html, bad) {
			t.Errorf("the page is not self-contained: it holds %q", bad)
		}
	}
	if _, err := Run(context.Background(), t.TempDir(), runs.NoProgress); err == nil || !strings.Contains(err.Error(), "no run directory") {
		t.Errorf("report of an empty directory: %v", err)
	}
	inChromium(t, res.Path, res.Images)
}

func chromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

func inChromium(t *testing.T, path string, images int) {
	bin := chromium()
	if bin == "" {
		if os.Getenv("STARLAB_REQUIRE_CHROMIUM") != "" {
			t.Fatal("STARLAB_REQUIRE_CHROMIUM is set and no chromium is on PATH")
		}
		t.Skip("no chromium on PATH (apt-get install chromium; .ci/run does)")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(bin), chromedp.NoSandbox, chromedp.Headless)
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	var mu sync.Mutex
	var problems []string
	note := func(p string) { mu.Lock(); problems = append(problems, p); mu.Unlock() }
	err := chromedp.Listen(ctx, func(ev any) {
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeWarning {
				note("console " + string(e.Type))
			}
		case *runtime.EventExceptionThrown:
			note("exception: " + e.ExceptionDetails.Text)
		case *log.EventEntryAdded:
			if e.Entry.Level == log.EntryLevelError {
				note("log: " + e.Entry.Text)
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	// The browser starts with Listen, on a context without a timeout (it
	// would end the browser); the page's actions get one.
	tctx, cancelT := context.WithTimeout(ctx, 60*time.Second)
	defer cancelT()
	if err := chromedp.Do(tctx, chromedp.Navigate("file://"+abs), chromedp.WaitReady("body")); err != nil {
		t.Fatal(err)
	}
	title, err := chromedp.Run(tctx, chromedp.Title())
	if err != nil {
		t.Fatal(err)
	}
	sizes, err := chromedp.Run(tctx, chromedp.Evaluate[[]float64](`Array.from(document.images).map(i => i.complete ? i.naturalWidth * i.naturalHeight : 0)`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(title, "starlab report") {
		t.Errorf("page title %q", title)
	}
	if len(sizes) != images {
		t.Errorf("%d images in the page, want %d", len(sizes), images)
	}
	for i, s := range sizes {
		if s <= 0 {
			t.Errorf("image %d has no natural size", i+1)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(problems) > 0 {
		t.Errorf("the page logged: %v", problems)
	}
}
