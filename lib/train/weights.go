package train

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
)

// The weights of a trained model are stored as two files in its folder:
// weights.json lists every model variable (path, shape, offset) and
// weights.bin holds their float32 values, little-endian, one after the
// other. GoMLX's own checkpoint package would do, but it imports
// ml/train, which needs a go.mod entry the course does not carry; this
// format is a few lines and holds only what inference needs.

type savedVar struct {
	Path   string `json:"path"`
	Dims   []int  `json:"dims"`
	Offset int    `json:"offset"` // in float32 values
}

// isBookkeeping reports whether a variable belongs to the optimiser or the
// step counter rather than to the model.
func isBookkeeping(path string) bool {
	return strings.HasPrefix(path, "/optimizers") || strings.HasPrefix(path, "/adam") ||
		strings.HasPrefix(path, "/global_step") || strings.Contains(path, "/rng_state") ||
		strings.HasPrefix(path, "/trainer")
}

// modelVars returns the model's float32 variables, sorted by path.
func modelVars(store *model.Store) []*model.Variable {
	var vs []*model.Variable
	for v := range store.IterVariables() {
		if isBookkeeping(v.Path()) || !v.Trainable || v.DType() != dtypes.Float32 {
			continue
		}
		vs = append(vs, v)
	}
	slices.SortFunc(vs, func(a, b *model.Variable) int { return strings.Compare(a.Path(), b.Path()) })
	return vs
}

func writeWeights(store *model.Store, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var index []savedVar
	var data []byte
	off := 0
	for _, v := range modelVars(store) {
		t, err := v.Value()
		if err != nil {
			return err
		}
		vals := tensors.MustCopyFlatData[float32](t)
		index = append(index, savedVar{Path: v.Path(), Dims: t.Shape().Dimensions, Offset: off})
		for _, x := range vals {
			data = binary.LittleEndian.AppendUint32(data, math.Float32bits(x))
		}
		off += len(vals)
	}
	if len(index) == 0 {
		return fmt.Errorf("the model has no trainable float32 variables")
	}
	js, err := json.MarshalIndent(index, "", " ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "weights.bin"), data, 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "weights.json"), js, 0o644)
}

func readWeights(store *model.Store, dir string) error {
	js, err := os.ReadFile(filepath.Join(dir, "weights.json"))
	if err != nil {
		return err
	}
	data, err := os.ReadFile(filepath.Join(dir, "weights.bin"))
	if err != nil {
		return err
	}
	var index []savedVar
	if err := json.Unmarshal(js, &index); err != nil {
		return err
	}
	for _, sv := range index {
		n := 1
		for _, d := range sv.Dims {
			n *= d
		}
		if (sv.Offset+n)*4 > len(data) {
			return fmt.Errorf("weights.bin is too short for %s: retrain the model", sv.Path)
		}
		vals := make([]float32, n)
		for i := range vals {
			vals[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[(sv.Offset+i)*4:]))
		}
		if _, err := store.CreateVariable(sv.Path, tensors.FromFlatDataAndDimensions(vals, sv.Dims...)); err != nil {
			return fmt.Errorf("%s: %w", sv.Path, err)
		}
	}
	return nil
}
