package notebook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// jsonNotebook, jsonCell and jsonOutput mirror the nbformat 4 JSON layout
// for reading; multi-line strings may be stored as a string or as a list of
// strings, hence json.RawMessage.
type jsonNotebook struct {
	Metadata      map[string]any `json:"metadata"`
	NBFormat      int            `json:"nbformat"`
	NBFormatMinor int            `json:"nbformat_minor"`
	Cells         []jsonCell     `json:"cells"`
}

type jsonCell struct {
	ID             string          `json:"id"`
	CellType       string          `json:"cell_type"`
	Source         json.RawMessage `json:"source"`
	Metadata       map[string]any  `json:"metadata"`
	ExecutionCount *int            `json:"execution_count"`
	Outputs        []jsonOutput    `json:"outputs"`
}

type jsonOutput struct {
	OutputType     string                     `json:"output_type"`
	Name           string                     `json:"name"`
	Text           json.RawMessage            `json:"text"`
	Data           map[string]json.RawMessage `json:"data"`
	Metadata       map[string]any             `json:"metadata"`
	ExecutionCount *int                       `json:"execution_count"`
	EName          string                     `json:"ename"`
	EValue         string                     `json:"evalue"`
	Traceback      []string                   `json:"traceback"`
}

// Unmarshal parses a notebook in nbformat 4, such as one executed by
// nbconvert. Multi-line strings are joined; unknown fields are ignored.
func Unmarshal(data []byte) (*Notebook, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var j jsonNotebook
	if err := d.Decode(&j); err != nil {
		return nil, fmt.Errorf("not a notebook: %w", err)
	}
	if j.NBFormat != 4 {
		return nil, fmt.Errorf("nbformat %d not supported, want 4", j.NBFormat)
	}
	nb := &Notebook{Metadata: j.Metadata, NBFormatMinor: j.NBFormatMinor, Cells: make([]Cell, len(j.Cells))}
	for i, jc := range j.Cells {
		c, err := jc.cell()
		if err != nil {
			return nil, fmt.Errorf("cell %d: %w", i+1, err)
		}
		nb.Cells[i] = c
	}
	return nb, nil
}

func (jc *jsonCell) cell() (Cell, error) {
	src, err := multiline(jc.Source)
	if err != nil {
		return Cell{}, fmt.Errorf("source: %w", err)
	}
	c := Cell{ID: jc.ID, Type: jc.CellType, Source: src, Metadata: jc.Metadata, ExecutionCount: jc.ExecutionCount}
	for k, jo := range jc.Outputs {
		o, err := jo.output()
		if err != nil {
			return Cell{}, fmt.Errorf("output %d: %w", k+1, err)
		}
		c.Outputs = append(c.Outputs, o)
	}
	return c, nil
}

func (jo *jsonOutput) output() (Output, error) {
	o := Output{
		Type:           jo.OutputType,
		Name:           jo.Name,
		Metadata:       jo.Metadata,
		ExecutionCount: jo.ExecutionCount,
		EName:          jo.EName,
		EValue:         jo.EValue,
		Traceback:      jo.Traceback,
	}
	text, err := multiline(jo.Text)
	if err != nil {
		return Output{}, fmt.Errorf("text: %w", err)
	}
	o.Text = text
	if jo.Data != nil {
		o.Data = make(map[string]string, len(jo.Data))
		for mime, raw := range jo.Data {
			if isJSONMime(mime) {
				o.Data[mime] = string(raw)
				continue
			}
			if o.Data[mime], err = multiline(raw); err != nil {
				return Output{}, fmt.Errorf("data %s: %w", mime, err)
			}
		}
	}
	return o, nil
}

// multiline decodes an nbformat multi-line string: a JSON string or a list
// of strings to concatenate. A missing value is the empty string.
func multiline(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var lines []string
	if err := json.Unmarshal(raw, &lines); err != nil {
		return "", errors.New("want a string or a list of strings")
	}
	return strings.Join(lines, ""), nil
}
