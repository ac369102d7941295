//go:build unix

package browser

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/attention-in-go/course/internal/build"
	"github.com/attention-in-go/course/internal/grade"
	"github.com/attention-in-go/course/internal/lesson"
	"github.com/attention-in-go/course/internal/notebook"
	"github.com/attention-in-go/course/internal/proctree"
	"github.com/attention-in-go/course/internal/runner"
	"github.com/attention-in-go/course/lib/widget"
	"github.com/go-rod/rod/lib/proto"
)

// The browser test starts Jupyter and Chromium and takes about a minute, so
// `go test ./...` skips it; `make test-browser` (part of `make test`) sets
// COURSE_BROWSER_TEST=1, and then a missing browser is a failure.
const (
	runEnv     = "COURSE_BROWSER_TEST"
	chromeEnv  = "COURSE_CHROMIUM" // the browser to use instead of DefaultChromium
	lessonName = "01-scaled-dot-product-attention.ipynb"
	// budget bounds the whole test, so that it stops its processes itself
	// rather than being killed by `go test -timeout` with them running.
	budget = 6 * time.Minute
)

// Plausible sizes, in pixels, of a rendered figure.
const (
	minFigureWidth, minFigureHeight = 100, 75
	maxFigureSide                   = 5000
)

// widgetCode recognises a notebook that uses GoNB's widgets.
var widgetCode = regexp.MustCompile(`gonbui/widgets|widgets\.Slider\(`)

// TestNotebooksInBrowser runs notebooks in Jupyter Notebook in headless
// Chromium, as a reader would, and checks what the page shows: lesson 1
// runs without errors and shows its figures; a slider of GoNB's widgets,
// moved, changes its plot. Screenshots go to build/browser/.
func TestNotebooksInBrowser(t *testing.T) {
	if os.Getenv(runEnv) == "" {
		t.Skipf("the browser test runs with `make test-browser` (%s=1): it starts Jupyter and Chromium", runEnv)
	}
	root := courseRoot(t)
	bin := cmp.Or(os.Getenv(chromeEnv), DefaultChromium)
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("no browser at %s: install Debian's chromium with `scripts/install.sh --browser` (make test does)", bin)
	}
	ctx := testContext(t)
	start := time.Now()
	tmp := t.TempDir() // removed after the processes below are stopped
	nbDir := filepath.Join(tmp, "notebooks")

	// Copies of the notebooks, so that nothing Jupyter does changes the
	// course; COURSE_ROOT tells their setup cell where the course is, as
	// in the Docker image.
	copyFile(t, filepath.Join(root, "notebooks", lessonName), filepath.Join(nbDir, lessonName))
	fixture := buildFixture(t, filepath.Join("testdata", "widget-fixture.md"), nbDir)
	explorers := widgetNotebooks(t, filepath.Join(root, "notebooks"))
	for _, p := range explorers {
		copyFile(t, p, filepath.Join(nbDir, filepath.Base(p)))
	}

	jup, err := StartJupyter(ctx, JupyterOptions{
		Dir:  nbDir,
		Temp: filepath.Join(tmp, "jupyter"),
		Env:  kernelEnv(root),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		pids := jup.Stop()
		checkStopped(t, "Jupyter and its kernels", pids, tmp)
		if t.Failed() {
			t.Logf("Jupyter's log ends with:\n%s", tail(jup.Log(), 40))
		}
	})
	t.Logf("Jupyter Notebook on %s (pid %d) after %v", jup.URL, jup.PID(), time.Since(start).Round(time.Millisecond))

	chrome, err := LaunchChromium(ctx, bin, filepath.Join(tmp, "chromium-profile"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { checkStopped(t, "Chromium", chrome.Stop(), "") })
	t.Logf("%s (pid %d)", bin, chrome.PID())

	out := filepath.Join(root, "build", "browser")
	t.Run("lesson-01", func(t *testing.T) {
		testLesson(ctx, t, chrome, jup, lessonName, out)
	})
	t.Run("widgets", func(t *testing.T) {
		testSlider(ctx, t, chrome, jup, fixture, out)
	})
	t.Run("explorer", func(t *testing.T) {
		if len(explorers) == 0 {
			t.Skipf("no notebook in notebooks/ uses GoNB's widget sliders (%s) or is named *explor* yet: once the explorer lands, this moves its slider and checks that its plot changes", widgetCode)
		}
		for _, p := range explorers {
			t.Run(strings.TrimSuffix(filepath.Base(p), ".ipynb"), func(t *testing.T) {
				testSlider(ctx, t, chrome, jup, filepath.Base(p), out)
			})
		}
	})
	t.Run("class-report", func(t *testing.T) {
		testClassReport(ctx, t, chrome, root, filepath.Join(tmp, "graded"), out)
	})
	t.Logf("browser test took %v; screenshots in %s", time.Since(start).Round(100*time.Millisecond), out)
}

