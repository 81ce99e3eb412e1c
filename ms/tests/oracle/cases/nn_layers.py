"""``ms.nn`` layers made with MindSpore's own initial weights (recorded, then loaded into
Sporeling's cell by parameter name): forward, gradients w.r.t. the input and every trainable
parameter, and the parameters after the run (BatchNorm's moving statistics)."""
from ..case import Case
from ..inputs import Input
from ._grid import tag

IMG = (2, 3, 6, 6)
SEQ = (2, 5, 3)          # (batch, time, features)

# (cell, constructor variants, input shapes, training flags, input kind)
ROWS = [
    ("Dense", ({"in_channels": 4, "out_channels": 5},
               {"in_channels": 4, "out_channels": 5, "has_bias": False},
               {"in_channels": 4, "out_channels": 5, "activation": "relu"},
               {"in_channels": 4, "out_channels": 5, "weight_init": "normal",
                "bias_init": "zeros"}), [(3, 4)], (False,), "normal"),
    ("Conv2d", ({"in_channels": 3, "out_channels": 4, "kernel_size": 3},
                {"in_channels": 3, "out_channels": 4, "kernel_size": 3, "pad_mode": "valid"},
                {"in_channels": 3, "out_channels": 4, "kernel_size": 3, "pad_mode": "pad",
                 "padding": 1, "has_bias": True},
                {"in_channels": 3, "out_channels": 4, "kernel_size": 2, "stride": 2,
                 "has_bias": True},
                {"in_channels": 3, "out_channels": 6, "kernel_size": 3, "group": 3},
                {"in_channels": 3, "out_channels": 4, "kernel_size": 3, "dilation": 2,
                 "pad_mode": "valid"}), [IMG], (False,), "normal"),
    ("Conv1d", ({"in_channels": 3, "out_channels": 4, "kernel_size": 3},
                {"in_channels": 3, "out_channels": 4, "kernel_size": 3, "pad_mode": "valid",
                 "has_bias": True, "stride": 2}), [(2, 3, 7)], (False,), "normal"),
    ("Conv3d", ({"in_channels": 2, "out_channels": 3, "kernel_size": 2},),
     [(1, 2, 4, 4, 4)], (False,), "normal"),
    ("Conv2dTranspose", ({"in_channels": 3, "out_channels": 2, "kernel_size": 3},
                         {"in_channels": 3, "out_channels": 2, "kernel_size": 2, "stride": 2,
                          "has_bias": True},
                         {"in_channels": 3, "out_channels": 2, "kernel_size": 3,
                          "pad_mode": "pad", "padding": 1}), [(2, 3, 4, 4)], (False,), "normal"),
    ("Conv1dTranspose", ({"in_channels": 3, "out_channels": 2, "kernel_size": 3,
                          "stride": 2},), [(2, 3, 5)], (False,), "normal"),
    ("BatchNorm2d", ({"num_features": 3}, {"num_features": 3, "momentum": 0.5, "eps": 1e-3},
                     {"num_features": 3, "affine": False}), [IMG], (True, False), "normal"),
    ("BatchNorm1d", ({"num_features": 4},), [(5, 4)], (True, False), "normal"),
    ("LayerNorm", ({"normalized_shape": (4,)}, {"normalized_shape": (3, 4),
                                                "begin_norm_axis": 1, "begin_params_axis": 1}),
     [(2, 3, 4)], (False,), "normal"),
    ("GroupNorm", ({"num_groups": 2, "num_channels": 4},), [(2, 4, 3, 3)], (False,), "normal"),
    ("InstanceNorm2d", ({"num_features": 3},), [IMG], (True,), "normal"),
    ("PReLU", ({}, {"channel": 3, "w": 0.1}), [IMG], (False,), "distinct"),
    ("LSTM", ({"input_size": 3, "hidden_size": 4, "batch_first": True},
              {"input_size": 3, "hidden_size": 4, "num_layers": 2, "batch_first": True},
              {"input_size": 3, "hidden_size": 4, "bidirectional": True, "batch_first": True},
              {"input_size": 3, "hidden_size": 4, "has_bias": False, "batch_first": True}),
     [SEQ], (False,), "normal"),
    ("GRU", ({"input_size": 3, "hidden_size": 4, "batch_first": True},
             {"input_size": 3, "hidden_size": 4, "num_layers": 2, "bidirectional": True,
              "batch_first": True}), [SEQ], (False,), "normal"),
    ("RNN", ({"input_size": 3, "hidden_size": 4, "batch_first": True},
             {"input_size": 3, "hidden_size": 4, "nonlinearity": "relu", "batch_first": True}),
     [SEQ], (False,), "normal"),
    ("MaxPool2d", ({"kernel_size": 2, "stride": 2}, {"kernel_size": 3, "stride": 1,
                                                     "pad_mode": "same"}), [IMG], (False,),
     "normal"),
    ("AvgPool2d", ({"kernel_size": 2, "stride": 2}, {"kernel_size": 3, "stride": 1,
                                                     "pad_mode": "same"}), [IMG], (False,),
     "normal"),
    ("AdaptiveAvgPool2d", ({"output_size": 2},), [IMG], (False,), "normal"),
    ("Flatten", ({},), [IMG], (False,), "normal"),
    ("Dropout", ({"p": 0.3},), [(3, 4)], (False,), "normal"),
    ("Softmax", ({}, {"axis": 0}), [(3, 4)], (False,), "normal"),
    ("ReLU", ({},), [(3, 4)], (False,), "distinct"),
    ("GELU", ({}, {"approximate": False}), [(3, 4)], (False,), "normal"),
    ("SiLU", ({},), [(3, 4)], (False,), "normal"),
    ("Tanh", ({},), [(3, 4)], (False,), "normal"),
    ("LeakyReLU", ({"alpha": 0.2},), [(3, 4)], (False,), "distinct"),
    ("ELU", ({},), [(3, 4)], (False,), "distinct"),
    ("HSwish", ({},), [(3, 4)], (False,), "distinct"),
    ("Identity", ({},), [(3, 4)], (False,), "normal"),
    ("ZeroPad2d", ({"padding": 1},), [IMG], (False,), "normal"),
    ("PixelShuffle", ({"upscale_factor": 2},), [(1, 8, 2, 2)], (False,), "normal"),
    ("Upsample", ({"scale_factor": 2.0, "mode": "nearest", "recompute_scale_factor": True},
                  {"size": (9, 9), "mode": "bilinear", "align_corners": True}), [IMG], (False,),
     "normal"),
    ("Unfold", ({"ksizes": [1, 2, 2, 1], "strides": [1, 1, 1, 1], "rates": [1, 1, 1, 1]},),
     [(1, 2, 4, 4)], (False,), "normal"),
    ("MultiheadAttention", ({"embed_dim": 4, "num_heads": 2, "batch_first": True},),
     [(2, 3, 4), (2, 3, 4), (2, 3, 4)], (False,), "normal"),
    ("TransformerEncoderLayer", ({"d_model": 4, "nhead": 2, "dim_feedforward": 8,
                                  "dropout": 0.0, "batch_first": True},),
     [(2, 3, 4)], (False,), "normal"),
]


