#!/usr/bin/python3
"""The exporter's test (ctest `tessel_fx_exporter`): a small GPT-style model
defined here is exported by tools/tessel_fx.py; its graph must hold exactly
the model's parameter bytes, a linear layer's compute and output bytes must
be what its shapes imply, an untraceable model must get a message naming the
operator, and the graph must go end to end through `tessel partition`,
`tessel search` and `tessel verify`.

    /usr/bin/python3 tests/cli/test_tessel_fx.py path/to/tessel
"""

import contextlib
import io
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "cases", "graphs"))

import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import models  # noqa: E402  (cases/graphs/models.py: the encoder-decoder, GPT-2)
import tessel_fx  # noqa: E402

TESSEL = None  # set from argv
BATCH, SEQ, EMBD, HEADS, VOCAB, LAYERS = 2, 16, 32, 4, 100, 2


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(EMBD, 3 * EMBD)
        self.proj = nn.Linear(EMBD, EMBD)

    def forward(self, x):
        parts = self.qkv(x).split(EMBD, dim=2)
        shape = (BATCH, SEQ, HEADS, EMBD // HEADS)
        q = parts[0].view(shape).transpose(1, 2)
        k = parts[1].view(shape).transpose(1, 2)
        v = parts[2].view(shape).transpose(1, 2)
        weights = torch.softmax(torch.matmul(q, k.transpose(-2, -1)) * 0.25, dim=-1)
        return self.proj(torch.matmul(weights, v).transpose(1, 2).reshape(BATCH, SEQ, EMBD))


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln_1 = nn.LayerNorm(EMBD)
        self.attn = Attention()
        self.ln_2 = nn.LayerNorm(EMBD)
        self.fc = nn.Linear(EMBD, 4 * EMBD)
        self.out = nn.Linear(4 * EMBD, EMBD)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.out(F.gelu(self.fc(self.ln_2(x))))


class TinyGpt(nn.Module):
    def __init__(self):
        super().__init__()
        self.wte = nn.Embedding(VOCAB, EMBD)
        self.blocks = nn.ModuleList([Block() for _ in range(LAYERS)])
        self.ln_f = nn.LayerNorm(EMBD)

    def forward(self, tokens):
        x = self.wte(tokens)
        for block in self.blocks:
            x = block(x)
        return F.linear(self.ln_f(x), self.wte.weight)  # tied head: the weight is shared


class DataDependent(nn.Module):
    def __init__(self):
        super().__init__()
        self.inner = nn.Linear(4, 4)

    def forward(self, x):
        y = self.inner(x)
        if y.sum() > 0:  # control flow on a traced value: fx cannot trace it
            return y
        return -y


class WrittenOutAttention(nn.Module):
    """nn.MultiheadAttention's arithmetic spelled out (batch first)."""

    def __init__(self):
        super().__init__()
        self.q = nn.Linear(EMBD, EMBD)
        self.k = nn.Linear(EMBD, EMBD)
        self.v = nn.Linear(EMBD, EMBD)
        self.out = nn.Linear(EMBD, EMBD)

    def forward(self, x):
        shape = (BATCH, SEQ, HEADS, EMBD // HEADS)
        q = self.q(x).view(shape).transpose(1, 2)
        k = self.k(x).view(shape).transpose(1, 2)
        v = self.v(x).view(shape).transpose(1, 2)
        weights = torch.softmax(torch.matmul(q, k.transpose(-2, -1)) * 0.25, dim=-1)
        return self.out(torch.matmul(weights, v).transpose(1, 2).reshape(BATCH, SEQ, EMBD))


class LibraryAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.attn = nn.MultiheadAttention(EMBD, HEADS, batch_first=True)

    def forward(self, x):
        return self.attn(x, x, x, need_weights=False)[0]


class EncoderLayerModel(nn.Module):
    """A torch.nn container: traced into, so its attention and linears count."""

    def __init__(self):
        super().__init__()
        self.layer = nn.TransformerEncoderLayer(EMBD, HEADS, 4 * EMBD, batch_first=True)

    def forward(self, x):
        return self.layer(x)


class WithLstm(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(EMBD, EMBD, batch_first=True)

    def forward(self, x):
        return self.lstm(x)[0]


def hidden():
    return torch.randn(BATCH, SEQ, EMBD)


def total_flops(model):
    return sum(node["compute"] for node in tessel_fx.graph_from_module(model, (hidden(),))["nodes"])


def tokens():
    return torch.randint(0, VOCAB, (BATCH, SEQ))


def run(*args):
    return subprocess.run(list(args), capture_output=True, text=True)


class ExporterTest(unittest.TestCase):
    def setUp(self):
        torch.manual_seed(0)
        self.dir = tempfile.TemporaryDirectory()
        self.graph_path = os.path.join(self.dir.name, "tiny.json")
        self.model = TinyGpt()
        self.graph = tessel_fx.export_graph(self.model, (tokens(),), self.graph_path, "tiny-gpt")

    def tearDown(self):
        self.dir.cleanup()

    def node(self, node_id):
        matches = [node for node in self.graph["nodes"] if node["id"] == node_id]
        self.assertEqual(len(matches), 1, node_id)
        return matches[0]

    def test_parameter_bytes_equal_the_models_own(self):
        own = sum(p.numel() * p.element_size() for p in self.model.parameters())  # shared counted once
        total = sum(node["param_bytes"] for node in self.graph["nodes"])
        self.assertEqual(total, own)
        self.assertEqual(self.node("wte")["param_bytes"], VOCAB * EMBD * 4)
        head = [node for node in self.graph["nodes"] if node["op"] == "linear" and node["param_bytes"] == 0]
        self.assertTrue(head, "the tied head reuses wte's weight and holds no bytes of its own")
        # ... and says whose it is, so that a rank running it without wte
        # counts its copy in static memory; no other node ties anything.
        self.assertEqual([node.get("tied") for node in head], [[{"holder": "wte", "bytes": VOCAB * EMBD * 4}]])
        self.assertEqual([node["id"] for node in self.graph["nodes"] if "tied" in node], [head[0]["id"]])

    def test_linear_compute_and_output_follow_the_shapes(self):
        fc = self.node("blocks.0.fc")
        self.assertEqual(fc["op"], "linear")
        tokens_in_batch = BATCH * SEQ
        self.assertEqual(fc["compute"], 2 * tokens_in_batch * EMBD * 4 * EMBD)
        self.assertEqual(fc["output_bytes"], tokens_in_batch * 4 * EMBD * 4)
        self.assertEqual(fc["param_bytes"], (EMBD * 4 * EMBD + 4 * EMBD) * 4)
        softmax = [node for node in self.graph["nodes"] if node["op"] == "softmax"][0]
        self.assertEqual(softmax["compute"], 5 * BATCH * HEADS * SEQ * SEQ)
        matmul = [node for node in self.graph["nodes"] if node["op"] == "matmul"][0]
        self.assertEqual(matmul["compute"], 2 * BATCH * HEADS * SEQ * SEQ * (EMBD // HEADS))

    def test_graph_shape(self):
        ids = [node["id"] for node in self.graph["nodes"]]
        self.assertEqual(len(ids), len(set(ids)))
        self.assertNotIn("tokens", ids)   # placeholders folded away
        self.assertNotIn("output", ids)
        self.assertFalse([i for i in ids if i.startswith("getitem")], "getitem folded into split")
        self.assertEqual(self.graph["format"], "tessel.graph/1")
        known = set(ids)
        for a, b in self.graph["edges"]:
            self.assertIn(a, known)
            self.assertIn(b, known)

    def test_untraceable_model_names_the_operator(self):
        with self.assertRaises(tessel_fx.TesselFxError) as caught:
            tessel_fx.export_graph(DataDependent(), (torch.ones(2, 4),), os.path.join(self.dir.name, "x.json"))
        message = str(caught.exception)
        self.assertIn("y.sum() > 0", message)
        self.assertIn("control flow", message)

    def test_command_line(self):
        factory = os.path.join(self.dir.name, "factory.py")
        with open(factory, "w") as out:
            out.write("import torch\n"
                      "def make():\n"
                      "    return torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 2)),"
                      " (torch.ones(3, 8),)\n"
                      "def half():\n"
                      "    return torch.nn.Linear(8, 2).to(torch.bfloat16), (torch.ones(3, 8, dtype=torch.bfloat16),)\n"
                      "def broken():\n"
                      "    class M(torch.nn.Module):\n"
                      "        def forward(self, x):\n"
                      "            a, b = x.split(1)\n"
                      "            return a + b\n"
                      "    return M(), (torch.ones(2, 2),)\n")
        out_path = os.path.join(self.dir.name, "seq.json")
        # The command line's main(), in-process: a second torch import costs seconds.
        errors = io.StringIO()
        with contextlib.redirect_stderr(errors):
            code = tessel_fx.main([factory + ":make", "-o", out_path])
        self.assertEqual(code, 0, errors.getvalue())
        self.assertIn("3 nodes", errors.getvalue())
        with open(out_path) as f:
            graph = json.load(f)
        self.assertEqual([n["op"] for n in graph["nodes"]], ["linear", "relu", "linear"])
        self.assertEqual(graph["nodes"][0]["compute"], 2 * 3 * 8 * 16)
        self.assertNotIn("note: parameters", errors.getvalue())
        # bf16 parameters: plan reads the graph's bytes as fp32, so it says so.
        errors = io.StringIO()
        with contextlib.redirect_stderr(errors):
            code = tessel_fx.main([factory + ":half", "-o", out_path])
        self.assertEqual(code, 0, errors.getvalue())
        self.assertIn("note: parameters in torch.bfloat16", errors.getvalue())
        self.assertIn("--param-bytes", errors.getvalue())
        errors = io.StringIO()
        with contextlib.redirect_stderr(errors):
            code = tessel_fx.main([factory + ":broken", "-o", out_path])
        self.assertEqual(code, 2)
        self.assertNotIn("Traceback", errors.getvalue())
        self.assertIn("a, b = x.split(1)", errors.getvalue())

    def test_multihead_attention_costs_what_it_computes(self):
        library, written = total_flops(LibraryAttention()), total_flops(WrittenOutAttention())
        self.assertLess(abs(library - written) / written, 0.02, (library, written))
        layer = total_flops(EncoderLayerModel())
        self.assertGreater(layer, written, "the encoder layer's attention and MLP are counted")

    def test_operators_without_a_formula_are_listed_loudly(self):
        estimated = []
        errors = io.StringIO()
        with contextlib.redirect_stderr(errors):
            tessel_fx.graph_from_module(WithLstm(), (hidden(),), estimated=estimated)
        self.assertEqual([op for _, op in estimated], ["lstm"])
        self.assertIn("ESTIMATED", errors.getvalue())
        self.assertIn("lstm (lstm)", errors.getvalue())
        quiet = io.StringIO()
        with contextlib.redirect_stderr(quiet):
            tessel_fx.graph_from_module(WrittenOutAttention(), (hidden(),))
        self.assertNotIn("ESTIMATED", quiet.getvalue())

    def test_profile_measures_each_operator(self):
        graph = tessel_fx.graph_from_module(WrittenOutAttention(), (hidden(),), profile=True)
        matmuls = [node for node in graph["nodes"] if node["op"] == "linear"]
        self.assertTrue(matmuls)
        self.assertTrue(all(node["compute"] > 0 for node in matmuls))

    def test_a_factory_returning_the_wrong_thing_gets_a_message(self):
        path = os.path.join(self.dir.name, "bad.py")
        with open(path, "w") as out:
            out.write("import torch\n"
                      "def only_module():\n    return torch.nn.Linear(2, 2)\n"
                      "def swapped():\n    return torch.randn(1, 2), torch.nn.Linear(2, 2)\n"
                      "def broken():\n    raise ValueError('no weights here')\n")
        for factory, expected in (("only_module", "must return (module, example_inputs)"),
                                  ("swapped", "expected a torch.nn.Module"),
                                  ("broken", "raised ValueError")):
            result = run(sys.executable, os.path.join(HERE, "..", "..", "tools", "tessel_fx.py"),
                         path + ":" + factory, "-o", os.path.join(self.dir.name, "x.json"))
            self.assertEqual(result.returncode, 2, factory)
            self.assertIn(expected, result.stderr)
            self.assertNotIn("Traceback", result.stderr)

    def test_partition_search_verify_end_to_end(self):
        partition = os.path.join(self.dir.name, "partition.json")
        placement = os.path.join(self.dir.name, "placement.json")
        schedule = os.path.join(self.dir.name, "schedule.json")
        result = run(TESSEL, "partition", self.graph_path, "--stages", "2", "-o", partition,
                     "--placement-out", placement, "--json", "--time-limit", "60")
        self.assertEqual(result.returncode, 0, result.stderr)
        answer = json.loads(result.stdout)
        self.assertEqual(answer["status"], "optimal")
        self.assertEqual(sum(answer["stage_compute"]), sum(n["compute"] for n in self.graph["nodes"]))
        self.assertLessEqual(answer["bottleneck"], answer["dp_bottleneck"])
        check = run(TESSEL, "partition", self.graph_path, "--check", partition)
        self.assertEqual(check.returncode, 0, check.stdout + check.stderr)

        shown = run(TESSEL, "placement", "--help")
        has_search = run(TESSEL, "search", "--help").returncode == 0 and shown.returncode == 0
        with open(placement) as f:
            blocks = json.load(f)["blocks"]
        self.assertEqual([b["id"] for b in blocks], ["f0", "f1", "b1", "b0"])
        if not has_search:
            self.skipTest("tessel search is not available in this build")
        result = run(TESSEL, "search", "--placement", placement, "--memory", "4", "--nmicros", "8",
                     "-o", schedule, "--time-limit", "60")
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        verdict = run(TESSEL, "verify", schedule)
        self.assertEqual(verdict.returncode, 0, verdict.stdout + verdict.stderr)
        self.assertIn("valid", verdict.stdout)

class ModelTracingTest(unittest.TestCase):
    """Real models as users write them: module paths per operator, the
    unpacked attention pair, the same ids a runtime gets back, and models
    built on the `meta` device traced without running."""

    def graph_of(self, made, name):
        return tessel_fx.graph_from_module(made[0], made[1], name)

    def test_encoder_decoder_traces_with_unpacked_attention_and_module_paths(self):
        model, inputs = models.encoder_decoder()
        graph = self.graph_of((model, inputs), "encdec")
        self.assertEqual(graph["compute_unit"], "flops")
        attention = [n for n in graph["nodes"] if n["op"] == "multihead_attention"]
        self.assertEqual(len(attention), 6)  # 2 encoder + 2 x 2 decoder
        owners = dict(model.named_modules())
        for node in graph["nodes"]:
            self.assertIn(node["module"], owners, node["id"])
        self.assertEqual(self.node(graph, "decoder.1.cross_attn")["module"], "decoder.1.cross_attn")
        self.assertEqual(self.node(graph, "add")["module"], "encoder.0")  # x + a inside the layer's forward
        # The encoder's output feeds every decoder layer's cross attention.
        memory_readers = {b for a, b in graph["edges"] if a == "encoder.1.mlp.c_proj" or a.startswith("add_") and
                          self.node(graph, a)["module"] == "encoder.1"}
        self.assertTrue({"decoder.0.cross_attn", "decoder.1.cross_attn"} <= memory_readers, memory_readers)

    def test_graph_node_ids_are_the_exported_ids(self):
        model, inputs = models.encoder_decoder()
        graph = self.graph_of((model, inputs), "encdec")
        traced = tessel_fx.trace_graph_module(model, inputs, "encdec")
        ids = tessel_fx.graph_node_ids(traced)
        self.assertEqual({i for i in ids.values() if i is not None}, {n["id"] for n in graph["nodes"]})
        getitems = [n for n in traced.graph.nodes if n.target is __import__("operator").getitem]
        self.assertTrue(getitems)
        for node in getitems:  # the attention pair folds into its producer
            self.assertEqual(ids[node], ids[node.args[0]])

    def test_meta_device_gives_the_same_graph_without_running(self):
        on_cpu = self.graph_of(models.tiny_gpt(device="cpu"), "gpt")
        on_meta = self.graph_of(models.tiny_gpt(device="meta"), "gpt")
        self.assertEqual(on_cpu["nodes"], on_meta["nodes"])
        self.assertEqual(on_cpu["edges"], on_meta["edges"])
        model, inputs = models.encoder_decoder(device="meta")
        with self.assertRaises(tessel_fx.TesselFxError) as raised:
            tessel_fx.graph_from_module(model, inputs, "encdec", profile=True)
        self.assertIn("meta", str(raised.exception))

    def test_a_124m_model_on_meta_traces_in_seconds(self):
        import time
        begin = time.perf_counter()
        model, inputs = models.gpt2("small", device="meta")
        graph = self.graph_of((model, inputs), "gpt2-small")
        seconds = time.perf_counter() - begin
        print("gpt2-small (124M) built and traced on meta in %.2f s" % seconds, file=sys.stderr)
        self.assertEqual(len(graph["nodes"]), 293)
        self.assertLess(seconds, 30)  # 1-2 s unloaded; the target is 5 s, the bound leaves a shared machine room

    @staticmethod
    def node(graph, node_id):
        return next(n for n in graph["nodes"] if n["id"] == node_id)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print("usage: test_tessel_fx.py path/to/tessel", file=sys.stderr)
        sys.exit(2)
    TESSEL = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
