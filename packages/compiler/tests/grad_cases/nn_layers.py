import numpy as np

from sporeling.compiler import bind, ops
from sporeling.compiler.ops.nn import normalization
from sporeling.compiler.ops.nn.embedding import embedding_grad_p

rng = np.random.default_rng(2)
r = rng.standard_normal

CASES = {
    "softmax": [(lambda x: ops.softmax(x, axis=0), [r((3, 4))])],
    "log_softmax": [(lambda x: ops.log_softmax(x, axis=-1), [r((3, 4))])],
    "normalize": [
        # every result, so the backward's mean and variance terms are checked too
        (lambda x: bind(normalization.normalize_p, x, axis=(0, 2), eps=1e-3),
         [r((3, 2, 4))]),
    ],
    "rsqrt_eps": [(lambda v: bind(normalization.rsqrt_eps_p, v, eps=1e-2),
                   [rng.uniform(0.5, 2.0, (3,))])],
    "layer_norm": [(lambda x, w, b: ops.layer_norm(x, (3, 2), w, b), [r((2, 3, 2)), r((3, 2)),
                                                                       r((3, 2))])],
    "batch_norm": [
        (lambda x, w, b: ops.batch_norm(x, np.zeros(3), np.ones(3), w, b, training=True),
         [r((4, 3, 2)), r((3,)), r((3,))]),
        (lambda x, m, v, w: ops.batch_norm(x, m, v, w, None, training=False),
         [r((2, 3, 2, 2)), r((3,)), rng.uniform(0.5, 2.0, (3,)), r((3,))]),
    ],
    "group_norm": [(lambda x, w, b: ops.group_norm(x, 2, w, b), [r((2, 4, 3)), r((4,)),
                                                                 r((4,))])],
    "dropout": [(lambda x: ops.dropout(x, p=0.4, seed=3), [r((4, 5))])],
    # padding_idx's row gets no gradient by design, so no index here is the padding one
    "embedding": [(lambda t: ops.embedding(np.array([[0, 2], [2, 1]]), t, padding_idx=3),
                   [r((4, 3))])],
    "embedding_grad": [
        (lambda g: bind(embedding_grad_p, np.array([1, 0, 1]), g, num_embeddings=3,
                        padding_idx=0), [r((3, 2))]),
    ],
}
