#!/usr/bin/python3
"""Exports small torch modules to ONNX, as the decomposed-form tests match them.

    /usr/bin/python3 tests/pass/export_torch_blocks.py OUT_DIR

For every block NAME: NAME.onnx (torch.onnx.export at the block's opset), NAME.inputs.npz
(keyed by graph input name) and NAME.outputs.npz (torch's outputs, keyed by graph output
name). manifest.txt lists the names. Needs torch, torchvision, onnx and numpy.
"""

import os
import sys

import numpy as np
import torch
import torchvision
from torch import nn

SEED = 27


class HandWrittenAttention(nn.Module):
    """Two-head self-attention written out as GPT-style code does, with an additive mask."""

    def __init__(self, channels=16, heads=2):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(channels, 3 * channels)

    def forward(self, x, mask):
        batch, tokens, channels = x.shape
        head_channels = channels // self.heads
        query, key, value = self.qkv(x).split(channels, dim=2)

        def split_heads(t):
            return t.view(batch, tokens, self.heads, head_channels).transpose(1, 2)

        query, key, value = split_heads(query), split_heads(key), split_heads(value)
        scores = (query @ key.transpose(-2, -1)) * (1.0 / head_channels ** 0.5) + mask
        weights = scores.softmax(-1)
        return (weights @ value).transpose(1, 2).reshape(batch, tokens, channels)


class SelfAttention(nn.Module):
    """nn.MultiheadAttention used as self-attention, without the averaged weights output."""

    def __init__(self, channels=16, heads=2):
        super().__init__()
        self.attention = nn.MultiheadAttention(channels, heads, batch_first=True)

    def forward(self, x):
        return self.attention(x, x, x, need_weights=False)[0]


class RmsNorm(nn.Module):
    """RMS normalization as LLaMA-style code writes it (torch 1.13 has no nn.RMSNorm)."""

    def __init__(self, channels=16, epsilon=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.rand(channels) + 0.5)
        self.epsilon = epsilon

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.epsilon) * self.weight


class ScaledMaskedSoftmax(nn.Module):
    def forward(self, scores, mask):
        return torch.softmax(scores / 4.0 + mask, dim=-1)


class BiasResidualLayerNorm(nn.Module):
    def __init__(self, channels=16):
        super().__init__()
        self.dense = nn.Linear(channels, channels)
        self.norm = nn.LayerNorm(channels)

    def forward(self, x):
        return self.norm(x + self.dense(x))


def randn(*shape):
    return torch.randn(*shape)


def causal_mask(tokens):
    return torch.triu(torch.full((tokens, tokens), -1e4), diagonal=1)


def affine_layer_norm():
    norm = nn.LayerNorm(16)
    with torch.no_grad():
        norm.weight.uniform_(0.5, 1.5)
        norm.bias.uniform_(-0.5, 0.5)
    return norm


# name -> (module, example inputs, opset)
def blocks():
    return {
        "layer_norm": (affine_layer_norm(), (randn(2, 5, 16),), 13),
        "layer_norm_no_affine": (nn.LayerNorm(16, elementwise_affine=False), (randn(2, 5, 16),), 13),
        "rms_norm": (RmsNorm(), (randn(2, 5, 16),), 13),
        "gelu_erf": (nn.GELU(), (randn(4, 16),), 13),
        "gelu_tanh": (nn.GELU("tanh"), (randn(4, 16),), 13),
        "silu": (nn.SiLU(), (randn(4, 16),), 13),
        "hard_sigmoid": (nn.Hardsigmoid(), (4 * randn(4, 16),), 13),
        "hard_swish": (nn.Hardswish(), (4 * randn(4, 16),), 13),
        "scaled_masked_softmax": (ScaledMaskedSoftmax(), (randn(2, 6, 6), causal_mask(6)), 13),
        "attention": (HandWrittenAttention(), (randn(1, 6, 16), causal_mask(6)), 13),
        "multihead_attention": (SelfAttention(), (randn(1, 6, 16),), 13),
        "bias_residual_layer_norm": (BiasResidualLayerNorm(), (randn(2, 5, 16),), 13),
        "squeeze_excitation": (torchvision.ops.SqueezeExcitation(16, 4), (randn(1, 16, 5, 5),), 13),
        "squeeze_excitation_silu": (torchvision.ops.SqueezeExcitation(16, 4, activation=nn.SiLU),
                                    (randn(1, 16, 5, 5),), 13),
    }


def export(out_dir, name, module, inputs, opset):
    module.eval()
    input_names = [f"input{i}" for i in range(len(inputs))]
    with torch.no_grad():
        outputs = module(*inputs)
    if isinstance(outputs, torch.Tensor):
        outputs = (outputs,)
    output_names = [f"output{i}" for i in range(len(outputs))]
    torch.onnx.export(module, inputs, os.path.join(out_dir, name + ".onnx"), opset_version=opset,
                      input_names=input_names, output_names=output_names, do_constant_folding=True)
    np.savez(os.path.join(out_dir, name + ".inputs.npz"),
             **{key: value.numpy() for key, value in zip(input_names, inputs)})
    np.savez(os.path.join(out_dir, name + ".outputs.npz"),
             **{key: value.numpy() for key, value in zip(output_names, outputs)})


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    torch.manual_seed(SEED)
    names = []
    for name, (module, inputs, opset) in blocks().items():
        export(out_dir, name, module, inputs, opset)
        names.append(name)
    with open(os.path.join(out_dir, "manifest.txt"), "w") as manifest:
        manifest.write("\n".join(names) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
