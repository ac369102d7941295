package viz

import "testing"

func TestBarGroups(t *testing.T) {
	got := BarGroups([]string{"a"}, [][]float64{{1, 2}, {3, 4}})
	if len(got) != 2 || got[0].Name != "a" || got[1].Name != "" || got[1].Values[1] != 4 {
		t.Errorf("BarGroups = %+v, want [{a [1 2]} { [3 4]}]", got)
	}
}
