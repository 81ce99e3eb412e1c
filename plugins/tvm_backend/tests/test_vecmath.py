"""The vectorisable float32 ``exp``, ``tanh`` and ``sigmoid`` of generated code against
NumPy's over float32's whole range, with its infinities, zeros, signed zeros and NaN."""
import numpy as np
import pytest

from sporeling.tvm_backend import vecmath
from sporeling.tvm_backend.target import target, tvm


def _compiled(name, dtype="float32"):
    lines = []
    getattr(vecmath, name)(lambda n, v: lines.append(f"        {n} = T.bind({v})"), "r",
                           "x[i]", dtype)
    source = f'''@T.prim_func
def main(x_h: T.handle, y_h: T.handle, n: T.int32):
    T.func_attr({{"tirx.noalias": True}})
    x = T.match_buffer(x_h, (n,), "{dtype}", align=4, offset_factor=1)
    y = T.match_buffer(y_h, (n,), "{dtype}", align=4, offset_factor=1)
    for i in range(n):
''' + "\n".join(lines) + "\n        y[i] = r\n"
    func = tvm().script.from_source(source)
    module = tvm().compile(tvm().IRModule({"main": func.with_attr("global_symbol", "main")}),
                           target=target())
    fn = module["main"]

    def run(x):
        y = np.empty_like(x)
        fn(x, y, x.size)
        return y
    return run


_SPECIAL = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 88.72, 88.73, -87.5, -103.9, -104.5,
                     1e-30, -1e-30, 0.3, -0.3, 0.29999998, 9.5, -9.5], np.float32)
_NUMPY = {"exp": np.exp, "tanh": np.tanh, "sigmoid": lambda x: 1 / (1 + np.exp(-x))}


@pytest.mark.parametrize("name, low, high, ulps", [
    ("exp", -110.0, 95.0, 2), ("tanh", -12.0, 12.0, 4), ("sigmoid", -110.0, 110.0, 4)])
def test_float32_functions_stay_within_a_few_ulps_of_numpy(name, low, high, ulps):
    x = np.concatenate([np.linspace(low, high, 400_003, dtype=np.float32),
                        np.geomspace(1e-12, 1.0, 20_001, dtype=np.float32) * -1, _SPECIAL])
    with np.errstate(over="ignore", invalid="ignore"):
        got, want = _compiled(name)(x), _NUMPY[name](x).astype(np.float32)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_array_equal(np.isinf(got), np.isinf(want))
    number = ~np.isnan(want)                    # a NaN's sign bit is not specified
    np.testing.assert_array_equal(np.signbit(got[number]), np.signbit(want[number]))
    finite = np.isfinite(want)
    # distance in representable floats (the denormal tail of exp counts absolutely)
    distance = np.abs(got[finite].view(np.int32).astype(np.int64)
                      - want[finite].view(np.int32).astype(np.int64))
    assert distance.max() <= ulps, x[finite][np.argmax(distance)]


def test_float64_uses_tvms_own_functions():
    x = np.linspace(-30, 30, 1001)
    np.testing.assert_allclose(_compiled("tanh", "float64")(x), np.tanh(x), rtol=1e-15)
    np.testing.assert_allclose(_compiled("exp", "float64")(x), np.exp(x), rtol=1e-15)
