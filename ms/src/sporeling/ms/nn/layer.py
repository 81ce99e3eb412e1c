"""``ms.nn.layer``: MindSpore's ``mindspore.nn.layer`` (``from mindspore.nn.layer import Dense``,
``import mindspore.nn.layer as L``): the layer cells of ``ms.nn``, by the names 2.10's
``mindspore.nn.layer`` exposes (losses, optimizers and wrappers stay in ``ms.nn`` only)."""
from __future__ import annotations

from .. import nn as _nn

# mindspore.nn.layer's class names in MindSpore 2.10; those the facade has are re-exported
_MINDSPORE_2_10 = (
    'AdaptiveAvgPool1d', 'AdaptiveAvgPool2d', 'AdaptiveAvgPool3d', 'AdaptiveMaxPool1d',
    'AdaptiveMaxPool2d', 'AdaptiveMaxPool3d', 'AvgPool1d', 'AvgPool1dExt', 'AvgPool2d',
    'AvgPool2dExt', 'AvgPool3d', 'AvgPool3dExt', 'BatchNorm1d', 'BatchNorm2d', 'BatchNorm3d',
    'BiDense', 'CELU', 'CellDict', 'CellList', 'CentralCrop', 'ChannelShuffle', 'ClipByNorm',
    'ConstantPad1d', 'ConstantPad2d', 'ConstantPad3d', 'Conv1d', 'Conv1dTranspose', 'Conv2d',
    'Conv2dBnAct', 'Conv2dThor', 'Conv2dTranspose', 'Conv3d', 'Conv3dTranspose',
    'CosineSimilarity', 'Dense', 'DenseBnAct', 'DenseThor', 'DiGamma', 'Dropout', 'Dropout1d',
    'Dropout2d', 'Dropout2dExt', 'Dropout3d', 'DropoutExt', 'ELU', 'Embedding', 'EmbeddingExt',
    'EmbeddingLookup', 'EmbeddingLookupThor', 'EmbeddingThor', 'FastGelu', 'Flatten',
    'FractionalMaxPool2d', 'FractionalMaxPool3d', 'GELU', 'GLU', 'GRU', 'GRUCell', 'GroupNorm',
    'HShrink', 'HSigmoid', 'HSwish', 'Hardtanh', 'IGamma', 'Identity', 'ImageGradients',
    'InstanceNorm1d', 'InstanceNorm2d', 'InstanceNorm3d', 'L1Regularizer', 'LBeta', 'LGamma',
    'LPPool1d', 'LPPool2d', 'LRN', 'LSTM', 'LSTMCell', 'LayerNorm', 'LayerNormExt',
    'LeakyReLU', 'Linear', 'LogSigmoid', 'LogSoftmax', 'LogSoftmaxExt', 'MSSSIM', 'MatDet',
    'MatInverse', 'MatMul', 'MatrixDiag', 'MatrixDiagPart', 'MatrixSetDiag', 'MaxPool1d',
    'MaxPool2d', 'MaxPool2dExt', 'MaxPool3d', 'MaxUnpool1d', 'MaxUnpool2d', 'MaxUnpool3d',
    'Mish', 'Moments', 'MultiFieldEmbeddingLookup', 'MultiheadAttention', 'Norm', 'OneHot',
    'PReLU', 'PReLUExt', 'PSNR', 'Pad', 'PixelShuffle', 'PixelUnshuffle', 'RNN', 'RNNCell',
    'RReLU', 'Range', 'ReLU', 'ReLU6', 'ReduceLogSumExp', 'ReflectionPad1d', 'ReflectionPad2d',
    'ReflectionPad3d', 'ReplicationPad1d', 'ReplicationPad2d', 'ReplicationPad3d', 'Roll',
    'SSIM', 'SeLU', 'SequentialCell', 'SiLU', 'Sigmoid', 'SoftShrink', 'Softmax', 'Softmax2d',
    'Softmin', 'Softsign', 'SyncBatchNorm', 'Tanh', 'Tanhshrink', 'Threshold',
    'TimeDistributed', 'Transformer', 'TransformerDecoder', 'TransformerDecoderLayer',
    'TransformerEncoder', 'TransformerEncoderLayer', 'Tril', 'Triu', 'Unflatten', 'Unfold',
    'Upsample', 'ZeroPad2d'
)

__all__ = [name for name in _MINDSPORE_2_10 if name in _nn.__all__]
globals().update({name: getattr(_nn, name) for name in __all__})
