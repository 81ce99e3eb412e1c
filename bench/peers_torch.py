"""The PyTorch eager contender of ``peers.py`` (see ``peers_worker.py`` for the interface)."""
from __future__ import annotations

import numpy as np
import torch
from torch import nn

from peers_workloads import (D_MODEL, FFN, HEADS, LR, LSTM_HIDDEN, LSTM_INPUT, MOMENTUM,
                             resnet_blocks)


def start(threads: int = 2) -> str:
    torch.set_num_threads(threads)
    return torch.__version__


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2, self.fc3 = nn.Linear(784, 512), nn.Linear(512, 512), nn.Linear(512, 10)

    def forward(self, x):
        return self.fc3(torch.relu(self.fc2(torch.relu(self.fc1(x)))))


class LeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1, self.conv2 = nn.Conv2d(1, 6, 5, padding=2), nn.Conv2d(6, 16, 5)
        self.fc1, self.fc2, self.fc3 = nn.Linear(400, 120), nn.Linear(120, 84), nn.Linear(84, 10)
        self.pool = nn.MaxPool2d(2)

    def forward(self, x):
        x = self.pool(torch.relu(self.conv1(x)))
        x = self.pool(torch.relu(self.conv2(x))).flatten(1)
        return self.fc3(torch.relu(self.fc2(torch.relu(self.fc1(x)))))


class LSTMNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(LSTM_INPUT, LSTM_HIDDEN, num_layers=2, batch_first=True)
        self.fc = nn.Linear(LSTM_HIDDEN, 10)

    def forward(self, x):
        out, _ = self.lstm(x)
        return self.fc(out[:, -1])


class Block(nn.Module):
    def __init__(self, c_in, c_out, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(c_in, c_out, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(c_out)
        self.conv2 = nn.Conv2d(c_out, c_out, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(c_out)
        self.downsample = None
        if stride != 1 or c_in != c_out:
            self.downsample = nn.Sequential(nn.Conv2d(c_in, c_out, 1, stride, bias=False),
                                            nn.BatchNorm2d(c_out))

    def forward(self, x):
        out = torch.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return torch.relu(out + (x if self.downsample is None else self.downsample(x)))


class ResNet20(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, 1, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(16)
        for stage in (1, 2, 3):
            blocks = [Block(c_in, c_out, s) for p, c_in, c_out, s in resnet_blocks()
                      if p.startswith(f"layer{stage}.")]
            setattr(self, f"layer{stage}", nn.Sequential(*blocks))
        self.fc = nn.Linear(64, 10)

    def forward(self, x):
        x = torch.relu(self.bn1(self.conv1(x)))
        x = self.layer3(self.layer2(self.layer1(x)))
        return self.fc(x.mean((2, 3)))


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.TransformerEncoderLayer(D_MODEL, HEADS, FFN, dropout=0.0,
                                                  batch_first=True)

    def forward(self, x):
        return self.encoder(x)


MODELS = {"mlp": MLP, "lenet": LeNet, "lstm": LSTMNet, "resnet20": ResNet20,
          "transformer": Encoder}


def load(net: nn.Module, weights: dict) -> None:
    params = dict(net.named_parameters())
    assert params.keys() == weights.keys(), sorted(params.keys() ^ weights.keys())
    with torch.no_grad():
        for name, value in weights.items():
            params[name].copy_(torch.from_numpy(value))


def build(workload, weights, data):
    if workload.loss == "chain":
        return chain(data["x"])
    net = MODELS[workload.key]()
    load(net, weights)
    net.train()
    opt = torch.optim.SGD(net.parameters(), lr=LR, momentum=MOMENTUM)
    x = torch.from_numpy(data["x"])
    if workload.loss == "ce":
        y, loss_fn = torch.from_numpy(data["y"].astype(np.int64)), nn.CrossEntropyLoss()
    else:
        y, loss_fn = torch.from_numpy(data["y"]), nn.MSELoss()

    def step():
        opt.zero_grad()
        loss = loss_fn(net(x), y)
        loss.backward()
        opt.step()
        return loss.item()
    return step, None


def chain(x_np):
    x = torch.from_numpy(x_np).requires_grad_()
    last = {}

    def step():
        y = x * 1.5
        y = y + 0.5
        y = torch.tanh(y)
        y = y * x
        y = torch.exp(y)
        y = y - x
        y = torch.sigmoid(y)
        y = y * y
        y = y + x
        y = y.sum()
        (last["grad"],) = torch.autograd.grad(y, x)
        return y.item()
    return step, lambda: {"grad sum": float(last["grad"].sum())}
