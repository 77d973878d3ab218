"""One rank of `tessel run`: runs its row of the plan's action table in
order, as PyTorch's `_PipelineScheduleRuntime` does, on the stages cut from
the model (tessel.run_stages), with real point-to-point sends and receives
(torch.distributed, gloo) and real autograd.

Each action is a profiler range named as PyTorch names it (`PP:0F1`,
`PP:1SEND_F3`), so the rank's Chrome trace is its schedule with measured
times (checked by `tessel verify --trace`). Semantics, per stage s and
micro-batch m:
- F: the stage's forward on its inputs (the micro-batch for stage 0, what
  RECV_F received, or the previous stage's outputs when that stage is on
  this rank); the last stage adds the micro-batch's loss;
- B: the full backward (input and weight gradients); I: the input gradients
  only (torch.autograd.grad with the graph kept); W: the weight gradients,
  added to the parameters' .grad; I then W gives exactly B's gradients;
- SEND_F / SEND_B: post the outputs (or input gradients) to the next (or
  previous) stage's rank without waiting, as PyTorch does; RECV_F / RECV_B:
  post the receives, also without waiting (PyTorch's runtime does the
  same: the table lists a receive as soon as its sender has run, possibly
  before compute the receiver runs first). The F (B, I) that needs the data
  waits for it just before its own range, at most the run's timeout: a wait
  that times out is a deadlock or a lost peer, reported with the action
  (exit 3). PyTorch waits inside the compute's range; waiting outside it
  shows the wait as the gap before the action, which `tessel verify
  --trace` counts as waiting for a dependency.
Memory traded for time (memory_choices.json, read into the plan):
- a (stage, micro) marked recompute runs its F under torch.no_grad, keeping
  only the stage's inputs (what it sends is the same values); the first
  backward that needs the graph (B, or I) re-runs the forward with autograd
  inside its own range, under a `tessel:recompute <stage>F<micro>` range:
  recomputing right before the backward, as torch.utils.checkpoint does;
- a (stage, micro) marked offload runs its F with saved-tensor hooks that
  copy every activation autograd keeps to host memory ("cpu") and back to
  its device when the backward unpacks it. On this CPU runtime host memory
  is the device's memory: the copies are no-ops, counted but saving nothing.
Both are counted per step (`choices`), so a run can show they happened.
Sends and receives carry a tag made of the micro-batch, the stage boundary,
the direction and the tensor's position, so two stage pairs between the
same two ranks can never take each other's messages.
"""

import time

import torch
import torch.distributed as dist

# Shared status per rank (a multiprocessing array: 3 ints per rank).
RUNNING, WAITING, DONE, FAILED = 0, 1, 2, 3


class ReceiveTimeout(RuntimeError):
    """A receive that did not complete within the timeout."""


class Probe:
    """What every micro-batch's values look like at each stage boundary:
    per tensor (shape, dtype, requires_grad), or the value itself when it is
    not a tensor (a size), from one unpipelined forward per micro-batch."""

    def __init__(self, stages, micro_batches):
        self.values = []  # [micro][boundary] -> list of ("tensor", shape, dtype, grad) or ("value", v)
        for inputs in micro_batches:
            boundaries = []
            current = list(inputs)
            for stage in stages:
                boundaries.append([_describe(value) for value in current])
                out = stage.module(*current)
                current = list(out) if not stage.last else []
            self.values.append(boundaries)

    def inputs(self, micro, stage):
        return self.values[micro][stage]


def _describe(value):
    if isinstance(value, torch.Tensor):
        return ("tensor", tuple(value.shape), value.dtype, value.requires_grad)
    return ("value", value)


def _copy_in(packed):
    """Saved-tensor unpack hook: the activation back on its device."""
    device, tensor = packed
    return tensor.to(device)


def default_loss(output):
    """The sum of the means of the output's floating-point tensors."""
    tensors = output if isinstance(output, (tuple, list)) else (output,)
    total = None
    for tensor in tensors:
        if isinstance(tensor, torch.Tensor) and tensor.is_floating_point():
            total = tensor.mean() if total is None else total + tensor.mean()
    if total is None:
        raise ValueError("the model's output has no floating-point tensor to take a loss of")
    return total


