"""lit test format running ONNX's backend node tests through `dlc run`.

One lit test per (target, ONNX test): `e2e/<target>/<test_name>`. The
tests are the node tests of the ONNX test data (Debian's libonnx-testdata)
whose operators are all in OPERATORS, and every test of the suites ONNX
exported from PyTorch models and simple graphs (SUITES: pytorch-converted,
pytorch-operator, simple), named `<suite>/<test_name>`. The selection
depends on the test data only, never on what dlc supports, so a regression
cannot hide by dropping out of the suite.

A target is tested when `<target>.expectations` exists next to this file.
A line `# configuration: <name> <dlc run flags...>` in it runs every test
once more with those flags, as `e2e/<target>@<name>/<test_name>`, against
the same expectations (the host runs the shared memory passes at several
local-memory capacities this way: the outputs must not change).
Each non-comment line of it is `<test_name> <reason>`: that test is expected
to fail (XFAIL), so the suite fails both on an unexpected failure and on an
unexpected pass (XPASS). The file itself is checked by the test
`e2e/<target>/expectations`: a name that is not a selected test, a duplicate
or a missing reason fails it. Adding a target is adding its expectations
file.

Run as a script (`python3 onnx_node_tests.py NODE_DIR`) it prints the
selected test names, which is also how the lit config gets them when lit's
own Python cannot import onnx.
"""

import os
import subprocess
import sys

# The operator families dlc imports (the foundation issue's, then issue 11's);
# see ARCHITECTURE.md.
OPERATORS = frozenset(
    """
    Conv Gemm MatMul Add Sub Mul Div Pow Max Min Sum Mean Relu LeakyRelu PRelu
    Sigmoid Tanh Clip Exp Log Sqrt Neg Abs Reciprocal Erf HardSigmoid
    HardSwish Elu Selu Softplus Softmax LogSoftmax MaxPool AveragePool
    GlobalAveragePool GlobalMaxPool BatchNormalization LRN ReduceMean
    ReduceSum ReduceMax ReduceMin Flatten Reshape Transpose Squeeze Unsqueeze
    Concat Split Slice Gather Pad Expand Tile Identity Dropout Constant Shape
    Cast
    Softsign ThresholdedRelu Celu Shrink Sign Floor Ceil Round Sin Cos Tan Asin
    Acos Atan Sinh Cosh Asinh Acosh Atanh Mod BitShift Equal Less LessOrEqual
    Greater GreaterOrEqual And Or Xor Not Where IsNaN IsInf
    ReduceProd ReduceSumSquare ReduceL1 ReduceL2 ReduceLogSum ReduceLogSumExp
    ArgMax ArgMin Size LayerNormalization InstanceNormalization
    MeanVarianceNormalization ConstantOfShape CastLike Trilu Hardmax
    DepthToSpace SpaceToDepth EyeLike ConvTranspose Resize Upsample
    GatherElements QuantizeLinear DequantizeLinear QLinearConv QLinearMatMul
    ConvInteger MatMulInteger DynamicQuantizeLinear CumSum Einsum Range OneHot
    TopK GatherND ScatterElements Scatter ScatterND
    """.split()
)

EXPECTATIONS_SUFFIX = ".expectations"
EXPECTATIONS_TEST = "expectations"


def _nodes(graph):
    """Every node of `graph`, including those of nested subgraphs."""
    for node in graph.node:
        yield node
        for attribute in node.attribute:
            if attribute.HasField("g"):
                yield from _nodes(attribute.g)
            for subgraph in attribute.graphs:
                yield from _nodes(subgraph)


def select_node_tests(node_dir):
    """Names of the node tests in `node_dir` made only of OPERATORS."""
    import onnx

    selected = []
    for name in sorted(os.listdir(node_dir)):
        model_path = os.path.join(node_dir, name, "model.onnx")
        if not os.path.isfile(model_path):
            continue
        model = onnx.load(model_path, load_external_data=False)
        nodes = list(_nodes(model.graph))
        if nodes and all(
            node.domain in ("", "ai.onnx") and node.op_type in OPERATORS
            for node in nodes
        ):
            selected.append(name)
    return selected


# The test-data suites next to `node` that run whole (every test).
SUITES = ("pytorch-converted", "pytorch-operator", "simple")


def select_tests(node_dir):
    """The selected node tests, then every test of SUITES (as
    `<suite>/<name>`) found next to `node_dir`."""
    selected = select_node_tests(node_dir)
    data_dir = os.path.dirname(os.path.abspath(node_dir))
    for suite in SUITES:
        suite_dir = os.path.join(data_dir, suite)
        if not os.path.isdir(suite_dir):
            continue
        for name in sorted(os.listdir(suite_dir)):
            if os.path.isfile(os.path.join(suite_dir, name, "model.onnx")):
                selected.append(suite + "/" + name)
    return selected


