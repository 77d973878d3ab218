// The paper's placements (docs/formats.md, "Built-in placements") built for a device count.
//
// Each case is written as the dependency chains of ONE micro-batch, in the
// order the Tessel paper draws them. The finished placement then lists its
// blocks in the Python Tessel's `gid` order: by start step in the
// one-micro-batch layout where every block starts as soon as the blocks it
// depends on have finished (ASAP), ties broken by the lowest device the block
// runs on, and remaining ties (two blocks starting together on the same
// lowest device, which the Python tool cannot even lay out, e.g. xshape on
// an odd device count) by the order the chains are written here. Keeping
// that order lets `import --from tessel-json` match the Python tool's saved
// schedules by `gid` alone.
#include "cases/builtin_cases.hpp"

#include <algorithm>
#include <numeric>
#include <tuple>

#include "model/input_error.hpp"
#include "model/json_file.hpp"

namespace tessel {

namespace {

constexpr int kMaxDevices = 1024;

// What a case builder sees: the devices and whether it is inference. Builders
// append blocks and edges; `infer` drops the backward blocks and zeroes memory
// afterwards, so builders describe training only.
struct CaseBuilder {
  Placement placement;

  int add(const std::string& id, BlockKind kind, Time span, Memory memory, std::vector<int> devices) {
    placement.blocks.push_back({id, kind, span, memory, std::nullopt, std::move(devices), {}, {}});
    return static_cast<int>(placement.blocks.size()) - 1;
  }
  int forward(const std::string& id, int device) { return add(id, BlockKind::Forward, 1, 1, {device}); }
  int backward(const std::string& id, int device, int span = 3) {
    return add(id, BlockKind::Backward, span, -1, {device});
  }
  std::vector<int> all_devices() const {
    std::vector<int> devices(placement.ndevs);
    std::iota(devices.begin(), devices.end(), 0);
    return devices;
  }
  // A tensor-parallel block on every device: span 1, memory 0 unless stated.
  int all(const std::string& id, BlockKind kind, Memory memory = 0) {
    return add(id, kind, 1, memory, all_devices());
  }
  void edge(int from, int to) { placement.edges.push_back({from, to}); }
  void chain(const std::vector<int>& blocks) {
    for (size_t i = 1; i < blocks.size(); ++i) edge(blocks[i - 1], blocks[i]);
  }
};

std::string numbered(const std::string& prefix, int index) { return prefix + std::to_string(index); }

// vshape, the 1F1B placement (paper Fig. 1 / the V-shape of Fig. 6):
// F_0 .. F_{D-1}, then B_{D-1} .. B_0.
void build_vshape(CaseBuilder& b) {
  const int d = b.placement.ndevs;
  std::vector<int> chain;
  for (int i = 0; i < d; ++i) chain.push_back(b.forward(numbered("f", i), i));
  for (int i = d - 1; i >= 0; --i) chain.push_back(b.backward(numbered("b", i), i));
  b.chain(chain);
}

// xshape (paper's X-shape, two pipelines running in opposite directions over
// the same devices, as in bidirectional pipelines such as Chimera): a V on
// devices 0..D-1 (f/b) and a mirrored V on D-1..0 (fr/br), independent.
void build_xshape(CaseBuilder& b) {
  const int d = b.placement.ndevs;
  std::vector<int> v, mirrored;
  for (int i = 0; i < d; ++i) v.push_back(b.forward(numbered("f", i), i));
  for (int i = d - 1; i >= 0; --i) v.push_back(b.backward(numbered("b", i), i));
  for (int i = d - 1; i >= 0; --i) mirrored.push_back(b.forward(numbered("fr", i), i));
  for (int i = 0; i < d; ++i) mirrored.push_back(b.backward(numbered("br", i), i));
  b.chain(v);
  b.chain(mirrored);
}

// mshape (paper's M-shape: a tensor-parallel embedding on all devices before
// and after a pipelined body, e.g. a large-vocabulary language model):
// fs, F_0..F_{D-1}, B_{D-1}..B_0, bs.
void build_mshape(CaseBuilder& b) {
  const int d = b.placement.ndevs;
  std::vector<int> chain{b.all("fs", BlockKind::Forward)};
  for (int i = 0; i < d; ++i) chain.push_back(b.forward(numbered("f", i), i));
  for (int i = d - 1; i >= 0; --i) chain.push_back(b.backward(numbered("b", i), i));
  chain.push_back(b.all("bs", BlockKind::Backward));
  b.chain(chain);
}

// nnshape (paper's NN-shape: an encoder-decoder model such as T5, each half
// pipelined, each with a tensor-parallel embedding): fs1, F_0..F_{D/2-1},
// fs2, F_{D/2}..F_{D-1}, B_{D-1}..B_{D-D/2}, bs2, B_{D-D/2-1}..B_0, bs1
// (integer division). On an even D the backward is the forward's mirror. On
// an odd D it is what the Python Tessel builds, so that its saved schedules
// import: fs2 comes after D//2 forward blocks and bs2 after D//2 backward
// ones (5 devices: fs1 f0 f1 fs2 f2 f3 f4, b4 b3 bs2 b2 b1 b0 bs1).
// `eager` is the paper's variant for 4 devices where the second embedding
// comes right after F_0: fs1, F_0, fs2, F_1 F_2 F_3, B_3 B_2 B_1, bs2, B_0, bs1.
void build_nnshape(CaseBuilder& b, bool eager) {
  const int d = b.placement.ndevs;
  const int forward_split = eager ? 1 : d / 2;
  const int backward_split = eager ? 1 : d - d / 2;  // bs2 right after B_{backward_split}
  std::vector<int> chain{b.all("fs1", BlockKind::Forward)};
  for (int i = 0; i < d; ++i) {
    if (i == forward_split) chain.push_back(b.all("fs2", BlockKind::Forward));
    chain.push_back(b.forward(numbered("f", i), i));
  }
  for (int i = d - 1; i >= 0; --i) {
    chain.push_back(b.backward(numbered("b", i), i));
    if (i == backward_split) chain.push_back(b.all("bs2", BlockKind::Backward));
  }
  chain.push_back(b.all("bs1", BlockKind::Backward));
  b.chain(chain);
}

// kshape (paper's K-shape: a two-branch multi-modal model whose branches run
// on the two device halves and join in a tensor-parallel head): branches
// F_0..F_{D/2-1} and F_{D/2}..F_{D-1} both feed fa (all devices, memory +1),
// then ba (all devices, memory -1), then B_{D/2-1}..B_0 and B_{D-1}..B_{D/2}.
void build_kshape(CaseBuilder& b) {
  const int d = b.placement.ndevs;
  const int half = d / 2;
  std::vector<int> branch1, branch2;
  for (int i = 0; i < half; ++i) branch1.push_back(b.forward(numbered("f", i), i));
  for (int i = half; i < d; ++i) branch2.push_back(b.forward(numbered("f", i), i));
  int head_forward = b.all("fa", BlockKind::Forward, 1);
  int head_backward = b.all("ba", BlockKind::Backward, -1);
  std::vector<int> back1, back2;
  for (int i = half - 1; i >= 0; --i) back1.push_back(b.backward(numbered("b", i), i));
  for (int i = d - 1; i >= half; --i) back2.push_back(b.backward(numbered("b", i), i));
  b.chain(branch1);
  b.chain(branch2);
  b.edge(branch1.back(), head_forward);
  b.edge(branch2.back(), head_forward);
  b.edge(head_forward, head_backward);
  b.edge(head_backward, back1.front());
  b.edge(head_backward, back2.front());
  b.chain(back1);
  b.chain(back2);
}

// mllm (paper's interlaced multi-modal LM: tensor-parallel encoders wrapped
// around a pipelined LM): fa, F_0..F_{D-1}, fb, bb, B_{D-1}..B_0, ba.
// Spans and memory follow the defaults of docs/formats.md (the Python Tessel's
// `interlace_mlm` premise uses backward span 2 and memory +-1 on the
// all-device blocks instead; it is not part of the reference results).
void build_mllm(CaseBuilder& b) {
  const int d = b.placement.ndevs;
  std::vector<int> chain{b.all("fa", BlockKind::Forward)};
  for (int i = 0; i < d; ++i) chain.push_back(b.forward(numbered("f", i), i));
  chain.push_back(b.all("fb", BlockKind::Forward));
  chain.push_back(b.all("bb", BlockKind::Backward));
  for (int i = d - 1; i >= 0; --i) chain.push_back(b.backward(numbered("b", i), i));
  chain.push_back(b.all("ba", BlockKind::Backward));
  b.chain(chain);
}

// finetune (paper's fine-tuning case: a frozen tensor-parallel embedding, so
// it has no backward, and cheaper backwards): fs, F_0..F_{D-1},
// B_{D-1}..B_0 with span 2.
void build_finetune(CaseBuilder& b) {
  const int d = b.placement.ndevs;
  std::vector<int> chain{b.all("fs", BlockKind::Forward)};
  for (int i = 0; i < d; ++i) chain.push_back(b.forward(numbered("f", i), i));
  for (int i = d - 1; i >= 0; --i) chain.push_back(b.backward(numbered("b", i), i, 2));
  b.chain(chain);
}

// alphafold (paper's AlphaFold2 case: three recycling forward passes of the
// pipelined trunk, only the last one keeping activations for the backward):
// fa_i sweep (memory 0), fb_i sweep (memory 0), f_i sweep (memory +1), then
// B_{D-1}..B_0 with span 1.
void build_alphafold(CaseBuilder& b) {
  const int d = b.placement.ndevs;
  std::vector<int> chain;
  for (int i = 0; i < d; ++i) chain.push_back(b.add(numbered("fa", i), BlockKind::Forward, 1, 0, {i}));
  for (int i = 0; i < d; ++i) chain.push_back(b.add(numbered("fb", i), BlockKind::Forward, 1, 0, {i}));
  for (int i = 0; i < d; ++i) chain.push_back(b.forward(numbered("f", i), i));
  for (int i = d - 1; i >= 0; --i) chain.push_back(b.backward(numbered("b", i), i, 1));
  b.chain(chain);
}

struct CaseDefinition {
  CaseInfo info;
  bool (*supports)(int ndevs);
  void (*build)(CaseBuilder&);
};

bool at_least_two(int ndevs) { return ndevs >= 2 && ndevs <= kMaxDevices; }
bool even_at_least_two(int ndevs) { return at_least_two(ndevs) && ndevs % 2 == 0; }
bool exactly_four(int ndevs) { return ndevs == 4; }

const std::vector<CaseDefinition>& definitions() {
  static const std::string any = "2 <= D <= " + std::to_string(kMaxDevices);
  static const std::string even = "even D, 2 <= D <= " + std::to_string(kMaxDevices);
  static const std::vector<CaseDefinition> list = {
      {{"vshape", "1F1B: F_0..F_{D-1} then B_{D-1}..B_0", any}, at_least_two, build_vshape},
      {{"xshape", "two opposite V chains on the same devices (bidirectional)", any}, at_least_two,
       build_xshape},
      {{"mshape", "all-device embedding around a V: fs, F.., B.., bs", any}, at_least_two, build_mshape},
      {{"nnshape", "encoder-decoder: two V halves (the first D//2 devices), each after an all-device block", any},
       at_least_two, [](CaseBuilder& b) { build_nnshape(b, false); }},
      {{"nnshape_eager", "nnshape with the second all-device block right after F_0", "D = 4"},
       exactly_four, [](CaseBuilder& b) { build_nnshape(b, true); }},
      {{"kshape", "two branches on the device halves joined by an all-device head", even},
       even_at_least_two, build_kshape},
      {{"mllm", "all-device encoders around a V: fa, F.., fb, bb, B.., ba", any}, at_least_two,
       build_mllm},
      {{"finetune", "frozen all-device embedding, then F.., B.. (span 2)", any}, at_least_two,
       build_finetune},
      {{"alphafold", "three forward sweeps (memory 0, 0, +1), then B.. (span 1)", any}, at_least_two,
       build_alphafold},
  };
  return list;
}

// Inference keeps the forward blocks (all-device ones included), drops the
// edges touching anything else, and zeroes every memory delta.
Placement forward_only(const Placement& training) {
  Placement placement;
  placement.name = training.name;
  placement.ndevs = training.ndevs;
  std::vector<int> new_index(training.blocks.size(), -1);
  for (size_t i = 0; i < training.blocks.size(); ++i) {
    if (training.blocks[i].kind != BlockKind::Forward) continue;
    new_index[i] = static_cast<int>(placement.blocks.size());
    Block block = training.blocks[i];
    block.memory = 0;
    placement.blocks.push_back(block);
  }
  for (const Edge& edge : training.edges)
    if (new_index[edge.from] >= 0 && new_index[edge.to] >= 0)
      placement.edges.push_back({new_index[edge.from], new_index[edge.to]});
  return placement;
}

// Re-lists the blocks in gid order (see the top of the file) and renumbers
// the edges to match.
Placement in_gid_order(const Placement& built) {
  std::vector<Time> start = earliest_starts(built);
  std::vector<int> order(built.blocks.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return std::make_tuple(start[a], built.blocks[a].devices.front()) <
           std::make_tuple(start[b], built.blocks[b].devices.front());
  });
  Placement placement;
  placement.name = built.name;
  placement.ndevs = built.ndevs;
  std::vector<int> new_index(built.blocks.size());
  for (size_t position = 0; position < order.size(); ++position) {
    new_index[order[position]] = static_cast<int>(position);
    placement.blocks.push_back(built.blocks[order[position]]);
  }
  for (const Edge& edge : built.edges) placement.edges.push_back({new_index[edge.from], new_index[edge.to]});
  std::sort(placement.edges.begin(), placement.edges.end(),
            [](const Edge& a, const Edge& b) { return std::tie(a.from, a.to) < std::tie(b.from, b.to); });
  return placement;
}

}  // namespace

