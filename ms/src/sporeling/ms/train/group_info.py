"""``restore_group_info_list``: the restore rank list of MindSpore's group information file
(what ``export GROUP_INFO_FILE=...`` makes a MindSpore parallel job write).

The file is one serialized ``ParallelGroupMap`` of MindSpore 2.10's ``node_strategy.proto``
(proto2), built here field for field as ``_ckpt_format`` builds ``checkpoint.proto``::

    message ParallelGroupRanks { repeated uint32 dim = 1; }
    message ParallelGroupItem { required string group_name = 1;
                                required ParallelGroupRanks parallel_group_ranks = 2; }
    message ParallelGroupMap { repeated ParallelGroupItem parallel_group_item = 1;
                               required ParallelGroupRanks ckpt_restore_rank_list = 2; }

Sporeling's own parallel jobs write no such file; this reads MindSpore's.
"""
from __future__ import annotations

import os

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from google.protobuf.message import DecodeError

__all__ = ["restore_group_info_list"]


def _group_map_class():
    F = descriptor_pb2.FieldDescriptorProto
    proto = descriptor_pb2.FileDescriptorProto(name="sporeling/ms/node_strategy.proto")
    ranks = proto.message_type.add(name="ParallelGroupRanks")
    ranks.field.add(name="dim", number=1, label=F.LABEL_REPEATED, type=F.TYPE_UINT32)
    item = proto.message_type.add(name="ParallelGroupItem")
    item.field.add(name="group_name", number=1, label=F.LABEL_REQUIRED, type=F.TYPE_STRING)
    item.field.add(name="parallel_group_ranks", number=2, label=F.LABEL_REQUIRED,
                   type=F.TYPE_MESSAGE, type_name=".ParallelGroupRanks")
    group_map = proto.message_type.add(name="ParallelGroupMap")
    group_map.field.add(name="parallel_group_item", number=1, label=F.LABEL_REPEATED,
                        type=F.TYPE_MESSAGE, type_name=".ParallelGroupItem")
    group_map.field.add(name="ckpt_restore_rank_list", number=2, label=F.LABEL_REQUIRED,
                        type=F.TYPE_MESSAGE, type_name=".ParallelGroupRanks")
    pool = descriptor_pool.DescriptorPool()
    pool.AddSerializedFile(proto.SerializeToString())
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("ParallelGroupMap"))


def restore_group_info_list(group_info_file_name):
    """MindSpore 2.10's ``restore_group_info_list(group_info_file_name)``: the rank list
    (``ckpt_restore_rank_list``) of a group information file, as a list of ints."""
    if not isinstance(group_info_file_name, str):
        raise TypeError("For 'restore_group_info_list', the argument 'group_info_file_name' "
                        f"should be str, but got {type(group_info_file_name)}.")
    if not os.path.isfile(group_info_file_name):
        raise ValueError("For 'restore_group_info_list', no such group information file: "
                         f"{group_info_file_name}.")
    with open(group_info_file_name, "rb") as file:
        content = file.read()
    if not content:
        raise ValueError("For 'restore_group_info_list', the group information file should "
                         "not be empty.")
    group_map = _group_map_class()()
    try:
        group_map.ParseFromString(content)
    except DecodeError as exc:
        raise ValueError(f"For 'restore_group_info_list', {group_info_file_name} is not a "
                         f"group information file (ParallelGroupMap): {exc}") from None
    ranks = list(group_map.ckpt_restore_rank_list.dim)
    if not ranks:
        raise ValueError("For 'restore_group_info_list', the group information file has no "
                         "restore rank list.")
    return ranks
