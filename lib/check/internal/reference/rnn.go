package reference

import "math"

// This file holds the references of lesson 06's exercises: one step of a
// GRU in lib/rnn's convention (PyTorch's), and a GRU run over a padded
// sequence. Weights are fused column-wise in the order [r | z | n].

// GRUVariant selects the reference (zero value) or one usual mistake.
type GRUVariant struct {
	SwapZ       bool // h' = z ⊙ n + (1 − z) ⊙ h
	ResetBefore bool // n = tanh(x·W_xn + b_xn + (r ⊙ h)·W_hn + b_hn): the reset applied before the product
	BiasOutside bool // n = tanh(x·W_xn + b_xn + r ⊙ (h·W_hn) + b_hn): b_hn outside the reset
	NoBh        bool // the recurrent bias b_h left out
	NoBx        bool // the input bias b_x left out
	GatesZR     bool // the columns read as [z | r | n]
}

// GRUStep is one GRU step:
//
//	r  = σ(x·W_xr + b_xr + h·W_hr + b_hr)
//	z  = σ(x·W_xz + b_xz + h·W_hz + b_hz)
//	n  = tanh(x·W_xn + b_xn + r ⊙ (h·W_hn + b_hn))
//	h' = (1 − z) ⊙ n + z ⊙ h
func GRUStep(x, h []float64, wx, wh [][]float64, bx, bh []float64, v GRUVariant) []float64 {
	n := len(h)
	// block k of x·W + b: columns k·n … (k+1)·n.
	block := func(in []float64, w [][]float64, b []float64, k int, withBias bool) []float64 {
		out := make([]float64, n)
		for j := range n {
			s := 0.0
			if withBias {
				s = b[k*n+j]
			}
			for i := range in {
				s += in[i] * w[i][k*n+j]
			}
			out[j] = s
		}
		return out
	}
	ri, zi := 0, 1
	if v.GatesZR {
		ri, zi = 1, 0
	}
	xr, xz, xn := block(x, wx, bx, ri, !v.NoBx), block(x, wx, bx, zi, !v.NoBx), block(x, wx, bx, 2, !v.NoBx)
	hr, hz := block(h, wh, bh, ri, !v.NoBh), block(h, wh, bh, zi, !v.NoBh)
	out := make([]float64, n)
	r, z := make([]float64, n), make([]float64, n)
	for j := range n {
		r[j] = sigmoid(xr[j] + hr[j])
		z[j] = sigmoid(xz[j] + hz[j])
	}
	var hn []float64
	switch {
	case v.ResetBefore:
		rh := make([]float64, n)
		for j := range n {
			rh[j] = r[j] * h[j]
		}
		hn = block(rh, wh, bh, 2, !v.NoBh)
	case v.BiasOutside:
		hn = block(h, wh, bh, 2, false)
		for j := range n {
			hn[j] = r[j]*hn[j] + bh[2*n+j]
		}
	default:
		hn = block(h, wh, bh, 2, !v.NoBh)
		for j := range n {
			hn[j] *= r[j]
		}
	}
	for j := range n {
		c := math.Tanh(xn[j] + hn[j])
		if v.SwapZ {
			out[j] = z[j]*c + (1-z[j])*h[j]
		} else {
			out[j] = (1-z[j])*c + z[j]*h[j]
		}
	}
	return out
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// EncodeVariant selects the reference (zero value) or one usual mistake
// of running a GRU over a padded sequence.
type EncodeVariant struct {
	ReadPadding bool // padding read like a token (no mask)
	ZeroPadding bool // the state carried, but the states at padding returned as zeros
	ResetAtPad  bool // the state reset to zeros at padding
}

// GRUEncode runs the GRU from a zero state over xs: at a real token
// h_t = GRU(x_t, h_{t−1}), at padding h_t = h_{t−1}; it returns every h_t
// and the last one (the state after the last real token).
func GRUEncode(xs [][]float64, keep []bool, wx, wh [][]float64, bx, bh []float64, v EncodeVariant) (states [][]float64, last []float64) {
	h := make([]float64, len(wh))
	for t, x := range xs {
		switch {
		case keep[t] || v.ReadPadding:
			h = GRUStep(x, h, wx, wh, bx, bh, GRUVariant{})
		case v.ResetAtPad:
			h = make([]float64, len(h))
		}
		s := append([]float64(nil), h...)
		if v.ZeroPadding && !keep[t] {
			s = make([]float64, len(h))
		}
		states = append(states, s)
	}
	return states, h
}
