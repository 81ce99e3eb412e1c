"""MindSpore 2.x's quickstart (mindspore.cn/tutorials/en/r2.3.0/beginner/quick_start.html)
runs with only its imports renamed (``mindspore`` -> ``sporeling.ms``), in PyNative mode, on a
small synthetic MNIST written in the IDX format (the tutorial downloads the real one)."""
import numpy as np

# --- the tutorial's imports, renamed -------------------------------------------------------
import sporeling.ms as mindspore
from sporeling.ms import nn
from sporeling.ms.dataset import vision, transforms
from sporeling.ms.dataset import MnistDataset


def _write_idx(path, array):
    codes = {np.dtype(np.uint8): 0x08}
    header = bytes([0, 0, codes[array.dtype], array.ndim])
    header += b"".join(int(s).to_bytes(4, "big") for s in array.shape)
    path.write_bytes(header + array.tobytes())


def _fake_mnist(root, n_train=1024, n_test=128, seed=0):
    """Digits as blurry class-dependent blobs: learnable, so the loss must fall."""
    rng = np.random.default_rng(seed)
    centres = rng.uniform(4, 24, size=(10, 2))
    for split, prefix, n in (("train", "train", n_train), ("test", "t10k", n_test)):
        folder = root / split
        folder.mkdir(parents=True)
        labels = rng.integers(0, 10, n).astype(np.uint8)
        yy, xx = np.mgrid[0:28, 0:28]
        cy, cx = centres[labels, 0], centres[labels, 1]
        images = np.exp(-((yy - cy[:, None, None]) ** 2 + (xx - cx[:, None, None]) ** 2) / 18)
        images = np.clip(images * 255 + rng.normal(0, 20, images.shape), 0, 255)
        _write_idx(folder / f"{prefix}-images-idx3-ubyte", images.astype(np.uint8))
        _write_idx(folder / f"{prefix}-labels-idx1-ubyte", labels)
    return root


def test_quickstart_runs_with_only_the_import_changed(tmp_path, capsys):
    mindspore.set_seed(0)
    mindspore.dataset.config.set_seed(0)
    root = _fake_mnist(tmp_path / "MNIST_Data")
    mindspore.set_context(mode=mindspore.PYNATIVE_MODE)

    # --- from here on, the tutorial's code (batch size and epochs made small) -------------
    train_dataset = MnistDataset(str(root / "train"))
    test_dataset = MnistDataset(str(root / "test"))
    print(train_dataset.get_col_names())

    def datapipe(dataset, batch_size):
        image_transforms = [
            vision.Rescale(1.0 / 255.0, 0),
            vision.Normalize(mean=(0.1307,), std=(0.3081,)),
            vision.HWC2CHW()
        ]
        label_transform = transforms.TypeCast(mindspore.int32)

        dataset = dataset.map(image_transforms, 'image')
        dataset = dataset.map(label_transform, 'label')
        dataset = dataset.batch(batch_size)
        return dataset

    train_dataset = datapipe(train_dataset, 32)
    test_dataset = datapipe(test_dataset, 32)

    for image, label in test_dataset.create_tuple_iterator():
        print(f"Shape of image [N, C, H, W]: {image.shape} {image.dtype}")
        print(f"Shape of label: {label.shape} {label.dtype}")
        break

    class Network(nn.Cell):
        def __init__(self):
            super().__init__()
            self.flatten = nn.Flatten()
            self.dense_relu_sequential = nn.SequentialCell(
                nn.Dense(28*28, 512),
                nn.ReLU(),
                nn.Dense(512, 512),
                nn.ReLU(),
                nn.Dense(512, 10)
            )

        def construct(self, x):
            x = self.flatten(x)
            logits = self.dense_relu_sequential(x)
            return logits

    model = Network()
    loss_fn = nn.CrossEntropyLoss()
    optimizer = nn.SGD(model.trainable_params(), 1e-2)

    def forward_fn(data, label):
        logits = model(data)
        loss = loss_fn(logits, label)
        return loss, logits

    grad_fn = mindspore.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)

    def train_step(data, label):
        (loss, _), grads = grad_fn(data, label)
        optimizer(grads)
        return loss

    losses = []

    def train(model, dataset):
        size = dataset.get_dataset_size()
        model.set_train()
        for batch, (data, label) in enumerate(dataset.create_tuple_iterator()):
            loss = train_step(data, label)
            losses.append(float(loss.asnumpy()))
            if batch % 100 == 0:
                loss, current = loss.asnumpy(), batch
                print(f"loss: {loss:>7f}  [{current:>3d}/{size:>3d}]")

    accuracies = []

    def test(model, dataset, loss_fn):
        num_batches = dataset.get_dataset_size()
        model.set_train(False)
        total, test_loss, correct = 0, 0, 0
        for data, label in dataset.create_tuple_iterator():
            pred = model(data)
            total += len(data)
            test_loss += loss_fn(pred, label).asnumpy()
            correct += (pred.argmax(1) == label).asnumpy().sum()
        test_loss /= num_batches
        correct /= total
        accuracies.append(correct)
        print(f"Test: \n Accuracy: {(100*correct):>0.1f}%, Avg loss: {test_loss:>8f} \n")

    epochs = 3
    for t in range(epochs):
        print(f"Epoch {t+1}\n-------------------------------")
        train(model, train_dataset)
        test(model, test_dataset, loss_fn)
    print("Done!")

    mindspore.save_checkpoint(model, str(tmp_path / "model.ckpt"))
    print("Saved Model to model.ckpt")

    model = Network()
    param_dict = mindspore.load_checkpoint(str(tmp_path / "model.ckpt"))
    param_not_load, _ = mindspore.load_param_into_net(model, param_dict)
    print(param_not_load)

    model.set_train(False)
    for data, label in test_dataset:
        pred = model(data)
        predicted = pred.argmax(1)
        print(f'Predicted: "{predicted[:10]}", Actual: "{label[:10]}"')
        break
    # --- end of the tutorial's code -------------------------------------------------------

    out = capsys.readouterr().out
    assert "['image', 'label']" in out
    # Tensor.dtype is sporeling's NumPy dtype: it prints "float32" (MindSpore: "Float32")
    assert "Shape of image [N, C, H, W]: (32, 1, 28, 28) float32" in out
    assert "Shape of label: (32,) int32" in out
    assert "Accuracy:" in out and "Done!" in out
    assert param_not_load == []
    assert np.mean(losses[-10:]) < 0.8 * np.mean(losses[:10]), losses
    assert accuracies[-1] > 0.3, accuracies  # chance is 0.1
    image, label = next(test_dataset.create_tuple_iterator())
    assert isinstance(image, mindspore.Tensor) and image.dtype == mindspore.float32
    assert label.dtype == mindspore.int32
    raw = next(test_dataset.create_tuple_iterator(output_numpy=True))
    assert isinstance(raw[0], np.ndarray)
