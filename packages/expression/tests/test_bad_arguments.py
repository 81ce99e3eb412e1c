"""Bad arguments to the public ops and layers raise named Sporeling errors (issue 23 §2):
never a raw ZeroDivisionError, AttributeError, IndexError, NumPy error, or a hang.

The sweep calls every public op of ``sx.ops`` and constructor of ``sx.nn`` with each
parameter in turn set to a wrong value (``sporeling.core.testing.BAD_ARGUMENTS``: a string,
an object, None, NaN, a negative and a huge number) and the others to plausible ones."""
import inspect
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import sporeling.expression as sx
from sporeling.core import ArgumentError, SporelingError
from sporeling.core.testing import bad_argument_problems
from sporeling.expression import nn, ops


@pytest.fixture(autouse=True)
def _in_a_scratch_folder(tmp_path, monkeypatch):
    """Functions that write files (TensorDump, save_*) get the sweep's strings as file
    names: they write into a scratch folder, not the repository."""
    monkeypatch.chdir(tmp_path)

X = np.random.default_rng(0).random((2, 3)).astype(np.float32)

SIZES = {"in_channels", "out_channels", "num_features", "input_size", "hidden_size",
         "vocab_size", "embedding_size", "num_groups", "num_channels", "d_model", "nhead",
         "num_layers", "embed_dim", "num_heads", "n", "k", "depth", "repeats",
         "kernel_size", "output_size", "length", "num_classes", "upper", "dim"}
# what the required arguments get while another one is wrong; anything else gets X
GOOD = {"indices": np.zeros((2, 3), np.int32), "index": np.zeros((2, 3), np.int32),
        "labels": np.zeros(2, np.int32), "axis": 0, "shape": (3, 2), "lower": 0,
        "normalized_shape": (3,), "begin": (0, 0), "end": (1, 1), "strides": (1, 1),
        "size": (1, 1),
        "subscripts": "ij->ji", "pad_width": 1, "tensors": [X, X], "dtype": "float32",
        "cond_fn": lambda *a: False, "name": "w", "seed": np.int64(0), "op": "f",
        "params": lambda: nn.Dense(3, 2).trainable_params(), "network": lambda: nn.Dense(3, 2)}


def good(name: str):
    if name in SIZES:
        return 2
    if name in GOOD:
        return GOOD[name]() if name in ("params", "network") else GOOD[name]
    if name.endswith("_fn") or name in ("f", "fn"):
        return lambda *a: a[0] if a else X
    return X



# Left out of the sweep, each for its reason (keep this short):
NOT_SWEPT = (
    BaseException,  # an error class takes any message
    # (and below, PARAMETERS_NOT_SWEPT)
    # the optimizers and learning-rate schedules (optim/) are being rewritten with their own
    # argument checks; they raise builtin TypeError/ValueError naming the argument meanwhile
    sx.optim.Optimizer, sx.optim.LearningRateSchedule,
)


PARAMETERS_NOT_SWEPT = {
    # a loop of that many steps, as a Python ``for`` would run it (no allocation is sized by it)
    ("scan", "length"),
}


def swept(name, parameter) -> bool:
    return (name, parameter.name) not in PARAMETERS_NOT_SWEPT


def public(module, classes: bool) -> dict:
    found = {}
    for name in module.__all__:
        value = getattr(module, name)
        if inspect.isclass(value) and issubclass(value, NOT_SWEPT):
            continue
        if callable(value) and inspect.isclass(value) == classes:
            found[name] = value
    return found


# ---- the cases the issue lists ------------------------------------------------------------

LISTED = [
    (lambda: ops.reshape(X, "abc"), "reshape: bad shape"),
    (lambda: ops.reshape(X, None), "reshape: bad shape"),
    (lambda: nn.Dense(0, 5), "Dense: bad in_channels"),
    (lambda: nn.Conv2d(3, 8, 0), "Conv2d: bad kernel_size"),
    (lambda: nn.Dense("a", 3), "Dense: bad in_channels"),
    (lambda: nn.Dense(4, math.nan), "Dense: bad out_channels"),
    (lambda: nn.Dense(4, 2)(None), "Dense: input is not a tensor"),
    (lambda: sx.load(None), "load: bad file_name"),
    (lambda: sx.load(123), "load: bad file_name"),
    (lambda: ops.softmax(X, axis=math.nan), "softmax: bad axis"),
    (lambda: ops.matmul(None, X), "matmul: operand is not a tensor.*got NoneType None"),
    (lambda: ops.topk(X, math.nan), "topk: bad k"),
]