const std::vector<CaseInfo>& builtin_cases() {
  static const std::vector<CaseInfo> list = [] {
    std::vector<CaseInfo> infos;
    for (const CaseDefinition& definition : definitions()) infos.push_back(definition.info);
    return infos;
  }();
  return list;
}

Placement make_case(const std::string& name, int ndevs, bool infer) {
  const auto& all = definitions();
  auto found = std::find_if(all.begin(), all.end(),
                            [&](const CaseDefinition& definition) { return definition.info.name == name; });
  if (found == all.end()) {
    std::string known;
    std::vector<std::string> names;
    for (const CaseDefinition& definition : all) {
      known += (known.empty() ? "" : ", ") + definition.info.name;
      names.push_back(definition.info.name);
    }
    const std::string nearest = nearest_name(name, names);
    const std::string hint = nearest.empty() ? "" : "did you mean '" + nearest + "'? ";
    throw InputError("", "--case", "unknown case '" + name + "' (" + hint + "known: " + known + ")");
  }
  if (!found->supports(ndevs))
    throw InputError("", "--ndevs",
                     "case '" + name + "' supports " + found->info.supported_devices + ", got D = " +
                         std::to_string(ndevs));
  CaseBuilder builder;
  builder.placement.name = name;
  builder.placement.ndevs = ndevs;
  found->build(builder);
  Placement placement = infer ? forward_only(builder.placement) : builder.placement;
  if (infer) placement.name += "-infer";
  return in_gid_order(placement);
}

}  // namespace tessel
