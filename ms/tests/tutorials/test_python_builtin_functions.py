"""Tutorial "Static Graph Syntax: Python Built-in Functions" (docs master, tutorials/
source_en/compile/python_builtin_functions.md): each snippet with only the import renamed,
wrapped in a function; the values it leaves (its local variables: tensors, numbers, strings,
containers of them) compared with MindSpore 2.10's, or "raised" where it raises. Snippets
that the facade runs differently are listed in ``FAILING`` (strict xfails)."""
import functools

import pytest

from ._tutorial import check, outcome, values

# flake8: noqa - the tutorial's code, as written there


def _int():
    import sporeling.ms as mindspore

    @mindspore.jit
    def func(x):
        a = int(3)
        b = int(3.6)
        c = int('12', 16)
        d = int('0xa', 16)
        e = int('10', 8)
        f = int(x)
        return a, b, c, d, e, f

    x = mindspore.tensor([-1.0], mindspore.float32)
    a, b, c, d, e, f = func(x)
    print("a: ", a)
    print("b: ", b)
    print("c: ", c)
    print("d: ", d)
    print("e: ", e)
    print("f: ", f)
    return values(locals())


def _float():
    import sporeling.ms as mindspore

    @mindspore.jit
    def func(x):
        a = float(1)
        b = float(112)
        c = float(-123.6)
        d = float('123')
        e = float(x.asnumpy())
        return a, b, c, d, e

    x = mindspore.tensor([-1], mindspore.int32)
    a, b, c, d, e = func(x)
    print("a: ", a)
    print("b: ", b)
    print("c: ", c)
    print("d: ", d)
    print("e: ", e)
    return values(locals())


def _bool():
    import sporeling.ms as mindspore

    @mindspore.jit
    def func():
        a = bool()
        b = bool(0)
        c = bool("abc")
        d = bool([1, 2, 3, 4])
        e = bool(mindspore.tensor([10]).asnumpy())
        return a, b, c, d, e

    a, b, c, d, e = func()
    print("a: ", a)
    print("b: ", b)
    print("c: ", c)
    print("d: ", d)
    print("e: ", e)
    return values(locals())


def _str():
    import numpy as np
    import sporeling.ms as mindspore

    @mindspore.jit
    def func():
        a = str()
        b = str(0)
        c = str([1, 2, 3, 4])
        d = str(mindspore.tensor([10]))
        e = str(np.array([1, 2, 3, 4]))
        return a, b, c, d, e

    a, b, c, d, e = func()
    print("a: ", a)
    print("b: ", b)
    print("c: ", c)
    print("d: ", d)
    print("e: ", e)
    return values(locals())


def _tuple():
    import numpy as np
    import sporeling.ms as mindspore

    @mindspore.jit
    def func():
        a = tuple((1, 2, 3))
        b = tuple(np.array([1, 2, 3]))
        c = tuple({'a': 1, 'b': 2, 'c': 3})
        d = tuple(mindspore.tensor([1, 2, 3]))
        return a, b, c, d

    a, b, c, d = func()
    print("a: ", a)
    print("b: ", b)
    print("c: ", c)
    print("d: ", d)
    return values(locals())


def _list():
    import numpy as np
    import sporeling.ms as mindspore

    @mindspore.jit
    def func():
        a = list((1, 2, 3))
        b = list(np.array([1, 2, 3]))
        c = list({'a':1, 'b':2, 'c':3})
        d = list(mindspore.tensor([1, 2, 3]))
        return a, b, c, d
    a_t, b_t, c_t, d_t = func()
    print("a_t: ", a_t)
    print("b_t: ", b_t)
    print("c_t: ", c_t)
    print("d_t: ", d_t)
    return values(locals())


def _dict():
    import sporeling.ms as mindspore

    @mindspore.jit
    def func():
        a = dict()                                          # Create an empty dictionary
        b = dict(a='a', b='b', t='t')                       # Pass in keywords
        c = dict(zip(['one', 'two', 'three'], [1, 2, 3]))   # Mapping function approach to constructing dictionaries
        d = dict([('one', 1), ('two', 2), ('three', 3)])    # Iterable object approach to constructing dictionaries
        return a, b, c, d

    a, b, c, d = func()
    print("a: ", a)
    print("b: ", b)
    print("c: ", c)
    print("d: ", d)
    return values(locals())


