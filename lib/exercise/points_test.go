package exercise

import "testing"

func TestPointsLine(t *testing.T) {
	tests := []struct {
		earned float64
		max    int
		note   string
		want   string
	}{
		{3, 3, "all cases pass", "points: 3/3  — all cases pass"},
		{2.5, 3, "", "points: 2.5/3"},
		{1.0 / 3, 1, "", "points: 0.33/1"},
		{0, 2, NotDoneNote, `points: 0/2  — not done yet: replace the panic("TODO…") with your code`},
		{10, 10, "", "points: 10/10"},
		{0.1, 2, "", "points: 0.1/2"},
	}
	for _, tt := range tests {
		got := PointsLine(tt.earned, tt.max, tt.note)
		if got != tt.want {
			t.Errorf("PointsLine(%v, %d, %q) = %q, want %q", tt.earned, tt.max, tt.note, got, tt.want)
		}
		// The line and the report around it read back as the points.
		report := "Exercise x — X\n  ✓ case\n" + got + "\n"
		earned, max, ok := ParsePoints(report)
		if want := float64(int(tt.earned*100+0.5)) / 100; !ok || earned != want || max != tt.max {
			t.Errorf("ParsePoints(%q) = %v, %d, %v, want %v, %d, true", report, earned, max, ok, want, tt.max)
		}
	}
}

func TestParsePoints(t *testing.T) {
	tests := []struct {
		name   string
		text   string
		earned float64
		max    int
		ok     bool
	}{
		{"no line", "Exercise x\n  ✓ case\n", 0, 0, false},
		{"not at the start of a line", "  points: 1/2\n", 0, 0, false},
		{"no maximum", "points: 1/\n", 0, 0, false},
		{"not a number", "points: a/2\n", 0, 0, false},
		{"the first line counts", "points: 1/2\npoints: 2/2\n", 1, 2, true},
		{"a malformed line is skipped", "points: x/2\npoints: 2/2", 2, 2, true},
		{"no line break at the end", "points: 1.5/2", 1.5, 2, true},
	}
	for _, tt := range tests {
		earned, max, ok := ParsePoints(tt.text)
		if earned != tt.earned || max != tt.max || ok != tt.ok {
			t.Errorf("%s: ParsePoints = %v, %d, %v, want %v, %d, %v", tt.name, earned, max, ok, tt.earned, tt.max, tt.ok)
		}
	}
}
