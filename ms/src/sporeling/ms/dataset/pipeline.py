"""MindSpore's ``Dataset`` API over ``sporeling.data`` pipelines.

:class:`Dataset` wraps a sporeling.data pipeline (``_inner``). Every operation (``map``,
``batch``, ``shuffle``, ``zip``, ...) is sporeling.data's and returns a wrapped pipeline
that remembers how it was made (``_recipe``), so ``to_json``/``serialize`` describe it and
``deserialize`` rebuilds it. The iterators yield ``Tensor`` columns (string columns stay
NumPy) unless ``output_numpy=True``.
"""
from __future__ import annotations

import base64
import functools
import json
import pickle
import queue
import threading

import numpy as np

import sporeling.data as _data
from sporeling.data import DataError
from sporeling.data.ops.batch_op import Batch
from sporeling.data.ops.shuffle import Shuffle
from sporeling.data.ops.simple import Repeat
from sporeling.expression import Tensor

from .ops import CallbackOp, FlatMap, StartAt, SyncWait, describe_value

__all__ = ["Dataset", "wrap"]


def _unwrap(value):
    if isinstance(value, Dataset):
        return value._inner
    if isinstance(value, (list, tuple)):
        return type(value)(_unwrap(v) for v in value)
    return value


def wrap(value, recipe=None):
    """A sporeling.data pipeline (or a list/tuple of them) as facade pipelines."""
    if isinstance(value, _data.Dataset):
        return Dataset._from(value, recipe)
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, _data.Dataset)
                                                         for v in value):
        return type(value)(Dataset._from(v) for v in value)
    return value


def _to_tensor(column):
    """A numeric column as a Tensor (a dict column: each of its values)."""
    if isinstance(column, dict):
        return {k: _to_tensor(v) for k, v in column.items()}
    array = np.asarray(column)
    return Tensor(array) if array.dtype.kind in "biuf" else array


class _Rows:
    """Rows of an inner iterator with numeric columns as Tensors."""

    def __init__(self, inner, as_dict: bool, output_numpy: bool = False):
        self._inner, self._as_dict, self._numpy = inner, as_dict, output_numpy

    def __iter__(self):
        return self

    def __next__(self):
        row = next(self._inner)
        if self._numpy:
            return row
        if self._as_dict:
            return {k: _to_tensor(v) for k, v in row.items()}
        return [_to_tensor(v) for v in row]

    def __getattr__(self, name):  # stop(), ... of the inner iterator
        return getattr(self._inner, name)


def _nodes(node):
    """Every node of a sporeling.data pipeline, the root first."""
    yield node
    for child in getattr(node, "_children", ()):
        yield from _nodes(child)


def _encode(value):
    """Python arguments pickled as text; None when they cannot be (a lambda, a generator)."""
    try:
        return base64.b64encode(pickle.dumps(value)).decode("ascii")
    except Exception:  # noqa: BLE001 - any object pickle refuses
        return None


def _column_spec(name, values):
    """The record schema of one column: a string, a scalar, a fixed shape, or a shape
    whose first axis varies between rows."""
    arrays = [np.asarray(v) for v in values]
    if arrays[0].dtype.kind in "US":
        return {"type": "string"}
    if arrays[0].dtype.kind == "O":
        raise DataError(f"column {name!r} holds Python objects", op="save",
                        expected="numeric or string columns")
    shapes = {a.shape for a in arrays}
    if len(shapes) == 1:
        shape = arrays[0].shape
        return {"type": str(arrays[0].dtype)} if not shape else \
            {"type": str(arrays[0].dtype), "shape": list(shape)}
    if len({s[1:] for s in shapes}) != 1 or len({len(s) for s in shapes}) != 1:
        raise DataError(f"column {name!r} varies in more than its first axis", op="save",
                        expected="one free axis", got=sorted(shapes)[:3])
    return {"type": str(arrays[0].dtype), "shape": [-1] + list(arrays[0].shape[1:])}