def _getattr():
    import numpy as np
    import sporeling.ms as mindspore

    @mindspore.jit_class
    class MSClass1:
        def __init__(self):
            self.num0 = 0

    ms_obj = MSClass1()

    @mindspore.jit
    def func(x):
        a = getattr(ms_obj, 'num0')
        b = getattr(ms_obj, 'num1', 2)
        c = getattr(x.asnumpy(), "shape", np.array([0, 1, 2, 3, 4]))
        return a, b, c

    x = mindspore.tensor([-1.0], mindspore.float32)
    a, b, c = func(x)
    print("a: ", a)
    print("b: ", b)
    print("c: ", c)
    return values(locals())


def _hasattr():
    import numpy as np
    import sporeling.ms as mindspore

    @mindspore.jit_class
    class MSClass1:
        def __init__(self):
            self.num0 = 0

    ms_obj = MSClass1()

    @mindspore.jit
    def func():
        a = hasattr(ms_obj, 'num0')
        b = hasattr(ms_obj, 'num1')
        c = hasattr(mindspore.tensor(np.array([1, 2, 3, 4])).asnumpy(), "__len__")
        return a, b, c

    a, b, c = func()
    print("a: ", a)
    print("b: ", b)
    print("c: ", c)
    return values(locals())


def _len():
    import numpy as np
    import sporeling.ms as mindspore

    z = mindspore.tensor(np.ones((6, 4, 5)))

    @mindspore.jit()
    def test(w):
        x = (2, 3, 4)
        y = [2, 3, 4]
        d = {"a": 2, "b": 3}
        n = np.array([1, 2, 3, 4])
        x_len = len(x)
        y_len = len(y)
        d_len = len(d)
        z_len = len(z)
        n_len = len(n)
        w_len = len(w.asnumpy())
        return x_len, y_len, d_len, z_len, n_len, w_len

    input_x = mindspore.tensor([1, 2, 3, 4])
    x_len, y_len, d_len, z_len, n_len, w_len = test(input_x)
    print('x_len:{}'.format(x_len))
    print('y_len:{}'.format(y_len))
    print('d_len:{}'.format(d_len))
    print('z_len:{}'.format(z_len))
    print('n_len:{}'.format(n_len))
    print('w_len:{}'.format(w_len))
    return values(locals())


def _isinstance():
    import sporeling.ms as mindspore
    import numpy as np

    z = mindspore.tensor(np.ones((6, 4, 5)))

    @mindspore.jit()
    def test(w):
        x = (2, 3, 4)
        y = [2, 3, 4]
        x_is_tuple = isinstance(x, tuple)
        y_is_list = isinstance(y, list)
        z_is_tensor = isinstance(z, mindspore.Tensor)
        w_is_ndarray = isinstance(w.asnumpy(), np.ndarray)
        return x_is_tuple, y_is_list, z_is_tensor, w_is_ndarray

    w = mindspore.tensor(np.array([-1, 2, 4]))
    x_is_tuple, y_is_list, z_is_tensor, w_is_ndarray = test(w)
    print('x_is_tuple:{}'.format(x_is_tuple))
    print('y_is_list:{}'.format(y_is_list))
    print('z_is_tensor:{}'.format(z_is_tensor))
    print('w_is_ndarray:{}'.format(w_is_ndarray))
    return values(locals())


def _all():
    import numpy as np
    import sporeling.ms as mindspore

    @mindspore.jit
    def func():
        a = all(['a', 'b', 'c', 'd'])
        b = all(['a', 'b', '', 'd'])
        c = all([0, 1, 2, 3])
        d = all(('a', 'b', 'c', 'd'))
        e = all(('a', 'b', '', 'd'))
        f = all((0, 1, 2, 3))
        g = all([])
        h = all(())
        x = mindspore.tensor(np.array([0, 1, 2, 3]))
        i = all(x.asnumpy())
        return a, b, c, d, e, f, g, h, i

    a, b, c, d, e, f, g, h, i = func()
    print("a: ", a)
    print("b: ", b)
    print("c: ", c)
    print("d: ", d)
    print("e: ", e)
    print("f: ", f)
    print("g: ", g)
    print("h: ", h)
    print("i: ", i)
    return values(locals())


def _any():
    import numpy as np
    import sporeling.ms as mindspore

    @mindspore.jit
    def func():
        a = any(['a', 'b', 'c', 'd'])
        b = any(['a', 'b', '', 'd'])
        c = any([0, '', False])
        d = any(('a', 'b', 'c', 'd'))
        e = any(('a', 'b', '', 'd'))
        f = any((0, '', False))
        g = any([])
        h = any(())
        x = mindspore.tensor(np.array([0, 1, 2, 3]))
        i = any(x.asnumpy())
        return a, b, c, d, e, f, g, h, i

    a, b, c, d, e, f, g, h, i = func()
    print("a: ", a)
    print("b: ", b)
    print("c: ", c)
    print("d: ", d)
    print("e: ", e)
    print("f: ", f)
    print("g: ", g)
    print("h: ", h)
    print("i: ", i)
    return values(locals())


