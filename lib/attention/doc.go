// Package attention implements attention the way the course teaches it:
// formula first, one GoMLX operation per step, so that a learner can read the
// code next to the equation.
package attention
