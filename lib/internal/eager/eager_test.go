package eager

import (
	"reflect"
	"strings"
	"testing"

	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
)

func TestRoundTripAndRun(t *testing.T) {
	m := [][]float64{{1, -2, 0.5}, {3, 4, -0.25}}
	outs, err := Run("test", func(in []*graph.Node) []*graph.Node {
		return []*graph.Node{graph.Transpose(in[0], 0, 1), graph.ConvertDType(in[1], in[0].DType())}
	}, Tensor(m), Bools([][]float64{{0, 1}, {2, 0}}))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := Matrix(outs[0]), [][]float64{{1, 3}, {-2, 4}, {0.5, -0.25}}; !reflect.DeepEqual(got, want) {
		t.Errorf("transpose: got %v, want %v", got, want)
	}
	if got, want := Matrix(outs[1]), [][]float64{{0, 1}, {1, 0}}; !reflect.DeepEqual(got, want) {
		t.Errorf("bools: got %v, want %v", got, want)
	}
	if got := Vector([]float64{1, 2}).Shape().Dimensions; !reflect.DeepEqual(got, []int{2}) {
		t.Errorf("Vector shape %v, want [2]", got)
	}
}

func TestRunTurnsBuildPanicsIntoErrors(t *testing.T) {
	_, err := Run("attention", func(in []*graph.Node) []*graph.Node {
		return []*graph.Node{graph.Add(in[0], in[1])} // [2,3] + [3,2]: a shape error
	}, Tensor([][]float64{{1, 2, 3}, {4, 5, 6}}), Tensor([][]float64{{1, 2}, {3, 4}, {5, 6}}))
	if err == nil || !strings.HasPrefix(err.Error(), "attention: ") {
		t.Errorf("err = %v, want an error starting with the package name", err)
	}
}

func TestCheckMatrix(t *testing.T) {
	tests := []struct {
		m          [][]float64
		rows, cols int
		want       string
	}{
		{[][]float64{{1, 2}, {3, 4}}, 2, 2, ""},
		{[][]float64{{1, 2}, {3, 4}}, -1, -1, ""},
		{nil, -1, -1, "x: Q is empty"},
		{[][]float64{{1, 2}, {3}}, -1, -1, "x: Q row 1 has 1 columns, want 2"},
		{[][]float64{{1, 2}}, 3, -1, "x: Q has 1 rows, want 3"},
		{[][]float64{{1, 2}}, -1, 3, "x: Q row 0 has 2 columns, want 3"},
	}
	for _, tt := range tests {
		err := CheckMatrix("x", "Q", tt.m, tt.rows, tt.cols)
		if got := errString(err); got != tt.want {
			t.Errorf("CheckMatrix(%v, %d, %d) = %q, want %q", tt.m, tt.rows, tt.cols, got, tt.want)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestMatrices(t *testing.T) {
	flat := make([]float32, 2*3*2*2)
	for i := range flat {
		flat[i] = float32(i)
	}
	got := Matrices(tensors.FromFlatDataAndDimensions(flat, 2, 3, 2, 2))
	if len(got) != 6 {
		t.Fatalf("got %d matrices, want 6 (2·3)", len(got))
	}
	// Matrix k holds flat[4k … 4k+3]; index [1][2] is k = 1·3 + 2 = 5.
	if want := [][]float64{{20, 21}, {22, 23}}; !reflect.DeepEqual(got[5], want) {
		t.Errorf("matrix [1][2] = %v, want %v", got[5], want)
	}
	if want := [][]float64{{4, 5}, {6, 7}}; !reflect.DeepEqual(got[1], want) {
		t.Errorf("matrix [0][1] = %v, want %v", got[1], want)
	}
}
