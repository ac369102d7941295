package notebook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Marshal serialises nb exactly as Python's nbformat.write does: JSON with
// keys sorted, indented by one space, non-ASCII characters unescaped,
// multi-line strings split into lists of lines, and a final newline.
// Every cell needs an ID (nbformat 4.5).
func Marshal(nb *Notebook) ([]byte, error) {
	tree, err := nb.tree()
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := encode(&buf, tree, 0); err != nil {
		return nil, err
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}

// tree returns nb as the generic JSON value nbformat writes.
func (nb *Notebook) tree() (map[string]any, error) {
	minor := nb.NBFormatMinor
	if minor == 0 {
		minor = 5
	}
	cells := make([]any, len(nb.Cells))
	for i, c := range nb.Cells {
		if c.ID == "" && minor >= 5 {
			return nil, fmt.Errorf("notebook: cell %d has no id", i+1)
		}
		cells[i] = c.tree()
	}
	return map[string]any{
		"cells":          cells,
		"metadata":       orEmpty(nb.Metadata),
		"nbformat":       4,
		"nbformat_minor": minor,
	}, nil
}

func (c *Cell) tree() map[string]any {
	t := map[string]any{
		"cell_type": c.Type,
		"metadata":  orEmpty(c.Metadata),
		"source":    splitLines(c.Source),
	}
	if c.ID != "" {
		t["id"] = c.ID
	}
	if c.Type == Code {
		t["execution_count"] = intOrNil(c.ExecutionCount)
		outputs := make([]any, len(c.Outputs))
		for i := range c.Outputs {
			outputs[i] = c.Outputs[i].tree()
		}
		t["outputs"] = outputs
	}
	return t
}

func (o *Output) tree() map[string]any {
	t := map[string]any{"output_type": o.Type}
	switch o.Type {
	case Stream:
		t["name"] = o.Name
		t["text"] = splitLines(o.Text)
	case DisplayData, ExecuteResult:
		data := make(map[string]any, len(o.Data))
		for mime, v := range o.Data {
			data[mime] = mimeValue(mime, v)
		}
		t["data"] = data
		t["metadata"] = orEmpty(o.Metadata)
		if o.Type == ExecuteResult {
			t["execution_count"] = intOrNil(o.ExecutionCount)
		}
	case ErrorOutput:
		t["ename"] = o.EName
		t["evalue"] = o.EValue
		tb := make([]any, len(o.Traceback))
		for i, s := range o.Traceback {
			tb[i] = s
		}
		t["traceback"] = tb
	}
	return t
}

// mimeValue returns how nbformat stores a mime bundle value: text types
// (and SVG, JavaScript) as lists of lines, JSON types as JSON, the rest
// (base64 images) as one string.
func mimeValue(mime, v string) any {
	switch {
	case isJSONMime(mime):
		d := json.NewDecoder(strings.NewReader(v))
		d.UseNumber()
		var x any
		if d.Decode(&x) == nil {
			return x
		}
		return v
	case strings.HasPrefix(mime, "text/"), mime == "image/svg+xml", mime == "application/javascript":
		return splitLines(v)
	default:
		return v
	}
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

func intOrNil(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

// splitLines splits s after each line break as Python's
// str.splitlines(keepends=True) does, which is how nbformat stores
// multi-line strings. Note that Python counts more than \n as a line break.
func splitLines(s string) []any {
	lines := []any{}
	for s != "" {
		n := lineEnd(s)
		lines = append(lines, s[:n])
		s = s[n:]
	}
	return lines
}

// lineEnd returns the length of the first line of s including its line
// break, using Python's definition of line breaks.
func lineEnd(s string) int {
	for i, r := range s {
		switch r {
		case '\r':
			if strings.HasPrefix(s[i:], "\r\n") {
				return i + 2
			}
			return i + 1
		case '\n', '\v', '\f', '\x1c', '\x1d', '\x1e', '\u0085', '\u2028', '\u2029':
			return i + utf8.RuneLen(r)
		}
	}
	return len(s)
}

// encode writes v as Python's json.dumps(v, indent=1, sort_keys=True,
// ensure_ascii=False) does, at the given nesting level.
func encode(buf *bytes.Buffer, v any, level int) error {
	switch v := v.(type) {
	case nil:
		buf.WriteString("null")
	case bool:
		buf.WriteString(strconv.FormatBool(v))
	case int:
		buf.WriteString(strconv.Itoa(v))
	case json.Number:
		buf.WriteString(v.String())
	case float64:
		return encodeFloat(buf, v)
	case string:
		quote(buf, v)
	case []string:
		items := make([]any, len(v))
		for i, s := range v {
			items[i] = s
		}
		return encodeList(buf, items, level)
	case []any:
		return encodeList(buf, v, level)
	case map[string]any:
		return encodeMap(buf, v, level)
	default:
		return fmt.Errorf("notebook: cannot encode %T in JSON", v)
	}
	return nil
}

func encodeList(buf *bytes.Buffer, items []any, level int) error {
	if len(items) == 0 {
		buf.WriteString("[]")
		return nil
	}
	buf.WriteString("[")
	for i, item := range items {
		if i > 0 {
			buf.WriteString(",")
		}
		newline(buf, level+1)
		if err := encode(buf, item, level+1); err != nil {
			return err
		}
	}
	newline(buf, level)
	buf.WriteString("]")
	return nil
}

func encodeMap(buf *bytes.Buffer, m map[string]any, level int) error {
	if len(m) == 0 {
		buf.WriteString("{}")
		return nil
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys) // byte order of UTF-8 is code point order, as in Python
	buf.WriteString("{")
	for i, k := range keys {
		if i > 0 {
			buf.WriteString(",")
		}
		newline(buf, level+1)
		quote(buf, k)
		buf.WriteString(": ")
		if err := encode(buf, m[k], level+1); err != nil {
			return err
		}
	}
	newline(buf, level)
	buf.WriteString("}")
	return nil
}

func newline(buf *bytes.Buffer, level int) {
	buf.WriteByte('\n')
	for range level {
		buf.WriteByte(' ')
	}
}

// encodeFloat writes f like Python's float repr in the common cases.
func encodeFloat(buf *bytes.Buffer, f float64) error {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return fmt.Errorf("notebook: cannot encode %v in JSON", f)
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eEn") {
		s += ".0"
	}
	buf.WriteString(s)
	return nil
}

// quote writes s as a JSON string the way Python's json module does with
// ensure_ascii=False: only the quote, the backslash and control characters
// below U+0020 are escaped. (Go's encoding/json also escapes <, >, & and
// U+2028/U+2029, which Python does not.)
func quote(buf *bytes.Buffer, s string) {
	buf.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"':
			buf.WriteString(`\"`)
		case '\\':
			buf.WriteString(`\\`)
		case '\n':
			buf.WriteString(`\n`)
		case '\r':
			buf.WriteString(`\r`)
		case '\t':
			buf.WriteString(`\t`)
		case '\b':
			buf.WriteString(`\b`)
		case '\f':
			buf.WriteString(`\f`)
		default:
			if c < 0x20 {
				fmt.Fprintf(buf, `\u%04x`, c)
			} else {
				buf.WriteByte(c)
			}
		}
	}
	buf.WriteByte('"')
}
