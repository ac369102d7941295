// Package proctree reads process trees from /proc (Linux) and stops them,
// so that the course's commands can stop what they started, down to the
// grandchildren that left their process group (Jupyter starts each kernel
// in a session of its own; GoNB starts gopls and each cell's program).
// Where there is no /proc, Descendants finds nothing, Alive trusts
// kill(pid, 0), and Stop stops the processes it is given and their group.
//
// [Run] runs a command and, when its context ends, interrupts the tree it
// started, then stops it: the notebook runner runs nbconvert with it, and
// `course kernels` the commands it is given. Outside Unix, Run only kills
// the command itself.
package proctree
