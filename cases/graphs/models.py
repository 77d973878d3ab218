"""Transformer models written in this repository, for the graphs in cases/graphs/.

GPT-2-like (token and position embeddings, pre-norm blocks of attention --
qkv linear, split, matmul, softmax, matmul, projection -- and a GELU MLP, a
final norm and a language-model head tied to the token embedding) and
BERT-like (embeddings with token types, post-norm encoder blocks, a pooler).
Weights are random (or absent, on the `meta` device): nothing is downloaded,
and the graph costs depend on shapes only.

Written for torch.fx on torch 1.13 under Python 3.11: results of split are
indexed, never unpacked (fx cannot unpack a proxy there).
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

GPT2_CONFIGS = {
    "small": dict(n_layer=12, n_embd=768, n_head=12),
    "medium": dict(n_layer=24, n_embd=1024, n_head=16),
    "large": dict(n_layer=36, n_embd=1280, n_head=20),
}
BERT_CONFIGS = {
    "base": dict(n_layer=12, n_embd=768, n_head=12),
}
VOCAB = 50257
BERT_VOCAB = 30522
MAX_POSITIONS = 1024


class SelfAttention(nn.Module):
    def __init__(self, n_embd, n_head, causal, seq, device):
        super().__init__()
        self.n_head = n_head
        self.head_dim = n_embd // n_head
        self.causal = causal
        if causal:  # a buffer, not a parameter: it is not counted as parameter bytes
            mask = torch.triu(torch.full((seq, seq), -1e4), diagonal=1)
            self.register_buffer("mask", mask.to(device), persistent=False)
        self.c_attn = nn.Linear(n_embd, 3 * n_embd, device=device)
        self.c_proj = nn.Linear(n_embd, n_embd, device=device)

    def forward(self, x, batch: int, seq: int):
        qkv = self.c_attn(x).split(self.n_head * self.head_dim, dim=2)
        shape = (batch, seq, self.n_head, self.head_dim)
        q = qkv[0].view(shape).transpose(1, 2)
        k = qkv[1].view(shape).transpose(1, 2)
        v = qkv[2].view(shape).transpose(1, 2)
        scores = torch.matmul(q, k.transpose(-2, -1)) * (1.0 / math.sqrt(self.head_dim))
        if self.causal:
            scores = scores + self.mask
        weights = torch.softmax(scores, dim=-1)
        out = torch.matmul(weights, v).transpose(1, 2).reshape(batch, seq, self.n_head * self.head_dim)
        return self.c_proj(out)


class Mlp(nn.Module):
    def __init__(self, n_embd, device):
        super().__init__()
        self.c_fc = nn.Linear(n_embd, 4 * n_embd, device=device)
        self.c_proj = nn.Linear(4 * n_embd, n_embd, device=device)

    def forward(self, x):
        return self.c_proj(F.gelu(self.c_fc(x)))


class GptBlock(nn.Module):
    def __init__(self, n_embd, n_head, seq, device):
        super().__init__()
        self.ln_1 = nn.LayerNorm(n_embd, device=device)
        self.attn = SelfAttention(n_embd, n_head, True, seq, device)
        self.ln_2 = nn.LayerNorm(n_embd, device=device)
        self.mlp = Mlp(n_embd, device)

    def forward(self, x, batch: int, seq: int):
        x = x + self.attn(self.ln_1(x), batch, seq)
        return x + self.mlp(self.ln_2(x))


class Gpt2(nn.Module):
    def __init__(self, n_layer, n_embd, n_head, batch, seq, device="cpu"):
        super().__init__()
        self.batch, self.seq = batch, seq
        self.wte = nn.Embedding(VOCAB, n_embd, device=device)
        self.wpe = nn.Embedding(MAX_POSITIONS, n_embd, device=device)
        self.h = nn.ModuleList([GptBlock(n_embd, n_head, seq, device) for _ in range(n_layer)])
        self.ln_f = nn.LayerNorm(n_embd, device=device)

    def forward(self, tokens, positions):
        x = self.wte(tokens) + self.wpe(positions)
        for block in self.h:
            x = block(x, self.batch, self.seq)
        return F.linear(self.ln_f(x), self.wte.weight)  # the head shares the token embedding


class BertBlock(nn.Module):
    def __init__(self, n_embd, n_head, seq, device):
        super().__init__()
        self.attn = SelfAttention(n_embd, n_head, False, seq, device)
        self.ln_1 = nn.LayerNorm(n_embd, device=device)
        self.mlp = Mlp(n_embd, device)
        self.ln_2 = nn.LayerNorm(n_embd, device=device)

    def forward(self, x, batch: int, seq: int):
        x = self.ln_1(x + self.attn(x, batch, seq))
        return self.ln_2(x + self.mlp(x))


class Bert(nn.Module):
    def __init__(self, n_layer, n_embd, n_head, batch, seq, device="cpu"):
        super().__init__()
        self.batch, self.seq = batch, seq
        self.word = nn.Embedding(BERT_VOCAB, n_embd, device=device)
        self.position = nn.Embedding(512, n_embd, device=device)
        self.token_type = nn.Embedding(2, n_embd, device=device)
        self.ln = nn.LayerNorm(n_embd, device=device)
        self.layers = nn.ModuleList([BertBlock(n_embd, n_head, seq, device) for _ in range(n_layer)])
        self.pooler = nn.Linear(n_embd, n_embd, device=device)

    def forward(self, tokens, positions, token_types):
        x = self.ln(self.word(tokens) + self.position(positions) + self.token_type(token_types))
        for layer in self.layers:
            x = layer(x, self.batch, self.seq)
        return torch.tanh(self.pooler(x[:, 0]))


def gpt2(size, batch=1, seq=512, device="meta"):
    """(module, example_inputs) of a GPT-2-like model of the given size."""
    model = Gpt2(batch=batch, seq=seq, device=device, **GPT2_CONFIGS[size])
    tokens = torch.zeros(batch, seq, dtype=torch.long, device=device)
    positions = torch.arange(seq, device="cpu").unsqueeze(0).expand(batch, seq).to(device)
    return model, (tokens, positions)


def bert(size="base", batch=1, seq=512, device="meta"):
    """(module, example_inputs) of a BERT-like model."""
    model = Bert(batch=batch, seq=seq, device=device, **BERT_CONFIGS[size])
    tokens = torch.zeros(batch, seq, dtype=torch.long, device=device)
    positions = torch.arange(seq, device="cpu").unsqueeze(0).expand(batch, seq).to(device)
    types = torch.zeros(batch, seq, dtype=torch.long, device=device)
    return model, (tokens, positions, types)


VIT_CONFIGS = {
    "small": dict(n_layer=12, n_embd=384, n_head=6, image=224, patch=16, classes=1000),
}


class VitBlock(nn.Module):
    """Pre-norm encoder block with the library's nn.MultiheadAttention, the
    way most vision code writes it (tessel_fx costs it by formula)."""

    def __init__(self, n_embd, n_head, device):
        super().__init__()
        self.ln_1 = nn.LayerNorm(n_embd, device=device)
        self.attn = nn.MultiheadAttention(n_embd, n_head, batch_first=True, device=device)
        self.ln_2 = nn.LayerNorm(n_embd, device=device)
        self.mlp = Mlp(n_embd, device)

    def forward(self, x):
        h = self.ln_1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.mlp(self.ln_2(x))


class Vit(nn.Module):
    """A small vision transformer: conv patch embedding, class token,
    position embedding, encoder blocks, a classification head."""

    def __init__(self, n_layer, n_embd, n_head, image, patch, classes, batch, device):
        super().__init__()
        self.batch, self.n_embd = batch, n_embd
        self.patches = nn.Conv2d(3, n_embd, patch, stride=patch, device=device)
        tokens = (image // patch) ** 2 + 1
        self.cls = nn.Parameter(torch.zeros(1, 1, n_embd, device=device))
        self.pos = nn.Parameter(torch.zeros(1, tokens, n_embd, device=device))
        self.blocks = nn.ModuleList([VitBlock(n_embd, n_head, device) for _ in range(n_layer)])
        self.ln_f = nn.LayerNorm(n_embd, device=device)
        self.head = nn.Linear(n_embd, classes, device=device)

    def forward(self, images):
        x = self.patches(images).flatten(2).transpose(1, 2)
        x = torch.cat([self.cls.expand(self.batch, 1, self.n_embd), x], dim=1) + self.pos
        for block in self.blocks:
            x = block(x)
        return self.head(self.ln_f(x)[:, 0])


def vit(size="small", batch=8, device="meta"):
    """(module, example_inputs) of a small ViT on `batch` 224x224 images."""
    config = VIT_CONFIGS[size]
    model = Vit(batch=batch, device=device, **config)
    images = torch.zeros(batch, 3, config["image"], config["image"], device=device)
    return model, (images,)


class EncoderDecoderLayer(nn.Module):
    """A decoder layer of a translation model: self-attention, attention to
    the encoder's output, an MLP; nn.MultiheadAttention called the usual
    way, its pair unpacked (`a, _ = attn(...)`)."""

    def __init__(self, n_embd, n_head, device):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(n_embd, n_head, batch_first=True, device=device)
        self.cross_attn = nn.MultiheadAttention(n_embd, n_head, batch_first=True, device=device)
        self.ln_1 = nn.LayerNorm(n_embd, device=device)
        self.ln_2 = nn.LayerNorm(n_embd, device=device)
        self.ln_3 = nn.LayerNorm(n_embd, device=device)
        self.mlp = Mlp(n_embd, device)

    def forward(self, x, memory):
        h = self.ln_1(x)
        a, _ = self.self_attn(h, h, h, need_weights=False)
        x = x + a
        h = self.ln_2(x)
        c, _ = self.cross_attn(h, memory, memory, need_weights=False)
        x = x + c
        return x + self.mlp(self.ln_3(x))


class EncoderLayer(nn.Module):
    def __init__(self, n_embd, n_head, device):
        super().__init__()
        self.attn = nn.MultiheadAttention(n_embd, n_head, batch_first=True, device=device)
        self.ln_1 = nn.LayerNorm(n_embd, device=device)
        self.ln_2 = nn.LayerNorm(n_embd, device=device)
        self.mlp = Mlp(n_embd, device)

    def forward(self, x):
        h = self.ln_1(x)
        a, _ = self.attn(h, h, h, need_weights=False)
        x = x + a
        return x + self.mlp(self.ln_2(x))


class EncoderDecoder(nn.Module):
    """A small translation transformer: source and target embeddings, an
    encoder whose output every decoder layer reads (a branch in the graph),
    a head."""

    def __init__(self, n_layer, n_embd, n_head, vocab, device):
        super().__init__()
        self.src_embed = nn.Embedding(vocab, n_embd, device=device)
        self.tgt_embed = nn.Embedding(vocab, n_embd, device=device)
        self.encoder = nn.ModuleList([EncoderLayer(n_embd, n_head, device) for _ in range(n_layer)])
        self.decoder = nn.ModuleList([EncoderDecoderLayer(n_embd, n_head, device) for _ in range(n_layer)])
        self.ln_f = nn.LayerNorm(n_embd, device=device)
        self.head = nn.Linear(n_embd, vocab, device=device)

    def forward(self, src, tgt):
        memory = self.src_embed(src)
        for layer in self.encoder:
            memory = layer(memory)
        x = self.tgt_embed(tgt)
        for layer in self.decoder:
            x = layer(x, memory)
        return self.head(self.ln_f(x))


def encoder_decoder(n_layer=2, n_embd=32, n_head=4, vocab=100, batch=2, seq=16, device="cpu"):
    """(module, example_inputs) of a small encoder-decoder (test sizes by default)."""
    model = EncoderDecoder(n_layer, n_embd, n_head, vocab, device)
    src = torch.zeros(batch, seq, dtype=torch.long, device=device)
    tgt = torch.zeros(batch, seq, dtype=torch.long, device=device)
    return model, (src, tgt)


def tiny_gpt(n_layer=4, n_embd=32, n_head=4, batch=2, seq=16, device="cpu"):
    """(module, example_inputs) of a GPT-2-like model of test size (the full
    vocabulary keeps the head as heavy as in the real one)."""
    model = Gpt2(n_layer, n_embd, n_head, batch, seq, device=device)
    tokens = torch.zeros(batch, seq, dtype=torch.long, device=device)
    positions = torch.arange(seq, device="cpu").unsqueeze(0).expand(batch, seq).to(device)
    return model, (tokens, positions)
