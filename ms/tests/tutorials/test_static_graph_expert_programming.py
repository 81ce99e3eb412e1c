"""Tutorial "Graph Mode Programming Techniques" (docs r2.3.1, tutorials/source_en/advanced/
static_graph_expert_programming.md): its runnable snippets (compile cache, ``jit_class``,
``if`` vs ``select``, ``vmap``; the pseudo-code and Ascend-only ones left out), each with only the import renamed,
wrapped in a function; the values it leaves (its local variables: tensors, numbers, strings,
containers of them) compared with MindSpore 2.10's, or "raised" where it raises. Snippets
that the facade runs differently are listed in ``FAILING`` (strict xfails)."""
import functools

import pytest

from ._tutorial import check, outcome, values

# flake8: noqa - the tutorial's code, as written there


def _snippet01():
    import time
    from sporeling.ms import set_context
    from sporeling.ms import dtype
    import sporeling.ms as ms

    @ms.jit
    def func(input_x, input_y):
        output = input_x
        for _ in range(200):
            output = input_x + input_x * input_y + output
        return output

    set_context(enable_compile_cache=False)
    x = ms.Tensor([1], dtype.float32)
    y = ms.Tensor([2], dtype.float32)
    start_time = time.time()
    out = func(x, y)
    end_time = time.time()
    print("Disable comile_cache cost time:", end_time - start_time)
    del start_time, end_time  # timings: not compared
    return values(locals())


def _snippet02():
    import time
    from sporeling.ms import set_context
    from sporeling.ms import dtype
    import sporeling.ms as ms

    @ms.jit
    def func(input_x, input_y):
        output = input_x
        for _ in range(200):
            output = input_x + input_x * input_y + output
        return output

    set_context(enable_compile_cache=True, compile_cache_path="my_compile_cache")
    x = ms.Tensor([1], dtype.float32)
    y = ms.Tensor([2], dtype.float32)
    start_time = time.time()
    out = func(x, y)
    end_time = time.time()
    set_context(enable_compile_cache=False)
    print("Enable comile_cache cost time:", end_time - start_time)
    del start_time, end_time  # timings: not compared
    return values(locals())


def _snippet03():
    import numpy as np
    import sporeling.ms.nn as nn
    import sporeling.ms as ms

    @ms.jit_class
    class InnerNet:
        value = ms.Tensor(np.array([1, 2, 3]))

    class Net(nn.Cell):
        def construct(self):
            return InnerNet().value

    ms.set_context(mode=ms.GRAPH_MODE)
    net = Net()
    out = net()
    print(out)
    return values(locals())


def _snippet04():
    import sporeling.ms.nn as nn
    import sporeling.ms as ms

    @ms.jit_class
    class Net(nn.Cell):
        def construct(self, x):
            return x

    ms.set_context(mode=ms.GRAPH_MODE)
    x = ms.Tensor(1)
    net = Net()
    net(x)
    return values(locals())


def _snippet05():
    import numpy as np
    import sporeling.ms.nn as nn
    import sporeling.ms as ms

    @ms.jit_class
    class Inner:
        def __init__(self):
            self.value = ms.Tensor(np.array([1, 2, 3]))

    @ms.jit_class
    class InnerNet:
        def __init__(self):
            self.inner = Inner()

    class Net(nn.Cell):
        def __init__(self):
            super(Net, self).__init__()
            self.inner_net = InnerNet()

        def construct(self):
            out = self.inner_net.inner.value
            return out

    ms.set_context(mode=ms.GRAPH_MODE)
    net = Net()
    out = net()
    print(out)
    return values(locals())


def _snippet06():
    import sporeling.ms.nn as nn
    import sporeling.ms as ms

    @ms.jit_class
    class InnerNet:
        def __init__(self, val):
            self.number = val

        def act(self, x, y):
            return self.number * (x + y)

    class Net(nn.Cell):
        def __init__(self):
            super(Net, self).__init__()
            self.inner_net = InnerNet(2)

        def construct(self, x, y):
            return self.inner_net.number + self.inner_net.act(x, y)

    ms.set_context(mode=ms.GRAPH_MODE)
    x = ms.Tensor(2, dtype=ms.int32)
    y = ms.Tensor(3, dtype=ms.int32)
    net = Net()
    out = net(x, y)
    print(out)
    return values(locals())


def _snippet07():
    import numpy as np
    import sporeling.ms.nn as nn
    import sporeling.ms as ms

    @ms.jit_class
    class InnerNet:
        def __init__(self, val):
            self.number = val + 3

    class Net(nn.Cell):
        def construct(self):
            net = InnerNet(2)
            return net.number

    ms.set_context(mode=ms.GRAPH_MODE)
    net = Net()
    out = net()
    print(out)
    return values(locals())


