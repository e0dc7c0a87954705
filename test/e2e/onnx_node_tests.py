"""lit test format running ONNX's backend node tests through `dlc run`.

One lit test per (target, ONNX test): `e2e/<target>/<test_name>`. The
tests are every node test of the ONNX test data (Debian's libonnx-testdata)
and every test of the suites ONNX exported from PyTorch models and simple
graphs (SUITES: pytorch-converted, pytorch-operator, simple), named
`<suite>/<test_name>`. The selection depends on the test data only, never
on what dlc supports, so a regression cannot hide by dropping out of the
suite; what dlc does not support is listed, with the reason, in each
target's expectations file.

A target is tested when `<target>.expectations` exists next to this file.
A line `# configuration: <name> <dlc run flags...>` in it runs every test
once more with those flags, as `e2e/<target>@<name>/<test_name>`, against
the same expectations (the host runs the shared memory passes at several
local-memory capacities this way: the outputs must not change).
Each non-comment line of it is `<test_name> <reason>`: that test is expected
to fail (XFAIL) in every run of the target, or `<test_name>@<configuration>
<reason>` in that configuration's run only, so the suite fails both on an
unexpected failure and on an unexpected pass (XPASS). The file itself is checked by the test
`e2e/<target>/expectations`: a name that is not a selected test, a duplicate
or a missing reason fails it. Adding a target is adding its expectations
file.

Run as a script (`python3 onnx_node_tests.py NODE_DIR`) it prints the
selected test names.
"""

import os
import sys

EXPECTATIONS_SUFFIX = ".expectations"
EXPECTATIONS_TEST = "expectations"


def select_node_tests(node_dir):
    """Names of every node test in `node_dir` (a directory with a
    model.onnx)."""
    return [
        name
        for name in sorted(os.listdir(node_dir))
        if os.path.isfile(os.path.join(node_dir, name, "model.onnx"))
    ]


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
            test, _, configuration = name.partition("@")
            if test not in selected:
                problems.append(where + "'%s' is not a selected test" % test)
            elif configuration and configuration not in configurations:
                problems.append(where + "'%s' is not a configuration declared "
                                "above" % configuration)
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
        return select_tests(self.node_dir)

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
                    configuration = run.partition("@")[2]
                    if name in expected_failures or (
                        configuration
                        and name + "@" + configuration in expected_failures
                    ):
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
