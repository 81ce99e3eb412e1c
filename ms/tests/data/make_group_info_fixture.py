"""Writes group_info_2_10.pb with real MindSpore 2.10's protobuf classes (run with an
interpreter that has MindSpore: ``/work/ms-venv/bin/python make_group_info_fixture.py``).
``restore_group_info_list`` must read [0, 2, 300] from it."""
import os

from mindspore.train import node_strategy_pb2

group_map = node_strategy_pb2.ParallelGroupMap()
item = group_map.parallel_group_item.add()
item.group_name = "2-5004544844489628105"
item.parallel_group_ranks.dim.extend([0, 2])
item = group_map.parallel_group_item.add()
item.group_name = "hccl_world_group"
item.parallel_group_ranks.dim.extend([0, 1, 2, 3])
group_map.ckpt_restore_rank_list.dim.extend([0, 2, 300])
with open(os.path.join(os.path.dirname(__file__), "group_info_2_10.pb"), "wb") as f:
    f.write(group_map.SerializeToString())