@pytest.mark.parametrize("call, message", LISTED)
def test_listed_bad_arguments_raise_argument_errors_naming_op_and_argument(call, message):
    with pytest.raises(ArgumentError, match=message):
        call()


def test_an_embedding_index_out_of_range_names_the_index_and_the_table_size():
    with pytest.raises(ArgumentError, match=r"embedding: index out of range; expected indices "
                                            r"in \[-10, 10\) for a table of 10 rows, got index 12"):
        nn.Embedding(10, 4)(sx.Tensor(np.array([3, 12], np.int32)))


def test_a_raw_error_inside_a_layer_call_becomes_an_argument_error_chained_to_it():
    with pytest.raises(ArgumentError, match="Dense: input is not a tensor") as info:
        nn.Dense(3, 2)("abc")
    with pytest.raises(ArgumentError, match=r"Flatten: bad arguments \(AttributeError: .*"
                                            r"got \(None\)") as info:
        nn.Flatten()(None)
    assert type(info.value.__cause__) is AttributeError  # the original, for the traceback


def test_a_user_cell_keeps_its_own_errors():
    class Mine(nn.Cell):
        def __init__(self, n):
            super().__init__()
            self.n = int(n)

        def construct(self, x):
            return x.shape

    with pytest.raises(ValueError) as info:  # the user's own code: untouched
        Mine("a")
    assert type(info.value) is ValueError
    with pytest.raises(AttributeError):
        Mine(2)(None)


def test_layer_arguments_in_range_still_work():
    assert nn.Dense(3.0, 2)(X).shape == (2, 2)  # an integral float is an int
    assert nn.Conv2d(3, 8, (1, 3), pad_mode="pad", padding=(0, 0, 1, 1))(
        np.zeros((1, 3, 4, 4), np.float32)).shape == (1, 8, 4, 4)
    assert ops.reshape(X, np.array([3, 2])).shape == (3, 2)
    assert ops.concat(x for x in (X, X)).shape == (4, 3)


# ---- the sweep --------------------------------------------------------------------------

@pytest.mark.parametrize("module, classes", [(ops, False), (nn, True)], ids=["ops", "nn"])
def test_every_public_op_and_constructor_refuses_bad_arguments_by_name(module, classes):
    problems = bad_argument_problems(public(module, classes), good, params=swept)
    assert problems == [], "\n".join(problems)


def test_every_layer_refuses_an_input_that_is_no_tensor():
    problems = []
    for name, cls in public(nn, True).items():
        try:
            cell = cls(**{p.name: good(p.name) for p in
                          inspect.signature(cls).parameters.values()
                          if p.default is p.empty and p.kind in (p.POSITIONAL_OR_KEYWORD,
                                                                 p.KEYWORD_ONLY)})
        except SporelingError:
            continue  # needs arguments this table cannot guess: the constructor sweep has it
        if not isinstance(cell, nn.Cell):
            continue
        for value in (None, "abc", object()):
            try:
                cell(value)
            except (SporelingError, NotImplementedError):  # a base class: no construct
                pass
            except Exception as exc:  # noqa: BLE001
                problems.append(f"{name}()({value!r:.20}): {type(exc).__name__}: {exc}")
    assert problems == [], "\n".join(problems)


