# Type stubs for the compiled core of `import tessel` (docs/python.md).
# Written by hand next to python/*.cpp: keep the two in step (the pytest
# suite checks that every name here exists in the module and vice versa).
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Union

Number = Union[int, float]
# One limit for every device, one per device, or a byte amount such as "40GiB".
MemoryLimit = Union[Number, str, Sequence[Union[Number, str]]]

class InputError(ValueError):
    """Bad input: `file`, `field` and `reason` say where and what."""
    file: str
    field: str
    reason: str

class DeadlockError(ValueError):
    """A per-device order that cannot run (a device waits on itself)."""

class Placement:
    def __init__(self, ndevs: int, name: str = "") -> None: ...
    @staticmethod
    def builtin(name: str, ndevs: int, infer: bool = False) -> "Placement": ...
    @staticmethod
    def load(path: str) -> "Placement": ...
    def add_block(self, id: str, kind: str, span: Number, memory: Number, devices: Sequence[int],
                  stage: Optional[int] = None) -> None: ...
    def add_edge(self, a: str, b: str, delay: Number = 0) -> None: ...
    def offer_recompute(self, block: str, span: Number, before: str,
                        checkpoint_memory: Optional[Number] = None) -> None: ...
    def offer_offload(self, block: str, out: Number, in_: Number, before: str) -> None: ...
    def check(self) -> None: ...
    def save(self, path: str) -> None: ...
    def to_json(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def ndevs(self) -> int: ...
    @property
    def blocks(self) -> list[dict]: ...
    @property
    def edges(self) -> list[tuple[str, str, Number]]: ...
    @property
    def lower_bound(self) -> Number: ...

class Schedule:
    @staticmethod
    def load(path: str) -> "Schedule": ...
    def save(self, path: str) -> None: ...
    def unroll(self, nmicros: int) -> "Schedule": ...
    def to_pytorch_csv(self, path: str, comms: bool = False) -> None: ...
    def to_svg(self, path: str, width: int = 1200, start: Optional[Number] = None, end: Optional[Number] = None) -> None: ...
    def to_chrome_trace(self, path: str) -> None: ...
    def timeline(self, max_steps: int = 200, start: Optional[Number] = None, end: Optional[Number] = None) -> str: ...
    def to_json(self) -> str: ...
    @property
    def placement(self) -> Placement: ...
    @property
    def nmicros(self) -> int: ...
    @property
    def makespan(self) -> Number: ...
    @property
    def instances(self) -> list[tuple[str, int, Number]]: ...
    @property
    def memory_limit(self) -> list[Number]: ...
    @property
    def repetend(self) -> Optional[dict]: ...

class Graph:
    @staticmethod
    def load(path: str) -> "Graph": ...
    @staticmethod
    def from_json(text: str) -> "Graph": ...
    def save(self, path: str) -> None: ...
    def to_json(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def nodes(self) -> int: ...
    @property
    def edges(self) -> int: ...
    @property
    def total_compute(self) -> Number: ...
    @property
    def total_param_bytes(self) -> Number: ...

class Result:
    status: str  # found | infeasible | timeout | interrupted
    message: str
    period: Optional[Number]
    lower_bound: Optional[Number]
    proven_lower_bound: Optional[Number]
    micros_per_window: int
    optimal: bool
    makespan: Optional[Number]
    makespan_bound: Optional[Number]
    makespan_proven_optimal: bool
    shape: str  # repetend | staged | aperiodic
    construction: str
    gap_reason: str  # why the makespan stays above its bound, in words ("" within 1%)
    gap: Dict[str, Any]  # the same as data: cause, boundary, and the numbers behind them
    candidates: list[dict]
    rejected: list[dict]
    schedule: Optional[Schedule]
    repetend: Optional[Schedule]
    seconds: float
    certificate: Optional[Dict[str, Any]]  # certify=DIR: directory, certified, claims

class Report:
    valid: bool
    makespan: Number
    bubble_ratio: float
    peak_memory: list[Number]
    notes: list[str]
    @property
    def violations(self) -> list[dict]: ...
    @property
    def violation_counts(self) -> dict[str, int]: ...
    def text(self) -> str: ...

class Plan:
    status: str  # found | infeasible | timeout | interrupted
    message: str  # why no schedule (e.g. static memory over the limit), or what a time limit kept
    mapping: str  # chain | interleaved | v: of the plan written (may be a chain kept over the asked one)
    split_backward: bool
    chunks: int
    cut: str  # exact bottleneck | rank-balanced
    choice: str  # what was asked, what is written and why
    schedule: Optional[Schedule]  # verified, all nmicros micro-batches, times in `unit`
    placement: Placement
    unit: str  # "s" (with device_flops or a measured graph) or "GFLOP" (compute, not time)
    makespan: Optional[float]  # in `unit`
    makespan_ms: Optional[float]  # milliseconds per training step, with a device speed
    lower_bound: Optional[float]  # proven, in `unit`
    one_f_one_b: Optional[float]  # the 1F1B chain at the same memory, in `unit`
    ratio_to_1f1b: Optional[float]
    bubble_ratio: float
    peak_memory: list[int]  # bytes per rank, static memory included
    static_memory: list[int]  # bytes per rank: parameters, gradients, optimizer state
    csv: str  # PyTorch's compute-only action table
    comms_csv: str  # with SEND_F/RECV_F/SEND_B/RECV_B
    report: str  # report.md
    stages: dict[str, Any]  # the tessel.stages/1 document (stages.json)
    memory_choices: Optional[dict[str, Any]]  # tessel.memory_choices/1 (memory_choices.json); None without a schedule
    summary: dict[str, Any]  # the `tessel plan --json` object, every candidate compared

def cases() -> list[str]: ...
def schemes() -> list[str]: ...
def search(placement: Placement, memory: MemoryLimit, strategy: str = "repetend", backend: str = "cadical",
           total_micros: int = 128, time_limit: Optional[float] = None, threads: Optional[int] = None,
           nmicros: Optional[int] = None, micros_per_window: int = 0, tune: Mapping[str, float] = ...,
           on_improved: Optional[Callable[[Schedule, str, Number], None]] = None,
           certify: Optional[str] = None, certify_seconds: float = 60) -> Result: ...
def tuning_knobs() -> List[Dict[str, Any]]: ...
def verify(schedule: Schedule, memory: Optional[MemoryLimit] = None) -> Report: ...
def generate(scheme: str, stages: int, nmicros: int, chunks: int = 0, span: Optional[Mapping[str, Number]] = None,
             memory: Optional[Mapping[str, Number]] = None, flavour: str = "megatron", group: int = 0,
             max_pending: int = 0) -> Schedule: ...
def import_schedule(format: str, path: str, span: Optional[Mapping[str, Number]] = None,
                    memory: Optional[Mapping[str, Number]] = None, dialect: str = "current",
                    nmicros: Optional[int] = None, chunks: Optional[int] = None,
                    placement: Optional[Placement] = None) -> Schedule: ...
def partition(graph: Graph, stages: Optional[int] = None, *, devices: Optional[int] = None, mapping: str = "chain",
              chunks: Optional[int] = None, split_backward: bool = False, optimizer_bytes_per_param: float = 8.0,
              param_bytes: int = 4, time_limit: Optional[float] = None) -> Placement: ...
def plan(graph: Graph, devices: int, mapping: str = "chain", memory: Optional[MemoryLimit] = None, *,
         chunks: Optional[int] = None, split_backward: bool = False, nmicros: int = 16,
         time_limit: Optional[float] = 60.0, optimizer_bytes_per_param: float = 8.0, param_bytes: int = 4,
         output: Optional[str] = None, device_flops: float = 0.0, link_bandwidth: float = 0.0,
         link_latency: float = 0.0, progress: Optional[Callable[[str], None]] = None,
         recompute: str = "none", host_bandwidth: float = 0.0) -> Plan: ...
