#!/usr/bin/env python3
"""Times, in PyTorch, the workloads issue 13 compares with the course's Go.

Reference figures only: PyTorch is never a dependency of the course. The
script runs when Debian's python3-torch is installed (apt-get install
python3-torch) and says so and exits 0 when it is not. Run it on an idle
machine next to the Go benchmarks it mirrors (docs/PERFORMANCE.md):

    unset OPENBLAS_CORETYPE OPENBLAS_L2_SIZE   # set by this environment
    /usr/bin/python3 scripts/pytorch-compare.py

The workloads and the Go benchmarks they mirror:

  sdpa     masked scaled dot-product attention, forward, [2, 8, 256, 64]:
           lib/attention BenchmarkScaledDotProduct/...seq=256...
  lesson6  one training step (forward, backward, Adam) of lesson 6's GRU
           encoder-decoder with additive attention in Bahdanau's order:
           batch 64, 12 source and 12 target digits, vocabulary 12,
           embeddings 16, GRU states 64 — lib/seq2seq BenchmarkTrainStep
  lesson8  one training step of lesson 8's Transformer classifier: batch
           64, reviews of 9 tokens, d_model 32, 2 heads, d_ff 64, mean
           pooling — lib/classifier BenchmarkLesson8 (its time per step)

Each is timed 50 times after 5 warm-up runs, with 2 threads (the course's
machines have 2 cores); the script prints min, median and max in ms.
"""

import math
import statistics
import sys
import time

try:
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
except ImportError:
    print("pytorch-compare: python3-torch is not installed (apt-get install python3-torch); nothing to compare")
    sys.exit(0)

torch.set_num_threads(2)
torch.manual_seed(1)


def timed(fn, runs=50, warmup=5):
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(1000 * (time.perf_counter() - start))
    return min(times), statistics.median(times), max(times)


def sdpa():
    b, h, n, d = 2, 8, 256, 64
    q, k, v = (torch.randn(b, h, n, d) for _ in range(3))
    mask = torch.triu(torch.full((n, n), float("-inf")), diagonal=1)

    def run():
        with torch.no_grad():
            w = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(d) + mask, dim=-1)
            return w @ v

    return run


class Seq2Seq(nn.Module):
    """Lesson 6's model: a GRU encoder and a GRU decoder that attends to the
    encoder states with the additive score before each step."""

    def __init__(self, vocab=12, embed=16, hidden=64):
        super().__init__()
        self.src_embed = nn.Embedding(vocab, embed)
        self.tgt_embed = nn.Embedding(vocab, embed)
        self.encoder = nn.GRU(embed, hidden, batch_first=True)
        self.decoder = nn.GRUCell(embed + hidden, hidden)
        self.w1 = nn.Linear(hidden, hidden, bias=False)
        self.w2 = nn.Linear(hidden, hidden, bias=False)
        self.v = nn.Linear(hidden, 1, bias=False)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, src, tgt_in):
        states, last = self.encoder(self.src_embed(src))  # [b, n, h], [1, b, h]
        keys = self.w2(states)  # computed once per sentence, as lesson 7's PrepareKeys
        s = last[0]
        logits = []
        for t in range(tgt_in.shape[1]):
            scores = self.v(torch.tanh(self.w1(s).unsqueeze(1) + keys)).squeeze(-1)  # [b, n]
            context = (torch.softmax(scores, dim=-1).unsqueeze(-1) * states).sum(1)
            s = self.decoder(torch.cat([self.tgt_embed(tgt_in[:, t]), context], dim=-1), s)
            logits.append(self.out(s))
        return torch.stack(logits, 1)


def lesson6():
    model = Seq2Seq()
    opt = torch.optim.Adam(model.parameters(), lr=0.003)
    src = torch.randint(2, 12, (64, 12))
    tgt = torch.randint(2, 12, (64, 12))

    def run():
        opt.zero_grad()
        loss = F.cross_entropy(model(src, tgt).reshape(-1, 12), tgt.reshape(-1))
        loss.backward()
        opt.step()

    return run


class Classifier(nn.Module):
    """Lesson 8's model: embeddings and sinusoidal positions, one post-norm
    encoder layer, a masked mean over the tokens, two logits."""

    def __init__(self, vocab=23, seq=9, d=32, heads=2, dff=64):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        pos = torch.arange(seq).unsqueeze(1)
        div = torch.exp(torch.arange(0, d, 2) * (-math.log(10000.0) / d))
        pe = torch.zeros(seq, d)
        pe[:, 0::2], pe[:, 1::2] = torch.sin(pos * div), torch.cos(pos * div)
        self.register_buffer("pe", pe)
        self.layer = nn.TransformerEncoderLayer(d, heads, dff, dropout=0.0, batch_first=True)
        self.out = nn.Linear(d, 2)

    def forward(self, ids):
        pad = ids == 0
        x = self.layer(self.embed(ids) + self.pe, src_key_padding_mask=pad)
        keep = (~pad).unsqueeze(-1).float()
        return self.out((x * keep).sum(1) / keep.sum(1))


def lesson8():
    model = Classifier()
    opt = torch.optim.Adam(model.parameters(), lr=0.003)
    ids = torch.randint(1, 23, (64, 9))
    ids[:, 6:] = 0  # padding, as short reviews have
    labels = torch.randint(0, 2, (64,))

    def run():
        opt.zero_grad()
        F.cross_entropy(model(ids), labels).backward()
        opt.step()

    return run


def main():
    print(f"PyTorch {torch.__version__}, {torch.get_num_threads()} threads")
    print(f"{'workload':10s} {'min ms':>8s} {'median ms':>10s} {'max ms':>8s}")
    for name, make in [("sdpa", sdpa), ("lesson6", lesson6), ("lesson8", lesson8)]:
        lo, mid, hi = timed(make())
        print(f"{name:10s} {lo:8.2f} {mid:10.2f} {hi:8.2f}")


if __name__ == "__main__":
    main()
