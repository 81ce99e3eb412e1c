"""Model definitions from mindcv (mindspore-lab/mindcv; the subset in ``mindcv/`` here, only
the imports renamed): ResNet-18, ResNet-50, MobileNetV2 and a tiny ViT, built by mindcv's own
functions, weights set from NumPy (the same in both frameworks: a 1/sqrt(fan-in) normal per
parameter, seeded by its name), forward on a small input in inference mode; the logits equal
MindSpore 2.10's, in PyNative and Graph mode."""
import numpy as np
import pytest

import sporeling.ms as ms

from ._tutorial import MODES, check, init_weights, set_mode
from .mindcv.models.mobilenetv2 import mobilenet_v2_100
from .mindcv.models.resnet import resnet18, resnet50
from .mindcv.models.vit import VisionTransformer


def _forward(net, shape=(2, 3, 32, 32)):
    net = init_weights(net, scale="fan_in")
    net.set_train(False)
    x = ms.Tensor(np.random.default_rng(0).normal(size=shape).astype(np.float32))
    out = net(x)
    return {"logits": out, "names": sorted(n for n, _ in net.parameters_and_names())}


def resnet18_program(mode):
    set_mode(mode)
    return _forward(resnet18(num_classes=10))


def resnet50_program(mode):
    set_mode(mode)
    return _forward(resnet50(num_classes=10))


def mobilenet_v2_program(mode):
    set_mode(mode)
    return _forward(mobilenet_v2_100(num_classes=10))


def vit_tiny_program(mode):
    set_mode(mode)
    return _forward(VisionTransformer(image_size=32, patch_size=8, embed_dim=64, depth=2,
                                      num_heads=4, num_classes=10))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("model", ["resnet18", "resnet50", "mobilenet_v2", "vit_tiny"])
def test_mindcv_model(model, mode):
    out = globals()[f"{model}_program"](mode)
    scale = float(np.abs(out["logits"].asnumpy()).max())
    check("test_mindcv_models", f"{model}_program", out, mode, rtol=1e-4, atol=1e-5 * scale)