def _round():
    import sporeling.ms as mindspore

    @mindspore.jit
    def func():
        a = round(10)
        b = round(10.123)
        c = round(10.567)
        d = round(10, 0)
        e = round(10.72, -1)
        f = round(17.12, -1)
        g = round(10.17, 1)
        h = round(10.12, 1)
        return a, b, c, d, e, f, g, h

    a, b, c, d, e, f, g, h = func()
    print("a: ", a)
    print("b: ", b)
    print("c: ", c)
    print("d: ", d)
    print("e: {:.2f}".format(e))
    print("f: {:.2f}".format(f))
    print("g: {:.2f}".format(g))
    print("h: {:.2f}".format(h))
    return values(locals())


def _max():
    import numpy as np
    import sporeling.ms as mindspore

    @mindspore.jit
    def func():
        a = max([0, 1, 2, 3])
        b = max((0, 1, 2, 3))
        c = max({1: 10, 2: 20, 3: 3})
        d = max(np.array([1, 2, 3, 4]))
        e = max(('a', 'b', 'c'))
        f = max((1, 2, 3), (1, 4))
        g = max(mindspore.tensor([1, 2, 3]))
        return a, b, c, mindspore.tensor(d), e, f, g

    a, b, c, d, e, f, g = func()
    print("a: ", a)
    print("b: ", b)
    print("c: ", c)
    print("d: ", d)
    print("e: ", e)
    print("f: ", f)
    print("g: ", g)
    return values(locals())


def _min():
    import numpy as np
    import sporeling.ms as mindspore

    @mindspore.jit
    def func():
        a = min([0, 1, 2, 3])
        b = min((0, 1, 2, 3))
        c = min({1: 10, 2: 20, 3: 3})
        d = min(np.array([1, 2, 3, 4]))
        e = min(('a', 'b', 'c'))
        f = min((1, 2, 3), (1, 4))
        g = min(mindspore.tensor([1, 2, 3]))
        return a, b, c, mindspore.tensor(d), e, f, g

    a, b, c, d, e, f, g = func()
    print("a: ", a)
    print("b: ", b)
    print("c: ", c)
    print("d: ", d)
    print("e: ", e)
    print("f: ", f)
    print("g: ", g)
    return values(locals())


def _sum():
    import numpy as np
    import sporeling.ms as mindspore

    @mindspore.jit
    def func():
        a = sum([0, 1, 2])
        b = sum((0, 1, 2), 10)
        c = sum(np.array([1, 2, 3]))
        d = sum(mindspore.tensor([1, 2, 3]), 10)
        e = sum(mindspore.tensor([[1, 2], [3, 4]]))
        f = sum([1, mindspore.tensor([[1, 2], [3, 4]]), mindspore.tensor([[1, 2], [3, 4]])], mindspore.tensor([[1, 1], [1, 1]]))
        return a, b, mindspore.tensor(c), d, e, f

    a, b, c, d, e, f = func()
    print("a: ", a)
    print("b: ", b)
    print("c: ", c)
    print("d: ", d)
    print("e: ", e)
    print("f: ", f)
    return values(locals())


def _abs():
    import sporeling.ms as mindspore

    @mindspore.jit
    def func():
        a = abs(-45)
        b = abs(100.12)
        c = abs(mindspore.tensor([-1, 2]).asnumpy())
        return a, b, c

    a, b, c = func()
    print("a: ", a)
    print("b: {:.2f}".format(b))
    print("c: ", c)
    return values(locals())


def _map():
    import sporeling.ms as mindspore

    def add(x, y):
        return x + y

    @mindspore.jit()
    def test():
        elements_a = (1, 2, 3)
        elements_b = (4, 5, 6)
        ret1 = map(add, elements_a, elements_b)
        elements_c = [0, 1, 2]
        elements_d = [6, 7, 8]
        ret2 = map(add, elements_c, elements_d)
        return ret1, ret2

    ret1, ret2 = test()
    print('ret1:{}'.format(ret1))
    print('ret2:{}'.format(ret2))
    return values(locals())


def _zip():
    import sporeling.ms as mindspore

    @mindspore.jit()
    def test():
        elements_a = (1, 2, 3)
        elements_b = (4, 5, 6)
        ret = zip(elements_a, elements_b)
        return ret

    ret = test()
    print('ret:{}'.format(ret))
    return values(locals())


