"""Parameter updates written in place by a multi-result kernel of kind ``outs`` (a group of
generated loops): which of its results take a Parameter's buffer (lowering/updates.py)."""
from sporeling.compiler.lowering.liveness import Step, analyse
from sporeling.compiler.lowering.updates import updates_in_place


def _plan(steps, names, inputs, outputs):
    return updates_in_place(names, steps, inputs, outputs, analyse(steps, outputs))


def test_each_result_takes_the_buffer_of_the_parameter_it_updates():
    # inputs 0 (w), 1 (v), 2 (g); the group makes v' (3) from v, g and w' (4) from w
    # (and v', in its own loop); assign(v, v') -> 5, assign(w, w') -> 6
    steps = [Step((1, 2, 0), (3, 4), "outs", ((0,), (2,))),
             Step((1, 3), (5,), "opaque"), Step((0, 4), (6,), "opaque")]
    into = _plan(steps, ["fused_group", "assign", "assign"], (0, 1, 2), (5, 6))
    assert into == {0: (1, 0)}  # v' into v's buffer, w' into w's


def test_a_result_whose_parameter_another_loop_reads_is_allocated():
    # w' may not write over w: the position of w is not among its in-place positions
    # (another member of the group reads w)
    steps = [Step((1, 2, 0), (3, 4), "outs", ((0,), ())),
             Step((1, 3), (5,), "opaque"), Step((0, 4), (6,), "opaque")]
    into = _plan(steps, ["fused_group", "assign", "assign"], (0, 1, 2), (5, 6))
    assert into == {0: (1, None)}


def test_no_result_takes_a_buffer_read_after_the_group():
    steps = [Step((1, 2, 0), (3, 4), "outs", ((0,), (2,))),
             Step((0,), (7,), "opaque"),  # reads w's old value after the group
             Step((1, 3), (5,), "opaque"), Step((0, 4), (6,), "opaque")]
    into = _plan(steps, ["fused_group", "sum", "assign", "assign"], (0, 1, 2), (5, 6, 7))
    assert into == {0: (1, None)}
