//go:build unix

package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"

	"github.com/attention-in-go/course/internal/notebook"
)

// NotebookPage is a notebook open in Jupyter Notebook 6's classic interface,
// whose JavaScript API (the global Jupyter.notebook) the methods use.
type NotebookPage struct {
	Page *rod.Page

	mu      sync.Mutex
	console []string // warnings and errors the page logged, see Console
}

// The size of the browser window, in CSS pixels, that pages are laid out
// for.
const (
	ViewportWidth  = 1280
	ViewportHeight = 900
)

// OpenNotebook opens url (see [Jupyter.NotebookURL]) in a new page and waits
// until the notebook is loaded and its kernel connected.
func OpenNotebook(ctx context.Context, b *Chromium, url string) (*NotebookPage, error) {
	page, err := b.Page(proto.TargetCreateTarget{URL: "about:blank"})
	if err != nil {
		return nil, err
	}
	p := &NotebookPage{Page: page.Context(ctx)}
	if err := p.followConsole(); err != nil {
		_ = page.Close()
		return nil, err
	}
	if err := p.open(ctx, url); err != nil {
		_ = page.Close()
		return nil, err
	}
	return p, nil
}

// followConsole records the warnings and errors the page's scripts log
// and the exceptions they leave uncaught, for [NotebookPage.Console].
func (p *NotebookPage) followConsole() error {
	if err := (proto.RuntimeEnable{}).Call(p.Page); err != nil {
		return fmt.Errorf("following the page's console: %w", err)
	}
	record := func(line string) {
		p.mu.Lock()
		defer p.mu.Unlock()
		p.console = append(p.console, line)
	}
	go p.Page.EachEvent(func(e *proto.RuntimeConsoleAPICalled) {
		if e.Type != proto.RuntimeConsoleAPICalledTypeError && e.Type != proto.RuntimeConsoleAPICalledTypeWarning {
			return
		}
		var args []string
		for _, a := range e.Args {
			if a.Value.Nil() {
				args = append(args, a.Description)
			} else {
				args = append(args, a.Value.String())
			}
		}
		record(fmt.Sprintf("console.%s: %s", e.Type, strings.Join(args, " ")))
	}, func(e *proto.RuntimeExceptionThrown) {
		d := e.ExceptionDetails
		msg := d.Text
		if d.Exception != nil && d.Exception.Description != "" {
			msg += " " + d.Exception.Description
		}
		record("uncaught: " + msg)
	})()
	return nil
}

// Console returns the warnings and errors the page logged so far, and its
// uncaught exceptions, oldest first: GoNB's widgets say there why they do
// not answer (a connection to the kernel that did not open, say).
func (p *NotebookPage) Console() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.console)
}

func (p *NotebookPage) open(ctx context.Context, url string) error {
	if err := p.setViewport(ViewportWidth, ViewportHeight); err != nil {
		return err
	}
	if err := p.Page.Navigate(url); err != nil {
		return fmt.Errorf("opening %s: %w", url, err)
	}
	err := p.waitFor(ctx, "the notebook to load and its kernel to connect", 100*time.Millisecond, func() (bool, error) {
		var ready bool
		err := p.eval(&ready, `() => !!(window.Jupyter && Jupyter.notebook && Jupyter.notebook._fully_loaded &&
			Jupyter.notebook.kernel && Jupyter.notebook.kernel.is_connected())`)
		return ready, err
	})
	if err != nil {
		return err
	}
	// Tests open copies of the notebooks, but never let Jupyter save them.
	return p.eval(nil, `() => Jupyter.notebook.set_autosave_interval(0)`)
}

// Progress is the state of a notebook's execution.
type Progress struct {
	Code     int  `json:"code"`     // code cells that are not blank
	Done     int  `json:"done"`     // code cells with an execution count
	Running  int  `json:"running"`  // code cells queued or running: In [*]
	Errors   int  `json:"errors"`   // error outputs so far
	Busy     bool `json:"busy"`     // the kernel is busy
	Sliders  int  `json:"sliders"`  // range inputs in output areas
	Rendered int  `json:"rendered"` // images in output areas that have loaded
}

func (pr Progress) String() string {
	return fmt.Sprintf("%d of %d code cells done, %d queued or running, %d errors, kernel busy: %v",
		pr.Done, pr.Code, pr.Running, pr.Errors, pr.Busy)
}

