// Package browser runs the course's notebooks the way a reader does: in the
// real Jupyter Notebook server, in a real browser.
//
// The headless runner (`course run`) executes notebooks with nbconvert and
// checks what the kernel sent. It cannot see what a reader sees: whether the
// figures render in the page, whether GoNB's widgets talk to their program
// over the browser's websocket. This package drives Debian's Chromium,
// headless, through the Chrome DevTools protocol (github.com/go-rod/rod),
// against Jupyter Notebook 6 started on a free local port:
//
//   - [StartJupyter] starts `jupyter notebook` on 127.0.0.1 with a known
//     token and its own runtime and config folders, and [Jupyter.Stop] stops
//     it with every kernel it started, by process id;
//   - [LaunchChromium] starts Chromium from a given binary (never a
//     downloaded one) with a fresh profile, and [Chromium.Stop] stops it;
//   - [OpenNotebook] opens a notebook in a page, and the methods of
//     [NotebookPage] run all its cells, read back the notebook with its
//     outputs, list the images rendered in the output areas, move GoNB
//     sliders and take screenshots.
//
// The test of this package (make test-browser) runs lesson 1 and the
// notebooks with GoNB widget sliders this way.
package browser
