package check

// What a solution may use. Every exercise's Allow names it, beyond the
// standard library, which is always allowed: the grader refuses anything
// else from the course, GoMLX or any other module, however the code
// reaches it (see internal/grade). An entry is a package ("lib/random":
// all of it), a member ("lib/viz.Heatmap": a function, variable, constant
// or type, with the type's methods), module-relative for the course
// ("lib/…") and a full import path otherwise.

// StdOnly allows the standard library alone: the exercises on plain Go
// slices, which the course's packages and GoMLX would do for the learner.
var StdOnly = []string{}

// graphPackage is GoMLX's graph package.
const graphPackage = "github.com/gomlx/gomlx/core/graph"

// GraphOps are GoMLX's graph operations a graph exercise may use: the
// primitives (element-wise arithmetic and functions, comparisons, Where),
// constants, shapes and axes, products and the plain reductions; the
// Graph and Node types with their methods; compute's dtypes and shapes
// packages. Not in it: what does an
// exercise's job in one call — Softmax, LogSoftmax and the Masked…
// variants, the masked reductions, norms and similarities.
var GraphOps = append(graphOps(
	// Primitives (core/graph/gen_compute_ops.go).
	"Abs", "Add", "Atan2", "Clamp", "Cos", "Div", "Equal", "Erf", "Exp", "Expm1",
	"GreaterOrEqual", "GreaterThan", "Identity", "IsFinite", "IsNaN", "LessOrEqual", "LessThan",
	"Log", "Log1p", "LogicalAnd", "LogicalNot", "LogicalOr", "LogicalXor", "Logistic", "Max", "Min",
	"Mul", "Neg", "NotEqual", "Pad", "Pow", "Rem", "Round", "Rsqrt", "Sin", "Sqrt", "Sub", "Tanh",
	// Constants, types, shapes and axes (core/graph/ops.go).
	"Const", "ConstAs", "ConstAsDType", "ConstTensor", "Infinity", "Iota", "IotaFull", "IotaLike",
	"Log1P", "Sigmoid", "Sign", "Mod", "Floor", "Ceil", "StopGradient",
	"BroadcastPrefix", "ExpandAndBroadcast", "BroadcastLike", "BroadcastToShape", "BroadcastToDims",
	"ConvertType", "ConvertDType", "Where", "Reshape", "ReshapeWithShape", "ReshapeLike",
	"InsertAxes", "ExpandDims", "ExpandAxes", "ExpandLeftToRank", "Squeeze",
	"ArgMax", "ArgMin", "ReduceSum", "ReduceAllSum", "ReduceMean", "ReduceAllMean",
	"ReduceMultiply", "ReduceAllMultiply", "ReduceMax", "ReduceAllMax", "ReduceMin", "ReduceAllMin",
	"AxisRange", "AxisRangeToEnd", "AxisRangeFromStart", "AxisElem", "Slice", "SliceAxis", "Split",
	"Concatenate", "Stack", "Reverse", "Transpose", "TransposeAllAxes", "TransposeAllDims",
	// Scalars and small helpers (core/graph/ops_util.go).
	"Scalar", "FillScalar", "ScalarZero", "ScalarOne", "MulScalar", "DivScalar", "PowScalar", "Square",
	"AddScalar", "SubScalar", "ModScalar", "MaxScalar", "MinScalar", "OnesLike", "Ones", "ZerosLike",
	"Zeros", "OneMinus", "MinusOne", "OnePlus", "Reciprocal", "Inverse", "Clip", "ClipScalar", "OneHot",
	"LowerTriangular", "UpperTriangular",
	// Products (core/graph/ops_dotgeneral.go).
	"Dot", "DotGeneral", "MatMul", "Einsum", "EinsumAxes",
	// The types.
	"Graph", "Node",
), "github.com/gomlx/compute/dtypes", "github.com/gomlx/compute/shapes")

func graphOps(names ...string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = graphPackage + "." + n
	}
	return out
}

// allow joins lists of entries.
func allow(lists ...[]string) []string {
	out := []string{}
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}
