// Package vision holds the course's Vision Transformer exercise: the small
// greyscale images it classifies (bars, crosses and rings at random places
// and sizes, with noise, from a seed) and the ViT that learns them.
//
// A Vision Transformer (Dosovitskiy et al., "An Image is Worth 16x16 Words",
// 2020) cuts an image into patches, embeds each patch like a word and runs a
// Transformer encoder over the patches. To tell a bar from a cross or a ring
// it must relate patches to one another — a bar's pixels lie on one line, a
// cross's on two lines that meet, a ring's around an empty centre — which is
// exactly what attention does. The images are small (16×16 by default) so
// that a model learns them on a laptop CPU in a minute or two.
//
// Every image is drawn from lib/random, so a dataset is the same on every
// machine for a given seed.
//
// Introduced in lesson 05 (the Transformer encoder), exercise notebook.
package vision

import (
	"fmt"
	"math"

	"gonum.org/v1/plot/vg"

	"github.com/attention-in-go/course/lib/random"
	"github.com/attention-in-go/course/lib/viz"
)

// Class is the kind of shape an image shows; its value is the class label.
//
// Introduced in lesson 05 (the Transformer encoder), exercise notebook.
type Class int

const (
	// Bar is one straight bar, horizontal, vertical or diagonal.
	Bar Class = iota
	// Cross is two bars crossing at right angles, as "+" or "×".
	Cross
	// Ring is the outline of a circle.
	Ring
)

// NumClasses is the number of classes (bar, cross, ring).
const NumClasses = 3

// ClassNames are the names of the classes, indexed by label.
var ClassNames = []string{"bar", "cross", "ring"}

// String returns the name of the class.
func (c Class) String() string {
	if c < 0 || int(c) >= NumClasses {
		return fmt.Sprintf("Class(%d)", int(c))
	}
	return ClassNames[c]
}

// Noise is the standard deviation of the Gaussian noise added to every
// pixel.
const Noise = 0.1

// MinSize is the smallest image size Generate accepts: below 8 pixels the
// shapes can no longer be told apart.
const MinSize = 8

// Dataset is a set of labelled images.
//
// Typical shapes: Images [n][size][size], Labels [n].
//
// Introduced in lesson 05 (the Transformer encoder), exercise notebook.
type Dataset struct {
	// Images are greyscale, one [size][size] matrix per image, row 0 at
	// the top; the background is about 0 and the strokes about 1.
	Images [][][]float64
	// Labels are the classes of the images, as int (0 bar, 1 cross,
	// 2 ring).
	Labels []int
	// Size is the width and height of every image.
	Size int
}

// Len returns the number of images.
func (d *Dataset) Len() int { return len(d.Labels) }

// Generate draws n images of size×size pixels: the classes in turn (bar,
// cross, ring, bar, …, so every class has n/3 images, ±1) in a shuffled
// order, each shape at a random place, size and orientation, with
// Gaussian noise of standard deviation [Noise]. The same seed gives the
// same images; use different seeds for training and test sets.
//
// It returns an error when n < 1 or size < [MinSize].
//
// Typical shapes: Images [n][16][16].
//
// Introduced in lesson 05 (the Transformer encoder), exercise notebook.
func Generate(n, size int, seed uint32) (*Dataset, error) {
	if n < 1 {
		return nil, fmt.Errorf("vision: n is %d: ask for at least one image", n)
	}
	if size < MinSize {
		return nil, fmt.Errorf("vision: size is %d: images must be at least %d×%d pixels for the shapes to be recognisable", size, MinSize, MinSize)
	}
	r := random.New(seed)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	// Fisher–Yates shuffle: which image gets which class.
	for i := n - 1; i > 0; i-- {
		j := intn(r, i+1)
		order[i], order[j] = order[j], order[i]
	}
	d := &Dataset{Images: make([][][]float64, n), Labels: make([]int, n), Size: size}
	for i := range n {
		c := Class(order[i] % NumClasses)
		d.Labels[i] = int(c)
		d.Images[i] = Draw(c, size, r)
	}
	return d, nil
}

