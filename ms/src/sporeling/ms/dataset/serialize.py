"""Pipelines as JSON (``serialize``/``deserialize``/``show``/``compare``) and the
module-level ``zip``."""
from __future__ import annotations

import base64
import json
import pickle

from sporeling.data import DataError

from .pipeline import Dataset

__all__ = ["serialize", "deserialize", "show", "compare", "zip"]


def serialize(dataset, json_filepath=""):
    """``dataset.to_json(json_filepath)``: the pipeline as a dict, written to the file
    when a path is given."""
    return dataset.to_json(json_filepath or None)


def _rebuild(node):
    from . import sources
    if node.get("recipe") is None:
        raise DataError("this pipeline step cannot be rebuilt", op="deserialize",
                        expected="arguments that pickle (no lambdas or generators)",
                        got=node["op_type"])
    args, kwargs = pickle.loads(base64.b64decode(node["recipe"]))
    children = [_rebuild(c) for c in node["children"]]
    if not children:
        cls = getattr(sources, node["op_type"], None)
        if cls is None:
            raise DataError("unknown source", op="deserialize", got=node["op_type"])
        return cls(*args, **kwargs)
    first, others = children[0], children[1:]
    if node["op_type"] in ("zip", "concat"):
        return getattr(first, node["op_type"])(others)
    return getattr(first, node["op_type"])(*args, **kwargs)


def deserialize(input_dict=None, json_filepath=None):
    """The pipeline a ``serialize`` dict (or JSON file) describes, rebuilt."""
    if input_dict is None:
        if json_filepath is None:
            raise DataError("nothing to deserialize", op="deserialize",
                            expected="input_dict or json_filepath")
        with open(json_filepath, encoding="utf-8") as f:
            input_dict = json.load(f)
    return _rebuild(input_dict)


def _readable(node):
    return {"op_type": node["op_type"], "params": node["params"],
            "children": [_readable(c) for c in node["children"]]}


def show(dataset, indent=2):
    """Print the pipeline's JSON (without the rebuild recipes)."""
    print(json.dumps(_readable(dataset.to_json()), indent=indent))


def compare(pipeline1, pipeline2):
    """Whether two pipelines are built the same way (same steps and parameters)."""
    return _readable(pipeline1.to_json()) == _readable(pipeline2.to_json())


def zip(datasets):
    """The rows of ``datasets`` (a tuple) side by side."""
    datasets = list(datasets)
    if len(datasets) < 2 or not all(isinstance(d, Dataset) for d in datasets):
        raise DataError("zip needs datasets", op="zip", expected="a tuple of 2+ datasets",
                        got=[type(d).__name__ for d in datasets])
    return datasets[0].zip(datasets[1:])
