"""Post-training int8 quantisation: the quantize/dequantize primitives, int8 compute
primitives (int32 accumulation), activation observers, per-channel symmetric weights,
calibration and the pass rewriting a float graph into QDQ + int8 compute.

See the "Quantisation" section of the package README."""
from .observers import (OBSERVERS, MinMaxObserver, MSEObserver, Observer, PercentileObserver,
                        make_observer, qparams_from_range, quantize_weight_per_channel)
from .straight_through import fake_quant
from .primitives import dequantize, qconv2d, qmatmul, quantize
from .onnx_qdq import to_qdq  # also registers quantize/dequantize with the ONNX export
from .ptq import (Calibrator, QuantizedOp, QuantSite, build_table, post_training_quantize,
                  ptq_pass, quantizable_sites, quantize_graph)

__all__ = ["quantize", "dequantize", "qconv2d", "qmatmul", "fake_quant", "Observer", "MinMaxObserver",
           "PercentileObserver", "MSEObserver", "OBSERVERS", "make_observer",
           "qparams_from_range", "quantize_weight_per_channel", "QuantSite", "QuantizedOp",
           "quantizable_sites", "Calibrator", "build_table", "quantize_graph", "ptq_pass",
           "post_training_quantize", "to_qdq"]