// Draw draws one image of class c, size×size pixels, with the random
// numbers of r: the shape at a random place and size, then the noise.
//
//   - Bar: a stroke of length 0.5–0.85·size through a random point,
//     horizontal, vertical or along a diagonal.
//   - Cross: two perpendicular strokes of the same length crossing at
//     their middles, as "+" or "×".
//   - Ring: a circle of radius 0.2–0.35·size.
//
// Strokes are about 1.3 pixels wide and anti-aliased: a pixel's intensity
// falls off linearly with its distance from the stroke.
//
// Introduced in lesson 05 (the Transformer encoder), exercise notebook.
func Draw(c Class, size int, r *random.Source) [][]float64 {
	img := make([][]float64, size)
	for i := range img {
		img[i] = make([]float64, size)
	}
	s := float64(size)
	const width = 0.65 // half the stroke width, in pixels
	switch c {
	case Bar, Cross:
		half := s * (0.25 + 0.175*r.Float64()) // half the stroke length
		margin := half
		if c == Bar {
			margin = 1.5
		}
		cx := uniform(r, margin, s-1-margin)
		cy := uniform(r, margin, s-1-margin)
		angle := float64(intn(r, 4)) * math.Pi / 4 // 0°, 45°, 90°, 135°
		if c == Bar {
			// Keep the whole bar inside the image: move the centre back
			// in if an end sticks out.
			dx, dy := half*math.Cos(angle), half*math.Sin(angle)
			cx = clamp(cx, math.Abs(dx)+0.5, s-1.5-math.Abs(dx))
			cy = clamp(cy, math.Abs(dy)+0.5, s-1.5-math.Abs(dy))
		} else {
			// A cross is "+" or "×": two strokes 90° apart.
			angle = float64(intn(r, 2)) * math.Pi / 4
			if angle != 0 {
				half *= 0.8 // the arms of a "×" run along the diagonals
				cx = clamp(cx, half*0.71+0.5, s-1.5-half*0.71)
				cy = clamp(cy, half*0.71+0.5, s-1.5-half*0.71)
			}
		}
		stroke(img, cx, cy, angle, half, width)
		if c == Cross {
			stroke(img, cx, cy, angle+math.Pi/2, half, width)
		}
	case Ring:
		radius := s * (0.2 + 0.15*r.Float64())
		cx := uniform(r, radius+0.5, s-1.5-radius)
		cy := uniform(r, radius+0.5, s-1.5-radius)
		for y := range img {
			for x := range img[y] {
				d := math.Abs(math.Hypot(float64(x)-cx, float64(y)-cy) - radius)
				img[y][x] = math.Max(img[y][x], ink(d, width))
			}
		}
	default:
		panic(fmt.Sprintf("vision.Draw: unknown class %d", int(c)))
	}
	for y := range img {
		for x := range img[y] {
			img[y][x] += Noise * r.NormFloat64()
		}
	}
	return img
}

// stroke draws a segment of half-length half through (cx, cy) at angle.
func stroke(img [][]float64, cx, cy, angle, half, width float64) {
	ux, uy := math.Cos(angle), math.Sin(angle)
	for y := range img {
		for x := range img[y] {
			px, py := float64(x)-cx, float64(y)-cy
			along := px*ux + py*uy
			across := math.Abs(-px*uy + py*ux)
			if over := math.Abs(along) - half; over > 0 {
				across = math.Hypot(across, over)
			}
			img[y][x] = math.Max(img[y][x], ink(across, width))
		}
	}
}

// ink is the intensity of a pixel at distance d from the centre line of a
// stroke of half-width w: 1 inside, falling to 0 over one pixel.
func ink(d, w float64) float64 {
	return clamp(1-(d-w), 0, 1)
}

func clamp(x, lo, hi float64) float64 {
	if hi < lo {
		return (lo + hi) / 2
	}
	return math.Min(math.Max(x, lo), hi)
}

func uniform(r *random.Source, lo, hi float64) float64 {
	if hi <= lo {
		return (lo + hi) / 2
	}
	return lo + (hi-lo)*r.Float64()
}

// intn returns a uniform integer in [0, n).
func intn(r *random.Source, n int) int {
	return min(int(r.Float64()*float64(n)), n-1)
}

// Counts returns how many images of each class d holds, indexed by label.
//
// Part of the library behind lesson 05's exercise notebook, which does not name it.
func (d *Dataset) Counts() []int {
	c := make([]int, NumClasses)
	for _, l := range d.Labels {
		c[l]++
	}
	return c
}

// Gallery draws the first n images of d side by side, cols per row, each
// titled with its class (and, when predicted is not nil, the predicted
// class of every mistake: "ring → bar" is a ring taken for a bar).
//
// Introduced in lesson 05 (the Transformer encoder), exercise notebook.
func Gallery(d *Dataset, n, cols int, predicted []int) *viz.Grid {
	n = min(n, d.Len())
	g := &viz.Grid{Cols: cols}
	for i := range n {
		title := Class(d.Labels[i]).String()
		if predicted != nil && i < len(predicted) {
			if predicted[i] != d.Labels[i] {
				title += " → " + Class(predicted[i]).String()
			}
		}
		g.Figures = append(g.Figures, &viz.Heatmap{Values: d.Images[i], Title: title, Palette: viz.Greys(),
			FixedRange: true, Min: 0, Max: 1, NoColorBar: true, Annotate: viz.AnnotateNever,
			Rows: blank(d.Size), Cols: blank(d.Size), Width: 3.5 * vg.Centimeter, Height: 4.1 * vg.Centimeter})
	}
	return g
}

// blank returns n empty tick labels, so image heat maps have no numbers on
// their axes.
func blank(n int) []string { return make([]string, n) }
