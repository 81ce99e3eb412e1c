"""Tutorial "Lightweight Data Processing" (eager mode; docs r2.3.1, tutorials/source_en/
advanced/dataset/eager.md): its code with only the import renamed, on a seeded random RGB
image of the tutorial's kind (it downloads banana.jpg; plotting left out): vision, text and
transforms operations applied directly to data."""
import numpy as np
from PIL import Image

import sporeling.ms.dataset.vision as vision

from ._tutorial import check


def eager_program():
    out = {}
    rng = np.random.default_rng(0)
    img_ori = Image.fromarray(rng.integers(0, 256, (360, 480, 3), np.uint8)).convert("RGB")
    op1 = vision.Resize(size=(320))
    img = op1(img_ori)
    out["resize"] = (type(img).__name__, img.size)
    op2 = vision.CenterCrop((280, 280))
    img = op2(img)
    out["center_crop"] = (type(img).__name__, img.size)
    op3 = vision.Pad(40)
    img = op3(img)
    out["pad"] = (type(img).__name__, img.size, np.asarray(img)[:60:7, :60:7])

    import sporeling.ms.dataset.text.transforms as text
    import sporeling.ms as ms
    txt = "Welcome to Beijing !"
    txt = text.UnicodeCharTokenizer()(txt)
    out["tokens"] = txt
    txt = ["123456"]
    to_number = text.ToNumber(ms.int32)
    txt = to_number(txt)
    out["to_number"] = txt

    import sporeling.ms.dataset.transforms as trans
    data = np.array([1, 2, 3, 4, 5])
    fill = trans.Fill(0)
    out["fill"] = fill(data)
    label = np.array(2)
    onehot = trans.OneHot(num_classes=5)
    out["onehot"] = onehot(label)
    return out


def test_eager():
    check("test_eager", "eager_program", eager_program())
