"""The model zoo: torch.nn definitions and example inputs for every zoo model.

Each entry builds a model with seeded random weights (no downloads) and a seeded example
input. export_zoo.py exports them to ONNX; this module only knows how to build them.
"""

import math
from dataclasses import dataclass, field
from typing import Callable, Dict, List

import numpy as np
import torch
from torch import nn


@dataclass
class ZooInput:
    name: str
    shape: tuple
    dtype: str = "float32"  # numpy dtype name
    high: int = 0  # for integer inputs: values are drawn from [0, high)


@dataclass
class ZooModel:
    name: str
    build: Callable[[], nn.Module]
    inputs: List[ZooInput]
    output_names: List[str]
    opset: int = 13
    small: bool = False  # cheap enough for the reference interpreter in the default test run
    description: str = ""
    extra: Dict[str, object] = field(default_factory=dict)

    def example_inputs(self, seed: int) -> Dict[str, np.ndarray]:
        rng = np.random.default_rng(seed)
        arrays = {}
        for spec in self.inputs:
            if spec.dtype.startswith("int"):
                arrays[spec.name] = rng.integers(0, spec.high, size=spec.shape, dtype=spec.dtype)
            else:
                arrays[spec.name] = rng.standard_normal(spec.shape).astype(spec.dtype)
        return arrays


def _randomize_zero_weights(model: nn.Module) -> nn.Module:
    """Gives zero-initialized linear layers random weights. torchvision zero-initializes some
    (vit_b_16's classification head), which makes the model's output zero whatever its input:
    every check against that output would pass whatever a placement computed before it."""
    for module in model.modules():
        if isinstance(module, nn.Linear) and not module.weight.detach().any():
            nn.init.normal_(module.weight, std=0.02)
    return model


def _torchvision(name: str, **kwargs) -> Callable[[], nn.Module]:
    def build() -> nn.Module:
        import torchvision

        return _randomize_zero_weights(getattr(torchvision.models, name)(weights=None, **kwargs))

    return build


