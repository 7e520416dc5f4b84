"""Offline compilation for sm_90a and SASS extraction, on a machine with no GPU.

Kernels are bound through Triton's own argument binder with a fixed sm_90a target, so the
specialisation (argument types, 16-divisibility, constexprs, options) is exactly the one the JIT picks
when it launches the same arguments on a GPU. Cubins are cached on disk by a hash of everything that
determines them.
"""
import hashlib
import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

import triton

TARGET_ARCH = 90


def _bin(tool: str) -> str:
    return str(Path(triton.__file__).parent / "backends" / "nvidia" / "bin" / tool)


def cache_dir() -> Path:
    d = Path(os.environ.get("DHPFA_CACHE", Path.home() / ".cache" / "dhpfa")) / "cubins"
    d.mkdir(parents=True, exist_ok=True)
    return d


@dataclass
class Compiled:
    name: str          # kernel (function) name inside the cubin
    cubin: bytes
    cached: bool

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.cubin).hexdigest()


def _target():
    from triton.backends.compiler import GPUTarget
    return GPUTarget("cuda", TARGET_ARCH, 32)


def bind(fn, args, kwargs):
    """Triton's binder on a fixed sm_90a target: (signature, constexprs, attrs, options)."""
    if not hasattr(fn, "_pack_args"):
        raise RuntimeError(f"{getattr(fn, '__name__', fn)} was defined under TRITON_INTERPRET=1, so it has no "
                           "compiled form; run the audit in a process without TRITON_INTERPRET=1")
    from triton.compiler import make_backend
    from triton.runtime.jit import create_function_from_signature
    backend = make_backend(_target())
    binder = create_function_from_signature(fn.signature, fn.params, backend)
    kwargs = dict(kwargs)
    kwargs.setdefault("debug", False)
    kwargs.setdefault("instrumentation_mode", "")
    bound_args, specialization, options = binder(*args, **kwargs)
    options, signature, constexprs, attrs = fn._pack_args(backend, kwargs, bound_args, specialization, options)
    return signature, constexprs, attrs, options


def _source_class(fn):
    """Gluon kernels start from TTGIR (GluonASTSource), Triton kernels from TTIR (ASTSource)."""
    from triton.compiler import ASTSource
    try:
        from triton.experimental.gluon._runtime import GluonASTSource, GluonJITFunction
    except ImportError:  # a Triton without Gluon
        return ASTSource
    return GluonASTSource if isinstance(fn, GluonJITFunction) else ASTSource


def _source_and_key(fn, args, kwargs):
    """(compiler source, options, key): the key names the binary these arguments compile to (Triton's version, the
    source with its specialisation and constexprs, the options); equal keys, equal binaries."""
    signature, constexprs, attrs, options = bind(fn, args, kwargs)
    src = _source_class(fn)(fn, signature, constexprs, attrs)
    return src, options, hashlib.sha256(f"{triton.__version__}|{src.hash()}|{options.hash()}".encode()).hexdigest()[:32]


def binary_key(fn, args, kwargs) -> str:
    """The key of the binary compile_offline gives for these arguments (no compilation)."""
    return _source_and_key(fn, args, kwargs)[2]


def compile_offline(fn, args, kwargs, use_cache=True) -> Compiled:
    """Compile a @triton.jit or @gluon.jit function for sm_90a as the JIT would for these arguments."""
    src, options, key = _source_and_key(fn, args, kwargs)
    path = cache_dir() / f"{fn.__name__}-{key}.cubin"
    if use_cache and path.exists():
        return Compiled(fn.__name__, path.read_bytes(), True)
    ck = triton.compile(src, target=_target(), options=options.__dict__)
    cubin = ck.asm["cubin"]
    tmp = path.with_suffix(f".tmp{os.getpid()}")
    tmp.write_bytes(cubin)
    tmp.replace(path)
    return Compiled(ck.metadata.name, cubin, False)


def _run(tool, *argv):
    res = subprocess.run([_bin(tool), *argv], capture_output=True, text=True)
    if res.returncode != 0:
        raise RuntimeError(f"{tool} {' '.join(argv)} failed: {res.stderr.strip()}")
    return res.stdout


def _with_file(cubin: bytes, fn):
    import tempfile
    with tempfile.NamedTemporaryFile(suffix=".cubin") as f:
        f.write(cubin)
        f.flush()
        return fn(f.name)