// progressJS computes a Progress in the page.
const progressJS = `() => {
	const code = Jupyter.notebook.get_cells().filter(c => c.cell_type === 'code' && c.get_text().trim() !== '');
	const n = (v) => typeof v === 'number';
	let errors = 0;
	for (const c of code) errors += c.output_area.outputs.filter(o => o.output_type === 'error').length;
	const imgs = Array.from(document.querySelectorAll('#notebook .output_area img'));
	return {
		code: code.length,
		done: code.filter(c => n(c.input_prompt_number)).length,
		running: code.filter(c => c.input_prompt_number === '*').length,
		errors: errors,
		busy: !!document.querySelector('#kernel_indicator_icon.kernel_busy_icon'),
		sliders: document.querySelectorAll('#notebook .output_area input[type=range]').length,
		rendered: imgs.filter(i => i.complete && i.naturalWidth > 0).length,
	};
}`

// Progress returns the state of the notebook's execution.
func (p *NotebookPage) Progress() (Progress, error) {
	var pr Progress
	err := p.eval(&pr, progressJS)
	return pr, err
}

// RunAll runs all cells, as Cell > Run All does, and waits until every code
// cell has run and the kernel is idle. It also returns, without error, when
// the kernel has been idle for a few seconds after a cell failed: Jupyter
// then skips the cells queued after it, which never get an execution count.
// It returns an error if ctx ends first.
func (p *NotebookPage) RunAll(ctx context.Context) (Progress, error) {
	if err := p.StartRunAll(); err != nil {
		return Progress{}, err
	}
	return p.WaitUntil(ctx, "every code cell to run", func(pr Progress) bool {
		return pr.Done == pr.Code && pr.Running == 0 && !pr.Busy
	})
}

// StartRunAll queues all cells for execution, as Cell > Run All does, and
// returns at once. Use it for notebooks whose cells do not finish, such as
// a cell that keeps listening to a slider.
func (p *NotebookPage) StartRunAll() error {
	return p.eval(nil, `() => Jupyter.notebook.execute_all_cells()`)
}

// closeWait bounds how long Close waits for the page to close.
const closeWait = 10 * time.Second

// Close closes the page. Jupyter asks "leave this page?" (beforeunload)
// while a cell runs or the notebook has unsaved changes — a widget
// notebook has both — and the question would hold the close until the
// test's deadline: Close first drops the handler and marks the notebook
// saved, and waits at most closeWait.
func (p *NotebookPage) Close() error {
	_ = p.eval(nil, `() => {
		window.onbeforeunload = null;
		if (window.Jupyter && Jupyter.notebook) Jupyter.notebook.set_dirty(false);
	}`)
	return p.Page.Timeout(closeWait).Close()
}

// InterruptKernel interrupts the kernel, as Kernel > Interrupt does.
func (p *NotebookPage) InterruptKernel() error {
	return p.eval(nil, `() => Jupyter.notebook.kernel.interrupt()`)
}

// RestartKernel clears every output and restarts the kernel without
// asking, as Kernel › Restart & Clear Output does, and waits until the new
// kernel is idle.
func (p *NotebookPage) RestartKernel(ctx context.Context) error {
	if err := p.eval(nil, `() => { Jupyter.notebook.clear_all_output(); Jupyter.notebook.restart_kernel({confirm: false}); }`); err != nil {
		return err
	}
	time.Sleep(time.Second) // let the restart begin before polling for idle
	return p.waitFor(ctx, "the kernel to restart", 250*time.Millisecond, func() (bool, error) {
		var idle bool
		err := p.eval(&idle, `() => Jupyter.notebook.kernel.is_connected() && !document.querySelector('#kernel_indicator_icon.kernel_busy_icon')`)
		return idle, err
	})
}

// stalledAfterError is how long the kernel must be idle, after an error and
// with cells left unexecuted, before RunAll gives up waiting.
const stalledAfterError = 3 * time.Second

// WaitUntil polls the notebook's progress until done returns true, or the
// notebook stalled after an error (see [NotebookPage.RunAll]), or ctx ends.
// what says what is awaited, for the error.
func (p *NotebookPage) WaitUntil(ctx context.Context, what string, done func(Progress) bool) (Progress, error) {
	var pr Progress
	var idleSince time.Time
	err := p.waitFor(ctx, what, 250*time.Millisecond, func() (bool, error) {
		var err error
		if pr, err = p.Progress(); err != nil {
			return false, err
		}
		if done(pr) {
			return true, nil
		}
		if pr.Errors == 0 || pr.Busy {
			idleSince = time.Time{}
			return false, nil
		}
		if idleSince.IsZero() {
			idleSince = time.Now()
		}
		return time.Since(idleSince) > stalledAfterError, nil
	})
	if err != nil {
		return pr, fmt.Errorf("%w (%v)", err, pr)
	}
	return pr, nil
}

