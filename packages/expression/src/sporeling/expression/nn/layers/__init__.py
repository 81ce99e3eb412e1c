"""The layers: dense, convolution, pooling, normalisation, dropout, embedding, activations,
attention, transformer and recurrent cells."""
from .activation import *  # noqa: F401,F403
from .attention import *  # noqa: F401,F403
from .conv import *  # noqa: F401,F403
from .dense import *  # noqa: F401,F403
from .dropout import *  # noqa: F401,F403
from .embedding import *  # noqa: F401,F403
from .flatten import *  # noqa: F401,F403
from .normalization import *  # noqa: F401,F403
from .pooling import *  # noqa: F401,F403
from .rnn import *  # noqa: F401,F403
from .transformer import *  # noqa: F401,F403

__all__ = ["ReLU", "ReLU6", "LeakyReLU", "GELU", "SiLU", "Sigmoid", "Tanh", "Softmax",
           "LogSoftmax", "Softplus", "ELU", "Mish", "HSigmoid", "HSwish", "Softsign", "PReLU",
           "get_activation", "MultiheadAttention", "Conv1d", "Conv2d", "Conv2dTranspose",
           "Dense", "Dropout", "Embedding", "Flatten", "BatchNorm1d", "BatchNorm2d",
           "LayerNorm", "GroupNorm", "MaxPool2d", "AvgPool2d", "AdaptiveAvgPool2d", "LSTM",
           "GRU", "TransformerEncoderLayer", "TransformerEncoder"]