def _cases():
    cases = []
    for cell, inits, shapes, trains, kind in ROWS:
        for init in inits:
            for train in trains:
                name = f"nn.{cell}[{tag(init)}]" + ("/train" if train else "")
                cases.append(Case(name, f"nn.{cell}", tuple(Input(s, "float32", kind)
                                                            for s in shapes),
                                  init=dict(init), kind="cell", train=train))
    for cell in ("GRUCell", "RNNCell"):         # (x, hx)
        cases.append(Case(f"nn.{cell}[input_size=3,hidden_size=4]", f"nn.{cell}",
                          (Input((2, 3)), Input((2, 4))),
                          init={"input_size": 3, "hidden_size": 4}, kind="cell"))
    cases.append(Case("nn.LSTMCell[input_size=3,hidden_size=4]", "nn.LSTMCell",  # (x, (h, c))
                      (Input((2, 3)), (Input((2, 4)), Input((2, 4)))),
                      init={"input_size": 3, "hidden_size": 4}, kind="cell"))
    cases.append(Case("nn.Embedding[vocab_size=6,embedding_size=3]", "nn.Embedding",
                      (Input((2, 4), "int32", "int:0:6"),),
                      init={"vocab_size": 6, "embedding_size": 3}, kind="cell"))
    cases.append(Case("nn.Embedding[vocab_size=6,embedding_size=3,padding_idx=0]",
                      "nn.Embedding", (Input((2, 4), "int32", "int:0:6"),),
                      init={"vocab_size": 6, "embedding_size": 3, "padding_idx": 0},
                      kind="cell"))
    return cases


CASES = _cases()
