package viz

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Table formats a matrix as an aligned plain-text table, for printing
// attention scores and weights in a notebook or a terminal:
//
//	        The     cat
//	The  0.7311  0.2689
//	cat  0.5000  0.5000
//
// rows and cols label the rows and the columns (nil: their indices 0, 1,
// 2, ...; a missing label is also replaced by the index). format is the
// fmt verb for the values, "" meaning "%.4f". Values are right-aligned
// under their column labels, row labels are left-aligned. Every line ends
// with a newline and has no trailing spaces; a ragged matrix leaves the
// missing cells blank.
//
// Introduced in lesson 01 (scaled dot-product attention).
func Table(values [][]float64, rows, cols []string, format string) string {
	if format == "" {
		format = "%.4f"
	}
	nCols := 0
	for _, row := range values {
		nCols = max(nCols, len(row))
	}
	label := func(labels []string, i int) string {
		if i < len(labels) {
			return labels[i]
		}
		return strconv.Itoa(i)
	}

	// cells[0] is the header line; column 0 holds the row labels.
	cells := make([][]string, len(values)+1)
	cells[0] = make([]string, nCols+1)
	for j := range nCols {
		cells[0][j+1] = label(cols, j)
	}
	for i, row := range values {
		cells[i+1] = make([]string, nCols+1)
		cells[i+1][0] = label(rows, i)
		for j, v := range row {
			cells[i+1][j+1] = fmt.Sprintf(format, v)
		}
	}
	widths := make([]int, nCols+1)
	for _, line := range cells {
		for j, cell := range line {
			widths[j] = max(widths[j], utf8.RuneCountInString(cell))
		}
	}

	var b strings.Builder
	for _, line := range cells {
		var l strings.Builder
		for j, cell := range line {
			pad := strings.Repeat(" ", widths[j]-utf8.RuneCountInString(cell))
			if j == 0 {
				l.WriteString(cell + pad) // row labels: left-aligned
			} else {
				l.WriteString("  " + pad + cell) // values: right-aligned
			}
		}
		b.WriteString(strings.TrimRight(l.String(), " "))
		b.WriteByte('\n')
	}
	return b.String()
}
