package notebook

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Flavours of the notebooks built from lessons/exercises/ (see [Builder]).
const (
	FlavourExercise = "exercise"
	FlavourSolution = "solution"
)

// Course is the course's metadata of a notebook, stored under the key
// "course" of the notebook's metadata. The zero Course is stored as no key.
type Course struct {
	// Source is the lesson file the notebook was built from,
	// slash-separated and relative to the course root ("source").
	Source string
	// Generated is [GeneratedNote] in a built notebook ("generated").
	Generated string
	// Flavour is [FlavourExercise] or [FlavourSolution] for the notebooks
	// of exercises/ and solutions/, "" for a lesson ("flavour").
	Flavour string

	other map[string]any // keys this package does not know, written back as read
}

// CellCourse is the course's metadata of a cell, stored under the key
// "course" of the cell's metadata. A built cell has at most one of
// Exercise, Check and Claims. The zero CellCourse is stored as no key.
type CellCourse struct {
	// Exercise is the id of the exercise whose solution the cell holds
	// ("exercise"), and Points what it is worth ("points", stored with
	// Exercise).
	Exercise string
	Points   int
	// Check is the id of the exercise the cell checks ("check").
	Check string
	// Claims are the claim lines of a Markdown cell's figures ("claims",
	// see package claim).
	Claims []string

	other map[string]any
}

// IsZero reports whether c holds nothing to store.
func (c *Course) IsZero() bool {
	return c.Source == "" && c.Generated == "" && c.Flavour == "" && len(c.other) == 0
}

// IsZero reports whether c holds nothing to store.
func (c *CellCourse) IsZero() bool {
	return c.Exercise == "" && c.Points == 0 && c.Check == "" && len(c.Claims) == 0 && len(c.other) == 0
}

func (c *Course) tree() map[string]any {
	t := copyMap(c.other)
	setString(t, "source", c.Source)
	setString(t, "generated", c.Generated)
	setString(t, "flavour", c.Flavour)
	return t
}

func (c *CellCourse) tree() map[string]any {
	t := copyMap(c.other)
	setString(t, "exercise", c.Exercise)
	if c.Exercise != "" || c.Points != 0 {
		t["points"] = c.Points
	}
	setString(t, "check", c.Check)
	if len(c.Claims) > 0 {
		t["claims"] = c.Claims
	}
	return t
}

func copyMap(m map[string]any) map[string]any {
	t := make(map[string]any, len(m)+3)
	for k, v := range m {
		t[k] = v
	}
	return t
}

func setString(t map[string]any, key, v string) {
	if v != "" {
		t[key] = v
	}
}

// withCourse returns metadata with course stored under "course", without
// changing metadata. It fails when metadata already has a "course" key,
// which belongs in the typed field.
func withCourse(metadata map[string]any, course map[string]any) (map[string]any, error) {
	if _, ok := metadata["course"]; ok {
		return nil, errors.New(`metadata has a "course" key: set the Course field instead`)
	}
	if course == nil {
		return orEmpty(metadata), nil
	}
	t := copyMap(metadata)
	t["course"] = course
	return t, nil
}

// readCourse decodes the "course" object v (as encoding/json decodes it
// with UseNumber) of a notebook's metadata into c. A key of the wrong type
// is reported through d.
func (d *decoder) readCourse(v any, c *Course, cell int, where string) error {
	m, ok := v.(map[string]any)
	if !ok {
		return d.problem(cell, where, "want an object, got "+jsonType(v))
	}
	for k, val := range m {
		var err error
		switch k {
		case "source":
			err = d.str(val, &c.Source, cell, where+"."+k)
		case "generated":
			err = d.str(val, &c.Generated, cell, where+"."+k)
		case "flavour":
			err = d.str(val, &c.Flavour, cell, where+"."+k)
		default:
			c.other = keepUnknown(c.other, k, val)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// readCellCourse is readCourse for a cell's "course" object.
func (d *decoder) readCellCourse(v any, c *CellCourse, cell int, where string) error {
	m, ok := v.(map[string]any)
	if !ok {
		return d.problem(cell, where, "want an object, got "+jsonType(v))
	}
	for k, val := range m {
		var err error
		switch k {
		case "exercise":
			err = d.str(val, &c.Exercise, cell, where+"."+k)
		case "check":
			err = d.str(val, &c.Check, cell, where+"."+k)
		case "points":
			n, ok := val.(json.Number)
			p, perr := n.Int64()
			if !ok || perr != nil || p < 0 || int64(int(p)) != p {
				err = d.problem(cell, where+".points", "want a whole number, got "+jsonText(val))
				break
			}
			c.Points = int(p)
		case "claims":
			list, ok := val.([]any)
			lines := make([]string, len(list))
			for i, l := range list {
				if lines[i], ok = l.(string); !ok {
					break
				}
			}
			if !ok {
				err = d.problem(cell, where+".claims", "want a list of strings, got "+jsonText(val))
				break
			}
			c.Claims = lines
		default:
			c.other = keepUnknown(c.other, k, val)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// keepUnknown adds a key this package does not know to other, creating
// the map on first use, so that it is written back as it was read.
func keepUnknown(other map[string]any, k string, v any) map[string]any {
	if other == nil {
		other = map[string]any{}
	}
	other[k] = v
	return other
}

func (d *decoder) str(v any, s *string, cell int, where string) error {
	var ok bool
	if *s, ok = v.(string); !ok {
		return d.problem(cell, where, "want a string, got "+jsonText(v))
	}
	return nil
}

// jsonType names the JSON type of v.
func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number, float64:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// jsonText is v in JSON for a message, shortened.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil || len(b) > 40 {
		return jsonType(v)
	}
	return string(b)
}
