"""MindSpore 2.10's ``mind_ir.proto`` (package ``mind_ir``, proto2) as message classes.

As for the ``.ckpt`` format (:mod:`sporeling.ms.train._ckpt_format`), the descriptor is
built here in Python -- no ``protoc``, no generated module -- in a private descriptor pool,
so it cannot clash with MindSpore's own ``mind_ir_pb2`` when both are imported. The
fields are MindSpore 2.10's, number for number (``mindspore/core/proto/mind_ir.proto``);
the few messages Sporeling never reads (parallel layouts, preprocessors, functors,
quantisation) are declared too, so that a file holding them parses.
"""
from __future__ import annotations

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

__all__ = ["ModelProto", "GraphProto", "NodeProto", "TensorProto", "AttributeProto",
           "ValueInfoProto", "PrimitiveProto", "descriptor"]

_F = descriptor_pb2.FieldDescriptorProto
_SCALARS = {"string": _F.TYPE_STRING, "bytes": _F.TYPE_BYTES, "bool": _F.TYPE_BOOL,
            "float": _F.TYPE_FLOAT, "double": _F.TYPE_DOUBLE, "int32": _F.TYPE_INT32,
            "int64": _F.TYPE_INT64, "uint64": _F.TYPE_UINT64}
_LABELS = {"?": _F.LABEL_OPTIONAL, "*": _F.LABEL_REPEATED, "!": _F.LABEL_REQUIRED}

_ATTRIBUTE_TYPES = (
    "UNDEFINED FLOAT UINT8 INT8 UINT16 INT16 INT32 INT64 STRING BOOL FLOAT16 DOUBLE UINT32 "
    "UINT64 COMPLEX64 COMPLEX128 BFLOAT16 TENSOR GRAPH TENSORS TUPLE LIST DICT UMONAD IOMONAD "
    "NONE PRIMITIVECLOSURE FUNCGRAPHCLOSURE PARTIALCLOSURE UNIONFUNCCLOSURE CSR_TENSOR "
    "COO_TENSOR ROW_TENSOR CLASS_TYPE NAME_SPACE SYMBOL TYPE_NULL MAP_TENSOR FUNCTOR SCALAR "
    "SCALAR_GRAPH_HOLDER").split()
_DATA_TYPES = ("UNDEFINED FLOAT UINT8 INT8 UINT16 INT16 INT32 INT64 STRING BOOL FLOAT16 "
               "DOUBLE UINT32 UINT64 COMPLEX64 COMPLEX128 BFLOAT16 FLOAT64 QINT4X2").split()
_COMPRESSION = "NO_COMPRESSION INDEXING SPARSE FSE BIT_PACKING FSE_INT FSE_INFER".split()