class Dataset:
    """A facade pipeline around a ``sporeling.data`` one (see the module doc)."""

    _inner: _data.Dataset
    _recipe = None

    def __init_subclass__(cls, **kwargs):
        """Sources record how they were built (for ``to_json``/``deserialize``)."""
        super().__init_subclass__(**kwargs)
        init = cls.__dict__.get("__init__")
        if init is None:
            return

        @functools.wraps(init)
        def recorded(self, *args, **kw):
            init(self, *args, **kw)
            if type(self) is cls:
                self._recipe = {"op_type": cls.__name__, "args": args, "kwargs": kw,
                                "children": []}
        cls.__init__ = recorded

    @classmethod
    def _from(cls, inner, recipe=None):
        kind = _OP_CLASSES.get(recipe["op_type"], Dataset) if recipe else Dataset
        obj = object.__new__(kind)
        obj._inner = inner
        obj._recipe = recipe
        return obj

    def __getattr__(self, name):  # anything else sporeling.data's pipeline has
        if name.startswith("__") or name in ("_inner", "_recipe"):
            raise AttributeError(name)
        return getattr(self._inner, name)

    def _op(self, name, inner, *args, **kwargs):
        return wrap(inner, {"op_type": name, "args": args, "kwargs": kwargs,
                            "children": [self]})

    # -- operations --------------------------------------------------------------------
    def map(self, operations, input_columns=None, output_columns=None,
            num_parallel_workers=None, python_multiprocessing=False, cache=None,
            callbacks=None, max_rowsize=16, offload=None):
        """Apply ``operations`` to ``input_columns`` (``callbacks``: ``DSCallback``s called
        around its rows)."""
        inner = self._inner.map(operations, input_columns, output_columns,
                                num_parallel_workers, python_multiprocessing)
        if callbacks:
            callbacks = [callbacks] if not isinstance(callbacks, (list, tuple)) else callbacks
            inner = CallbackOp(inner, callbacks)
        return self._op("map", inner, operations, input_columns=input_columns,
                        output_columns=output_columns, callbacks=callbacks)

    def batch(self, batch_size, drop_remainder=False, num_parallel_workers=None, **kwargs):
        """Stack ``batch_size`` rows (``per_batch_map``, ``input_columns``,
        ``output_columns`` as MindSpore takes them)."""
        inner = self._inner.batch(batch_size, drop_remainder,
                                  kwargs.get("per_batch_map"), kwargs.get("input_columns"),
                                  kwargs.get("output_columns"), kwargs.get("pad_info"))
        return self._op("batch", inner, batch_size, drop_remainder=drop_remainder, **kwargs)

    def padded_batch(self, batch_size, drop_remainder=False, num_parallel_workers=None,
                     pad_info=None):
        inner = self._inner.padded_batch(batch_size, drop_remainder, pad_info)
        return self._op("padded_batch", inner, batch_size, drop_remainder=drop_remainder,
                        pad_info=pad_info)

    def bucket_batch_by_length(self, column_names, bucket_boundaries, bucket_batch_sizes,
                               element_length_function=None, pad_info=None,
                               pad_to_bucket_boundary=False, drop_remainder=False):
        inner = self._inner.bucket_batch_by_length(
            column_names, bucket_boundaries, bucket_batch_sizes, element_length_function,
            pad_info, pad_to_bucket_boundary, drop_remainder)
        return self._op("bucket_batch_by_length", inner, column_names, bucket_boundaries,
                        bucket_batch_sizes, element_length_function, pad_info,
                        pad_to_bucket_boundary, drop_remainder)

    def shuffle(self, buffer_size):
        return self._op("shuffle", self._inner.shuffle(buffer_size), buffer_size)

    def repeat(self, count=None):
        return self._op("repeat", self._inner.repeat(count), count)

    def take(self, count=-1):
        return self._op("take", self._inner.take(count), count)

    def skip(self, count):
        return self._op("skip", self._inner.skip(count), count)

    def filter(self, predicate, input_columns=None, num_parallel_workers=None):
        return self._op("filter", self._inner.filter(predicate, input_columns), predicate,
                        input_columns)

    def project(self, columns):
        return self._op("project", self._inner.project(columns), columns)

    def rename(self, input_columns, output_columns):
        return self._op("rename", self._inner.rename(input_columns, output_columns),
                        input_columns, output_columns)

    def zip(self, datasets):
        others = [datasets] if isinstance(datasets, Dataset) else list(datasets)
        out = self._inner.zip(_unwrap(others))
        return wrap(out, {"op_type": "zip", "args": (), "kwargs": {}, "children": [self] + others})

    def concat(self, datasets):
        others = [datasets] if isinstance(datasets, Dataset) else list(datasets)
        out = self._inner.concat(_unwrap(others))
        return wrap(out, {"op_type": "concat", "args": (), "kwargs": {},
                          "children": [self] + others})

    def __add__(self, other):
        return self.concat(other)

    def split(self, sizes, randomize=True):
        return [wrap(part) for part in self._inner.split(sizes, randomize)]

    def flat_map(self, func):
        """``func(column)`` returns a dataset per row; the result is their rows in turn."""
        return self._op("flat_map", FlatMap(self._inner, func), func)

    def apply(self, apply_func):
        """``apply_func(self)``, which must return a dataset."""
        out = apply_func(self)
        if not isinstance(out, Dataset):
            raise DataError("apply_func must return a dataset", op="apply",
                            expected="a ms.dataset Dataset", got=type(out).__name__)
        return out

    def sync_wait(self, condition_name, num_batch=1, callback=None):
        """A barrier: ``num_batch`` rows pass per ``sync_update(condition_name)``."""
        node = SyncWait(self._inner, condition_name, num_batch, callback)
        return self._op("sync_wait", node, condition_name, num_batch, callback)

    def get_sync_notifiers(self):
        """``{condition_name: update function}`` of every ``sync_wait`` in the pipeline."""
        return {n.condition_name: n.update for n in _nodes(self._inner)
                if isinstance(n, SyncWait)}

    def is_sync(self):
        return any(isinstance(n, SyncWait) for n in _nodes(self._inner))

    def sync_update(self, condition_name, num_batch=None, data=None):
        """Release the next ``num_batch`` rows (default: the barrier's own) at
        ``condition_name``; ``data`` goes to its callback."""
        notifiers = self.get_sync_notifiers()
        if condition_name not in notifiers:
            raise DataError("no such sync_wait", op="sync_update",
                            expected=f"one of {sorted(notifiers)}", got=condition_name)
        notifiers[condition_name](num_batch, data)

    def disable_sync(self):
        """Lift every ``sync_wait`` barrier of the pipeline."""
        for n in _nodes(self._inner):
            if isinstance(n, SyncWait):
                n.disable()

    # -- vocabularies ----------------------------------------------------------------------
    def build_vocab(self, columns, freq_range, top_k, special_tokens, special_first):
        """A ``text.Vocab`` of the tokens in ``columns`` over one epoch."""
        from .text import Vocab
        return Vocab.from_dataset(self, columns, freq_range, top_k, special_tokens,
                                  special_first)

    def build_sentencepiece_vocab(self, columns, vocab_size, character_coverage, model_type,
                                  params):
        """A ``text.SentencePieceVocab`` trained on the strings of ``columns``."""
        from .text import SentencePieceVocab
        return SentencePieceVocab.from_dataset(self, columns, vocab_size, character_coverage,
                                               model_type, params)

    # -- samplers ------------------------------------------------------------------------
    def _source(self):
        sources = [n for n in _nodes(self._inner) if isinstance(n, _data.SourceDataset)]
        if len(sources) != 1:
            raise DataError("the pipeline needs exactly one source here", op="use_sampler",
                            expected="one source dataset", got=len(sources))
        return sources[0]

    def use_sampler(self, new_sampler):
        """Read the source through ``new_sampler`` from now on."""
        source = self._source()
        if not isinstance(new_sampler, _data.Sampler):
            raise DataError("bad sampler", op="use_sampler", expected="a Sampler",
                            got=type(new_sampler).__name__)
        source.sampler = new_sampler

    def add_sampler(self, new_sampler):
        """Chain ``new_sampler`` under the current one: it picks indices of the source and
        the current sampler samples among those (MindSpore's child sampler)."""
        from .samplers import chain
        source = self._source()
        source.sampler = chain(source.sampler, new_sampler)

    def is_shuffled(self):
        for n in _nodes(self._inner):
            if isinstance(n, Shuffle):
                return True
            sampler = getattr(n, "sampler", None)
            if isinstance(n, _data.SourceDataset) and getattr(sampler, "random", None) \
                    is not None and sampler.random:
                return True
            if isinstance(sampler, (_data.RandomSampler, _data.SubsetRandomSampler,
                                    _data.WeightedRandomSampler)) or \
                    (isinstance(sampler, _data.DistributedSampler) and sampler.shuffle):
                return True
        return False

    def is_sharded(self):
        return any(isinstance(getattr(n, "sampler", None), _data.DistributedSampler)
                   for n in _nodes(self._inner))

    # -- inspection ----------------------------------------------------------------------
    def get_col_names(self):
        return self._inner.get_col_names()

    def get_dataset_size(self):
        return self._inner.get_dataset_size()

    def get_batch_size(self):
        """The batch size of the last ``batch`` (1 without one)."""
        if getattr(self, "_batch_size", None) is not None:
            return self._batch_size
        for n in _nodes(self._inner):
            if isinstance(n, Batch):
                return n.batch_size
            if hasattr(n, "bucket_batch_sizes"):
                return -1
        return 1

    def copy_batch_size(self, value):
        self._batch_size = value

    def get_repeat_count(self):
        """The count of the last ``repeat`` (1 without one; -1 for endless)."""
        for n in _nodes(self._inner):
            if isinstance(n, Repeat):
                return n.count
        return 1

    def get_class_indexing(self):
        """``{class name: label}`` of the source (ImageFolder-like ones); ``{}`` else."""
        for n in _nodes(self._inner):
            if getattr(n, "class_indexing", None) is not None:
                return dict(n.class_indexing)
        return {}

    def num_classes(self):
        """How many classes the source labels (None when it does not say)."""
        indexing = self.get_class_indexing()
        return len(indexing) if indexing else None

    def output_shapes(self, estimate=False):
        return self._inner.output_shapes()

    def output_types(self):
        return self._inner.output_types()

    @property
    def input_indexs(self):
        return getattr(self, "_input_indexs", ())

    @input_indexs.setter
    def input_indexs(self, value):
        self._input_indexs = value

    def get_init_step(self):
        return getattr(self, "_init_step", 0)

    def set_init_step(self, init_step):
        """Start the next iteration at step ``init_step`` (failover recovery)."""
        if not isinstance(init_step, int) or init_step < 0:
            raise DataError("bad init_step", op="set_init_step", expected="an int >= 0",
                            got=init_step)
        self._init_step = init_step

    # -- iteration -----------------------------------------------------------------------
    def _iter_inner(self):
        step = self.get_init_step()
        return StartAt(self._inner, step) if step else self._inner

    def create_tuple_iterator(self, columns=None, num_epochs=-1, output_numpy=False,
                              do_copy=True):
        """Rows as lists of Tensors (NumPy arrays with ``output_numpy=True``)."""
        inner = self._iter_inner().create_tuple_iterator(columns, num_epochs)
        return inner if output_numpy else _Rows(iter(inner), as_dict=False)

    def create_dict_iterator(self, num_epochs=-1, output_numpy=False, do_copy=True):
        """Rows as ``{column: Tensor}`` (NumPy arrays with ``output_numpy=True``)."""
        inner = self._iter_inner().create_dict_iterator(num_epochs)
        return inner if output_numpy else _Rows(iter(inner), as_dict=True)

    def __iter__(self):
        return _Rows(iter(self._iter_inner()), as_dict=False)

    def reset(self):
        """Back to epoch 0 (the first epoch's order and augmentations again)."""
        self._inner.reset()

    def iterator_bootstrap(self):
        """Prepare iteration (MindSpore's hook; sporeling.data needs nothing)."""
        return None

    def prepare_multiprocessing(self):
        """Set up multiprocessing (MindSpore's hook; ``map`` starts its own workers)."""
        return None

    # -- sending to a device -----------------------------------------------------------------
    def send(self, num_epochs=-1):
        """Start feeding rows into a host queue in the background; ``recv`` takes them."""
        self._queue = queue.Queue(maxsize=16)
        rows = self.create_tuple_iterator(num_epochs=num_epochs, output_numpy=True)

        def feed():
            for row in rows:
                self._queue.put(list(row))
            self._queue.put(None)
        self._sender = threading.Thread(target=feed, daemon=True)
        self._sender.start()

    def recv(self):
        """The next row ``send`` produced (Tensors), or None after the last."""
        if getattr(self, "_queue", None) is None:
            raise DataError("nothing sent", op="recv", expected="send() first")
        row = self._queue.get()
        return None if row is None else [_to_tensor(c) for c in row]

    def device_que(self, send_epoch_end=True, create_data_info_queue=False, queue_name=""):
        """The pipeline as a data queue: a dataset whose ``send``/``recv`` move rows."""
        return self._op("device_que", self._inner, send_epoch_end=send_epoch_end)

    # -- saving and describing ---------------------------------------------------------------
    def save(self, file_name, num_files=1, file_type="mindrecord"):
        """Write one epoch to ``num_files`` record files (``MindDataset`` reads them)."""
        if file_type != "mindrecord":
            raise DataError("bad file_type", op="save", expected="'mindrecord'", got=file_type)
        names = self.get_col_names()
        rows = [dict(zip(names, row)) for row in self._inner._one_epoch(0)]
        if not rows:
            raise DataError("nothing to save", op="save", expected="at least one row")
        schema = {name: _column_spec(name, [r[name] for r in rows]) for name in names}
        writer = _data.FileWriter(file_name, shard_num=num_files)
        writer.add_schema(schema)
        writer.write_raw_data(rows)
        writer.commit()

    def parse(self, children=None):
        """The sporeling.data node this dataset runs as (MindSpore's IR node)."""
        return self._inner

    def parse_tree(self, getter_mode=False):
        """The root of the pipeline's node tree."""
        return self._inner

    def create_ir_tree(self, getter_mode=False):
        """(node tree, this dataset), as MindSpore returns (IR tree, API tree)."""
        return self._inner, self

    def pre_parse(self, getter_mode):
        """MindSpore's hook before parsing; nothing to prepare here."""
        return None

    def post_parse(self, ir_node):
        """MindSpore's hook after parsing: the node as it is."""
        return ir_node

    def to_json(self, filename=None):
        """The pipeline as a dict (written to ``filename`` + ".json" when given):
        ``op_type``, readable ``params``, ``children`` and a ``recipe`` that
        ``deserialize`` rebuilds it from (Python objects pickled)."""
        out = self._describe()
        if filename:
            with open(str(filename) + ".json" if not str(filename).endswith(".json")
                      else filename, "w", encoding="utf-8") as f:
                json.dump(out, f, indent=2)
        return out

    def _describe(self):
        recipe = self._recipe
        if recipe is None:
            return {"op_type": type(self._inner).__name__, "params": {}, "children": [],
                    "recipe": None}
        return {"op_type": recipe["op_type"],
                "params": {"args": describe_value(list(recipe["args"])),
                           "kwargs": describe_value(recipe["kwargs"])},
                "children": [c._describe() for c in recipe["children"]],
                "recipe": _encode((recipe["args"], recipe["kwargs"]))}

    def __repr__(self):
        return f"ms.dataset({self._inner!r})"


# what a pipeline operation returns is named as in MindSpore (``data.map(...)`` is a
# ``MapDataset``): classes with no behaviour of their own
_OP_CLASSES = {op: type(f"{name}Dataset", (Dataset,), {
    "__doc__": f"The pipeline ``Dataset.{op}`` returns (MindSpore's ``{name}Dataset``).",
    "__module__": __name__})
    for op, name in (("map", "Map"), ("batch", "Batch"), ("padded_batch", "PaddedBatch"),
                     ("bucket_batch_by_length", "BucketBatchByLength"),
                     ("shuffle", "Shuffle"), ("repeat", "Repeat"), ("take", "Take"),
                     ("skip", "Skip"), ("filter", "Filter"), ("project", "Project"),
                     ("rename", "Rename"), ("flat_map", "FlatMap"), ("zip", "Zip"),
                     ("concat", "Concat"), ("sync_wait", "SyncWait"))}