class RankRunner:
    """Executes one rank's actions for one training step at a time."""

    def __init__(self, rank, plan, stages, micro_batches, loss_fn, probe, timeout, status):
        self.rank, self.plan, self.stages = rank, plan, stages
        self.micro_batches, self.loss_fn, self.probe = micro_batches, loss_fn, probe
        self.timeout, self.status = timeout, status
        self.count = len(stages)
        self.width = 1 + max(len(b) for micro in probe.values for b in micro)
        self.loss = 0.0
        self.choices = {"recompute": 0, "offload": 0, "offloaded_tensors": 0}
        self.profile_range = None

    def _rank_of(self, stage):
        return self.plan.stages[stage].rank

    def _tag(self, micro, boundary, backward, position):
        return ((micro * (self.count + 1) + boundary) * 2 + int(backward)) * self.width + position

    def _set_status(self, state, step, position):
        base = 3 * self.rank
        self.status[base], self.status[base + 1], self.status[base + 2] = state, step, position

    def run_step(self, step, profile_range):
        self.state = {}
        self.pending_sends = []
        self.loss = 0.0
        self.profile_range = profile_range
        for position, action in enumerate(self.plan.actions[self.rank]):
            # A compute action first waits for what its receives posted, outside
            # its range: the gap before it in the trace is that wait.
            self._set_status(WAITING, step, position)
            self._await_receives(action)
            self._set_status(RUNNING, step, position)
            with profile_range("PP:" + action.name):
                getattr(self, "_" + action.kind.lower())(action.stage, action.micro)
        self._set_status(WAITING, step, len(self.plan.actions[self.rank]))
        for work in self.pending_sends:
            work.wait()
        self._set_status(RUNNING, step, len(self.plan.actions[self.rank]))
        return self.loss

    # -- compute --------------------------------------------------------
    def _f(self, stage, micro):
        if stage == 0:
            values = list(self.micro_batches[micro])
        else:
            values = self.state.pop(("in", stage, micro), None)
            if values is None:
                raise RuntimeError("action %dF%d runs before its inputs arrived (no RECV_F or local stage %d)"
                                   % (stage, micro, stage - 1))
        module = self.stages[stage]
        recompute = (stage, micro) in self.plan.recompute
        output = self._forward(stage, micro, values, recompute)
        entry = {"inputs": values, "recompute": recompute}
        if module.last:
            loss = self.loss_fn(output)
            self.loss += float(loss.detach())
            if not recompute:
                entry["roots"], entry["grads"] = [loss], None
        else:
            entry["outputs"] = list(output)
            if stage + 1 < self.count and self._rank_of(stage + 1) == self.rank:
                self.state[("in", stage + 1, micro)] = self._leaves(output, micro, stage + 1)
        self.state[("stage", stage, micro)] = entry

    def _forward(self, stage, micro, values, recompute):
        """The stage's forward: without autograd when it is recomputed later,
        with its saved activations sent to host memory when offloaded."""
        module = self.stages[stage].module
        if recompute:
            with torch.no_grad():
                return module(*values)
        if (stage, micro) not in self.plan.offload:
            return module(*values)
        self.choices["offload"] += 1
        with torch.autograd.graph.saved_tensors_hooks(self._copy_out, _copy_in):
            return module(*values)

    def _copy_out(self, tensor):
        self.choices["offloaded_tensors"] += 1
        return (tensor.device, tensor.to("cpu"))

    def _recompute(self, stage, micro, entry):
        """Runs the forward again with autograd, right before the first
        backward that needs its graph; the outputs equal the first run's."""
        self.choices["recompute"] += 1
        entry["recompute"] = False
        with self.profile_range("tessel:recompute %dF%d" % (stage, micro)):
            output = self.stages[stage].module(*entry["inputs"])
            if self.stages[stage].last:
                entry["roots"], entry["grads"] = [self.loss_fn(output)], None
            else:
                entry["outputs"] = list(output)

    def _leaves(self, values, micro, stage):
        """Detached copies of a stage's inputs, gradient-tracked as planned."""
        made = []
        for value, described in zip(values, self.probe.inputs(micro, stage)):
            if isinstance(value, torch.Tensor):
                value = value.detach()
                if described[3]:
                    value.requires_grad_(True)
            made.append(value)
        return made

    def _roots(self, stage, micro):
        entry = self.state[("stage", stage, micro)]
        if entry["recompute"]:
            self._recompute(stage, micro, entry)
        if "roots" not in entry:
            grads = self.state.pop(("grad", stage, micro), None)
            if grads is None:
                raise RuntimeError("action on %d/%d: the output gradients never arrived" % (stage, micro))
            outputs = [v for v in entry["outputs"] if isinstance(v, torch.Tensor) and v.requires_grad]
            entry["roots"], entry["grads"] = outputs, grads
        return entry

    def _grad_inputs(self, entry):
        return [v for v in entry["inputs"] if isinstance(v, torch.Tensor) and v.requires_grad]

    def _hand_back(self, stage, micro, grads):
        """Input gradients: kept for SEND_B, or given to the previous stage
        when it lives on this rank."""
        if stage > 0 and self._rank_of(stage - 1) == self.rank:
            self.state[("grad", stage - 1, micro)] = grads
        else:
            self.state[("grad_in", stage, micro)] = grads

    def _b(self, stage, micro):
        entry = self._roots(stage, micro)
        inputs = self._grad_inputs(entry)
        if entry["roots"]:
            torch.autograd.backward(entry["roots"], entry["grads"])
        grads = [v.grad if v.grad is not None else torch.zeros_like(v) for v in inputs]
        self._hand_back(stage, micro, grads)
        del self.state[("stage", stage, micro)]

    def _i(self, stage, micro):
        entry = self._roots(stage, micro)
        inputs = self._grad_inputs(entry)
        grads = []
        if inputs and entry["roots"]:
            found = torch.autograd.grad(entry["roots"], inputs, entry["grads"], retain_graph=True,
                                        allow_unused=True)
            grads = [g if g is not None else torch.zeros_like(v) for g, v in zip(found, inputs)]
        self._hand_back(stage, micro, grads)

    def _w(self, stage, micro):
        entry = self._roots(stage, micro)
        params = [p for p in self.stages[stage].module.parameters() if p.requires_grad]
        if params and entry["roots"]:
            found = torch.autograd.grad(entry["roots"], params, entry["grads"], allow_unused=True)
            with torch.no_grad():
                for param, grad in zip(params, found):
                    if grad is None:
                        continue
                    if param.grad is None:
                        param.grad = grad.clone()
                    else:
                        param.grad += grad
        del self.state[("stage", stage, micro)]

    # -- communication ------------------------------------------------------
    def _send_f(self, stage, micro):
        outputs = self.state[("stage", stage, micro)]["outputs"]
        peer = self._rank_of(stage + 1)
        for position, value in enumerate(outputs):
            if isinstance(value, torch.Tensor):
                tag = self._tag(micro, stage + 1, False, position)
                self.pending_sends.append(dist.isend(value.detach().contiguous(), peer, tag=tag))

    def _recv_f(self, stage, micro):
        """Posts the receives of the stage's inputs; F waits for them."""
        peer = self._rank_of(stage - 1)
        values, works = [], []
        for position, described in enumerate(self.probe.inputs(micro, stage)):
            if described[0] != "tensor":
                values.append(described[1])
                continue
            buffer = torch.empty(described[1], dtype=described[2])
            works.append(dist.irecv(buffer, peer, tag=self._tag(micro, stage, False, position)))
            values.append(buffer)
        self.state[("recv_f", stage, micro)] = (works, values, peer)

    def _send_b(self, stage, micro):
        grads = self.state.pop(("grad_in", stage, micro))
        peer = self._rank_of(stage - 1)
        for position, grad in enumerate(grads):
            tag = self._tag(micro, stage, True, position)
            self.pending_sends.append(dist.isend(grad.contiguous(), peer, tag=tag))

    def _recv_b(self, stage, micro):
        """Posts the receives of the output gradients; B or I waits for them."""
        peer = self._rank_of(stage + 1)
        grads, works = [], []
        wanted = [d for d in self.probe.inputs(micro, stage + 1) if d[0] == "tensor" and d[3]]
        for position, described in enumerate(wanted):
            buffer = torch.empty(described[1], dtype=described[2])
            works.append(dist.irecv(buffer, peer, tag=self._tag(micro, stage + 1, True, position)))
            grads.append(buffer)
        self.state[("recv_b", stage, micro)] = (works, grads, peer)

    def _await_receives(self, action):
        """Before F (B, I): waits for the posted receive of its inputs (output
        gradients), with the run's timeout."""
        if action.kind == "F":
            posted = self.state.pop(("recv_f", action.stage, action.micro), None)
            if posted is not None:
                self._wait(posted[0], action.name, "%dRECV_F%d" % (action.stage, action.micro), posted[2])
                self.state[("in", action.stage, action.micro)] = self._leaves(posted[1], action.micro, action.stage)
        elif action.kind in ("B", "I"):
            posted = self.state.pop(("recv_b", action.stage, action.micro), None)
            if posted is not None:
                self._wait(posted[0], action.name, "%dRECV_B%d" % (action.stage, action.micro), posted[2])
                self.state[("grad", action.stage, action.micro)] = posted[1]

    def _wait(self, works, name, receive, peer):
        began = time.monotonic()
        for work in works:
            try:
                work.wait()
            except RuntimeError as error:
                raise ReceiveTimeout("rank %d waited %.1f s before %s for the data of %s from rank %d: %s"
                                     % (self.rank, time.monotonic() - began, name, receive, peer,
                                        str(error).splitlines()[0])) from None
