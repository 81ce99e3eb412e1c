"""``ConvertNetUtils`` and ``ConvertModelUtils`` (MindSpore's ``mindspore.train.train_thor``).

``ConvertNetUtils().convert_to_thor_net(net)`` replaces, in place, each trainable ``Dense``,
``Conv2d``, ``Embedding`` and ``EmbeddingLookup`` sub-cell by its THOR form (``DenseThor``,
...), which keeps the original Parameter objects (their names, values and any optimiser
holding them) and records THOR's Kronecker factors. Cells already THOR, and the layers
MindSpore leaves alone (transposed and 1-d convolutions, norms, pooling), are kept; sub-cells
under a path containing ``"wide"`` (wide-and-deep's linear part) are not converted, as in
2.10. ``ConvertModelUtils.convert_to_thor_model`` returns a ``Model`` training with the THOR
optimiser (frequency handled by the optimiser itself), or the model given for any other
optimiser.
"""
from __future__ import annotations

from sporeling.expression.nn import Conv2d, Dense, Embedding

from ..nn.embedding import EmbeddingLookup
from ..nn.thor_layers import Conv2dThor, DenseThor, EmbeddingLookupThor, EmbeddingThor

__all__ = ["ConvertNetUtils", "ConvertModelUtils"]

_THOR = (DenseThor, Conv2dThor, EmbeddingThor, EmbeddingLookupThor)


def _own(cell, attr: str):
    """``cell``'s Parameter ``attr`` named as the attribute path will name it again once the
    new cell is inserted where ``cell`` was (the name is unchanged in the end)."""
    param = getattr(cell, attr)
    if param is not None:
        param.name = cell._param_base[attr]
    return param


def _dense(cell):
    new = DenseThor(cell.in_channels, cell.out_channels, has_bias=cell.has_bias)
    new.activation, new.activation_flag = cell.activation, cell.activation_flag
    new.weight, new.bias = _own(cell, "weight"), _own(cell, "bias")
    return new


def _conv2d(cell):
    new = Conv2dThor(cell.in_channels, cell.out_channels, cell.kernel_size, cell.stride,
                     cell.pad_mode, cell.padding, cell.dilation, cell.group, cell.has_bias)
    new.weight, new.bias = _own(cell, "weight"), _own(cell, "bias")
    return new


def _embedding(cell):
    new = EmbeddingThor(cell.vocab_size, cell.embedding_size, padding_idx=cell.padding_idx)
    new.embedding_table = _own(cell, "embedding_table")
    return new


def _embedding_lookup(cell):
    new = EmbeddingLookupThor(cell.vocab_size, cell.embedding_size, target=cell.target,
                              slice_mode=cell.slice_mode, max_norm=cell.max_norm,
                              sparse=cell.sparse)
    new.embedding_table = _own(cell, "embedding_table")
    return new


_CONVERT = ((Dense, "weight", _dense), (Conv2d, "weight", _conv2d),
            (Embedding, "embedding_table", _embedding),
            (EmbeddingLookup, "embedding_table", _embedding_lookup))


class ConvertNetUtils:
    """Converts a network's layers to THOR layers (``nn.thor`` calls it)."""

    def convert_to_thor_net(self, net) -> None:
        """Replace ``net``'s convertible sub-cells by their THOR forms, in place."""
        self._convert(net, "")
        if hasattr(net, "update_cell_type"):
            net.update_cell_type("second-order")

    def _convert(self, net, prefix: str) -> None:
        for name, cell in list(net.name_cells().items()):
            if cell is net or isinstance(cell, _THOR):
                continue
            path = f"{prefix}{name}"
            rule = next(((attr, make) for cls, attr, make in _CONVERT
                         if type(cell) is cls), None)  # subclasses may compute otherwise
            if rule is None:
                self._convert(cell, path + ".")
            elif getattr(cell, rule[0]).requires_grad and "wide" not in path.lower():
                net.insert_child_to_cell(name, rule[1](cell))


class ConvertModelUtils:
    """Converts a ``Model`` to one training with THOR."""

    @staticmethod
    def convert_to_thor_model(model, network, loss_fn=None, optimizer=None, metrics=None,
                              amp_level="O0", loss_scale_manager=None,
                              keep_batchnorm_fp32=False):
        """A ``Model`` of ``network`` with the THOR ``optimizer`` (a ``TrainOneStepCell``
        ``network`` is taken as the whole step); ``model`` itself when ``optimizer`` is not
        THOR's."""
        from ..nn.optim_thor import ThorGpu
        from .model import Model
        if not isinstance(optimizer, ThorGpu):
            return model
        from ..nn.wrappers import TrainOneStepCell
        if isinstance(network, TrainOneStepCell):
            return Model(network)
        kwargs = {"loss_scale_manager": loss_scale_manager} if loss_scale_manager else {}
        if keep_batchnorm_fp32:
            kwargs["keep_batchnorm_fp32"] = True
        return Model(network, loss_fn=loss_fn, optimizer=optimizer, metrics=metrics,
                     amp_level=amp_level, **kwargs)