def _select_in_subprocess(node_dir):
    output = subprocess.run(
        ["/usr/bin/python3", os.path.abspath(__file__), node_dir],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return output.split()


CONFIGURATION_PREFIX = "# configuration:"


def parse_expectations(path, selected):
    """Returns ({test name: reason}, [problems], {configuration: flags}) for
    one expectations file."""
    expected_failures = {}
    problems = []
    configurations = {}
    selected = set(selected)
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if line.startswith(CONFIGURATION_PREFIX):
                name, *flags = line[len(CONFIGURATION_PREFIX):].split()
                configurations[name] = flags
                continue
            if not line or line.startswith("#"):
                continue
            name, _, reason = line.partition(" ")
            reason = reason.strip()
            where = "%s:%d: " % (os.path.basename(path), number)
            if name not in selected:
                problems.append(where + "'%s' is not a selected test" % name)
            elif name in expected_failures:
                problems.append(where + "'%s' is listed twice" % name)
            elif not reason:
                problems.append(where + "'%s' has no reason" % name)
            expected_failures[name] = reason
    return expected_failures, problems, configurations


if __name__ == "__main__":
    print("\n".join(select_tests(sys.argv[1])))
    sys.exit(0)

import lit.formats
import lit.Test
import lit.util


class ONNXNodeTestFormat(lit.formats.TestFormat):
    def __init__(self, node_dir, expectations_dir, dlc, timeout):
        self.node_dir = node_dir
        self.expectations_dir = expectations_dir
        self.dlc = dlc
        self.timeout = timeout
        # target -> problems found in its expectations file
        self.problems = {}
        # "<target>@<configuration>" -> (target, extra `dlc run` flags)
        self.runs = {}

    def _selected(self):
        try:
            return select_tests(self.node_dir)
        except ImportError:
            return _select_in_subprocess(self.node_dir)

    def getTestsInDirectory(self, testSuite, path_in_suite, litConfig, localConfig):
        if not os.path.isdir(self.node_dir):
            litConfig.error("ONNX node tests not found in %s (install "
                            "libonnx-testdata)" % self.node_dir)
            return
        selected = self._selected()
        # execute() finds the run and the test name after this prefix.
        self.prefix_length = len(path_in_suite)
        for file_name in sorted(os.listdir(self.expectations_dir)):
            if not file_name.endswith(EXPECTATIONS_SUFFIX):
                continue
            target = file_name[: -len(EXPECTATIONS_SUFFIX)]
            expected_failures, self.problems[target], configurations = (
                parse_expectations(
                    os.path.join(self.expectations_dir, file_name), selected
                )
            )
            yield lit.Test.Test(
                testSuite, path_in_suite + (target, EXPECTATIONS_TEST), localConfig
            )
            self.runs[target] = (target, [])
            for configuration, flags in configurations.items():
                self.runs[target + "@" + configuration] = (target, flags)
            for run in [target] + [target + "@" + c for c in configurations]:
                for name in selected:
                    test = lit.Test.Test(
                        testSuite,
                        path_in_suite + (run,) + tuple(name.split("/")),
                        localConfig,
                    )
                    if name in expected_failures:
                        test.xfails = ["*"]
                    yield test

    def execute(self, test, litConfig):
        run, *rest = test.path_in_suite[self.prefix_length:]
        name = "/".join(rest)
        if name == EXPECTATIONS_TEST:
            problems = self.problems[run]
            if problems:
                return lit.Test.Result(lit.Test.FAIL, "\n".join(problems) + "\n")
            return lit.Test.Result(lit.Test.PASS)

        target, flags = self.runs[run]
        test_dir = (os.path.join(os.path.dirname(self.node_dir), name)
                    if "/" in name else os.path.join(self.node_dir, name))
        command = [self.dlc, "run", test_dir,
                   "--target", target] + flags
        try:
            out, err, exit_code = lit.util.executeCommand(
                command, timeout=self.timeout
            )
        except lit.util.ExecuteCommandTimeoutException as e:
            return lit.Test.Result(
                lit.Test.FAIL,
                "$ %s\ntimed out after %d s\n%s%s"
                % (" ".join(command), self.timeout, e.out, e.err),
            )
        output = "$ %s\n%s%s" % (" ".join(command), out, err)
        if exit_code < 0:
            # Nothing may crash on any input, expected failure or not.
            return lit.Test.Result(
                lit.Test.UNRESOLVED,
                output + "dlc crashed (signal %d)\n" % -exit_code,
            )
        if exit_code != 0:
            return lit.Test.Result(lit.Test.FAIL, output)
        return lit.Test.Result(lit.Test.PASS, output)
