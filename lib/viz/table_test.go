package viz

import (
	"strings"
	"testing"
)

func TestTable(t *testing.T) {
	tests := []struct {
		name       string
		values     [][]float64
		rows, cols []string
		format     string
		want       string
	}{
		{
			name:   "labels and default format",
			values: [][]float64{{0.7311, 0.2689}, {0.5, 0.5}},
			rows:   []string{"The", "cat"}, cols: []string{"The", "cat"},
			want: "" +
				"        The     cat\n" +
				"The  0.7311  0.2689\n" +
				"cat  0.5000  0.5000\n",
		},
		{
			name:   "nil labels are indices",
			values: [][]float64{{1, 2}, {3, 4}},
			format: "%.0f",
			want: "" +
				"   0  1\n" +
				"0  1  2\n" +
				"1  3  4\n",
		},
		{
			name:   "wide labels and negative values",
			values: [][]float64{{-1.5, 2}},
			rows:   []string{"query"}, cols: []string{"a", "longer key"},
			format: "%.1f",
			want: "" +
				"          a  longer key\n" +
				"query  -1.5         2.0\n",
		},
		{
			name:   "missing labels and ragged rows",
			values: [][]float64{{1, 2, 3}, {4}},
			rows:   []string{"x"}, cols: []string{"a"},
			format: "%g",
			want: "" +
				"   a  1  2\n" +
				"x  1  2  3\n" +
				"1  4\n",
		},
		{
			name:   "non-ASCII labels align by character",
			values: [][]float64{{1}, {2}},
			rows:   []string{"é", "ab"}, cols: []string{"ñ"},
			format: "%g",
			want: "" +
				"    ñ\n" +
				"é   1\n" +
				"ab  2\n",
		},
		{name: "empty", want: "\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Table(tc.values, tc.rows, tc.cols, tc.format)
			if got != tc.want {
				t.Errorf("Table() =\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// TestTableColumnsAlign checks the alignment property itself on a larger
// table: every value ends in the same column as its column label.
func TestTableColumnsAlign(t *testing.T) {
	values := weights6(false)
	lines := strings.Split(strings.TrimSuffix(Table(values, tokens6, tokens6, ""), "\n"), "\n")
	if len(lines) != 7 {
		t.Fatalf("got %d lines, want 7 (header and 6 rows)", len(lines))
	}
	ends := func(line string) []int { // end column of each field after the first
		var e []int
		for i := 1; i <= len(line); i++ {
			if i == len(line) || line[i] == ' ' && line[i-1] != ' ' {
				e = append(e, i)
			}
		}
		return e
	}
	header := ends(lines[0])
	for i, line := range lines[1:] {
		got := ends(line)[1:] // skip the row label
		if len(got) != len(header) {
			t.Fatalf("row %d has %d values, header %d labels", i, len(got), len(header))
		}
		for j := range got {
			if got[j] != header[j] {
				t.Errorf("row %d value %d ends at column %d, its label at %d", i, j, got[j], header[j])
			}
		}
	}
}
