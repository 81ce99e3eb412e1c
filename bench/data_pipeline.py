"""Image input pipeline throughput: sporeling.data vs a PyTorch DataLoader, same work.

Writes ``--images`` PNGs (32x32 RGB, CIFAR-sized, 10 class folders) into a temporary folder,
then runs one epoch per repeat of: read file -> decode (Pillow) -> random crop 32 with
padding 4 -> random horizontal flip -> normalize -> HWC->CHW -> batch 64, shuffled, at 1 and
2 workers (processes). Sporeling uses ImageFolderDataset + map(vision transforms,
python_multiprocessing=True) + batch; PyTorch (when installed; never a dependency) uses a
Dataset doing the same steps with Pillow and NumPy, and DataLoader(num_workers=w). Worker
start-up is inside the timing for both (one epoch per iterator, as a training loop does).
Timed with ``bench/timing.compare``: one epoch per step, 0.3 s idle before each, the order
alternating; "x torch" is the epoch time over the DataLoader's (lower is faster).

    python bench/data_pipeline.py [--images 4096] [--repeats 5]
"""
from __future__ import annotations

import argparse
import io
import sys
import tempfile
from pathlib import Path

import numpy as np
from PIL import Image

sys.path.insert(0, str(Path(__file__).parent))
from timing import compare, print_table, ratio  # noqa: E402

MEAN = np.array([125.3, 123.0, 113.9], np.float32)
STD = np.array([63.0, 62.1, 66.7], np.float32)
BATCH = 64


def write_images(folder: Path, n: int) -> None:
    rng = np.random.default_rng(0)
    yy, xx = np.mgrid[0:32, 0:32]
    for i in range(n):
        label = i % 10
        base = (np.sin(xx / (3 + label)) + np.cos(yy / (2 + i % 7))) * 60 + 128
        img = np.clip(base[..., None] + rng.normal(0, 20, (32, 32, 3)), 0, 255).astype(np.uint8)
        (folder / str(label)).mkdir(exist_ok=True)
        Image.fromarray(img).save(folder / str(label) / f"{i:05d}.png")


def sporeling_epoch(folder: Path, workers: int) -> int:
    import sporeling.data as sd
    from sporeling.data import vision
    ds = sd.ImageFolderDataset(str(folder), shuffle=True)
    ds = ds.map([vision.Decode(), vision.RandomCrop(32, padding=4),
                 vision.RandomHorizontalFlip(), vision.Normalize(MEAN, STD), vision.HWC2CHW()],
                input_columns="image", num_parallel_workers=workers,
                python_multiprocessing=True)
    ds = ds.batch(BATCH)
    n = 0
    for images, labels in ds:
        n += len(labels)
    return n


class TorchImages:
    """The same steps as the Sporeling pipeline, with Pillow and NumPy, as a torch Dataset."""

    def __init__(self, folder: Path):
        self.files = sorted(folder.rglob("*.png"))
        self.labels = [int(p.parent.name) for p in self.files]

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        import torch
        data = self.files[i].read_bytes()
        img = np.asarray(Image.open(io.BytesIO(data)).convert("RGB"))
        img = np.pad(img, [(4, 4), (4, 4), (0, 0)])
        top, left = np.random.randint(0, 9, 2)
        img = img[top:top + 32, left:left + 32]
        if np.random.rand() < 0.5:
            img = img[:, ::-1]
        img = (img.astype(np.float32) - MEAN) / STD
        return torch.from_numpy(np.ascontiguousarray(img.transpose(2, 0, 1))), self.labels[i]


def torch_epoch(folder: Path, workers: int) -> int:
    import torch
    loader = torch.utils.data.DataLoader(TorchImages(folder), batch_size=BATCH, shuffle=True,
                                         num_workers=workers)
    n = 0
    for images, labels in loader:
        n += len(labels)
    return n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--images", type=int, default=4096)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    try:
        import torch
        torch.set_num_threads(1)
        have_torch = True
    except ImportError:
        have_torch = False
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        write_images(folder, args.images)
        print(f"{args.images} PNGs 32x32, batch {BATCH}, {args.repeats} epochs per "
              f"contender\n")
        rows = []
        for workers in (1, 2):
            epochs = {"sporeling.data": sporeling_epoch}
            if have_torch:
                epochs["torch DataLoader"] = torch_epoch
            times = compare({name: (lambda fn=fn: fn(folder, workers))
                             for name, fn in epochs.items()},
                            steps=1, blocks=args.repeats, warmup=1)
            for name, t in times.items():
                assert t.last == args.images, f"{name} served {t.last} images"
                rows.append([workers, name, t.ms(), f"{args.images / t.median:,.0f}",
                             ratio(t, times.get("torch DataLoader"))])
        print_table(["workers", "pipeline", "epoch: median (low-high)", "images/s",
                     "x torch"], rows)


if __name__ == "__main__":
    main()