// testLesson runs every cell of the notebook name and checks that none
// failed, that all ran, and that the page shows at least as many plausible
// figures as the notebook has.
func testLesson(ctx context.Context, t *testing.T, chrome *Chromium, jup *Jupyter, name, out string) {
	start := time.Now()
	page, err := OpenNotebook(ctx, chrome, jup.NotebookURL(name))
	if err != nil {
		t.Fatal(err)
	}
	defer page.Close()
	pr, err := page.RunAll(ctx)
	if err != nil {
		t.Error(err)
	}
	ran := time.Since(start)
	nb, err := page.Notebook()
	if err != nil {
		t.Fatal(err)
	}
	checkCells(t, nb)

	// The figures: as many img elements, loaded and of a plausible size,
	// as the cells call viz.Show (and as the kernel sent images).
	want := max(showCalls(nb, "viz.Show"), runner.Images(nb))
	if want == 0 {
		t.Fatalf("%s shows no figures: is it still the lesson with heatmaps?", name)
	}
	var figures []Image
	waitCtx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	for {
		imgs, err := page.Images()
		if err != nil {
			t.Fatal(err)
		}
		figures = plausible(imgs)
		if len(figures) >= want || waitCtx.Err() != nil {
			if len(figures) < want {
				t.Errorf("%d figures rendered in the page, want at least %d; images: %s", len(figures), want, describe(imgs))
			}
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("%s: %d code cells ran in %v (%v), %d figures rendered (want ≥ %d)",
		name, pr.Done, ran.Round(100*time.Millisecond), pr, len(figures), want)

	base := strings.TrimSuffix(name, ".ipynb")
	if len(figures) > 0 {
		// The first heatmap: the attention weights of section 2.
		if err := page.ScreenshotImage(figures[0].Src, filepath.Join(out, base+"-figure.png")); err != nil {
			t.Errorf("screenshot of a figure: %v", err)
		}
	}
	if err := page.ScreenshotPage(filepath.Join(out, base+"-page.png")); err != nil {
		t.Errorf("screenshot of the page: %v", err)
	}
}

// gonbCommFailed is what GoNB's script in the page logs when the kernel did
// not acknowledge its widgets' connection within its 500 ms.
const gonbCommFailed = "comm_open_ack not received in time"

// sliderWait is how long one run of a widget notebook may take to show its
// slider and picture (a few seconds when all is well).
const sliderWait = 60 * time.Second

// testSlider runs the notebook name, whose cells show a GoNB slider and a
// plot, moves the first slider and checks that an image changes.
func testSlider(ctx context.Context, t *testing.T, chrome *Chromium, jup *Jupyter, name, out string) {
	start := time.Now()
	page, err := OpenNotebook(ctx, chrome, jup.NotebookURL(name))
	if err != nil {
		t.Fatal(err)
	}
	defer page.Close()
	defer page.InterruptKernel() // the cell following the slider may still run
	// A widget cell keeps running while it follows its slider: wait for
	// the slider and then for a picture in the slider's own cell (the
	// page may show other cells' figures first), rather than for the
	// kernel to be idle. Each of GoNB's widgets waits for the browser's
	// first message before the cell goes on; very rarely (about 1 run in
	// 10 here) one never comes, and the cell shows its widgets, or some
	// of them, but never its picture. A second run on a restarted kernel
	// tells that from a broken notebook; the page's console, logged on
	// failure, says what the widgets' scripts saw.
	var (
		pr     Progress
		s      Slider
		before []Image
	)
	ownImage := func() bool {
		for _, img := range before {
			if img.Cell == s.Cell && img.Complete && img.Width > 0 {
				return true
			}
		}
		return false
	}
	for attempt := 1; ; attempt++ {
		// GoNB's script logs when its connection failed: no need to wait
		// out sliderWait then.
		logged := len(page.Console())
		commFailed := func() bool {
			return slices.ContainsFunc(page.Console()[logged:], func(line string) bool {
				return strings.Contains(line, gonbCommFailed)
			})
		}
		if err = page.StartRunAll(); err != nil {
			t.Fatal(err)
		}
		wait, cancel := context.WithTimeout(ctx, sliderWait)
		pr, err = page.WaitUntil(wait, "a slider and an image", func(pr Progress) bool {
			return pr.Sliders > 0 && pr.Rendered > 0 || commFailed()
		})
		cancel()
		problem := ""
		const noConnection = "GoNB's widgets could not connect to the kernel (" + gonbCommFailed + ")"
		switch {
		case commFailed():
			problem = noConnection
		case err != nil || pr.Errors > 0 || pr.Sliders == 0:
			problem = fmt.Sprintf("no slider with an image: %v (%v)", err, pr)
		default:
			sliders, err := page.Sliders()
			if err != nil {
				t.Fatal(err)
			}
			s = sliders[0]
			for deadline := time.Now().Add(sliderWait / 2); ; time.Sleep(200 * time.Millisecond) {
				if before, err = page.Images(); err != nil {
					t.Fatal(err)
				}
				if ownImage() || !time.Now().Before(deadline) || ctx.Err() != nil || commFailed() {
					break
				}
			}
			if commFailed() && !ownImage() {
				problem = noConnection
			} else if !ownImage() {
				problem = fmt.Sprintf("the cell of slider %s shows no picture within %v; images: %s", s.ID, sliderWait/2, describe(before))
			}
		}
		if problem == "" {
			break
		}
		for _, line := range page.Console() {
			t.Logf("%s: browser %s", name, line)
		}
		// The explorer stops with widget.ErrNoAnswer when its widgets get
		// no answer (widget.Await): the same flake, reported by the cell.
		if now, err := page.Progress(); err == nil {
			pr = now
		}
		out, err := page.OutputText()
		noAnswer := err == nil && strings.Contains(out, widget.ErrNoAnswer.Error())
		if (pr.Errors > 0 && !noAnswer) || attempt == 2 || ctx.Err() != nil {
			if nb, err := page.Notebook(); err == nil {
				checkCells(t, nb)
			}
			t.Fatalf("%s: %s", name, problem)
		}
		t.Logf("%s: %s; restarting the kernel and running all cells again", name, problem)
		if err := page.RestartKernel(ctx); err != nil {
			t.Fatal(err)
		}
	}
	old := make(map[string]bool)
	for _, img := range before {
		old[img.Src] = true
	}
	to := s.Max
	if s.Value == s.Max {
		to = s.Min
	}
	if to == s.Value {
		t.Fatalf("slider %s cannot move: min %d = max %d", s.ID, s.Min, s.Max)
	}
	t.Logf("%s: slider %s (%d..%d) at %d after %v; moving it to %d",
		name, s.ID, s.Min, s.Max, s.Value, time.Since(start).Round(100*time.Millisecond), to)
	// GoNB very rarely loses a slider's message (the plot then never
	// changes, about 1 run in 10 here): when nothing changes within
	// moveWait, the slider is moved once more, to another value, as a user
	// would. A plot that follows neither move fails.
	const moveWait = 20 * time.Second
	moves := []int{to, s.Value}
	if alt := (s.Min + s.Max) / 2; alt != s.Value && alt != to {
		moves[1] = alt
	}
	var changed *Image
	var moved time.Time
	for i, v := range moves {
		if i > 0 {
			t.Logf("%s: no image changed within %v of moving slider %s to %d; moving it to %d", name, moveWait, s.ID, moves[i-1], v)
		}
		moved = time.Now()
		if err := page.MoveSlider(s.ID, v); err != nil {
			t.Fatal(err)
		}
		var imgs []Image
		for deadline := moved.Add(moveWait); changed == nil && time.Now().Before(deadline) && ctx.Err() == nil; time.Sleep(200 * time.Millisecond) {
			if imgs, err = page.Images(); err != nil {
				t.Fatal(err)
			}
			for _, img := range imgs {
				if !old[img.Src] && img.Complete && img.Width > 0 {
					changed = &img
					break
				}
			}
		}
		if changed != nil {
			break
		}
		if i == len(moves)-1 {
			t.Fatalf("moved slider %s from %d to %v, but no image changed within %v of each move; images: %s", s.ID, s.Value, moves, moveWait, describe(imgs))
		}
	}
	t.Logf("%s: the plot changed %v after the slider moved (%dx%d)",
		name, time.Since(moved).Round(10*time.Millisecond), changed.Width, changed.Height)
	if nb, err := page.Notebook(); err == nil {
		for _, f := range runner.Failures(nb) {
			t.Errorf("cell In[%d] failed: %s", f.Cell, f.FirstLine())
		}
	}
	// The explorer can draw again right after a move (each of its pictures
	// follows the slider), replacing the image found above: screenshot the
	// newest new picture.
	shot := filepath.Join(out, strings.TrimSuffix(name, ".ipynb")+"-slider.png")
	err = page.ScreenshotImage(changed.Src, shot)
	for try := 1; err != nil && try < 5; try++ {
		t.Logf("%s: screenshot: %v; the picture was drawn again, taking the newer one", name, err)
		time.Sleep(300 * time.Millisecond)
		imgs, ierr := page.Images()
		if ierr != nil {
			t.Fatal(ierr)
		}
		for _, img := range imgs {
			if !old[img.Src] && img.Complete && img.Width > 0 {
				err = page.ScreenshotImage(img.Src, shot)
				break
			}
		}
	}
	if err != nil {
		t.Errorf("screenshot of the plot: %v", err)
	}
	testTextInput(ctx, t, page, name)
}

// typedSentence is what testTextInput types, and typedTokens the start of
// the explorer's alt text once it draws it (lib/text lower-cases words).
const (
	typedSentence = "A dog chased the red ball"
	typedTokens   = "attention over: a dog chased the red ball"
)

// testTextInput types a sentence into the first text input of the page,
// if it has one, and requires a picture whose alt text names its tokens:
// the heat maps' labels follow the text box. The explorer (a notebook
// named *explor*) must have one.
func testTextInput(ctx context.Context, t *testing.T, page *NotebookPage, name string) {
	t.Helper()
	inputs, err := page.TextInputs()
	if err != nil {
		t.Fatal(err)
	}
	if len(inputs) == 0 {
		if strings.Contains(name, "explor") {
			t.Fatalf("%s: the explorer shows no text input for the sentence", name)
		}
		return
	}
	const typeWait = 20 * time.Second
	var imgs []Image
	for attempt := 1; attempt <= 2; attempt++ {
		typed, text := time.Now(), typedSentence
		if attempt > 1 {
			text += " again" // the same text again would send nothing
		}
		if err := page.TypeText(inputs[0], text); err != nil {
			t.Fatal(err)
		}
		for deadline := typed.Add(typeWait); time.Now().Before(deadline) && ctx.Err() == nil; time.Sleep(200 * time.Millisecond) {
			if imgs, err = page.Images(); err != nil {
				t.Fatal(err)
			}
			for _, img := range imgs {
				if strings.HasPrefix(img.Alt, typedTokens) && img.Complete && img.Width > 0 {
					t.Logf("%s: typed %q into %s; the heat maps were redrawn over its tokens %v later (%dx%d)",
						name, typedSentence, inputs[0], time.Since(typed).Round(10*time.Millisecond), img.Width, img.Height)
					if strings.Contains(name, "explor") {
						testAnalysis(ctx, t, page, name)
					}
					return
				}
			}
		}
		// As with the sliders, GoNB can lose a widget's message: type once more.
		t.Logf("%s: no picture of %q within %v of typing it (attempt %d)", name, typedTokens, typeWait, attempt)
	}
	alts := make([]string, len(imgs))
	for i, img := range imgs {
		alts[i] = fmt.Sprintf("%q", img.Alt)
	}
	t.Fatalf("%s: typed %q into %s, but no picture's labels became %q; alt texts: %s", name, typedSentence, inputs[0], typedTokens, strings.Join(alts, ", "))
}

// analysisWant are lines the explorer's analysis of typedSentence shows.
var analysisWant = []string{"Validation: ok", "Padded batch [1][8]", "Summary statistics", "Attention patterns over a dog chased the red ball"}

// testAnalysis presses the explorer's "Run analysis" button and requires
// the analysis of the typed sentence beside the heat maps.
func testAnalysis(ctx context.Context, t *testing.T, page *NotebookPage, name string) {
	t.Helper()
	const wait = 20 * time.Second
	var text string
	for attempt := 1; attempt <= 2; attempt++ {
		clicked := time.Now()
		if err := page.ClickButton("Run analysis"); err != nil {
			t.Fatal(err)
		}
		for deadline := clicked.Add(wait); time.Now().Before(deadline) && ctx.Err() == nil; time.Sleep(200 * time.Millisecond) {
			var err error
			if text, err = page.OutputText(); err != nil {
				t.Fatal(err)
			}
			missing := false
			for _, w := range analysisWant {
				missing = missing || !strings.Contains(text, w)
			}
			if !missing {
				t.Logf("%s: the analysis of the typed sentence showed %v after Run analysis", name, time.Since(clicked).Round(10*time.Millisecond))
				return
			}
		}
		t.Logf("%s: no analysis within %v of pressing Run analysis (attempt %d)", name, wait, attempt)
	}
	t.Fatalf("%s: pressed Run analysis, but the output lacks one of %q; its text ends:\n%s", name, analysisWant, tail(text, 20))
}

// checkCells reports every failed cell, as `course run` does, and every
// code cell that did not run.
func checkCells(t *testing.T, nb *notebook.Notebook) {
	t.Helper()
	failures := append(runner.Failures(nb), runner.MissingFigures(nb, "viz.Show")...)
	for _, f := range failures {
		t.Errorf("cell In[%d] failed: %s\n%s", f.Cell, f.FirstLine(), indent(f.Text))
	}
	n := 0
	for _, c := range nb.Cells {
		if c.Type != notebook.Code {
			continue
		}
		n++
		if strings.TrimSpace(c.Source) != "" && c.ExecutionCount == nil {
			t.Errorf("code cell %d did not run: %s", n, firstLine(c.Source))
		}
	}
}

// showCalls counts the calls of show in the code cells, outside comments.
func showCalls(nb *notebook.Notebook, show string) int {
	n := 0
	for _, c := range nb.Cells {
		if c.Type != notebook.Code {
			continue
		}
		for line := range strings.Lines(c.Source) {
			code, _, _ := strings.Cut(line, "//")
			n += strings.Count(code, show+"(")
		}
	}
	return n
}

// plausible returns the images that loaded with the size of a figure.
func plausible(imgs []Image) []Image {
	var out []Image
	for _, img := range imgs {
		if img.Complete && img.Width >= minFigureWidth && img.Height >= minFigureHeight &&
			img.Width <= maxFigureSide && img.Height <= maxFigureSide {
			out = append(out, img)
		}
	}
	return out
}

// describe lists images for a message, without their (long) data URLs.
func describe(imgs []Image) string {
	var parts []string
	for _, img := range imgs {
		parts = append(parts, fmt.Sprintf("cell %d: %dx%d complete=%v", img.Cell, img.Width, img.Height, img.Complete))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "; ")
}

// checkStopped fails the test if any of pids still runs, or any process
// still works in dir (if not empty), after Stop; it kills those left.
func checkStopped(t *testing.T, what string, pids []int, dir string) {
	t.Helper()
	left := proctree.Alive(pids)
	if dir != "" {
		for _, p := range ProcessesIn(dir) {
			if !slices.Contains(left, p) {
				left = append(left, p)
			}
		}
	}
	if len(left) > 0 {
		t.Errorf("%s: processes left running after stopping: %v", what, left)
		for _, p := range left {
			_ = syscall.Kill(p, syscall.SIGKILL)
		}
		return
	}
	t.Logf("%s stopped: %d processes, none left", what, len(pids))
}

// testContext returns a context that ends after budget, before the test's
// deadline, or when the test binary gets SIGINT or SIGTERM; the test then
// fails and its cleanups stop the processes.
func testContext(t *testing.T) context.Context {
	deadline := time.Now().Add(budget)
	if d, ok := t.Deadline(); ok && d.Add(-30*time.Second).Before(deadline) {
		deadline = d.Add(-30 * time.Second)
	}
	ctx, cancel := context.WithDeadlineCause(context.Background(), deadline,
		errors.New("the browser test ran out of time"))
	t.Cleanup(cancel)
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	t.Cleanup(stop)
	return ctx
}

// courseRoot returns the course root: the folder above this package with
// the course's go.mod.
func courseRoot(t *testing.T) string {
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for d := dir; ; d = filepath.Dir(d) {
		if data, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil &&
			bytes.HasPrefix(data, []byte("module github.com/attention-in-go/course\n")) {
			return d
		}
		if filepath.Dir(d) == d {
			t.Fatalf("no course go.mod above %s", dir)
		}
	}
}

// kernelEnv returns the environment for Jupyter and its kernels: ours, with
// $(go env GOPATH)/bin first on the PATH (gonb's tools) and COURSE_ROOT set.
func kernelEnv(root string) []string {
	gopath := "."
	if out, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
		gopath = filepath.SplitList(strings.TrimSpace(string(out)))[0]
	}
	env := withoutKeys(os.Environ(), "PATH", "COURSE_ROOT", "COURSE_HEADLESS") // a browser is attached: sliders must run
	return append(env,
		"PATH="+filepath.Join(gopath, "bin")+string(filepath.ListSeparator)+os.Getenv("PATH"),
		"COURSE_ROOT="+root)
}

// buildFixture builds the notebook of a lesson-format source, as `make
// notebooks` does (with the setup cell), into dir, and returns its name.
func buildFixture(t *testing.T, src, dir string) string {
	t.Helper()
	l, err := lesson.ParseFile(src)
	if err != nil {
		t.Fatal(err)
	}
	nb, err := build.Default.Build(l)
	if err != nil {
		t.Fatal(err)
	}
	name := l.Slug + ".ipynb"
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := notebook.WriteFile(filepath.Join(dir, name), nb); err != nil {
		t.Fatal(err)
	}
	return name
}

// widgetNotebooks returns the notebooks in dir whose code uses GoNB's
// widgets, or whose name says it is the explorer (which may hide its
// widgets in the library): the test expects a slider in those.
func widgetNotebooks(t *testing.T, dir string) []string {
	paths, err := filepath.Glob(filepath.Join(dir, "*.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(paths)
	var out []string
	for _, p := range paths {
		if strings.Contains(strings.ToLower(filepath.Base(p)), "explor") {
			out = append(out, p)
			continue
		}
		nb, err := notebook.ReadFile(p)
		if err != nil {
			t.Errorf("reading %s: %v", p, err)
			continue
		}
		for _, c := range nb.Cells {
			if c.Type == notebook.Code && widgetCode.MatchString(c.Source) {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := writeFile(to, data); err != nil {
		t.Fatal(err)
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ")
}

// tail returns the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// testClassReport opens the grader's class report of a small class, as
// an instructor would from the output folder, and checks that it shows
// its figures (the totals' histogram and one per exercise, loaded) and
// its learners' names as text.
func testClassReport(ctx context.Context, t *testing.T, chrome *Chromium, root, dir, out string) {
	a, err := grade.LoadAssignment(root, "lessons/exercises/01-scaled-dot-product-attention.md")
	if err != nil {
		t.Fatal(err)
	}
	var gs []grade.Graded
	for i, name := range []string{"alice", "bob", "carol", "<b>dave</b>"} {
		g := grade.Graded{Learner: name, File: fmt.Sprintf("learner%d", i)}
		for j, e := range a.Exercises {
			s := grade.Score{Exercise: e.ID, Max: e.Points, Points: float64((i + j) % (e.Points + 1)), Status: grade.StatusPartial}
			if j == 1 && i == 1 {
				s.Mistakes = []grade.Mistake{{Hint: "no-scale", Message: "divide the scores by √d_k", Cases: 2, Example: "row 0: got 0.9, want 0.7"}}
			}
			g.Scores = append(g.Scores, s)
		}
		gs = append(gs, g)
	}
	html, _, err := grade.Report(gs, a, grade.RunInfo{Seed: 7, Version: grade.Version, Started: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "report.html")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, html, 0o644); err != nil {
		t.Fatal(err)
	}
	page, err := chrome.Page(proto.TargetCreateTarget{URL: "about:blank"})
	if err != nil {
		t.Fatal(err)
	}
	p := &NotebookPage{Page: page.Context(ctx)}
	defer p.Close()
	if err := p.setViewport(ViewportWidth, ViewportHeight); err != nil {
		t.Fatal(err)
	}
	if err := p.Page.Navigate("file://" + path); err != nil {
		t.Fatal(err)
	}
	var shown struct {
		Title   string  `json:"title"`
		Images  []Image `json:"images"`
		Text    string  `json:"text"`
		Scripts int     `json:"scripts"`
	}
	wait, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	err = p.waitFor(wait, "the report's figures to load", 100*time.Millisecond, func() (bool, error) {
		err := p.eval(&shown, `() => ({
			title: document.title, text: document.body ? document.body.innerText : "",
			scripts: document.scripts.length,
			images: Array.from(document.images).map(img => ({src: img.src.slice(0, 40), complete: img.complete,
				width: img.naturalWidth, height: img.naturalHeight, alt: img.alt})),
		})`)
		done := allLoaded(shown.Images)
		return err == nil && done, err
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := len(a.Exercises) + 1; len(plausible(shown.Images)) != want {
		t.Errorf("the report shows %d figures of a plausible size, want %d: %s", len(plausible(shown.Images)), want, describe(shown.Images))
	}
	for _, want := range []string{"Class report — 01-scaled-dot-product-attention", "<b>dave</b>", "divide the scores by √d_k", "Needs attention"} {
		if !strings.Contains(shown.Title+"\n"+shown.Text, want) {
			t.Errorf("the report does not show %q", want)
		}
	}
	if shown.Scripts != 0 {
		t.Errorf("the report has %d scripts", shown.Scripts)
	}
	if err := p.ScreenshotPage(filepath.Join(out, "class-report.png")); err != nil {
		t.Errorf("screenshot of the report: %v", err)
	}
	t.Logf("class report: %d figures (%s), %d bytes", len(shown.Images), describe(shown.Images), len(html))
}

// allLoaded reports whether every image of the page has loaded.
func allLoaded(imgs []Image) bool {
	if len(imgs) == 0 {
		return false
	}
	for _, img := range imgs {
		if !img.Complete || img.Width == 0 {
			return false
		}
	}
	return true
}
