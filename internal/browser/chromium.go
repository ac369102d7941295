//go:build unix

package browser

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/launcher"

	"github.com/attention-in-go/course/internal/proctree"
)

// DefaultChromium is where Debian's chromium package installs the browser
// (`scripts/install.sh --browser`).
const DefaultChromium = "/usr/bin/chromium"

// Chromium is a headless Chromium driven through the DevTools protocol.
type Chromium struct {
	*rod.Browser
	pid int
}

// LaunchChromium starts the Chromium at bin, headless, with a fresh profile
// in userDataDir, and connects to it. It never downloads a browser: bin must
// exist. Stop it with [Chromium.Stop].
//
// The flags keep the browser off the network except for the pages it is
// sent to (no background networking, component updates, sync or QUIC) and
// make it work as root and without a GPU.
func LaunchChromium(ctx context.Context, bin, userDataDir string) (*Chromium, error) {
	if bin == "" {
		return nil, errors.New("no browser given")
	}
	if _, err := os.Stat(bin); err != nil {
		return nil, fmt.Errorf("no browser at %s (%v): install Debian's chromium with `scripts/install.sh --browser`", bin, err)
	}
	// Setting Bin is what keeps rod from looking for, or downloading, a
	// browser of its own. Leakless (rod's default) runs the browser under a
	// small guard process that kills it if this process dies without
	// stopping it, e.g. when `go test` times out.
	l := launcher.New().
		Context(ctx).
		Bin(bin).
		Headless(true).
		NoSandbox(true).
		UserDataDir(userDataDir).
		Set("disable-gpu").
		Set("disable-quic").
		Set("no-first-run").
		Set("disable-background-networking").
		Set("disable-component-update").
		Set("disable-sync").
		Set("window-size", "1280,900")
	u, err := l.Launch()
	if err != nil {
		l.Kill()
		return nil, fmt.Errorf("starting %s: %w", bin, err)
	}
	c := &Chromium{pid: l.PID()}
	c.Browser = rod.New().ControlURL(u).Context(ctx)
	if err := c.Connect(); err != nil {
		c.Stop()
		return nil, fmt.Errorf("connecting to %s: %w", bin, err)
	}
	return c, nil
}

// PID returns the browser's process id.
func (c *Chromium) PID() int { return c.pid }

// Stop closes the browser and stops its processes by process id (the
// browser, its renderers and helpers, and the guard process of its group):
// SIGTERM, then SIGKILL. It returns the processes it signalled.
func (c *Chromium) Stop() []int {
	// Note the processes first: once the browser has exited, its helpers
	// are no longer its children.
	pgid := processGroup(c.pid)
	tree := append([]int{c.pid}, proctree.Descendants(c.pid)...)
	if c.Browser != nil {
		// Ask politely first, but do not wait long for a browser that
		// may be stuck.
		done := make(chan struct{})
		go func() { _ = c.Browser.Close(); close(done) }()
		select {
		case <-done:
		case <-time.After(3 * time.Second):
		}
	}
	return proctree.Stop(tree, pgid, 5*time.Second)
}
