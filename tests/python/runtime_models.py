"""Tiny models for the runtime tests (tests/python/test_runtime.py): a GPT
(token and position embeddings, causal self-attention, a GELU MLP, a head
tied to the token embedding) and an encoder-decoder (the decoder's
cross-attention reads the encoder's output, a value that passes through
stages). Widths are tiny and the parameters float64, so a run of 4 ranks
takes seconds and the gradients compare at float64 precision. Sizes come
from the tensors' shapes, so the batch can be cut into micro-batches."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

WIDTH, HEADS, VOCAB, SEQ, BATCH = 8, 2, 16, 5, 8


class Attention(nn.Module):
    def __init__(self, causal):
        super().__init__()
        self.causal = causal
        self.register_buffer("mask", torch.triu(torch.full((SEQ, SEQ), -1e4), diagonal=1), persistent=False)
        self.q = nn.Linear(WIDTH, WIDTH)
        self.kv = nn.Linear(WIDTH, 2 * WIDTH)
        self.proj = nn.Linear(WIDTH, WIDTH)

    def forward(self, x, memory):
        batch, target, source = x.shape[0], x.shape[1], memory.shape[1]
        head = WIDTH // HEADS
        q = self.q(x).reshape(batch, target, HEADS, head).transpose(1, 2)
        kv = self.kv(memory)
        k = kv[:, :, :WIDTH].reshape(batch, source, HEADS, head).transpose(1, 2)
        v = kv[:, :, WIDTH:].reshape(batch, source, HEADS, head).transpose(1, 2)
        scores = torch.matmul(q, k.transpose(-2, -1)) * (1.0 / math.sqrt(head))
        if self.causal:
            scores = scores + self.mask  # self-attention over SEQ positions
        out = torch.matmul(torch.softmax(scores, dim=-1), v).transpose(1, 2).reshape(batch, target, WIDTH)
        return self.proj(out)


class Block(nn.Module):
    def __init__(self, causal, cross):
        super().__init__()
        self.ln_1 = nn.LayerNorm(WIDTH)
        self.attn = Attention(causal)
        self.cross = Attention(False) if cross else None
        self.ln_2 = nn.LayerNorm(WIDTH)
        self.fc = nn.Linear(WIDTH, 2 * WIDTH)
        self.out = nn.Linear(2 * WIDTH, WIDTH)

    def forward(self, x, memory=None):
        y = self.ln_1(x)
        x = x + self.attn(y, y)
        if self.cross is not None:
            x = x + self.cross(x, memory)
        return x + self.out(F.gelu(self.fc(self.ln_2(x))))


class Gpt(nn.Module):
    def __init__(self, layers=4):
        super().__init__()
        self.wte = nn.Embedding(VOCAB, WIDTH)
        self.wpe = nn.Embedding(SEQ, WIDTH)
        self.h = nn.ModuleList([Block(True, False) for _ in range(layers)])
        self.ln_f = nn.LayerNorm(WIDTH)

    def forward(self, tokens, positions):
        x = self.wte(tokens) + self.wpe(positions)
        for block in self.h:
            x = block(x)
        return F.linear(self.ln_f(x), self.wte.weight)  # tied to the token embedding


class EncoderDecoder(nn.Module):
    def __init__(self, layers=2):
        super().__init__()
        self.src = nn.Embedding(VOCAB, WIDTH)
        self.tgt = nn.Embedding(VOCAB, WIDTH)
        self.encoder = nn.ModuleList([Block(False, False) for _ in range(layers)])
        self.decoder = nn.ModuleList([Block(True, True) for _ in range(layers)])
        self.head = nn.Linear(WIDTH, VOCAB)

    def forward(self, source, target):
        memory = self.src(source)
        for block in self.encoder:
            memory = block(memory)
        x = self.tgt(target)
        for block in self.decoder:
            x = block(x, memory)
        return self.head(x)


def _tokens(generator):
    return torch.randint(0, VOCAB, (BATCH, SEQ), generator=generator)


def make_gpt():
    torch.manual_seed(1)
    generator = torch.Generator().manual_seed(2)
    positions = torch.arange(SEQ).expand(BATCH, SEQ).contiguous()
    return Gpt().double(), (_tokens(generator), positions)


def make_encdec():
    torch.manual_seed(3)
    generator = torch.Generator().manual_seed(4)
    return EncoderDecoder().double(), (_tokens(generator), _tokens(generator))


def _squared_logits(output):
    return (output ** 2).mean()


def make_gpt_custom_loss():
    module, inputs = make_gpt()
    return module, inputs, _squared_logits


class Noisy(nn.Module):
    """A GPT whose forward adds fresh noise: each process draws its own, so
    a pipelined run cannot match the unpipelined one."""

    def __init__(self):
        super().__init__()
        self.gpt = Gpt(layers=2)

    def forward(self, tokens, positions):
        logits = self.gpt(tokens, positions)
        return logits * torch.rand_like(logits)


def make_noisy_gpt():
    inputs = make_gpt()[1]
    torch.manual_seed(5)
    return Noisy().double(), inputs
