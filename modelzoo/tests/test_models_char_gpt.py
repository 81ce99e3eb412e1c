"""The character GPT: causal attention and generation with a key/value cache."""
import numpy as np
import pytest

from sporeling.core import ShapeError, set_seed
from sporeling.zoo.models.char_gpt import VOCAB, CharGPT, decode, encode


@pytest.fixture(scope="module")
def net():
    set_seed(3)
    return CharGPT(block_size=12, embed_dim=32, depth=2, num_heads=4).set_train(False)


def test_encode_decode_round_trip_and_unknown_characters():
    assert decode(encode("def f(x):\n\treturn x")) == "def f(x):\n?return x"
    assert len(VOCAB) == 96


def test_attention_is_causal_a_later_character_never_changes_earlier_logits(net):
    a = encode("import this!")[None]
    b = a.copy()
    b[0, 7:] = encode("zzzzz")
    la, lb = net(a).asnumpy(), net(b).asnumpy()
    np.testing.assert_allclose(la[0, :7], lb[0, :7], rtol=1e-5, atol=1e-6)
    assert not np.allclose(la[0, 7:], lb[0, 7:])


def test_cached_forward_step_by_step_equals_the_full_forward(net):
    ids = encode("while True:")[None]
    full = net(ids).asnumpy()
    cache, steps = None, []
    for t in range(ids.shape[1]):
        logits, cache = net.forward_cached(ids[:, t:t + 1], cache)
        steps.append(logits.asnumpy())
    np.testing.assert_allclose(np.concatenate(steps, axis=1), full, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("greedy", [True, False])
def test_generation_with_the_cache_equals_generation_without(net, greedy):
    # 4 + 20 characters: the window of 12 fills and then slides
    prompt = encode("for ")
    with_cache = net.generate(prompt, 20, greedy=greedy, seed=5, use_cache=True)
    without = net.generate(prompt, 20, greedy=greedy, seed=5, use_cache=False)
    assert len(with_cache) == 24 and np.array_equal(with_cache, without)
    assert np.array_equal(with_cache[:4], prompt)


def test_too_long_input_empty_prompt_and_unsplittable_width_are_refused(net):
    with pytest.raises(ShapeError, match=r"expected at most block_size=12, got 13 positions "
                                         r"\(0 cached \+ ids of shape \(1, 13\)\)"):
        net(np.zeros((1, 13), np.int32))
    with pytest.raises(ShapeError, match="expected a prompt of at least one id, got 0 ids"):
        net.generate(np.array([], np.int32), 3)
    with pytest.raises(ShapeError, match="expected dim a multiple of num_heads, got dim=30, "
                                         "num_heads=4"):
        CharGPT(embed_dim=30, num_heads=4)
