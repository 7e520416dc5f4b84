"""What every GPU measurement needs first: a CUDA device, or a clear message instead of a traceback."""
import sys

import torch


class NoGpu(SystemExit):
    pass


def require_cuda(what: str):
    if not torch.cuda.is_available():
        print(f"dhpfa {what}: needs a CUDA GPU (Hopper: H100/H200); none is visible on this machine.",
              file=sys.stderr)
        raise NoGpu(2)
    return torch.device("cuda")


def device_name() -> str:
    p = torch.cuda.get_device_properties(0)
    return f"{p.name} ({p.multi_processor_count} SMs, sm_{p.major}{p.minor})"
