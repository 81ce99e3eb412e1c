"""Parameter updates written in place by the kernel computing them (lowering/updates.py)."""
import numpy as np

from sporeling.compiler import ops
from sporeling.compiler.ir import make_graph
from sporeling.compiler.lowering import lower


def _momentum(w, v, g):
    v_new = ops.add(ops.mul(v, 0.9), g)
    w_new = ops.sub(w, ops.mul(v_new, 0.1))
    return ops.assign(v, v_new), ops.assign(w, w_new)


def _arrays():
    rng = np.random.default_rng(0)
    return [rng.standard_normal((3, 4)).astype(np.float32) for _ in range(3)]


def test_an_update_is_computed_in_the_parameters_buffer():
    w, v, g = _arrays()
    want_v = v * np.float32(0.9) + g
    want_w = w - want_v * np.float32(0.1)
    lowered = lower(make_graph(_momentum, w, v, g))
    into = [ins.out for ins in lowered.program.instructions if isinstance(ins.out, int)]
    assert sorted(into) == sorted(lowered.program.input_slots[:2])  # v and w, no copies
    out_v, out_w = lowered(w, v, g)
    assert out_v is v and out_w is w                  # the Parameters' own buffers
    np.testing.assert_allclose(v, want_v, rtol=1e-6)
    np.testing.assert_allclose(w, want_w, rtol=1e-6)


def test_read_only_parameters_get_the_new_value_without_a_write():
    w, v, g = _arrays()
    before = w.copy(), v.copy()
    for a in (w, v):
        a.flags.writeable = False
    out_v, out_w = lower(make_graph(_momentum, w, v, g))(w, v, g)
    np.testing.assert_array_equal(w, before[0])
    np.testing.assert_array_equal(v, before[1])
    np.testing.assert_allclose(out_w, before[0] - (before[1] * np.float32(0.9) + g) *
                               np.float32(0.1), rtol=1e-6)


def test_no_update_in_place_while_the_old_value_is_still_read():
    w, v, g = _arrays()

    def later_read(w, g):                 # the old w is read (through a view) after the
        new = ops.sub(w, g)               # new one is made, before the assign
        total = ops.sum(ops.transpose(w, (1, 0)))
        return ops.assign(w, new), total

    def returned(w, g):                   # the old w is returned beside the update
        return ops.assign(w, ops.sub(w, g)), ops.mul(w, 1.0)

    for fn in (later_read, returned):
        lowered = lower(make_graph(fn, w, g))
        assert not any(isinstance(ins.out, int) for ins in lowered.program.instructions)
    w0 = w.copy()
    new, total = lower(make_graph(later_read, w, g))(w, g)
    np.testing.assert_allclose(new, w0 - g, rtol=1e-6)
    np.testing.assert_allclose(total, w0.sum(), rtol=1e-5)
