"""Stand-in for mindcv.utils.download: the tests build models with ``pretrained=False``."""


def get_default_download_root():
    raise NotImplementedError("pretrained weights are not downloaded in the tests")


class DownLoad:
    def __init__(self, *args, **kwargs):
        raise NotImplementedError("pretrained weights are not downloaded in the tests")