# message -> fields as "label type name number"; a type is a scalar, a message or an enum
# (both by their full name, without the package); enums: name -> {value name: number}
_MESSAGES: dict[str, tuple[str, ...]] = {
    "AttributeProto": (
        "? string name 1", "? float f 2", "? int64 i 3", "? double d 4", "? bytes s 5",
        "? TensorProto t 6", "? GraphProto g 7", "* float floats 8", "* double doubles 9",
        "* int64 ints 10", "* bytes strings 11", "* TensorProto tensors 12",
        "* GraphProto graphs 13", "? string doc_string 14", "? string ref_attr_name 15",
        "? AttributeProto.AttributeType type 16", "* AttributeProto values 17",
        "? AttributeProto.SeqInfoProto seq_info 18", "? FunctorProto functor 19",
        "? ScalarGraphHolderProto graph_holder 20"),
    "AttributeProto.SeqInfoProto": ("? bool is_dyn_len 1",
                                    "? AttributeProto tuple_elem_item 2"),
    "FunctorProto": ("? FunctorProto.FunctorType type 1", "? string name 2",
                     "* AttributeProto values 3"),
    "ValueInfoProto": ("? string name 1", "* TensorProto tensor 2", "? string doc_string 3",
                       "? string denotation 4", "? AttributeProto attr_info 5"),
    "NodeProto": ("* string input 1", "* string output 2", "? string name 3",
                  "? string op_type 4", "* AttributeProto attribute 5",
                  "? string doc_string 6", "? string domain 7",
                  "* AttributeProto node_attr 8", "* AttributeProto primal_attr 9"),
    "ModelProto": (
        "? string ir_version 1", "? string producer_name 2", "? string producer_version 3",
        "? string domain 4", "? string model_version 5", "? string doc_string 6",
        "? GraphProto graph 7", "* GraphProto functions 8",
        "? PreprocessorProto preprocessor 9", "? bool little_endian 10",
        "? ParallelProto parallel 11", "* PrimitiveProto primitives 12",
        "? int64 mind_ir_version 13", "* ModelProto.UserInfoEntry user_info 14"),
    "ModelProto.UserInfoEntry": ("? string key 1", "? string value 2"),
    "PreprocessorProto": ("* PreprocessOpProto op 1",),
    "PreprocessOpProto": ("? string input_columns 1", "? string output_columns 2",
                          "? string project_columns 3", "? string op_type 4",
                          "? string operations 5", "? bool offload 6"),
    "GraphProto": ("* NodeProto node 1", "? string name 2", "* TensorProto parameter 3",
                   "? string doc_string 4", "* ValueInfoProto input 5",
                   "* ValueInfoProto output 6", "? string bprop_hash 7",
                   "* AttributeProto attribute 8", "? string bprop_filepath 9",
                   "* MapTensorProto map_parameter 10"),
    "TensorProto": (
        "* int64 dims 1", "? int32 data_type 2", "* float float_data 3",
        "* int32 int32_data 4", "* bytes string_data 5", "* int64 int64_data 6",
        "? string name 7", "? string doc_string 8", "? bytes raw_data 9",
        "* double double_data 10", "* uint64 uint64_data 11",
        "? TensorProto.ExternalDataProto external_data 12", "? string ref_key 13",
        "* int64 min_dims 14", "* int64 max_dims 15",
        "? TensorProto.CompressionType compression_type 16",
        "* TensorProto.QuantParamProto quant_params 17"),
    "TensorProto.ExternalDataProto": ("? string location 1", "? int64 offset 2",
                                      "? int64 length 3"),
    "TensorProto.QuantParamProto": ("! string quant_algo_name 1",
                                    "* AttributeProto attribute 2"),
    "MapTensorProto": ("! string name 1", "! AttributeProto default_value 2",
                       "! TensorProto key_tensor 3", "! TensorProto value_tensor 4",
                       "! TensorProto status_tensor 5"),
    "ParallelProto": ("* LayoutProto layout 1",),
    "LayoutProto": (
        "? string name 1", "* int64 device_arrangement_int 2", "* int64 tensor_map_int 3",
        "* int64 slice_shape_int 4", "? int64 field_size 5", "? bool uniform_split 6",
        "? string opt_shard_group 7", "? bool pipeline_shared 8", "? bool is_send 9",
        "? int64 peer_rank 10", "? int64 sr_tag 11", "* int64 opt_shard_slice_shape_int 12"),
    "PrimitiveProto": ("? string name 1", "? string op_type 2", "* AttributeProto attribute 3",
                       "? string instance_name 4", "? PrimitiveProto.PrimType prim_type 5"),
    "ScalarNodeProto": ("? int64 scalar_op_type 1", "* int64 in_index 2", "* int64 value 3"),
    "ScalarGraphHolderProto": ("* ScalarNodeProto scalar_node 1",
                               "* uint64 input_shape_index 2"),
}
_ENUMS: dict[str, dict[str, int]] = {
    "AttributeProto.AttributeType": {n: i for i, n in enumerate(_ATTRIBUTE_TYPES)},
    "FunctorProto.FunctorType": {"SHAPE_CALC_FUNCTOR": 1, "ANY_FUNCTOR": 2},
    "TensorProto.DataType": {n: i for i, n in enumerate(_DATA_TYPES)},
    "TensorProto.CompressionType": {n: i for i, n in enumerate(_COMPRESSION)},
    "PrimitiveProto.PrimType": {"PRIMITIVE": 1, "PRIMITIVE_FUNCTION": 2},
    "Version": {"IR_VERSION_START": 0, "IR_VERSION": 1, "IR_VERSION_WITH_PRIM_FUNCTION": 2,
                "IR_VERSION_WITH_SCALAR_GRAPH_HOLDER": 3},
}


def descriptor() -> descriptor_pb2.FileDescriptorProto:
    """``mind_ir.proto`` of MindSpore 2.10 as a descriptor."""
    proto = descriptor_pb2.FileDescriptorProto(name="sporeling/ms/mind_ir.proto",
                                               package="mind_ir", syntax="proto2")
    made: dict[str, object] = {}

    def container(name: str):
        """The descriptor that holds ``name`` (the file, or the enclosing message)."""
        return proto if "." not in name else made[name.rsplit(".", 1)[0]]

    for name, fields in _MESSAGES.items():  # parents come before their nested messages
        parent = container(name)
        msg = (parent.message_type if parent is proto else parent.nested_type).add(
            name=name.rsplit(".", 1)[-1])
        if name.endswith("Entry"):  # map<string, string> user_info
            msg.options.map_entry = True
        made[name] = msg
    for name, values in _ENUMS.items():
        parent = container(name)
        enum = parent.enum_type.add(name=name.rsplit(".", 1)[-1])
        for value, number in values.items():
            enum.value.add(name=value, number=number)
    for name, fields in _MESSAGES.items():
        for spec in fields:
            label, kind, field_name, number = spec.split()
            field = made[name].field.add(name=field_name, number=int(number),
                                         label=_LABELS[label])
            if kind in _SCALARS:
                field.type = _SCALARS[kind]
            else:
                field.type = _F.TYPE_ENUM if kind in _ENUMS else _F.TYPE_MESSAGE
                field.type_name = f".mind_ir.{kind}"
    return proto


def _classes() -> dict:
    pool = descriptor_pool.DescriptorPool()
    pool.AddSerializedFile(descriptor().SerializeToString())
    return {name: message_factory.GetMessageClass(pool.FindMessageTypeByName(f"mind_ir.{name}"))
            for name in _MESSAGES if "." not in name}


_CLASSES = _classes()
ModelProto = _CLASSES["ModelProto"]
GraphProto = _CLASSES["GraphProto"]
NodeProto = _CLASSES["NodeProto"]
TensorProto = _CLASSES["TensorProto"]
AttributeProto = _CLASSES["AttributeProto"]
ValueInfoProto = _CLASSES["ValueInfoProto"]
PrimitiveProto = _CLASSES["PrimitiveProto"]
