"""PyNative autodiff: the recording interpreter, ``grad``/``value_and_grad``,
``stop_gradient``, ``no_grad`` and custom backward functions."""
from .api import GradError, grad, value_and_grad
from .control import stop_gradient
from .custom import call_with_bprop, custom_bprop
from .interpreter import PYNATIVE, PyNativeInterpreter
from .ready import on_gradient_ready
from .saved_hooks import saved_tensors_hooks
from .state import is_recording, no_grad

__all__ = ["GradError", "grad", "value_and_grad", "stop_gradient", "call_with_bprop",
           "custom_bprop", "PYNATIVE", "PyNativeInterpreter", "is_recording", "no_grad",
           "on_gradient_ready", "saved_tensors_hooks"]
