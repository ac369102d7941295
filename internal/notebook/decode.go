package notebook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// A DecodeError is a part of a notebook whose JSON does not have the type
// nbformat 4 gives it.
type DecodeError struct {
	Cell  int    // 1-based position of the cell among all cells; 0 for the notebook's own fields
	Field string // the JSON path in the cell or notebook: "source", "metadata", "outputs[2].text"
	Msg   string // what is wrong: "want a string or a list of strings, got a number"
}

func (e *DecodeError) Error() string {
	if e.Cell == 0 {
		return e.Field + ": " + e.Msg
	}
	return fmt.Sprintf("cell %d: %s: %s", e.Cell, e.Field, e.Msg)
}

// Unmarshal parses a notebook in nbformat 4, such as one executed by
// nbconvert. Multi-line strings are joined; unknown fields are ignored,
// and unknown metadata keys are kept. A field of the wrong type is an
// error, a [*DecodeError].
func Unmarshal(data []byte) (*Notebook, error) {
	d := decoder{}
	return d.notebook(data)
}

// UnmarshalLenient parses a notebook of unknown origin, such as a learner's
// submission, as far as it can: the nbformat version is not checked, and a
// field of the wrong type (a cell's source that is a number, metadata that
// is not an object) is left at its zero value and reported in ignored
// instead of failing. It fails only when data is not JSON, is not an
// object, or its cells are not a list of objects.
func UnmarshalLenient(data []byte) (nb *Notebook, ignored []*DecodeError, err error) {
	d := decoder{lenient: true}
	nb, err = d.notebook(data)
	return nb, d.ignored, err
}

// jsonNotebook and jsonCell hold the fields of the nbformat 4 JSON layout
// undecoded, so that each is decoded, and its type checked, on its own.
type jsonNotebook struct {
	Metadata      json.RawMessage   `json:"metadata"`
	NBFormat      json.RawMessage   `json:"nbformat"`
	NBFormatMinor json.RawMessage   `json:"nbformat_minor"`
	Cells         []json.RawMessage `json:"cells"`
}

type jsonCell struct {
	ID             json.RawMessage `json:"id"`
	CellType       json.RawMessage `json:"cell_type"`
	Source         json.RawMessage `json:"source"`
	Metadata       json.RawMessage `json:"metadata"`
	ExecutionCount json.RawMessage `json:"execution_count"`
	Outputs        json.RawMessage `json:"outputs"`
}

type jsonOutput struct {
	OutputType     json.RawMessage `json:"output_type"`
	Name           json.RawMessage `json:"name"`
	Text           json.RawMessage `json:"text"`
	Data           json.RawMessage `json:"data"`
	Metadata       json.RawMessage `json:"metadata"`
	ExecutionCount json.RawMessage `json:"execution_count"`
	EName          json.RawMessage `json:"ename"`
	EValue         json.RawMessage `json:"evalue"`
	Traceback      json.RawMessage `json:"traceback"`
}

// decoder decodes a notebook strictly, or leniently collecting what it
// ignored.
type decoder struct {
	lenient bool
	ignored []*DecodeError
}

// problem returns the error of a field of the wrong type, or in lenient
// mode records it and returns nil.
func (d *decoder) problem(cell int, field, msg string) error {
	e := &DecodeError{Cell: cell, Field: field, Msg: msg}
	if d.lenient {
		d.ignored = append(d.ignored, e)
		return nil
	}
	return e
}

func (d *decoder) notebook(data []byte) (*Notebook, error) {
	var j jsonNotebook
	if err := json.Unmarshal(data, &j); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return nil, fmt.Errorf("not valid JSON: %v", err)
		case errors.As(err, &te) && te.Field == "cells":
			return nil, fmt.Errorf("not a notebook: cells: want a list, got %s", rawType(rawValue(data, "cells")))
		case errors.As(err, &te) && te.Field == "":
			return nil, fmt.Errorf("not a notebook: want a JSON object, got %s", rawType(data))
		}
		return nil, fmt.Errorf("not a notebook: %v", err)
	}
	nb := &Notebook{Cells: make([]Cell, len(j.Cells))}
	var format int
	if err := json.Unmarshal(j.NBFormat, &format); (err != nil || format != 4) && !d.lenient {
		return nil, fmt.Errorf("nbformat %s not supported, want 4", orNone(j.NBFormat))
	}
	if err := d.into(j.NBFormatMinor, &nb.NBFormatMinor, 0, "nbformat_minor", "a whole number"); err != nil {
		return nil, err
	}
	var err error
	if nb.Metadata, err = d.metadata(j.Metadata, 0, "metadata"); err != nil {
		return nil, err
	}
	for i, raw := range j.Cells {
		if err := d.cell(raw, i+1, &nb.Cells[i]); err != nil {
			return nil, err
		}
	}
	return nb, nil
}

