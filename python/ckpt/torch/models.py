"""Small PyTorch models for the frontend's demos and tests.

GPT: token and position embeddings, pre-norm blocks (causal self-attention
with a registered mask buffer, GELU MLP, residuals), final layer norm,
linear head; loss: cross-entropy over next tokens.
Decoder: PyTorch's own layers, as a user would write a causal language
model without a library: an embedding, nn.TransformerEncoderLayer blocks
(fused q/k/v projection, GELU) under a causal mask, a final LayerNorm and a
head; loss: cross-entropy.
ResNet: a 3x3 stem, residual blocks of two 3x3 convolutions with batch
normalization (batch statistics) and ReLU, a strided 1x1 downsampling
shortcut, global average pooling, a linear classifier; loss: cross-entropy.
Sizes are chosen so that activations, not parameters, dominate the peak,
which is what checkpointing is for.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalSelfAttention(nn.Module):
    def __init__(self, dim, heads, seq):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.register_buffer("mask", torch.ones(seq, seq, dtype=torch.bool).tril())

    def forward(self, x):
        batch, seq, dim = x.shape
        q, k, v = self.qkv(x).split(dim, dim=-1)
        shape = (batch, seq, self.heads, dim // self.heads)
        q, k, v = (t.view(shape).transpose(1, 2) for t in (q, k, v))
        scores = (q @ k.transpose(-2, -1)) / math.sqrt(dim // self.heads)
        scores = scores.masked_fill(~self.mask[:seq, :seq], float("-inf"))
        y = scores.softmax(-1) @ v
        return self.proj(y.transpose(1, 2).reshape(batch, seq, dim))


class Block(nn.Module):
    def __init__(self, dim, heads, seq):
        super().__init__()
        self.ln1 = nn.LayerNorm(dim)
        self.attention = CausalSelfAttention(dim, heads, seq)
        self.ln2 = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, 4 * dim)
        self.fc2 = nn.Linear(4 * dim, dim)

    def forward(self, x):
        x = x + self.attention(self.ln1(x))
        return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))


class GPT(nn.Module):
    def __init__(self, vocab=32, seq=32, dim=32, heads=2, layers=4):
        super().__init__()
        self.vocab = vocab
        self.tokens = nn.Embedding(vocab, dim)
        self.positions = nn.Parameter(torch.randn(seq, dim) * 0.02)
        self.blocks = nn.ModuleList(Block(dim, heads, seq) for _ in range(layers))
        self.ln = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab)

    def forward(self, tokens):
        x = self.tokens(tokens) + self.positions[:tokens.shape[1]]
        for block in self.blocks:
            x = block(x)
        return self.head(self.ln(x))


def gpt_loss(logits, targets):
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))


class Decoder(nn.Module):
    def __init__(self, vocab=1024, dim=128, heads=4, layers=2):
        super().__init__()
        self.vocab = vocab
        self.embed = nn.Embedding(vocab, dim)
        self.layers = nn.ModuleList(
            nn.TransformerEncoderLayer(dim, heads, 2 * dim, dropout=0.0, activation="gelu",
                                       batch_first=True) for _ in range(layers))
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab)

    def forward(self, tokens):
        x = self.embed(tokens)
        mask = nn.Transformer.generate_square_subsequent_mask(tokens.shape[1])
        for layer in self.layers:
            x = layer(x, src_mask=mask, is_causal=True)
        return self.head(self.norm(x))


class ResidualBlock(nn.Module):
    def __init__(self, channels_in, channels, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(channels_in, channels, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(channels, track_running_stats=False)
        self.conv2 = nn.Conv2d(channels, channels, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels, track_running_stats=False)
        self.shortcut = None
        if stride != 1 or channels_in != channels:
            self.shortcut = nn.Conv2d(channels_in, channels, 1, stride, bias=False)

    def forward(self, x):
        y = F.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return F.relu(y + (x if self.shortcut is None else self.shortcut(x)))


class ResNet(nn.Module):
    def __init__(self, classes=16, channels=8, blocks=4):
        super().__init__()
        self.stem = nn.Conv2d(3, channels, 3, 1, 1)
        layers = [ResidualBlock(channels, channels, 1) for _ in range(blocks)]
        layers.append(ResidualBlock(channels, 2 * channels, 2))
        self.layers = nn.Sequential(*layers)
        self.fc = nn.Linear(2 * channels, classes)

    def forward(self, x):
        x = self.layers(F.relu(self.stem(x)))
        return self.fc(x.mean(dim=(2, 3)))


def gpt_example(batch=8, seed=0, **sizes):
    """A GPT, its example tokens and targets, and its loss."""
    torch.manual_seed(seed)
    model = GPT(**sizes)
    seq = model.positions.shape[0]
    tokens = torch.randint(0, model.vocab, (batch, seq))
    targets = torch.randint(0, model.vocab, (batch, seq))
    return model, (tokens,), (targets,), gpt_loss


def decoder_example(batch=8, seq=64, seed=0, **sizes):
    """A causal nn.TransformerEncoderLayer decoder, its tokens and targets,
    and its loss."""
    torch.manual_seed(seed)
    model = Decoder(**sizes)
    tokens = torch.randint(0, model.vocab, (batch, seq))
    targets = torch.randint(0, model.vocab, (batch, seq))
    return model, (tokens,), (targets,), gpt_loss


def resnet_example(batch=8, size=16, seed=0, **sizes):
    """A ResNet, its example images and labels, and its loss."""
    torch.manual_seed(seed)
    model = ResNet(**sizes)
    images = torch.randn(batch, 3, size, size)
    labels = torch.randint(0, model.fc.out_features, (batch,))
    return model, (images,), (labels,), F.cross_entropy


EXAMPLES = {"gpt": gpt_example, "decoder": decoder_example, "resnet": resnet_example}
