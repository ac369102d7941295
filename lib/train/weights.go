package train

import (
	"fmt"
	"strings"

	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/model/checkpoint"
)

// The weights of a trained model are a GoMLX checkpoint
// (github.com/gomlx/gomlx/ml/model/checkpoint) in the model's folder: a
// JSON index of the variables and a binary file of their values. It holds
// every variable, the optimiser's moments and the step counter included,
// so a checkpoint could also resume training; inference reads only the
// model's own variables.

// isBookkeeping reports whether a variable belongs to the optimiser or the
// training loop rather than to the model.
func isBookkeeping(path string) bool {
	return strings.HasPrefix(path, "/optimizers") || strings.HasPrefix(path, "/adam") ||
		strings.HasPrefix(path, "/global_step") || strings.Contains(path, "/rng_state") ||
		strings.HasPrefix(path, "/trainer")
}

// writeWeights saves every variable of store as a checkpoint in dir.
func writeWeights(store *model.Store, dir string) error {
	if countParams(store) == 0 {
		return fmt.Errorf("the model has no trainable variables")
	}
	h, err := checkpoint.Build(store).Dir(dir).Done()
	if err != nil {
		return err
	}
	return h.Save()
}

// readWeights loads the checkpoint in dir into store, every variable at
// once, so that a [Predictor] finds them.
func readWeights(store *model.Store, dir string) error {
	h, err := checkpoint.Load(store).Dir(dir).Immediate().Done()
	if err != nil {
		return err
	}
	if countParams(store) == 0 {
		return fmt.Errorf("no model variables in %s (checkpoint %s): retrain the model", dir, h)
	}
	return nil
}
