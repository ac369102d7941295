package exercise

// The task of lesson 05's patchify exercise. (The patch embedding and
// the ViT training are in lib/exercise/withlib.)

// PatchIn is an input of the patchify exercise.
type PatchIn struct {
	Img [][]float64
	P   int
}

// PatchOut is Patchify's result, or whether it returned an error.
type PatchOut struct {
	Patches [][]float64
	Err     bool
}

// Patchify: func Patchify(img [][]float64, p int) ([][]float64, error).
var Patchify = &Task[func(img [][]float64, p int) ([][]float64, error), PatchIn, PatchOut]{
	ID: "patchify",
	Call: func(f func(img [][]float64, p int) ([][]float64, error), in PatchIn) PatchOut {
		out, err := f(in.Img, in.P)
		return PatchOut{out, err != nil}
	},
}
