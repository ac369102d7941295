// Tests of the attention-in-go course's patch: Transpose by the identity
// permutation is no operation.

package ops

import (
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/shapes"
)

// An identity permutation is no Transpose at all: the builder hands back the
// operand (no node, so no copy at run time); any other permutation is a node.
func TestTransposeIdentityIsNoOp(t *testing.T) {
	b, err := gobackend.New("")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Finalize()
	f := b.Builder("transpose").Main().(*gobackend.Function)
	x, err := f.Parameter("x", shapes.Make(dtypes.Float32, 2, 3, 4), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		perm []int
		same bool
	}{{[]int{0, 1, 2}, true}, {[]int{0, 2, 1}, false}, {[]int{1, 0, 2}, false}} {
		y, err := Transpose(f, x, tc.perm...)
		if err != nil {
			t.Fatal(err)
		}
		if got := y == x; got != tc.same {
			t.Errorf("Transpose(x, %v) is x: %v, want %v", tc.perm, got, tc.same)
		}
	}
}
