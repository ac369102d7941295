package explore

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/attention-in-go/course/lib/viz"
)

func TestValidate(t *testing.T) {
	good := Default("the cat sat")
	if err := good.Validate(); err != nil {
		t.Fatalf("Default: %v", err)
	}
	tests := []struct {
		change func(*Settings)
		want   string
	}{
		{func(s *Settings) { s.Heads = 3 }, "3 heads: choose one of [1 2 4 8]"},
		{func(s *Settings) { s.MaxLen = 0 }, "max length 0"},
		{func(s *Settings) { s.MaxLen = 17 }, "max length 17"},
		{func(s *Settings) { s.PELen = 0 }, "PE length 0"},
		{func(s *Settings) { s.PEDim = 1 }, "PE dimension 1"},
	}
	for _, tt := range tests {
		s := good
		tt.change(&s)
		if err := s.Validate(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Validate(%+v) = %v, want an error containing %q", s, err, tt.want)
		}
		if _, err := s.Figure(); err == nil {
			t.Errorf("Figure(%+v) drew invalid settings", s)
		}
	}
}

func TestTokensPadAndCut(t *testing.T) {
	s := Default("The cat sat on the mat")
	s.MaxLen = 8
	tokens, mask, err := s.Tokens()
	if err != nil {
		t.Fatal(err)
	}
	wantTokens := []string{"the", "cat", "sat", "on", "the", "mat", "<pad>", "<pad>"}
	if !reflect.DeepEqual(tokens, wantTokens) || !reflect.DeepEqual(mask, [][]float64{{0, 0, 0, 0, 0, 0, 1, 1}}) {
		t.Errorf("Tokens = %q, %v; want %q with the last two masked", tokens, mask, wantTokens)
	}
	s.MaxLen = 3
	tokens, mask, _ = s.Tokens()
	if !reflect.DeepEqual(tokens, []string{"the", "cat", "sat"}) || !reflect.DeepEqual(mask, [][]float64{{0, 0, 0}}) {
		t.Errorf("cut to 3: %q, %v", tokens, mask)
	}
	s.Sentence = ""
	s.MaxLen = 5
	tokens, mask, err = s.Tokens()
	if err != nil || len(tokens) != 5 || len(mask[0]) != 5 || !strings.HasPrefix(tokens[0], "t") {
		t.Errorf("synthetic: %q, %v, %v", tokens, mask, err)
	}
}

func TestAttentionWeights(t *testing.T) {
	for _, heads := range HeadChoices {
		s := Default("the movie was really great")
		s.Heads, s.MaxLen = heads, 7
		tokens, w, err := s.Attention()
		if err != nil {
			t.Fatal(err)
		}
		if len(w) != heads || len(w[0]) != len(tokens) || len(w[0][0]) != len(tokens) {
			t.Fatalf("%d heads: weights %d×%d×%d, want %d×7×7", heads, len(w), len(w[0]), len(w[0][0]), heads)
		}
		for h := range w {
			for i, row := range w[h] {
				sum := 0.0
				for j, x := range row {
					sum += x
					if j >= 5 && x != 0 {
						t.Errorf("%d heads, head %d: query %d gives weight %g to padding key %d", heads, h, i, x, j)
					}
				}
				if math.Abs(sum-1) > 1e-5 {
					t.Errorf("%d heads, head %d: row %d sums to %g", heads, h, i, sum)
				}
			}
		}
	}
}

func TestFigureFollowsSettings(t *testing.T) {
	s := Default("the cat sat on the mat")
	a, err := s.Figure()
	if err != nil {
		t.Fatal(err)
	}
	s.Heads = 8
	b, err := s.Figure()
	if err != nil {
		t.Fatal(err)
	}
	pa, err := viz.PNG(a)
	if err != nil {
		t.Fatal(err)
	}
	pb, err := viz.PNG(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(pa) < 1000 || reflect.DeepEqual(pa, pb) {
		t.Errorf("2 and 8 heads give the same picture (%d and %d bytes)", len(pa), len(pb))
	}
	if heads := len(b.(*viz.Grid).Figures[0].(*viz.Grid).Figures); heads != 8 {
		t.Errorf("8 heads draw %d heat maps", heads)
	}
}

func TestRunOutsideANotebookDoesNothing(t *testing.T) {
	if err := Run(Options{}); err != nil {
		t.Errorf("Run outside a notebook: %v", err)
	}
	if err := Run(Options{Start: Settings{Heads: 5, MaxLen: 4, PELen: 10, PEDim: 8}}); err == nil {
		t.Error("Run with 5 heads gave no error")
	}
}
