package grade

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/attention-in-go/course/lib/exercise"
)

// progress writes a line per finished submission: how many are done,
// the learner's points, how long it took, the time elapsed and an
// estimate of what remains at the pace so far. With jobs submissions
// graded in parallel, the first few finish together and say little of
// the pace: the estimate starts once jobs submissions were graded.
type progress struct {
	w     io.Writer
	total int
	jobs  int
	start time.Time
	now   func() time.Time

	mu      sync.Mutex
	done    int
	cached  int
	elapsed time.Duration // at the last graded (not cached) submission
}

func newProgress(w io.Writer, total, jobs int, now func() time.Time) *progress {
	if now == nil {
		now = time.Now
	}
	return &progress{w: w, total: total, jobs: max(jobs, 1), start: now(), now: now}
}

// finished records g, graded in took (or read from the cache), and
// writes its line.
func (p *progress) finished(g Graded, took time.Duration, cached bool) {
	if p == nil || p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	elapsed := p.now().Sub(p.start)
	how := "cached"
	if cached {
		p.cached++
	} else {
		how = fmtDuration(took)
		p.elapsed = elapsed
	}
	total, max := g.total()
	width := len(fmt.Sprint(p.total))
	line := fmt.Sprintf("[%*d/%d] %-20s %6s/%d  (%s)  %s elapsed", width, p.done, p.total, printable(g.Learner),
		exercise.FormatPoints(total), max, how, fmtDuration(elapsed))
	// The pace is that of the submissions graded so far: cached ones
	// take no time and say nothing of the rest.
	if graded := p.done - p.cached; graded >= p.jobs && p.done < p.total {
		left := time.Duration(float64(p.elapsed) / float64(graded) * float64(p.total-p.done))
		line += ", about " + fmtDuration(left) + " left"
	}
	fmt.Fprintln(p.w, line)
}

// fmtDuration writes d as 4.2s, 3:07 or 1:02:03.
func fmtDuration(d time.Duration) string {
	if d < time.Minute {
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	s := int(d.Round(time.Second).Seconds())
	if s < 3600 {
		return fmt.Sprintf("%d:%02d", s/60, s%60)
	}
	return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
}
