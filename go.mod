module github.com/attention-in-go/course

go 1.26.8

require (
	github.com/gomlx/compute v0.1.6
	github.com/gomlx/gomlx v0.28.8
)

require (
	github.com/go-logr/logr v1.4.3 // indirect
	github.com/pkg/errors v0.9.1 // indirect
	golang.org/x/exp v0.0.0-20260410095643-746e56fc9e2f // indirect
	k8s.io/klog/v2 v2.140.0 // indirect
)
