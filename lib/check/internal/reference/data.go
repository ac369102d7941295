package reference

import "fmt"

// This file holds the references of the appendix's synthetic-data
// exercises.

// SentenceParamsError returns what is wrong with the parameters of a
// synthetic sentence generator, or nil: at least 1 sentence, a vocabulary
// of at least 2 ids (0 is padding), sentences of at least 1 token.
func SentenceParamsError(count, vocabSize, maxLen int) error {
	switch {
	case count < 1:
		return fmt.Errorf("count %d < 1", count)
	case vocabSize < 2:
		return fmt.Errorf("vocab size %d < 2", vocabSize)
	case maxLen < 1:
		return fmt.Errorf("max length %d < 1", maxLen)
	}
	return nil
}

// PadBatch pads sentences with padID to the longest one and returns the
// padded ids and the padding mask (true where padded).
func PadBatch(sentences [][]int, padID int) (ids [][]int, mask [][]bool) {
	longest := 0
	for _, s := range sentences {
		longest = max(longest, len(s))
	}
	for _, s := range sentences {
		row, m := make([]int, longest), make([]bool, longest)
		for j := range longest {
			if j < len(s) {
				row[j] = s[j]
			} else {
				row[j], m[j] = padID, true
			}
		}
		ids, mask = append(ids, row), append(mask, m)
	}
	return ids, mask
}