// Notebook returns the notebook as the page holds it, with every output
// received so far, read with the same package as the headless runner's.
func (p *NotebookPage) Notebook() (*notebook.Notebook, error) {
	var text string
	if err := p.eval(&text, `() => JSON.stringify(Jupyter.notebook.toJSON())`); err != nil {
		return nil, err
	}
	return notebook.Unmarshal([]byte(text))
}

// Image is an img element in a cell's output area.
type Image struct {
	Cell     int    `json:"cell"` // index of the cell among all cells
	Src      string `json:"src"`
	Complete bool   `json:"complete"` // loaded (or failed to load)
	Width    int    `json:"width"`    // natural size, 0 if it did not load
	Height   int    `json:"height"`
	Alt      string `json:"alt"` // the img's alt text
}

// Images returns the img elements in the notebook's output areas.
func (p *NotebookPage) Images() ([]Image, error) {
	var imgs []Image
	err := p.eval(&imgs, `() => {
		const cells = Array.from(document.querySelectorAll('#notebook .cell'));
		return Array.from(document.querySelectorAll('#notebook .output_area img')).map(img => ({
			cell: cells.indexOf(img.closest('.cell')), src: img.src, complete: img.complete,
			width: img.naturalWidth, height: img.naturalHeight, alt: img.alt,
		}));
	}`)
	return imgs, err
}

// Slider is a range input in an output area, such as GoNB's
// widgets.Slider, which renders as <input type="range" id="gonb_slider_…">.
type Slider struct {
	ID    string `json:"id"`
	Cell  int    `json:"cell"` // index of the cell among all cells
	Min   int    `json:"min"`
	Max   int    `json:"max"`
	Value int    `json:"value"`
}

// Sliders returns the range inputs in the notebook's output areas.
func (p *NotebookPage) Sliders() ([]Slider, error) {
	var sliders []Slider
	err := p.eval(&sliders, `() => {
		const cells = Array.from(document.querySelectorAll('#notebook .cell'));
		return Array.from(document.querySelectorAll('#notebook .output_area input[type=range]')).map(s => ({
			id: s.id, cell: cells.indexOf(s.closest('.cell')),
			min: Number(s.min), max: Number(s.max), value: Number(s.value),
		}));
	}`)
	return sliders, err
}

// MoveSlider sets the value of the range input with the given id and
// dispatches the input and change events a reader's drag would, which is
// what GoNB's slider listens to.
func (p *NotebookPage) MoveSlider(id string, value int) error {
	var ok bool
	err := p.eval(&ok, `(id, v) => {
		const s = document.getElementById(id);
		if (!s) return false;
		s.value = String(v);
		s.dispatchEvent(new Event('input', {bubbles: true}));
		s.dispatchEvent(new Event('change', {bubbles: true}));
		return true;
	}`, id, value)
	if err == nil && !ok {
		err = fmt.Errorf("no slider with id %q", id)
	}
	return err
}

// TextInputs returns the ids of the text inputs in the notebook's output
// areas, such as the course's widget.TextInput, in page order.
func (p *NotebookPage) TextInputs() ([]string, error) {
	var ids []string
	err := p.eval(&ids, `() => Array.from(document.querySelectorAll('#notebook .output_area input[type=text]')).map(i => i.id)`)
	return ids, err
}

// ClickButton clicks the first button in the notebook's output areas
// whose text is label, such as GoNB's widgets.Button.
func (p *NotebookPage) ClickButton(label string) error {
	obj, err := p.Page.Evaluate(rod.Eval(`(label) => Array.from(document.querySelectorAll('#notebook .output_area button'))
		.find(b => b.textContent.trim() === label) || null`, label).ByObject())
	if err != nil {
		return err
	}
	if obj.ObjectID == "" {
		return fmt.Errorf("no button %q in the notebook's output", label)
	}
	el, err := p.Page.ElementFromObject(obj)
	if err != nil {
		return err
	}
	if err := el.ScrollIntoView(); err != nil {
		return err
	}
	return el.Click(proto.InputMouseButtonLeft, 1)
}