func (d *decoder) cell(raw json.RawMessage, n int, c *Cell) error {
	var jc jsonCell
	if err := json.Unmarshal(raw, &jc); err != nil {
		return fmt.Errorf("not a notebook: cell %d: want an object, got %s", n, rawType(raw))
	}
	var err error
	for _, e := range []error{
		d.into(jc.ID, &c.ID, n, "id", "a string"),
		d.into(jc.CellType, &c.Type, n, "cell_type", "a string"),
		d.multiline(jc.Source, &c.Source, n, "source"),
		d.into(jc.ExecutionCount, &c.ExecutionCount, n, "execution_count", "a whole number or null"),
	} {
		err = firstErr(err, e)
	}
	if err != nil {
		return err
	}
	if c.Metadata, err = d.metadata(jc.Metadata, n, "metadata"); err != nil {
		return err
	}
	if len(jc.Outputs) == 0 || string(jc.Outputs) == "null" {
		return nil
	}
	var outs []json.RawMessage
	if json.Unmarshal(jc.Outputs, &outs) != nil {
		return d.problem(n, "outputs", "want a list, got "+rawType(jc.Outputs))
	}
	for k, raw := range outs {
		var o Output
		ok, err := d.output(raw, n, fmt.Sprintf("outputs[%d]", k), &o)
		if err != nil {
			return err
		}
		if ok {
			c.Outputs = append(c.Outputs, o)
		}
	}
	return nil
}

// output decodes one output; ok is false when it is not an object (and
// d is lenient).
func (d *decoder) output(raw json.RawMessage, n int, field string, o *Output) (ok bool, err error) {
	var jo jsonOutput
	if json.Unmarshal(raw, &jo) != nil {
		return false, d.problem(n, field, "want an object, got "+rawType(raw))
	}
	for _, e := range []error{
		d.into(jo.OutputType, &o.Type, n, field+".output_type", "a string"),
		d.into(jo.Name, &o.Name, n, field+".name", "a string"),
		d.multiline(jo.Text, &o.Text, n, field+".text"),
		d.into(jo.ExecutionCount, &o.ExecutionCount, n, field+".execution_count", "a whole number or null"),
		d.into(jo.EName, &o.EName, n, field+".ename", "a string"),
		d.into(jo.EValue, &o.EValue, n, field+".evalue", "a string"),
		d.into(jo.Traceback, &o.Traceback, n, field+".traceback", "a list of strings"),
	} {
		err = firstErr(err, e)
	}
	if err != nil {
		return false, err
	}
	if o.Metadata, err = d.metadata(jo.Metadata, n, field+".metadata"); err != nil {
		return false, err
	}
	if len(jo.Data) == 0 || string(jo.Data) == "null" {
		return true, nil
	}
	var data map[string]json.RawMessage
	if json.Unmarshal(jo.Data, &data) != nil {
		return true, d.problem(n, field+".data", "want an object, got "+rawType(jo.Data))
	}
	o.Data = make(map[string]string, len(data))
	for mime, raw := range data {
		if isJSONMime(mime) {
			o.Data[mime] = string(raw)
			continue
		}
		var s string
		if err := d.multiline(raw, &s, n, field+".data."+mime); err != nil {
			return false, err
		}
		o.Data[mime] = s
	}
	return true, nil
}

// firstErr returns the first non-nil error.
func firstErr(err, next error) error {
	if err != nil {
		return err
	}
	return next
}

// into decodes raw into v; a missing value or null leaves v as it is.
func (d *decoder) into(raw json.RawMessage, v any, cell int, field, want string) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	if json.Unmarshal(raw, v) != nil {
		return d.problem(cell, field, "want "+want+", got "+rawType(raw))
	}
	return nil
}

// metadata decodes a metadata object as encoding/json does with UseNumber.
// A missing object is nil.
func (d *decoder) metadata(raw json.RawMessage, cell int, field string) (map[string]any, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if dec.Decode(&m) != nil {
		return nil, d.problem(cell, field, "want an object, got "+rawType(raw))
	}
	return m, nil
}

// multiline decodes an nbformat multi-line string: a JSON string or a list
// of strings to concatenate. A missing value is the empty string.
func (d *decoder) multiline(raw json.RawMessage, s *string, cell int, field string) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	if json.Unmarshal(raw, s) == nil {
		return nil
	}
	var lines []string
	if json.Unmarshal(raw, &lines) != nil {
		return d.problem(cell, field, "want a string or a list of strings, got "+rawType(raw))
	}
	*s = strings.Join(lines, "")
	return nil
}

// rawType names the JSON type of a valid JSON value.
func rawType(raw []byte) string {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '"':
		return "a string"
	case '[':
		return "a list"
	case '{':
		return "an object"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// rawValue returns the value of key in the JSON object data, or nil.
func rawValue(data []byte, key string) json.RawMessage {
	var m map[string]json.RawMessage
	json.Unmarshal(data, &m)
	return m[key]
}

func orNone(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "(none)"
	}
	return string(raw)
}
