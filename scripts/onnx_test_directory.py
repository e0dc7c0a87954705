"""What every export script shares: an ONNX backend-test directory
(OUT_DIR/NAME/{model.onnx, test_data_set_0/input_*.pb, output_*.pb,
export-info.json}) written once per configuration, safely.

Exports of one model at once (lit runs tests in parallel) take turns under
a lock: the later one finds the earlier one's directory up to date instead
of replacing it while a test reads it. A directory is written next to its
final place and renamed, so an interrupted export never looks complete.
"""
import fcntl
import json
import os
import shutil
import sys
import tempfile

import numpy as np
from onnx import numpy_helper


def check_meaningful(name, output):
    """Refuses outputs that would make the comparison vacuous."""
    if not np.all(np.isfinite(output)):
        sys.exit("%s: the output has non-finite values" % name)
    spread = float(output.max() - output.min())
    if spread <= 1e-6 * max(1.0, float(np.abs(output).max())):
        sys.exit("%s: the output is (nearly) constant" % name)


def export_once(out_dir, dir_name, info, produce):
    """Writes OUT_DIR/DIR_NAME unless its export-info.json equals `info`.

    `produce(tmp_dir)` writes tmp_dir/model.onnx and returns the data set
    as [(file name, array, tensor name), ...]. Returns the model directory,
    or None when it was up to date.
    """
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "." + dir_name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        model_dir = os.path.join(out_dir, dir_name)
        info_path = os.path.join(model_dir, "export-info.json")
        if os.path.isfile(info_path):
            with open(info_path) as f:
                if json.load(f) == info:
                    print("%s: up to date in %s" % (dir_name, model_dir))
                    return None
        tmp_dir = tempfile.mkdtemp(prefix=dir_name + ".", dir=out_dir)
        os.chmod(tmp_dir, 0o755)
        try:
            data = produce(tmp_dir)
            data_dir = os.path.join(tmp_dir, "test_data_set_0")
            os.makedirs(data_dir)
            for file_name, array, tensor_name in data:
                tensor = numpy_helper.from_array(array, tensor_name)
                with open(os.path.join(data_dir, file_name), "wb") as f:
                    f.write(tensor.SerializeToString())
            with open(os.path.join(tmp_dir, "export-info.json"), "w") as f:
                json.dump(info, f, indent=2)
            if os.path.isdir(model_dir):
                shutil.rmtree(model_dir)
            os.rename(tmp_dir, model_dir)
        finally:
            if os.path.isdir(tmp_dir):
                shutil.rmtree(tmp_dir)
        return model_dir


def print_exported(name, model_dir, output):
    """The line an export script prints for a model it wrote."""
    print("%s: exported to %s; output %s min %.4g max %.4g std %.4g"
          % (name, model_dir, output.shape, output.min(), output.max(),
             output.std()))