// OutputText returns the text of the pre elements in the notebook's
// output areas, one after the other.
func (p *NotebookPage) OutputText() (string, error) {
	var text string
	err := p.eval(&text, `() => Array.from(document.querySelectorAll('#notebook .output_area pre')).map(e => e.innerText).join("\n")`)
	return text, err
}

// TypeText replaces the text of the input with the given id as a reader
// does: it clicks into the input, selects its text, types text over it
// with the keyboard and presses Enter.
func (p *NotebookPage) TypeText(id, text string) error {
	el, err := p.Page.Element("#" + id)
	if err != nil {
		return fmt.Errorf("no text input with id %q: %w", id, err)
	}
	if err := el.ScrollIntoView(); err != nil {
		return err
	}
	if err := el.Click(proto.InputMouseButtonLeft, 1); err != nil {
		return err
	}
	if err := el.SelectAllText(); err != nil {
		return err
	}
	if err := el.Input(text); err != nil {
		return err
	}
	return el.Type(input.Enter)
}

// ScreenshotPage writes a PNG of the whole notebook to path. Notebook 6
// scrolls the notebook inside a fixed-height element: it is unrolled, and
// the window made as tall as the notebook (at the same width, so that no
// line wraps differently), before the screenshot.
func (p *NotebookPage) ScreenshotPage(path string) error {
	var height int
	if err := p.eval(&height, `() => {
		for (const el of [document.documentElement, document.body, document.getElementById('site')]) {
			if (el) { el.style.height = 'auto'; el.style.overflow = 'visible'; }
		}
		return document.documentElement.scrollHeight;
	}`); err != nil {
		return err
	}
	if err := p.setViewport(ViewportWidth, height); err != nil {
		return err
	}
	defer p.setViewport(ViewportWidth, ViewportHeight)
	// Editors keep the size they measured in the smaller window until
	// refreshed (a page that is not a notebook has none).
	if err := p.eval(nil, `() => {
		if (window.Jupyter && Jupyter.notebook) for (const c of Jupyter.notebook.get_cells()) if (c.code_mirror) c.code_mirror.refresh();
		return new Promise(resolve => requestAnimationFrame(() => requestAnimationFrame(resolve)));
	}`); err != nil {
		return err
	}
	png, err := p.Page.Screenshot(false, &proto.PageCaptureScreenshot{
		Format:                proto.PageCaptureScreenshotFormatPng,
		CaptureBeyondViewport: true,
	})
	if err != nil {
		return err
	}
	return writeFile(path, png)
}

// setViewport sets the size of the page's window, in CSS pixels.
func (p *NotebookPage) setViewport(width, height int) error {
	return p.Page.SetViewport(&proto.EmulationSetDeviceMetricsOverride{
		Width: width, Height: height, DeviceScaleFactor: 1,
	})
}

// ScreenshotImage writes a PNG of the output area holding the img whose
// src is src to path.
func (p *NotebookPage) ScreenshotImage(src, path string) error {
	obj, err := p.Page.Evaluate(rod.Eval(`(src) => {
		const img = Array.from(document.querySelectorAll('#notebook .output_area img')).find(i => i.src === src);
		return img ? img.closest('.output_area') : null;
	}`, src).ByObject())
	if err != nil {
		return err
	}
	if obj.ObjectID == "" {
		return errors.New("no such image in the notebook")
	}
	el, err := p.Page.ElementFromObject(obj)
	if err != nil {
		return err
	}
	png, err := el.Screenshot(proto.PageCaptureScreenshotFormatPng, 0)
	if err != nil {
		return err
	}
	return writeFile(path, png)
}

// eval evaluates the JavaScript function js with args in the page and
// decodes its JSON result into out, unless out is nil.
func (p *NotebookPage) eval(out any, js string, args ...any) error {
	res, err := p.Page.Eval(js, args...)
	if err != nil {
		return err
	}
	if out == nil {
		return nil
	}
	data, err := json.Marshal(res.Value)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, out)
}

// waitFor calls cond every interval until it returns true or an error, or
// ctx ends.
func (p *NotebookPage) waitFor(ctx context.Context, what string, interval time.Duration, cond func() (bool, error)) error {
	for {
		ok, err := cond()
		if err != nil && ctx.Err() == nil {
			return fmt.Errorf("waiting for %s: %w", what, err)
		}
		if ok {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s: %w", what, context.Cause(ctx))
		case <-time.After(interval):
		}
	}
}

// writeFile writes data to path, creating its folder.
func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}