class MnistCnn(nn.Module):
    """The classic PyTorch MNIST example network."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 32, 3, 1)
        self.conv2 = nn.Conv2d(32, 64, 3, 1)
        self.dropout1 = nn.Dropout(0.25)
        self.dropout2 = nn.Dropout(0.5)
        self.fc1 = nn.Linear(9216, 128)
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x):
        x = torch.relu(self.conv1(x))
        x = torch.relu(self.conv2(x))
        x = torch.max_pool2d(x, 2)
        x = self.dropout1(x)
        x = torch.flatten(x, 1)
        x = torch.relu(self.fc1(x))
        x = self.dropout2(x)
        x = self.fc2(x)
        return torch.log_softmax(x, dim=1)


class DcganGenerator(nn.Module):
    """The DCGAN generator: a 100-d latent vector to a 3x64x64 image via transposed convolutions."""

    def __init__(self, latent=100, features=64, channels=3):
        super().__init__()
        f = features
        self.main = nn.Sequential(
            nn.ConvTranspose2d(latent, f * 8, 4, 1, 0, bias=False), nn.BatchNorm2d(f * 8), nn.ReLU(True),
            nn.ConvTranspose2d(f * 8, f * 4, 4, 2, 1, bias=False), nn.BatchNorm2d(f * 4), nn.ReLU(True),
            nn.ConvTranspose2d(f * 4, f * 2, 4, 2, 1, bias=False), nn.BatchNorm2d(f * 2), nn.ReLU(True),
            nn.ConvTranspose2d(f * 2, f, 4, 2, 1, bias=False), nn.BatchNorm2d(f), nn.ReLU(True),
            nn.ConvTranspose2d(f, channels, 4, 2, 1, bias=False), nn.Tanh())
        for module in self.main:
            if isinstance(module, nn.BatchNorm2d):
                # Non-trivial running statistics, so that the import of batch_norm is checked.
                module.running_mean.uniform_(-0.2, 0.2)
                module.running_var.uniform_(0.5, 1.5)
                module.weight.data.uniform_(0.5, 1.5)
                module.bias.data.uniform_(-0.2, 0.2)

    def forward(self, z):
        return self.main(z)


class SelfAttention(nn.Module):
    """Multi-head self-attention with the head split done by view/transpose on x.shape,
    so the export contains torch's Shape/Gather/Unsqueeze/Concat/Reshape chains."""

    def __init__(self, hidden, heads, causal):
        super().__init__()
        self.heads = heads
        self.causal = causal
        self.query = nn.Linear(hidden, hidden)
        self.key = nn.Linear(hidden, hidden)
        self.value = nn.Linear(hidden, hidden)
        self.out = nn.Linear(hidden, hidden)

    def split_heads(self, x):
        batch, length, hidden = x.size()
        return x.view(batch, length, self.heads, hidden // self.heads).transpose(1, 2)

    def forward(self, x):
        batch, length, hidden = x.size()
        q = self.split_heads(self.query(x))
        k = self.split_heads(self.key(x))
        v = self.split_heads(self.value(x))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(hidden // self.heads)
        if self.causal:
            positions = torch.arange(length, device=x.device)
            future = positions.unsqueeze(0) > positions.unsqueeze(1)
            scores = scores.masked_fill(future, float("-inf"))
        probabilities = torch.softmax(scores, dim=-1)
        context = torch.matmul(probabilities, v).transpose(1, 2).contiguous().view(batch, length, hidden)
        return self.out(context)


class TransformerBlock(nn.Module):
    def __init__(self, hidden, heads, causal, pre_norm, approximate_gelu):
        super().__init__()
        self.pre_norm = pre_norm
        self.attention = SelfAttention(hidden, heads, causal)
        self.norm1 = nn.LayerNorm(hidden, eps=1e-5)
        self.norm2 = nn.LayerNorm(hidden, eps=1e-5)
        self.feed_forward = nn.Sequential(
            nn.Linear(hidden, 4 * hidden), nn.GELU(approximate="tanh" if approximate_gelu else "none"),
            nn.Linear(4 * hidden, hidden))

    def forward(self, x):
        if self.pre_norm:
            x = x + self.attention(self.norm1(x))
            return x + self.feed_forward(self.norm2(x))
        x = self.norm1(x + self.attention(x))
        return self.norm2(x + self.feed_forward(x))


class BertEncoder(nn.Module):
    """A BERT-base-like encoder: token + position embeddings, 12 post-norm blocks, pooler."""

    def __init__(self, vocab=8192, hidden=768, layers=12, heads=12, max_length=512):
        super().__init__()
        self.token_embedding = nn.Embedding(vocab, hidden)
        self.position_embedding = nn.Embedding(max_length, hidden)
        self.embedding_norm = nn.LayerNorm(hidden)
        self.blocks = nn.ModuleList(
            [TransformerBlock(hidden, heads, causal=False, pre_norm=False, approximate_gelu=False)
             for _ in range(layers)])
        self.pooler = nn.Linear(hidden, hidden)

    def forward(self, input_ids):
        positions = torch.arange(input_ids.size(1), device=input_ids.device).unsqueeze(0)
        x = self.embedding_norm(self.token_embedding(input_ids) + self.position_embedding(positions))
        for block in self.blocks:
            x = block(x)
        return torch.tanh(self.pooler(x[:, 0]))


class Gpt2Decoder(nn.Module):
    """A GPT-2-small-like causal decoder: pre-norm blocks, tanh GELU, tied LM head."""

    def __init__(self, vocab=8192, hidden=768, layers=12, heads=12, max_length=1024):
        super().__init__()
        self.token_embedding = nn.Embedding(vocab, hidden)
        self.position_embedding = nn.Embedding(max_length, hidden)
        self.blocks = nn.ModuleList(
            [TransformerBlock(hidden, heads, causal=True, pre_norm=True, approximate_gelu=True)
             for _ in range(layers)])
        self.final_norm = nn.LayerNorm(hidden)

    def forward(self, input_ids):
        positions = torch.arange(input_ids.size(1), device=input_ids.device).unsqueeze(0)
        x = self.token_embedding(input_ids) + self.position_embedding(positions)
        for block in self.blocks:
            x = block(x)
        return torch.matmul(self.final_norm(x), self.token_embedding.weight.t())


def _image(size=224, channels=3) -> List[ZooInput]:
    return [ZooInput("input", (1, channels, size, size))]


ZOO: List[ZooModel] = [
    ZooModel("mnist_cnn", MnistCnn, [ZooInput("input", (1, 1, 28, 28))], ["output"], small=True,
             description="PyTorch's MNIST example CNN"),
    ZooModel("dcgan_generator", DcganGenerator, [ZooInput("input", (1, 100, 1, 1))], ["output"], small=True,
             description="DCGAN generator (transposed convolutions)"),
    ZooModel("squeezenet1_1", _torchvision("squeezenet1_1"), _image(), ["output"], small=True),
    ZooModel("mobilenet_v2", _torchvision("mobilenet_v2"), _image(), ["output"], small=True),
    ZooModel("resnet18", _torchvision("resnet18"), _image(), ["output"], small=True),
    ZooModel("resnet50", _torchvision("resnet50"), _image(), ["output"]),
    ZooModel("resnext50_32x4d", _torchvision("resnext50_32x4d"), _image(), ["output"]),
    ZooModel("efficientnet_b0", _torchvision("efficientnet_b0"), _image(), ["output"]),
    ZooModel("densenet121", _torchvision("densenet121"), _image(), ["output"]),
    ZooModel("inception_v3", _torchvision("inception_v3", aux_logits=True, init_weights=True), _image(299),
             ["output"]),
    ZooModel("vit_b_16", _torchvision("vit_b_16"), _image(), ["output"], opset=14),
    ZooModel("bert_encoder", BertEncoder, [ZooInput("input_ids", (1, 128), "int64", high=8192)], ["output"],
             opset=17, description="BERT-base-like encoder, 12 layers, hidden 768, 12 heads, sequence 128"),
    ZooModel("gpt2_decoder", Gpt2Decoder, [ZooInput("input_ids", (1, 64), "int64", high=8192)], ["logits"],
             opset=13, description="GPT-2-small-like causal decoder, 12 layers, hidden 768, sequence 64"),
]

ZOO_BY_NAME: Dict[str, ZooModel] = {model.name: model for model in ZOO}
