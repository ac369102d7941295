package seq2seq

import (
	"strings"
	"testing"

	"github.com/attention-in-go/course/lib/internal/golden"
	"github.com/attention-in-go/course/lib/viz"
)

// TestBottleneckGolden compares the figure with testdata/bottleneck_golden.png
// (go test ./lib/seq2seq -update rewrites it: look at it before committing).
func TestBottleneckGolden(t *testing.T) {
	got, err := viz.PNG(&Bottleneck{})
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "bottleneck", got)
}

func TestBottleneckValidate(t *testing.T) {
	cases := []struct {
		b    *Bottleneck
		want string
	}{
		{&Bottleneck{Weights: []float64{}}, "1 to 8 weights"},
		{&Bottleneck{Weights: []float64{0.5, 1.5}}, "weight 1 is 1.5"},
		{&Bottleneck{Decoder: 9}, "Decoder is 9"},
	}
	for _, c := range cases {
		if err := c.b.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Validate() = %v, want an error with %q", err, c.want)
		}
	}
	if err := (&Bottleneck{}).Validate(); err != nil {
		t.Errorf("default Bottleneck: %v", err)
	}
}
