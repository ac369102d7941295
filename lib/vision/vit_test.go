package vision

import (
	"testing"
)

func TestViTConfigValidate(t *testing.T) {
	for _, c := range []ViTConfig{{Size: 16, Patch: 5, DModel: 32, Heads: 4, DFF: 8, Layers: 1}, {Size: 16, Patch: 4, DModel: 30, Heads: 4, DFF: 8, Layers: 1}} {
		if c.Validate() == nil {
			t.Errorf("%+v: no error", c)
		}
	}
	if err := DefaultViT.Validate(); err != nil {
		t.Error(err)
	}
}
