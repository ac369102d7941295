// Package dates is the toy translation task of lesson 07: human-readable
// dates in several formats ("22 November 2026", "Nov 22, 2026",
// "22/11/2026", "Sun, 22 Nov 2026", "22 Nov 2026") translated character by
// character into ISO 8601 ("2026-11-22") by a small GRU encoder–decoder
// with attention (lib/seq2seq), trained once with each of the four score
// functions of lesson 02 (additive, dot, general, concat).
//
// The package generates the data (seeded, with a train/test split on the
// calendar dates so that no test date is ever seen in training, in any
// format), turns characters into ids and back, trains and evaluates the
// four models, and measures whether their attention looks where a human
// would: the year characters of the output should attend to the year
// characters of the input, and so on.
//
// Introduced in lesson 07.
package dates