OPS = public(ops, False)
WRONG = st.one_of(st.none(), st.text(max_size=3), st.just(object()),
                  st.sampled_from([math.nan, math.inf, -math.inf]),
                  st.integers(max_value=-1), st.integers(2 ** 40, 2 ** 64),
                  st.lists(st.none(), min_size=1, max_size=2))


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_random_wrong_values_in_any_op_argument_raise_sporeling_errors(data):
    name = data.draw(st.sampled_from(sorted(OPS)), label="op")
    fn = OPS[name]
    params = [p for p in inspect.signature(fn).parameters.values()
              if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    if not params:
        return
    target = data.draw(st.sampled_from(params), label="parameter")
    value = data.draw(WRONG, label="value")
    problems = bad_argument_problems({name: fn}, good, {"drawn": value},
                                     params=lambda n, p: p.name == target.name and swept(n, p))
    assert problems == []


@pytest.mark.parametrize("value", [2**63, 2**70, -2**64])
def test_a_python_int_past_64_bits_is_an_argument_error(value):
    """Found by the property test: an OverflowError escaped promote."""
    from sporeling.core import ArgumentError
    with pytest.raises(ArgumentError, match="too large"):
        sx.ops.neg(value)


# Found by the property test (and a sweep of its corners): Python ints no 64-bit dtype (or
# not the one they meet) holds escaped as NumPy's OverflowError.
PAST_INT64 = [-2**63 - 1, 2**63, 2**64, -2**100]
ESCAPED = [
    (lambda v: ops.fori_loop(0, 2, lambda *a: a[0], v),
     r"fori_loop: loop carry `init_val` does not fit its dtype; expected a value int64 holds"),
    (lambda v: ops.while_loop(lambda c: False, lambda c: np.zeros((), np.int64), v),
     r"while_loop: loop carry `the carry` does not fit its dtype"),
    (lambda v: ops.scan(lambda c, x: (x, x), v, np.arange(3)),
     r"scan: loop carry `the carry` does not fit its dtype"),
    (lambda v: ops.cond(np.array(True), lambda: v, lambda: np.int64(1)),
     r"cond: `the result` does not fit its dtype"),
    (lambda v: ops.cond(np.array(True), lambda: v, lambda: 1),
     r"cond: `the result` does not fit its dtype"),
    (lambda v: ops.seed_operand(v), r"random: bad seed; expected an int in \[-9223372036854775808"),
    (lambda v: ops.dropout(X, seed=v), r"dropout: bad seed"),
    (lambda v: ops.fori_loop(v, 2, lambda *a: a[0], X), r"fori_loop: bad lower"),
    (lambda v: ops.fori_loop(0, v, lambda *a: a[0], X), r"fori_loop: bad upper"),
]


@pytest.mark.parametrize("value", PAST_INT64)
@pytest.mark.parametrize("call, message", ESCAPED)
def test_an_int_past_int64_is_an_argument_error_naming_the_argument(call, message, value):
    with pytest.raises(ArgumentError, match=message):
        call(value)


@pytest.mark.parametrize("value", PAST_INT64 + [2**62, -2**40])
def test_a_reshape_to_a_size_past_int64_cannot_reshape(value):
    """np.prod overflowed (an OverflowError past int64, a silent wrap below it)."""
    from sporeling.core import ShapeError
    with pytest.raises(ShapeError, match="reshape: cannot reshape"):
        ops.reshape(X, value)
    with pytest.raises(ShapeError, match="reshape: cannot reshape"):
        ops.reshape(X, (abs(value), abs(value), -1))


def test_a_far_fori_loop_bound_allocates_nothing_before_the_body_is_checked():
    """fori_loop(-2**31 - 1, 2, ...) built an int64 array of every index (16 GiB) before
    tracing the body: seconds of work (the sweep's time limit) or an out-of-memory kill."""
    import tracemalloc
    tracemalloc.start()
    try:
        with pytest.raises(SporelingError, match="fori_loop: loop carry `init_val`"):
            ops.fori_loop(-2**31 - 1, 2, lambda *a: a[0], X)  # the body returns the index
        assert tracemalloc.get_traced_memory()[1] < 2**24
    finally:
        tracemalloc.stop()
    assert int(ops.fori_loop(-3, 2, lambda i, v: ops.add(v, i), np.int64(10))) == 5
    assert int(ops.fori_loop(2**63 - 3, 2**63 - 1, lambda i, v: i, np.int64(0))) == 2**63 - 2
