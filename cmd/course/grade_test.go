package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attention-in-go/course/internal/courseroot"
)

func TestGradeUsage(t *testing.T) {
	root, err := courseroot.Find(".")
	if err != nil {
		t.Fatal(err)
	}
	empty := t.TempDir()
	unknown := t.TempDir()
	if err := os.WriteFile(filepath.Join(unknown, "a.ipynb"), []byte(`{"cells": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		args     []string
		wantCode int
		want     string // in stdout or stderr
	}{
		{"help", []string{"grade", "-h"}, exitOK, "OUT/gradebook.csv has\n     every exercise's points and status"},
		{"help lists flags", []string{"help", "grade"}, exitOK, "-memory MiB"},
		{"no folder", []string{"grade"}, exitUsage, "missing SUBMISSIONS_DIR"},
		{"two folders", []string{"grade", "a", "b"}, exitUsage, "one SUBMISSIONS_DIR, got 2 arguments"},
		{"not a folder", []string{"grade", filepath.Join(empty, "nope")}, exitUsage, "is not a folder of submissions"},
		{"bad -j", []string{"grade", "-j", "0", empty}, exitUsage, "-j 0: want at least 1"},
		{"bad -memory", []string{"grade", "-memory", "10", empty}, exitUsage, "too small"},
		{"bad flag", []string{"grade", "-frob", empty}, exitUsage, "flag provided but not defined: -frob"},
		{"help tells of the report", []string{"grade", "-h"}, exitOK, "OUT/report.html, the class report"},
		{"help lists the regrade", []string{"help", "grade"}, exitOK, "-learner NAME"},
		{"bad -lms-id", []string{"grade", "-lms-id", "nick", empty}, exitUsage, "-lms-id nick: want login, sis, id or email"},
		{"empty -learner", []string{"grade", "-learner", " ", empty}, exitUsage, "empty learner name"},
		{"unknown assignment", []string{"grade", unknown}, exitUsage, "give -assignment lessons/exercises/NN-slug.md"},
		{"missing source", []string{"grade", "-assignment", "lessons/exercises/99-none.md", unknown}, exitFailed, "99-none.md"},
		{"no submissions", []string{"grade", "-assignment", "lessons/exercises/01-scaled-dot-product-attention.md", empty}, exitFailed, "no submissions in"},
	}
	for _, tc := range tests {
		code, stdout, stderr := runCourse(t, root, tc.args...)
		if code != tc.wantCode || !strings.Contains(stdout+stderr, tc.want) {
			t.Errorf("%s: status %d, output\n%s%s\nwant %d and %q", tc.name, code, stdout, stderr, tc.wantCode, tc.want)
		}
	}
}
