"""Bad inputs are named: CSV quoting and encodings, image folders linking outside the root."""
import os

import numpy as np
import pytest

import sporeling.data as sd
from sporeling.data import CorruptSampleError, DataError


def test_csv_unterminated_quote_is_an_error_at_its_line(tmp_path):
    path = tmp_path / "q.csv"
    # the last field opens a quote that never closes: without a check it swallows lines 3-5
    # into one (well-formed, 3-field) row and the file "reads" as 2 rows
    path.write_text('a,b,c\n1,2,x\n3,4,"oops\n5,6,y\n7,8,z\n')
    with pytest.raises(DataError, match="unterminated") as info:
        sd.CSVDataset(str(path), shuffle=False)
    assert f"{path}:3" in str(info.value)
    assert not isinstance(info.value, CorruptSampleError)  # not skippable: the rest is lost
    with pytest.raises(DataError, match="unterminated"):
        sd.CSVDataset(str(path), shuffle=False, on_error="skip")


def test_csv_stray_quote_is_a_malformed_row(tmp_path):
    path = tmp_path / "s.csv"
    path.write_text('a,b\n1,"2"x\n3,4\n')
    with pytest.raises(CorruptSampleError, match=f"{path}:2"):
        sd.CSVDataset(str(path), shuffle=False)
    ds = sd.CSVDataset(str(path), shuffle=False, on_error="skip")
    assert [int(r[0]) for r in ds] == [3] and list(ds.skipped) == [f"{path}:2"]


def test_csv_quoted_newlines_still_read(tmp_path):
    path = tmp_path / "m.csv"
    path.write_text('a,b\n1,"two\nlines"\n3,x\n')
    rows = list(sd.CSVDataset(str(path), shuffle=False))
    assert [str(r[1]) for r in rows] == ["two\nlines", "x"]


def test_csv_not_utf8_names_file_line_and_encoding_option(tmp_path):
    path = tmp_path / "latin.csv"
    path.write_bytes("name,n\nabc,1\ncafé,2\n".encode("latin-1"))
    with pytest.raises(DataError, match="encoding=") as info:
        sd.CSVDataset(str(path), shuffle=False)
    assert f"{path}:3" in str(info.value) and "utf-8" in str(info.value)
    ds = sd.CSVDataset(str(path), shuffle=False, encoding="latin-1")
    assert [str(r[0]) for r in ds] == ["abc", "café"]
    bom = tmp_path / "bom.csv"
    bom.write_bytes("\ufeffname,n\nx,1\n".encode())
    assert sd.CSVDataset(str(bom)).get_col_names() == ["name", "n"]
    with pytest.raises(DataError, match="unknown encoding"):
        sd.CSVDataset(str(path), encoding="nope")


def _image_root(tmp_path):
    from PIL import Image
    root, outside = tmp_path / "data", tmp_path / "elsewhere"
    for folder in (root / "cat", outside / "dog", outside / "stray"):
        folder.mkdir(parents=True)
    for folder, n in ((root / "cat", 2), (outside / "dog", 3), (outside / "stray", 1)):
        for i in range(n):
            Image.fromarray(np.zeros((4, 4, 3), np.uint8)).save(folder / f"{i}.png")
    return root, outside


def test_image_folder_refuses_a_class_folder_linking_out_of_the_root(tmp_path):
    root, outside = _image_root(tmp_path)
    (root / "dog").symlink_to(outside / "dog", target_is_directory=True)
    with pytest.raises(DataError, match="follow_links_outside_root=True") as info:
        sd.ImageFolderDataset(str(root))
    assert f"{root / 'dog'} -> {os.path.realpath(outside / 'dog')}" in str(info.value)
    ds = sd.ImageFolderDataset(str(root), follow_links_outside_root=True, shuffle=False)
    assert ds.get_dataset_size() == 5 and ds.class_indexing == {"cat": 0, "dog": 1}


def test_image_folder_refuses_file_links_out_but_keeps_links_inside(tmp_path):
    root, outside = _image_root(tmp_path)
    (root / "cat" / "x.png").symlink_to(outside / "stray" / "0.png")
    with pytest.raises(DataError, match="outside"):
        sd.ImageFolderDataset(str(root))
    (root / "cat" / "x.png").unlink()
    (root / "mouse").symlink_to(root / "cat", target_is_directory=True)  # inside: fine
    (root / "cat" / "again.png").symlink_to(root / "cat" / "0.png")
    ds = sd.ImageFolderDataset(str(root), shuffle=False)
    assert ds.get_dataset_size() == 6 and sorted(ds.class_indexing) == ["cat", "mouse"]
