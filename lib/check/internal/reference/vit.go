package reference

import "fmt"

// This file holds the references of the Vision Transformer exercise of
// lesson 05: cutting an image into patches and embedding them.

// Patchify cuts img [H][W] into (H/p)·(W/p) patches of p×p pixels, in
// row-major order over the patch grid, each flattened row by row:
// patch r·(W/p)+c holds img[r·p+y][c·p+x] at index y·p+x.
func Patchify(img [][]float64, p int) ([][]float64, error) {
	if p < 1 {
		return nil, fmt.Errorf("patch size %d", p)
	}
	if len(img) == 0 || len(img)%p != 0 || len(img[0])%p != 0 {
		return nil, fmt.Errorf("image %d×%d does not divide into %d×%d patches", len(img), len(img[0]), p, p)
	}
	var out [][]float64
	for r := 0; r < len(img)/p; r++ {
		for c := 0; c < len(img[0])/p; c++ {
			patch := make([]float64, 0, p*p)
			for y := range p {
				patch = append(patch, img[r*p+y][c*p:c*p+p]...)
			}
			out = append(out, patch)
		}
	}
	return out, nil
}

// PatchEmbedding is ViT's input: each patch projected, x_i = patch_i·W + b,
// the class token prepended, and the position embeddings added:
// [cls; x_1; …; x_P] + pos, [P+1][d].
func PatchEmbedding(patches, w [][]float64, b, cls []float64, pos [][]float64) [][]float64 {
	x := AddBias(MatMul(patches, w), b)
	x = append([][]float64{append([]float64(nil), cls...)}, x...)
	return Add(x, pos)
}
