// Package jupyter finds the Jupyter installation the course's commands
// drive — the headless runner (nbconvert) and the browser test (the
// notebook server) — and checks that it has the GoNB kernel.
package jupyter

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"time"
)

// SetupAdvice ends the errors about a missing Jupyter or GoNB.
const SetupAdvice = "run `make setup` to install Jupyter and the GoNB kernel"

// debian is where Debian's package puts jupyter, which `make setup`
// installs and `make course` starts.
const debian = "/usr/bin/jupyter"

// Find returns Debian's /usr/bin/jupyter if present, else jupyter from the
// PATH, like `make course`.
func Find() (string, error) {
	if _, err := os.Stat(debian); err == nil {
		return debian, nil
	}
	p, err := exec.LookPath("jupyter")
	if err != nil {
		return "", errors.New("jupyter not found (neither /usr/bin/jupyter nor jupyter on the PATH)")
	}
	return p, nil
}

// CheckKernel fails unless the kernel named kernel (the course's is
// "gonb") is registered with the Jupyter program jupyter, as it lists its
// kernels in the environment env.
func CheckKernel(ctx context.Context, jupyter string, env []string, kernel string) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, jupyter, "kernelspec", "list", "--json")
	cmd.Env = env
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("cannot list Jupyter kernels (%s kernelspec list: %v): %s", jupyter, err, SetupAdvice)
	}
	var list struct {
		Kernelspecs map[string]json.RawMessage `json:"kernelspecs"`
	}
	if err := json.Unmarshal(out, &list); err != nil {
		return fmt.Errorf("cannot read %s kernelspec list --json: %v", jupyter, err)
	}
	if _, ok := list.Kernelspecs[kernel]; !ok {
		return fmt.Errorf("the %s Jupyter kernel is not installed: %s", kernel, SetupAdvice)
	}
	return nil
}