def _snippet08():
    import numpy as np
    import sporeling.ms.nn as nn
    import sporeling.ms as ms

    @ms.jit_class
    class InnerNet:
        def __init__(self, number):
            self.number = number

        def __call__(self, x, y):
            return self.number * (x + y)

    class Net(nn.Cell):
        def construct(self, x, y):
            net = InnerNet(2)
            out = net(x, y)
            return out

    ms.set_context(mode=ms.GRAPH_MODE)
    x = ms.Tensor(2, dtype=ms.int32)
    y = ms.Tensor(3, dtype=ms.int32)
    net = Net()
    out = net(x, y)
    print(out)
    return values(locals())


def _snippet09():
    import numpy as np
    import sporeling.ms.nn as nn
    import sporeling.ms as ms

    @ms.jit_class
    class InnerNet:
        def __init__(self, number):
            self.number = number

    class Net(nn.Cell):
        def construct(self, x, y):
            net = InnerNet(2)
            out = net(x, y)
            return out

    ms.set_context(mode=ms.GRAPH_MODE)
    x = ms.Tensor(2, dtype=ms.int32)
    y = ms.Tensor(3, dtype=ms.int32)
    net = Net()
    out = net(x, y)
    print(out)
    return values(locals())


def _snippet10():
    import time
    from sporeling.ms import ops
    import sporeling.ms as ms

    @ms.jit
    def if_net(x, y):
        out = 0
        for _ in range(100):
            if x < y:
                x = x - y
            else:
                x = x + y
            out = out + x
        return out

    start_time = time.time()
    out = if_net(ms.Tensor([0]), ms.Tensor([1]))
    end_time = time.time()
    print("if net cost time:", end_time - start_time)

    @ms.jit
    def select_net(x, y):
        out = x
        for _ in range(100):
            cond = x < y
            x = ops.select(cond, x - y, x + y)
            out = out + x
        return out

    start_time = time.time()
    out = select_net(ms.Tensor([0]), ms.Tensor([1]))
    end_time = time.time()
    print("select net cost time:", end_time - start_time)
    del start_time, end_time  # timings: not compared
    return values(locals())


def _snippet11():
    import numpy as np
    import time
    from sporeling.ms import ops, vmap
    import sporeling.ms as ms

    def hswish_func(x):
        return ops.HSwish()(x)

    @ms.jit
    def manually_batched(xs):
        output = []
        for i in range(xs.shape[0]):
            output.append(hswish_func(xs[i]))
        return ops.stack(output)

    shape = (100, 2)
    prop = 100
    np.random.seed(0)
    x_np = (np.random.randn(*shape) * prop).astype(np.float32)
    x = ms.Tensor(x_np)
    x = ops.sub(x, 0)

    start_time = time.time()
    output_vmap = vmap(hswish_func, in_axes=(0,))(x)
    end_time = time.time()
    print("Vmap cost time:", end_time - start_time)

    start_time = time.time()
    output_manually = manually_batched(x)
    end_time = time.time()
    print("for loop cost time:", end_time - start_time)
    del start_time, end_time  # timings: not compared
    return values(locals())


def _snippet12():
    import numpy as np
    from sporeling.ms.nn import Cell
    from sporeling.ms import Tensor, Parameter, ops
    import sporeling.ms as ms

    ms.set_context(mode=ms.GRAPH_MODE)

    class ForwardNet(Cell):
        def __init__(self):
            super(ForwardNet, self).__init__()
            self.weight = Parameter(Tensor(np.array(0), ms.int32), name="param")

        def construct(self, x):
            out = 0
            i = 0
            while i < 3:
                ops.assign(self.weight, i)
                out = x * self.weight + out
                i = i + 1
            return out


    class BackwardNet(Cell):
        def __init__(self, net):
            super(BackwardNet, self).__init__(auto_prefix=False)
            self.forward_net = net
            self.grad = ops.GradOperation(get_all=True)

        def construct(self, *inputs):
            grads = self.grad(self.forward_net)(*inputs)
            return grads

    x = Tensor(np.array(1), ms.int32)
    graph_forword_net = ForwardNet()
    graph_backword_net = BackwardNet(graph_forword_net)
    graph_mode_grads = graph_backword_net(x)
    output_except = (Tensor(np.array(3), ms.int32),)
    assert np.all(graph_mode_grads == output_except)
    return values(locals())


SNIPPETS = {name[1:]: fn for name, fn in list(globals().items())
            if name.startswith("_") and not name.startswith("__") and callable(fn)
            and getattr(fn, "__module__", None) == __name__}


def snippets_program():
    import os
    import tempfile
    cwd = os.getcwd()
    os.chdir(tempfile.mkdtemp())  # the compile cache's folder goes there
    try:
        return {name: outcome(fn) for name, fn in SNIPPETS.items()}
    finally:
        os.chdir(cwd)


@functools.lru_cache(maxsize=None)
def _outputs():
    return snippets_program()


FAILING = {
    "snippet12": "grad of an int32 output: 2.10 returns its gradient; the facade raises "
                 "GradError (integer outputs carry no gradient, ms/README.md)",
}


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.xfail(
    strict=True, reason=FAILING[n])) if n in FAILING else n for n in SNIPPETS])
def test_snippet(name):
    check("test_static_graph_expert_programming", "snippets_program", _outputs(), only=name)
