package posenc_test

import (
	"fmt"

	"github.com/attention-in-go/course/lib/posenc"
)

// The encoding of 4 positions in 4 dimensions with base n = 100: columns 0
// and 1 are sin(k) and cos(k), columns 2 and 3 are sin(k/10) and cos(k/10).
func ExampleSinusoidal() {
	for k, row := range posenc.Sinusoidal(4, 4, 100) {
		fmt.Printf("k=%d %7.4f\n", k, row)
	}
	// Output:
	// k=0 [ 0.0000  1.0000  0.0000  1.0000]
	// k=1 [ 0.8415  0.5403  0.0998  0.9950]
	// k=2 [ 0.9093 -0.4161  0.1987  0.9801]
	// k=3 [ 0.1411 -0.9900  0.2955  0.9553]
}

// The graph computes the same encoding, in float32.
func ExampleRunSinusoidal() {
	pe, err := posenc.RunSinusoidal(4, 4, 100)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%.4f\n", pe[3])
	// Output:
	// [0.1411 -0.9900 0.2955 0.9553]
}

// M_1 rotates each sine/cosine pair by its own frequency: 1 radian for the
// first pair, 0.1 radian for the second (n = 100, d = 4). Applied to
// PE(2) it gives PE(3).
func ExampleRelativeMap() {
	m, err := posenc.RelativeMap(1, 4, 100)
	if err != nil {
		panic(err)
	}
	for _, row := range m {
		fmt.Printf("%7.4f\n", row)
	}
	pe := posenc.Sinusoidal(4, 4, 100)
	fmt.Printf("M_1·PE(2) = %.4f\n", posenc.MatVec(m, pe[2]))
	fmt.Printf("PE(3)     = %.4f\n", pe[3])
	// Output:
	// [ 0.5403  0.8415  0.0000  0.0000]
	// [-0.8415  0.5403  0.0000  0.0000]
	// [ 0.0000  0.0000  0.9950  0.0998]
	// [ 0.0000  0.0000 -0.0998  0.9950]
	// M_1·PE(2) = [0.1411 -0.9900 0.2955 0.9553]
	// PE(3)     = [0.1411 -0.9900 0.2955 0.9553]
}

func ExampleCheckRelative() {
	worst, _ := posenc.CheckRelative(100, 512, 10, posenc.DefaultBase)
	fmt.Println(worst < 1e-12)
	_, err := posenc.CheckRelative(100, 5, 10, posenc.DefaultBase)
	fmt.Println(err)
	// Output:
	// true
	// posenc.RelativeMap: d_model must be even and ≥ 2 so that every sine has its cosine, got 5
}

// A table built for 4 positions serves a sequence of 10: it grows once.
func ExampleTable() {
	t := posenc.NewTable(4, 8, posenc.DefaultBase)
	rows := t.Rows(10)
	fmt.Println(len(rows), t.Len(), t.Grown())
	fmt.Printf("%.4f\n", rows[9][:2]) // sin 9, cos 9
	// Output:
	// 10 10 1
	// [0.4121 -0.9111]
}

// A learned table has no row past max_len.
func ExampleLearned_Rows() {
	l := posenc.NewLearned(50, 16, 1)
	_, err := l.Rows(60)
	fmt.Println(err)
	// Output:
	// posenc.Learned.Rows: a sequence of 60 tokens needs positions up to 59, but the learned table has rows only for positions 0..49 (max_len = 50): learned embeddings cannot extrapolate; train with a larger max_len, or use sinusoidal encodings (posenc.Table)
}
