package reference

import "math"

// This file holds the references of lesson 09's exercises: the
// encoder–decoder's cross-attention, the decoder's self-attention mask
// and the teacher-forcing shift.

// CrossVariant selects the reference (zero value) or one usual mistake.
type CrossVariant struct {
	RolesSwapped bool // queries from the memory, keys and values from the decoder
	Causal       bool // a look-ahead mask on the cross-attention (j > i hidden)
	NoPadding    bool // the source's padding left visible
	NoScale      bool // scores not divided by √d_k
}

// CrossAttention is one head of the decoder's cross-attention: Q = y·W_Q
// from the decoder, K = memory·W_K and V = memory·W_V from the encoder,
// softmax(Q·Kᵀ/√d_k) over the source positions that are not padding
// (srcPad[j] true), then weights·V. It returns out [tgt][d_v] and
// weights [tgt][src].
func CrossAttention(y, memory, wq, wk, wv [][]float64, srcPad []bool, vr CrossVariant) (out, weights [][]float64) {
	from, to := y, memory
	if vr.RolesSwapped {
		from, to = memory, y
	}
	q, k, v := MatMul(from, wq), MatMul(to, wk), MatMul(to, wv)
	if vr.NoScale {
		q = scaleRows(q, math.Sqrt(float64(len(k[0]))))
	}
	visible := func(i, j int) bool {
		if vr.Causal && j > i {
			return false
		}
		if !vr.NoPadding && !vr.RolesSwapped && srcPad[j] {
			return false
		}
		return true
	}
	return MaskedAttention(q, k, v, visible)
}

// MaskVariant selects the reference (zero value) or one usual mistake.
type MaskVariant struct {
	NoCausal    bool // padding only
	NoPadding   bool // the look-ahead mask only
	Diagonal    bool // j ≥ i hidden: a token cannot see itself
	PaddingRows bool // the padded queries' rows hidden instead of the padded keys' columns
	Inverted    bool // true where visible
}

// DecoderMask is the mask of the decoder's self-attention over the target
// tokens tgt, true where hidden: key j is hidden from query i when it
// lies in the future (j > i) or is padding (tgt[j] == pad).
func DecoderMask(tgt []int, pad int, vr MaskVariant) [][]bool {
	n := len(tgt)
	m := make([][]bool, n)
	for i := range m {
		m[i] = make([]bool, n)
		for j := range m[i] {
			future := j > i
			if vr.Diagonal {
				future = j >= i
			}
			padded := tgt[j] == pad
			if vr.PaddingRows {
				padded = tgt[i] == pad
			}
			hidden := (future && !vr.NoCausal) || (padded && !vr.NoPadding)
			m[i][j] = hidden != vr.Inverted
		}
	}
	return m
}

// TeacherForcing returns the decoder's input and labels for one target
// sequence: the input is the target shifted right by one, the start
// token first ([start, t_0, …, t_{n−2}]), and the labels are the target
// itself, so that position i predicts t_i having seen t_0 … t_{i−1}.
func TeacherForcing(target []int, start int) (decoderIn, labels []int) {
	decoderIn = append([]int{start}, target[:max(len(target)-1, 0)]...)
	return decoderIn, append([]int(nil), target...)
}

func scaleRows(m [][]float64, s float64) [][]float64 {
	out := make([][]float64, len(m))
	for i, row := range m {
		out[i] = make([]float64, len(row))
		for j, x := range row {
			out[i][j] = x * s
		}
	}
	return out
}
