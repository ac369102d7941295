package viz

import (
	"errors"
	"fmt"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Grid lays figures out in rows and columns, for side-by-side comparisons
// such as encoder and decoder attention.
//
// Each column is as wide as its widest figure and each row as tall as its
// tallest one, so the grid's size is the sum of its figures' sizes (plus
// gaps and title). When the grid is drawn on a canvas of another size, the
// columns and rows are scaled to fill it.
//
// Introduced in lesson 01 (scaled dot-product attention).
type Grid struct {
	// Figures are laid out left to right, then top to bottom. A nil
	// Figure leaves its cell empty.
	Figures []Figure

	// Cols is the number of columns; 0 puts all the figures in one row.
	Cols int

	// Title is written above the whole grid; "" writes nothing.
	Title string

	// Gap is the space between neighbouring figures; 0 means none (the
	// figures have their own small margins).
	Gap vg.Length
}

// Validate reports an empty grid, a negative Cols or Gap, and the
// validation errors of the figures of the grid.
func (g *Grid) Validate() error {
	if len(g.Figures) == 0 {
		return errors.New("viz: Grid has no Figures")
	}
	if g.Cols < 0 {
		return fmt.Errorf("viz: Grid.Cols is %d, negative", g.Cols)
	}
	if g.Gap < 0 {
		return fmt.Errorf("viz: Grid.Gap is %v, negative", g.Gap)
	}
	allNil := true
	for _, f := range g.Figures {
		allNil = allNil && f == nil
	}
	if allNil {
		return errors.New("viz: Grid.Figures are all nil")
	}
	var errs []error
	for i, f := range g.Figures {
		if v, ok := f.(validator); ok && f != nil {
			if err := v.Validate(); err != nil {
				errs = append(errs, fmt.Errorf("Grid.Figures[%d]: %w", i, err))
			}
		}
	}
	return errors.Join(errs...)
}

// shape returns the number of rows and columns.
func (g *Grid) shape() (rows, cols int) {
	cols = g.Cols
	if cols <= 0 || cols > len(g.Figures) {
		cols = max(len(g.Figures), 1)
	}
	return (len(g.Figures) + cols - 1) / cols, cols
}

// tracks returns the width of each column and the height of each row.
func (g *Grid) tracks() (widths, heights []vg.Length) {
	rows, cols := g.shape()
	widths, heights = make([]vg.Length, cols), make([]vg.Length, rows)
	for i, f := range g.Figures {
		if f == nil {
			continue
		}
		w, h := f.Size()
		widths[i%cols] = max(widths[i%cols], w)
		heights[i/cols] = max(heights[i/cols], h)
	}
	return widths, heights
}

func (g *Grid) titleHeight() vg.Length {
	if g.Title == "" {
		return 0
	}
	return textStyle(titleSize+1, true).Height(g.Title) + 2*margin
}

// Size returns the sum of the widths of the columns and of the heights of
// the rows, with the gaps and the title.
func (g *Grid) Size() (w, h vg.Length) {
	widths, heights := g.tracks()
	for _, x := range widths {
		w += x
	}
	for _, y := range heights {
		h += y
	}
	w += g.Gap * vg.Length(len(widths)-1)
	h += g.Gap*vg.Length(len(heights)-1) + g.titleHeight()
	if w <= 0 || h <= 0 { // nothing to draw: room for an error message
		return 10 * vg.Centimeter, 3 * vg.Centimeter
	}
	return w, h
}

// Draw draws the title and every figure in its cell.
func (g *Grid) Draw(c draw.Canvas) {
	widths, heights := g.tracks()
	var totalW, totalH vg.Length
	for _, x := range widths {
		totalW += x
	}
	for _, y := range heights {
		totalH += y
	}
	if g.Cols < 0 || g.Gap < 0 || totalW <= 0 || totalH <= 0 {
		drawError(c, g.Validate()) // the figures draw their own errors
		return
	}
	if g.Title != "" {
		th := g.titleHeight()
		sty := textStyle(titleSize+1, true)
		c.FillText(sty, vg.Point{X: c.Center().X, Y: c.Max.Y - th/2}, g.Title)
		c.Max.Y -= th
	}
	// Scale the tracks to the canvas, keeping the gaps.
	sx := (c.Size().X - g.Gap*vg.Length(len(widths)-1)) / totalW
	sy := (c.Size().Y - g.Gap*vg.Length(len(heights)-1)) / totalH
	_, cols := g.shape()
	y := c.Max.Y
	for r, rh := range heights {
		x := c.Min.X
		for col, cw := range widths {
			if i := r*cols + col; i < len(g.Figures) && g.Figures[i] != nil {
				cell := vg.Rectangle{Min: vg.Point{X: x, Y: y - rh*sy}, Max: vg.Point{X: x + cw*sx, Y: y}}
				g.Figures[i].Draw(sub(c, cell))
			}
			x += cw*sx + g.Gap
		}
		y -= rh*sy + g.Gap
	}
}
