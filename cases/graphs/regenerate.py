#!/usr/bin/python3
"""Regenerates the operator graphs in cases/graphs/ from cases/graphs/models.py.

    /usr/bin/python3 cases/graphs/regenerate.py [--seq 512] [--batch 1] [--device meta|cpu]

Each graph is one micro-batch's forward pass (batch x seq tokens) of a model
written in this repository, exported by tools/tessel_fx.py: FLOPs per
operator, parameter and output bytes in float32. The default `meta` device
builds no weights at all (the costs depend on shapes only); `--device cpu`
builds random weights and runs them, with the same result.
"""

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools"))

import models  # noqa: E402
import tessel_fx  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seq", type=int, default=512)
    parser.add_argument("--batch", type=int, default=1)
    parser.add_argument("--device", default="meta", choices=["meta", "cpu"])
    args = parser.parse_args()
    jobs = [("gpt2-%s" % size, lambda size=size: models.gpt2(size, args.batch, args.seq, args.device))
            for size in models.GPT2_CONFIGS]
    jobs.append(("bert-base", lambda: models.bert("base", args.batch, args.seq, args.device)))
    jobs.append(("vit-small", lambda: models.vit("small", 8, args.device)))  # 8 images of 224x224
    for name, build in jobs:
        module, inputs = build()
        path = os.path.join(HERE, name + ".json")
        document = tessel_fx.export_graph(module, inputs, path, name)
        params = sum(node["param_bytes"] for node in document["nodes"])
        own = sum(p.numel() * p.element_size() for p in module.parameters())
        assert params == own, "%s: graph holds %d parameter bytes, the model %d" % (name, params, own)
        print("%-12s %4d nodes %4d edges %.3e FLOPs %11d parameter bytes  %s"
              % (name, len(document["nodes"]), len(document["edges"]),
                 sum(node["compute"] for node in document["nodes"]), params, os.path.relpath(path)))


if __name__ == "__main__":
    main()
