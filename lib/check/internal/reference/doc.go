// Package reference holds the reference implementations of the course's
// exercises, in plain float64 loops written independently of lib/. The
// checks of lib/check compare learners' functions with them, and their
// variants (one per usual mistake) recognise what went wrong.
//
// The package is internal on purpose: a notebook cannot import it, so a
// learner cannot call the reference by accident.
package reference
