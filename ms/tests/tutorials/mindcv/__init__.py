"""A subset of mindcv (github.com/mindspore-lab/mindcv, commit 51b0636, Apache-2.0): the
ResNet, MobileNetV2 and ViT definitions and the helpers they import, with only the imports
renamed (``mindspore`` -> ``sporeling.ms``). ``utils/download.py`` is a stand-in (the tests
load no pretrained weights) and the ``__init__`` files import only what these models need."""
