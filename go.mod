module github.com/attention-in-go/course

go 1.26.5

require (
	git.sr.ht/~sbinet/gg v0.7.0
	github.com/go-rod/rod v0.116.2
	github.com/gomlx/compute v0.1.6
	github.com/gomlx/gomlx v0.28.8
	github.com/janpfeifer/gonb v0.11.5
	github.com/moby/patternmatcher v0.6.0
	github.com/yuin/goldmark v1.8.7
	golang.org/x/image v0.30.0
	golang.org/x/mod v0.35.0
	golang.org/x/net v0.52.0
	golang.org/x/sys v0.43.0
	gonum.org/v1/plot v0.17.0
	k8s.io/klog/v2 v2.140.0
)

require (
	codeberg.org/go-fonts/liberation v0.5.0 // indirect
	codeberg.org/go-latex/latex v0.2.0 // indirect
	codeberg.org/go-pdf/fpdf v0.11.1 // indirect
	github.com/ajstarks/svgo v0.0.0-20211024235047-1546f124cd8b // indirect
	github.com/go-logr/logr v1.4.3 // indirect
	github.com/gofrs/uuid v4.4.0+incompatible // indirect
	github.com/golang/freetype v0.0.0-20170609003504-e2365dfdc4a0 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/pkg/errors v0.9.1 // indirect
	github.com/ysmood/fetchup v0.2.4 // indirect
	github.com/ysmood/goob v0.4.0 // indirect
	github.com/ysmood/got v0.40.0 // indirect
	github.com/ysmood/gson v0.7.3 // indirect
	github.com/ysmood/leakless v0.9.0 // indirect
	golang.org/x/exp v0.0.0-20260410095643-746e56fc9e2f // indirect
	golang.org/x/text v0.35.0 // indirect
	rsc.io/pdf v0.1.1 // indirect
)

replace github.com/gomlx/compute v0.1.6 => ./third_party/compute
