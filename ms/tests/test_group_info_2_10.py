"""``restore_group_info_list`` (2.10) reads MindSpore's group information file (a fixture
written by real MindSpore: data/make_group_info_fixture.py)."""
import os

import pytest

import sporeling.ms as ms

FIXTURE = os.path.join(os.path.dirname(__file__), "data", "group_info_2_10.pb")


def test_reads_mindspores_restore_rank_list():
    assert ms.restore_group_info_list(FIXTURE) == [0, 2, 300]
    assert ms.train.restore_group_info_list is ms.restore_group_info_list


def test_bad_files_are_refused(tmp_path):
    with pytest.raises(TypeError, match="should be str"):
        ms.restore_group_info_list(tmp_path)
    with pytest.raises(ValueError, match="no such group information file"):
        ms.restore_group_info_list(str(tmp_path / "missing.pb"))
    empty = tmp_path / "empty.pb"
    empty.write_bytes(b"")
    with pytest.raises(ValueError, match="should not be empty"):
        ms.restore_group_info_list(str(empty))
    garbage = tmp_path / "garbage.pb"
    garbage.write_bytes(b"\xff\xff\xff")
    with pytest.raises(ValueError, match="not a group information file"):
        ms.restore_group_info_list(str(garbage))
    no_list = tmp_path / "no_list.pb"
    no_list.write_bytes(bytes.fromhex("12 00"))  # an empty ckpt_restore_rank_list
    with pytest.raises(ValueError, match="no restore rank list"):
        ms.restore_group_info_list(str(no_list))
