// Package viz draws the figures of the course with gonum/plot and shows them
// in a GoNB notebook cell.
//
// The package follows gonum/plot's style: a figure is a plain struct whose
// exported fields are its configuration, every field has a useful zero
// value, and the only interface is a small one, [Figure], for anything that
// can draw itself on a draw.Canvas and tell its preferred size. A notebook
// cell is therefore a one-liner:
//
//	viz.Show(&viz.Heatmap{Values: w, Rows: tokens, Cols: tokens, Title: "Self-attention"})
//
// The figures are:
//
//   - [Heatmap]: a matrix (usually attention weights) with row 0 at the top,
//     queries on the y axis and keys on the x axis, with a colour bar and the
//     values written in the cells when the matrix is small.
//   - [Lines]: line plots of one or more [Series], optionally on log axes.
//   - [Bars]: grouped vertical bar charts.
//   - [Grid]: several figures side by side or in rows.
//   - [Arrows]: one query word with arrows to every key, as wide as the
//     weight (lesson 3).
//   - [MarkedLines]: line plots with labelled points on the curves, such as
//     the words of a sentence on the sinusoids of positional encoding
//     (lesson 4).
//   - [EncoderDiagram]: the Transformer encoder's architecture as boxes and
//     arrows with a colour legend (lesson 5).
//   - [LabelledScatter]: labelled points on (log) axes, coloured by group,
//     such as model sizes over time (lesson 5).
//
// [Show] and [ShowSVG] display a figure in the notebook (and do nothing
// outside one), [PNG] and [SVG] render it to bytes and [Save] writes it to a
// file. [Table] formats a small matrix as aligned plain text, for printing
// scores and weights next to the pictures.
//
// Colour maps: gonum/plot has no viridis, so [Viridis] and [ViridisMap]
// interpolate matplotlib's viridis (CC0); [Greys] is for 0/1 mask pictures
// and [Diverging] (blue-white-red) for signed values such as positional
// encodings.
//
// A figure with invalid data (a ragged matrix, series of different lengths,
// ...) never panics: its Validate method reports the problem, [PNG], [SVG]
// and [Save] return that error, and Draw writes the message on the canvas.
//
// Introduced in lesson 01 (scaled dot-product attention).
package viz
