package vision

import (
	"math"
	"reflect"
	"testing"

	"github.com/attention-in-go/course/lib/random"
	"github.com/attention-in-go/course/lib/viz"
)

func TestGenerateErrors(t *testing.T) {
	tests := []struct {
		name    string
		n, size int
	}{
		{"no images", 0, 16},
		{"negative count", -3, 16},
		{"too small", 10, MinSize - 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if d, err := Generate(tc.n, tc.size, 1); err == nil {
				t.Errorf("Generate(%d, %d) = %d images, want an error", tc.n, tc.size, d.Len())
			}
		})
	}
}

func TestGenerateDeterministicAndBalanced(t *testing.T) {
	a, err := Generate(10, 16, 3)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Generate(10, 16, 3)
	if !reflect.DeepEqual(a, b) {
		t.Error("the same seed gave different datasets")
	}
	c, _ := Generate(10, 16, 4)
	if reflect.DeepEqual(a.Images, c.Images) {
		t.Error("seeds 3 and 4 gave the same images")
	}
	if got, want := a.Counts(), []int{4, 3, 3}; !reflect.DeepEqual(got, want) {
		t.Errorf("Counts() = %v, want %v", got, want)
	}
	if len(a.Images) != 10 || len(a.Images[0]) != 16 || len(a.Images[0][0]) != 16 {
		t.Errorf("images are %d×%d×%d, want 10×16×16", len(a.Images), len(a.Images[0]), len(a.Images[0][0]))
	}
	// The classes are shuffled, not in turn.
	if reflect.DeepEqual(a.Labels, []int{0, 1, 2, 0, 1, 2, 0, 1, 2, 0}) {
		t.Error("labels are not shuffled")
	}
}

// inkPixels returns the coordinates of the pixels brighter than 0.5.
func inkPixels(img [][]float64) (xs, ys []float64) {
	for y, row := range img {
		for x, v := range row {
			if v > 0.5 {
				xs, ys = append(xs, float64(x)), append(ys, float64(y))
			}
		}
	}
	return xs, ys
}

// spread returns the centroid of the points and the two eigenvalues of
// their covariance, largest first, computed in closed form.
func spread(xs, ys []float64) (cx, cy, major, minor float64) {
	n := float64(len(xs))
	for i := range xs {
		cx += xs[i] / n
		cy += ys[i] / n
	}
	var sxx, syy, sxy float64
	for i := range xs {
		dx, dy := xs[i]-cx, ys[i]-cy
		sxx, syy, sxy = sxx+dx*dx/n, syy+dy*dy/n, sxy+dx*dy/n
	}
	mid, rad := (sxx+syy)/2, math.Sqrt((sxx-syy)*(sxx-syy)/4+sxy*sxy)
	return cx, cy, mid + rad, mid - rad
}

// TestShapesLookRight checks each class by a property a wrong drawing
// would break: a bar's ink lies on one line (its covariance has one large
// and one tiny eigenvalue), a cross's ink spreads along two lines and
// covers its centre, and a ring's ink surrounds an empty centre.
func TestShapesLookRight(t *testing.T) {
	r := random.New(7)
	for i := range 60 {
		c := Class(i % NumClasses)
		img := Draw(c, 16, r)
		xs, ys := inkPixels(img)
		if len(xs) < 6 {
			t.Fatalf("image %d (%s): only %d ink pixels", i, c, len(xs))
		}
		cx, cy, major, minor := spread(xs, ys)
		centre := img[int(math.Round(cy))][int(math.Round(cx))]
		switch c {
		case Bar:
			if minor > 0.25*major {
				t.Errorf("image %d (bar): covariance eigenvalues %.2f and %.2f, want one much smaller than the other", i, major, minor)
			}
		case Cross:
			if minor < 0.5*major {
				t.Errorf("image %d (cross): eigenvalues %.2f and %.2f, want two similar ones", i, major, minor)
			}
			if centre < 0.5 {
				t.Errorf("image %d (cross): centre pixel %.2f, want ink", i, centre)
			}
		case Ring:
			if centre > 0.5 {
				t.Errorf("image %d (ring): centre pixel %.2f, want background", i, centre)
			}
			if minor < 0.6*major {
				t.Errorf("image %d (ring): eigenvalues %.2f and %.2f, want a round spread", i, major, minor)
			}
		}
	}
}

func TestNoise(t *testing.T) {
	// The corners of a ring image are background: their values are the
	// noise alone, with standard deviation Noise.
	d, _ := Generate(300, 16, 5)
	var sum, sq float64
	n := 0
	for i, img := range d.Images {
		if d.Labels[i] != int(Ring) {
			continue
		}
		v := img[0][0]
		sum, sq, n = sum+v, sq+v*v, n+1
	}
	mean := sum / float64(n)
	std := math.Sqrt(sq/float64(n) - mean*mean)
	if math.Abs(mean) > 0.03 || math.Abs(std-Noise) > 0.03 {
		t.Errorf("corner pixels: mean %.3f, std %.3f, want 0 and %.2f", mean, std, Noise)
	}
}

func TestGallery(t *testing.T) {
	d, _ := Generate(4, 16, 1)
	g := Gallery(d, 10, 2, []int{d.Labels[0], (d.Labels[1] + 1) % NumClasses})
	if len(g.Figures) != 4 {
		t.Fatalf("%d figures, want 4", len(g.Figures))
	}
	h := g.Figures[1].(*viz.Heatmap)
	want := Class(d.Labels[1]).String() + " → " + Class((d.Labels[1]+1)%NumClasses).String()
	if h.Title != want {
		t.Errorf("title %q, want %q", h.Title, want)
	}
	if _, err := viz.PNG(g); err != nil {
		t.Error(err)
	}
}
