"""``ms.ops.linalg_ops`` (2.10's ``mindspore.ops.operations.linalg_ops``): its primitives the
facade has, ``Geqrf`` and ``Svd`` (2.10's internal ``Eigh`` is not there)."""
from .primitives import Geqrf, Svd

__all__ = ["Geqrf", "Svd"]
