//go:build integration

// The browser check of the report page needs Chromium and chromedp, whose
// build is long: make test-integration runs it, and CI with it.

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
)

func init() { inBrowser = inChromium }

func chromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// inChromium opens the page, checks its console and images, and that its
// visible text (innerText) holds none of the paths hidden.
func inChromium(t *testing.T, path string, images int, hidden []string) {
	bin := chromium()
	if bin == "" {
		if os.Getenv("STARLAB_SKIP_CHROMIUM") == "" {
			t.Fatal("no chromium on PATH: apt-get install chromium (.ci/run does), or set STARLAB_SKIP_CHROMIUM=1 to skip the browser test")
		}
		t.Skip("no chromium on PATH, and STARLAB_SKIP_CHROMIUM is set: the browser test is skipped")
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
	text, err := chromedp.Run(tctx, chromedp.Evaluate[string](`document.body.innerText`))
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hidden {
		if strings.Contains(text, h) {
			t.Errorf("the page shows the path %s", h)
		}
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
