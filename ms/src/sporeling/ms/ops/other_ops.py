"""``ops.other_ops`` (2.10's ``mindspore.ops.operations.other_ops``, also importable by that
path): the facade's primitives of those names -- box coding and IoU, ``ConfusionMatrix``,
``Depend``/``UpdateState``/``StopGradient``, ``Partial``, ``MoveTo``, ``PyFunc``,
``SampleDistortedBoundingBoxV2`` -- and ``stop_gradient_op`` (a ``StopGradient`` instance).
Left out: ``Load``, ``PyInterpret``, ``PyExecute``, ``Reusing`` (MindSpore's graph-compiler
internals) and ``Push``/``Pull`` (its parameter server)."""
from .primitives import (IOU, BoundingBoxDecode, BoundingBoxEncode, CheckValid,
                         ConfusionMatrix, Depend, MoveTo, Partial, PyFunc,
                         SampleDistortedBoundingBoxV2, StopGradient, UpdateState)

stop_gradient_op = StopGradient()

__all__ = ["BoundingBoxEncode", "BoundingBoxDecode", "SampleDistortedBoundingBoxV2",
           "CheckValid", "IOU", "Partial", "Depend", "MoveTo", "UpdateState", "StopGradient",
           "stop_gradient_op", "ConfusionMatrix", "PyFunc"]
