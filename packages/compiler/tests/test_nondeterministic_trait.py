"""A primitive declares itself nondeterministic where it is defined (issue 23 §9: CSE told
plugins to set a `nondeterministic` attribute, which Primitive's __slots__ refused)."""
import importlib

import numpy as np

from sporeling.compiler.core import Aval, Primitive, bind
from sporeling.compiler.ir import make_graph
from sporeling.compiler.passes import PassContext, freeze_inputs, is_nondeterministic
from sporeling.compiler.passes.cse import eliminate_common_subexpressions
from sporeling.compiler.passes.fold import fold_constants

random_ops = importlib.import_module("sporeling.compiler.ops.random")
dropout_ops = importlib.import_module("sporeling.compiler.ops.nn.dropout")

noisy_p = Primitive("test_plugin_noise", nondeterministic=True)
noisy_p.def_abstract_eval(lambda x: Aval(tuple(x.shape), x.dtype))
plain_p = Primitive("test_plugin_plain")
plain_p.def_abstract_eval(lambda x: Aval(tuple(x.shape), x.dtype))
noisy_p.impl = plain_p.impl = lambda x: np.asarray(x) * 2  # no kernel: run in Python


def test_the_trait_is_declared_at_definition():
    assert is_nondeterministic(noisy_p) and not is_nondeterministic(plain_p)
    for prim in (random_ops.rng_seed_p, random_ops.uniform_p, random_ops.normal_p,
                 random_ops.randint_p, random_ops.permutation_p, random_ops.bernoulli_p,
                 dropout_ops.dropout_p):
        assert prim.nondeterministic, prim.name


def _count(prim, graph):
    return sum(eq.prim is prim for eq in graph.equations)


def test_cse_and_folding_keep_every_nondeterministic_application():
    x = np.ones(3, np.float32)
    for prim, kept in ((noisy_p, 2), (plain_p, 1)):
        graph = make_graph(lambda v, p=prim: (bind(p, v), bind(p, v)), x)
        assert _count(prim, eliminate_common_subexpressions(graph, PassContext())) == kept
    for prim, kept in ((noisy_p, 1), (plain_p, 0)):  # on a constant operand
        graph = freeze_inputs(make_graph(lambda v, p=prim: bind(p, v), x), {0: x})
        assert _count(prim, fold_constants(graph, PassContext())) == kept