def _range():
    import sporeling.ms as mindspore

    @mindspore.jit()
    def test():
        x = range(0, 6, 2)
        y = range(0, 5)
        z = range(3)
        return x, y, z

    x, y, z = test()
    print('x:{}'.format(x))
    print('y:{}'.format(y))
    print('z:{}'.format(z))
    return values(locals())


def _enumerate():
    import sporeling.ms as mindspore
    import numpy as np

    y = mindspore.tensor(np.array([[1, 2], [3, 4], [5, 6]]))

    @mindspore.jit()
    def test():
        x = (100, 200, 300, 400)
        m = enumerate(x, 3)
        n = enumerate(y)
        return m, n

    m, n = test()
    print('m:{}'.format(m))
    print('n:{}'.format(n))
    return values(locals())


def _super():
    import sporeling.ms as mindspore
    from sporeling.ms import nn

    class FatherNet(nn.Cell):
        def __init__(self, x):
            super(FatherNet, self).__init__(x)
            self.x = x

        def construct(self, x, y):
            return self.x * x

        def test_father(self, x):
            return self.x + x

    class SingleSubNet(FatherNet):
        def __init__(self, x, z):
            super(SingleSubNet, self).__init__(x)
            self.z = z

        @mindspore.jit
        def construct(self, x, y):
            ret_father_construct = super().construct(x, y)
            ret_father_test = super(SingleSubNet, self).test_father(x)
            return ret_father_construct, ret_father_test

    x = 3
    y = 6
    z = 9
    f_net = FatherNet(x)
    net = SingleSubNet(x, z)
    out = net(x, y)
    print("out:", out)
    return values(locals())


def _pow():
    import sporeling.ms as mindspore
    import numpy as np

    x = mindspore.tensor(np.array([1, 2, 3]))
    y = mindspore.tensor(np.array([1, 2, 3]))

    @mindspore.jit()
    def test(x, y):
        return pow(x, y)

    ret = test(x, y)

    print('ret:{}'.format(ret))
    return values(locals())


def _print():
    import sporeling.ms as mindspore
    import numpy as np

    x = mindspore.tensor(np.array([1, 2, 3]), mindspore.int32)
    y = mindspore.tensor(3, mindspore.int32)

    @mindspore.jit()
    def test(x, y):
        print(x)
        print(y)
        return x, y

    ret = test(x, y)
    return values(locals())


def _filter():
    import sporeling.ms as mindspore

    def is_odd(x):
        if x % 2:
            return True
        return False

    @mindspore.jit()
    def test():
        elements1 = (1, 2, 3, 4, 5)
        ret1 = filter(is_odd, elements1)
        elements2 = [6, 7, 8, 9, 10]
        ret2 = filter(is_odd, elements2)
        return ret1, ret2

    ret1, ret2 = test()
    print('ret1:{}'.format(ret1))
    print('ret2:{}'.format(ret2))
    return values(locals())


def _type():
    import numpy as np
    import sporeling.ms as mindspore

    @mindspore.jit
    def func():
        a = type(1)
        b = type(1.0)
        c = type([1, 2, 3])
        d = type((1, 2, 3))
        e = type({'a': 1, 'b': 2})
        f = type(np.array([1, 2, 3]))
        g = type(mindspore.tensor([1, 2, 3]))
        return a, b, c, d, e, f, g

    a, b, c, d, e, f, g = func()
    print("a: ", a)
    print("b: ", b)
    print("c: ", c)
    print("d: ", d)
    print("e: ", e)
    print("f: ", f)
    print("g: ", g)
    return values(locals())


SNIPPETS = {name[1:]: fn for name, fn in list(globals().items())
            if name.startswith("_") and not name.startswith("__") and callable(fn)
            and getattr(fn, "__module__", None) == __name__}


def builtins_program():
    return {name: outcome(fn) for name, fn in SNIPPETS.items()}


@functools.lru_cache(maxsize=None)
def _outputs():
    return builtins_program()


FAILING = {
    "float": "float(x.asnumpy()) of a shape-[1] tensor: NumPy 2 refuses float() of a 1-d "
             "array (TypeError, in PyNative too); 2.10 ran on NumPy 1.26, which converted it "
             "(the value read itself works: float(x) inside ms.jit gives -1.0)",
    "type": "returning type objects from ms.jit: 2.10 raises, the facade returns them",
}


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.xfail(
    strict=True, reason=FAILING[n])) if n in FAILING else n for n in SNIPPETS])
def test_builtin(name):
    check("test_python_builtin_functions", "builtins_program", _outputs(), only=name)