def sass_text(cubin: bytes) -> str:
    """cuobjdump -sass of an in-memory cubin."""
    return _with_file(cubin, lambda p: _run("cuobjdump", "-sass", p))


def sass_text_of_file(path: str) -> str:
    return _run("cuobjdump", "-sass", str(path))


_RAW_LINE = re.compile(r"/\*([0-9a-f]{4,})\*/(\s+)(.*?\s*;)")
_CODE_TARGET = re.compile(r"^((?:@!?U?P\w+\s+)?(?:BRA|BSSY|CALL|JMP|RET)\b.*?)(0x[0-9a-f]+)(\s*;)$")


def sass_texts(cubins) -> list:
    """The `cuobjdump -sass` listing of each cubin (its functions' names and instructions, as parse_functions reads
    them), from one nvdisasm run over all of their code: every function's .text section goes into one raw instruction
    file (`nvdisasm -b SM90a`), and the listing is cut back into functions, each address (and the code address a BRA,
    BSSY, CALL, JMP or RET prints) made relative to the function's start again, as cuobjdump prints them. cuobjdump runs
    nvdisasm once per cubin, and its start-up (about 0.4 s) was most of an audit's disassembly time (session 22):
    here it is paid once per batch. tests/test_audit.py compares the two listings."""
    import bisect
    import tempfile
    funcs, blob = [], bytearray()  # (cubin index, function, base, size)
    for i, cubin in enumerate(cubins):
        for sec, code in elf_sections(bytes(cubin)).items():
            if not sec.startswith(".text.") or not code:
                continue
            if len(code) % 16:
                raise ValueError(f"{sec}: {len(code)} bytes of code, not whole 16-byte instructions")
            funcs.append((i, sec[len(".text."):], len(blob), len(code)))
            blob += code
    texts = [[] for _ in cubins]
    if not funcs:
        return ["" for _ in cubins]
    with tempfile.NamedTemporaryFile(suffix=".bin") as f:
        f.write(blob)
        f.flush()
        listing = _run("nvdisasm", "-b", "SM90a", f.name)
    bases = [base for _, _, base, _ in funcs]
    lines = {k: [] for k in range(len(funcs))}
    for line in listing.splitlines():
        m = _RAW_LINE.search(line)
        if not m:
            continue
        addr = int(m.group(1), 16)
        k = bisect.bisect_right(bases, addr) - 1
        base = bases[k]
        body = m.group(3)
        t = _CODE_TARGET.match(body)
        if t:
            body = f"{t.group(1)}{int(t.group(2), 16) - base:#x}{t.group(3)}"
        lines[k].append(f"        /*{addr - base:04x}*/{m.group(2)}{body}")
    for k, (i, name, base, size) in enumerate(funcs):
        if len(lines[k]) != size // 16:
            raise RuntimeError(f"nvdisasm listed {len(lines[k])} instructions of {name}, which has {size // 16}")
        texts[i].append(f"\t\tFunction : {name}\n" + "\n".join(lines[k]) + "\n")
    return ["".join(t) for t in texts]


_RES = re.compile(r"Function (\S+):\s*\n\s*REG:(\d+) STACK:(\d+) SHARED:(\d+) LOCAL:(\d+)")


def resource_usage(cubin: bytes) -> dict:
    """Registers, stack, shared and local bytes per function (cuobjdump -res-usage)."""
    text = _with_file(cubin, lambda p: _run("cuobjdump", "-res-usage", p))
    return {m.group(1): dict(regs=int(m.group(2)), stack=int(m.group(3)), shared=int(m.group(4)),
                             local=int(m.group(5))) for m in _RES.finditer(text)}


def elf_sections(data: bytes) -> dict:
    """{section name: bytes} of an ELF64 little-endian file (a cubin); NOBITS sections are empty."""
    import struct
    if data[:4] != b"\x7fELF" or data[4] != 2:
        return {}
    shoff = struct.unpack_from("<Q", data, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3a)
    heads = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    strtab = heads[shstrndx][4]

    def name(off):
        end = data.index(b"\0", strtab + off)
        return data[strtab + off:end].decode(errors="replace")
    return {name(h[0]): (b"" if h[1] == 8 else data[h[4]:h[4] + h[5]]) for h in heads}


def jump_tables(data: bytes) -> dict:
    """{function: bytes of .nv.constant2.<function>}: the jump tables of indirect branches."""
    prefix = ".nv.constant2."
    return {k[len(prefix):]: v for k, v in elf_sections(data).items() if k.startswith(prefix)}
