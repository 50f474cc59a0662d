"""QR codes for cable labels, many at a time: a batch encoder over numpy arrays.

A hall's labels need one code per cable (98,304 at 32,768 GPUs). reportlab's encoder builds a
symbol in pure Python (Reed–Solomon by polynomial objects, module by module) and its mask
choice builds all eight masked symbols: 3–7 ms a code, minutes for a hall. segno, the
maintained pure-Python encoder, measured 6.7 ms a code here, no faster. So the codes are
encoded here in batches, every step an array operation over all the codes of one version:

- byte mode (UTF-8), error correction level M; the bit stream, padding and block split of
  ISO/IEC 18004 §7.4 (capacities and block structure from reportlab's tables);
- Reed–Solomon error correction words by a shift-register over GF(256), one step per data
  word for the whole batch;
- the function patterns (finders, timing, alignment, format and version information) taken
  once per version and mask from reportlab's symbol, so they are the standard's by
  construction; data bits placed along the standard's zigzag (reportlab's own order);
- the mask chosen per code by the ISO/IEC 18004 §7.8.3 penalty rules (N1 runs, N2 blocks, N3
  finder-like patterns, N4 dark balance), scored for all eight masks of all codes at once.

``tests/unit/export/test_qr.py`` checks every symbol bit for bit against reportlab's for the
same mask. About 0.1 ms a code.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from PIL import Image
from reportlab.graphics.barcode import qrencoder

_LEVEL = qrencoder.QRErrorCorrectLevel.M
#: The smallest module a phone camera reads reliably off a label at arm's length (mm).
MIN_MODULE_MM = 0.33
#: Mode indicator of byte mode (ISO/IEC 18004 Table 2).
_BYTE_MODE = 0b0100
#: Finder-like 1:1:3:1:1 pattern with four light modules after it (and reversed, before it).
_FINDER = np.array([1, 0, 1, 1, 1, 0, 1, 0, 0, 0, 0], dtype=bool)
_FINDER_CODES = tuple(int(sum(int(bit) << k for k, bit in enumerate(p))) for p in (_FINDER, _FINDER[::-1]))
#: Codes scored for their mask at once (8 variants each): bounds the working arrays to ~100 MB.
_BATCH = 512

# GF(256) with the QR polynomial x^8 + x^4 + x^3 + x^2 + 1.
_EXP = np.zeros(512, dtype=np.int32)
_LOG = np.zeros(256, dtype=np.int32)
_value = 1
for _power in range(255):
    _EXP[_power] = _value
    _LOG[_value] = _power
    _value <<= 1
    if _value & 0x100:
        _value ^= 0x11D
_EXP[255:510] = _EXP[:255]


def _count_bits(version: int) -> int:
    """Length of the byte-mode character count field (ISO/IEC 18004 Table 3)."""
    return 8 if version < 10 else 16


@lru_cache(maxsize=64)
def _blocks(version: int) -> tuple[tuple[int, int], ...]:
    """(data words, total words) of each Reed–Solomon block of a level-M symbol."""
    return tuple((b.dataCount, b.totalCount) for b in qrencoder.QRRSBlock.getRSBlocks(version, _LEVEL))


def _capacity_bits(version: int) -> int:
    return 8 * sum(data for data, _total in _blocks(version))


def _needed_bits(size: int, version: int) -> int:
    return 4 + _count_bits(version) + 8 * size


def fits(payload: str, version: int) -> bool:
    """Whether ``payload`` encodes (byte mode, level M) in a symbol of at most ``version``."""
    return _needed_bits(len(payload.encode("utf-8")), version) <= _capacity_bits(version)


def version_for(payload: str) -> int:
    """The smallest version that holds ``payload``; ValueError past version 40."""
    size = len(payload.encode("utf-8"))
    for version in range(1, 41):
        if _needed_bits(size, version) <= _capacity_bits(version):
            return version
    raise ValueError(f"{size:,} bytes do not fit a QR code")


def max_version(symbol_mm: float, quiet: int = 1) -> int:
    """The largest QR version whose modules stay at least MIN_MODULE_MM on a symbol this wide
    (quiet zone included); at least 1, at most 40."""
    modules = int(symbol_mm / MIN_MODULE_MM) - 2 * quiet
    return max(1, min(40, (modules - 17) // 4))


# ------------------------------------------------------------------- the symbol
@lru_cache(maxsize=64)
def _layout(version: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per version: rows and columns of the data modules in placement order, the eight
    templates (function patterns and format information of each mask, data modules light) and
    the eight masks over the data modules."""
    code = qrencoder.QRCode(version, _LEVEL)
    code.addData(qrencoder.QR8bitByte(b""))
    templates = []
    for mask in range(8):
        code.makeImpl(False, mask)
        templates.append(np.array(code.modules, dtype=bool))
    positions = np.array(list(code.dataPosIterator()))
    cols, rows = positions[:, 0], positions[:, 1]
    masks = np.array([[bool(QR_MASKS[m](r, c)) for r, c in zip(rows, cols, strict=True)] for m in range(8)])
    stack = np.array(templates)
    stack[:, rows, cols] = False
    return rows, cols, stack, masks


#: The eight mask conditions (row i, column j) of ISO/IEC 18004 Table 10, in mask-number order.
QR_MASKS = (
    lambda i, j: (i + j) % 2 == 0,
    lambda i, j: i % 2 == 0,
    lambda i, j: j % 3 == 0,
    lambda i, j: (i + j) % 3 == 0,
    lambda i, j: (i // 2 + j // 3) % 2 == 0,
    lambda i, j: (i * j) % 2 + (i * j) % 3 == 0,
    lambda i, j: ((i * j) % 2 + (i * j) % 3) % 2 == 0,
    lambda i, j: ((i * j) % 3 + (i + j) % 2) % 2 == 0,
)


def _data_words(payloads: list[bytes], version: int) -> np.ndarray:
    """The data codewords of each payload (header, bytes, terminator, padding): (codes, words)."""
    words = _capacity_bits(version) // 8
    count_bits = _count_bits(version)
    out = np.empty((len(payloads), words), dtype=np.uint8)
    pad = bytes([0xEC, 0x11]) * (words // 2 + 1)
    for index, data in enumerate(payloads):
        # header (4 + 8 or 16 bits) then the bytes: everything sits 4 bits off the byte grid,
        # so shifting the whole as one integer by 4 aligns it, with the terminator as the low nibble
        header = (_BYTE_MODE << count_bits) | len(data)
        value = (header << (8 * len(data))) | int.from_bytes(data, "big")
        bits = 4 + count_bits + 8 * len(data)
        if bits + 4 <= 8 * words:
            value, bits = value << 4, bits + 4
        value <<= -bits % 8
        stream = value.to_bytes((bits + 7) // 8, "big")
        out[index] = np.frombuffer(stream + pad[:words - len(stream)], dtype=np.uint8)
    return out


@lru_cache(maxsize=64)
def _generator(degree: int) -> np.ndarray:
    """Coefficients (highest first, leading 1 dropped) of the RS generator polynomial as logs."""
    poly = [1]
    for power in range(degree):
        nxt = [0] * (len(poly) + 1)
        for i, coefficient in enumerate(poly):
            nxt[i] ^= coefficient
            if coefficient:
                nxt[i + 1] ^= int(_EXP[(_LOG[coefficient] + power) % 255])
        poly = nxt
    return _LOG[np.array(poly[1:])]


def _ecc(data: np.ndarray, degree: int) -> np.ndarray:
    """Reed–Solomon error correction words of every row of ``data`` (codes, words)."""
    generator = _generator(degree)
    register = np.zeros((data.shape[0], degree), dtype=np.int32)
    for column in range(data.shape[1]):
        factor = data[:, column].astype(np.int32) ^ register[:, 0]
        register[:, :-1] = register[:, 1:]
        register[:, -1] = 0
        live = factor != 0
        if live.any():
            logs = _LOG[factor[live]]
            register[live] ^= _EXP[logs[:, None] + generator[None, :]]
    return register.astype(np.uint8)


def _codewords(payloads: list[bytes], version: int) -> np.ndarray:
    """Final codewords (data then error correction, interleaved by block): (codes, words)."""
    data = _data_words(payloads, version)
    data_parts, ecc_parts, offset = [], [], 0
    for data_count, total in _blocks(version):
        part = data[:, offset:offset + data_count]
        offset += data_count
        data_parts.append(part)
        ecc_parts.append(_ecc(part, total - data_count))
    columns: list[np.ndarray] = []
    for parts in (data_parts, ecc_parts):
        for index in range(max(part.shape[1] for part in parts)):
            columns.extend(part[:, index] for part in parts if index < part.shape[1])
    return np.stack(columns, axis=1)


# ------------------------------------------------------------------ mask choice
def _runs_penalty(modules: np.ndarray) -> np.ndarray:
    """N1 along rows, per symbol: 3 + (length − 5) for each run of five or more same modules.

    A run of length L holds L − 4 windows of five equal modules; so the penalty is the number
    of such windows plus 2 for each run that has one (counted at the run's first window)."""
    same = modules[..., 1:] == modules[..., :-1]
    five = same[..., :-3] & same[..., 1:-2] & same[..., 2:-1] & same[..., 3:]
    starts = five.copy()
    starts[..., 1:] &= ~same[..., :five.shape[-1] - 1]
    return five.sum(axis=(-2, -1)) + 2 * starts.sum(axis=(-2, -1))


def penalties(symbols: np.ndarray) -> np.ndarray:
    """The ISO/IEC 18004 mask penalty of each symbol in a stack (lower is easier to scan).

    Symbols up to 64 modules a side (version 11, what a label holds) are scored on their rows
    packed into 64-bit words, 64 modules an operation; larger ones module by module."""
    return _packed_penalties(symbols) if symbols.shape[-1] <= 64 else _module_penalties(symbols)


def _module_penalties(symbols: np.ndarray) -> np.ndarray:
    """``penalties`` module by module, for symbols of any size."""
    transposed = symbols.swapaxes(-2, -1)
    score = _runs_penalty(symbols) + _runs_penalty(transposed)
    corner = symbols[..., :-1, :-1]
    blocks = (corner == symbols[..., 1:, :-1]) & (corner == symbols[..., :-1, 1:]) & (corner == symbols[..., 1:, 1:])
    score += 3 * blocks.sum(axis=(-2, -1))
    for view in (symbols, transposed):
        # each window of 11 modules as an 11-bit number, compared with the pattern's two numbers
        width = view.shape[-1] - _FINDER.size + 1
        wide = view.astype(np.int16)
        code = wide[..., :width].copy()
        for k in range(1, _FINDER.size):
            code |= wide[..., k:k + width] << k
        found = (code == _FINDER_CODES[0]).sum(axis=(-2, -1)) + (code == _FINDER_CODES[1]).sum(axis=(-2, -1))
        score += 40 * found
    dark = symbols.mean(axis=(-2, -1)) * 100
    score += 10 * (np.abs(dark - 50) // 5).astype(score.dtype)
    return score


def _packed(symbols: np.ndarray) -> np.ndarray:
    """Each row of each symbol as one 64-bit word, module j at bit j."""
    packed = np.packbits(symbols, axis=-1, bitorder="little")
    packed = np.pad(packed, [(0, 0)] * (packed.ndim - 1) + [(0, 8 - packed.shape[-1])])
    return np.ascontiguousarray(packed).view("<u8")[..., 0]


def _ones(words: np.ndarray) -> np.ndarray:
    """Set bits per symbol, over its rows."""
    return np.bitwise_count(words).sum(axis=-1, dtype=np.int64)


def _packed_penalties(symbols: np.ndarray) -> np.ndarray:
    """``penalties`` on packed rows: the same four rules, each bit a module (or a window)."""
    n = symbols.shape[-1]
    pairs = np.uint64((1 << (n - 1)) - 1)  # bit j: modules j and j + 1 both exist
    windows = np.uint64((1 << max(0, n - _FINDER.size + 1)) - 1)  # bit j: a window j … j + 10
    score = np.zeros(symbols.shape[:-2], dtype=np.int64)
    rows = _packed(symbols)
    for words in (rows, _packed(symbols.swapaxes(-2, -1))):
        same = ~(words ^ (words >> 1)) & pairs
        five = same & (same >> 1) & (same >> 2) & (same >> 3)  # N1: five equal modules from j
        score += _ones(five) + 2 * _ones(five & ~(same << 1))
        for pattern in (_FINDER, _FINDER[::-1]):  # N3
            found = np.full(words.shape, windows)
            for k, dark in enumerate(pattern):
                found &= (words >> k) if dark else ~(words >> k)
            score += 40 * _ones(found)
        if words is rows:  # N2: equal to the right, below, and below-right (via the right one)
            below = ~(words[..., :-1] ^ words[..., 1:])
            score += 3 * _ones(same[..., :-1] & below & (below >> 1))
    dark = _ones(rows) / (n * n) * 100
    score += 10 * (np.abs(dark - 50) // 5).astype(score.dtype)
    return score


def qr_symbols(payloads: list[str], version: int, mask: int | None = None) -> np.ndarray:
    """QR symbols of ``version`` for payloads that fit it: (codes, n, n) booleans, True = dark.

    ``mask`` None picks each code's best mask by the penalty rules; a number forces that mask.
    """
    rows, cols, templates, masks = _layout(version)
    encoded = [payload.encode("utf-8") for payload in payloads]
    out = np.empty((len(encoded), *templates.shape[1:]), dtype=bool)
    for start in range(0, len(encoded), _BATCH):
        words = _codewords(encoded[start:start + _BATCH], version)
        bits = np.zeros((words.shape[0], rows.size), dtype=bool)
        unpacked = np.unpackbits(words, axis=1).astype(bool)
        bits[:, :unpacked.shape[1]] = unpacked
        chosen = range(8) if mask is None else (mask,)
        variants = np.repeat(templates[list(chosen)][None], words.shape[0], axis=0)
        for slot, m in enumerate(chosen):
            variants[:, slot, rows, cols] = bits ^ masks[m]
        best = np.argmin(penalties(variants), axis=1) if mask is None else np.zeros(words.shape[0], dtype=int)
        out[start:start + words.shape[0]] = variants[np.arange(words.shape[0]), best]
    return out


def qr_matrices(payloads: list[str]) -> list[np.ndarray]:
    """The QR code of every payload (each in the smallest version that holds it)."""
    by_version: dict[int, list[int]] = {}
    for index, payload in enumerate(payloads):
        by_version.setdefault(version_for(payload), []).append(index)
    result: list[np.ndarray] = [np.empty(0)] * len(payloads)
    for version, indices in by_version.items():
        for index, symbol in zip(indices, qr_symbols([payloads[i] for i in indices], version), strict=True):
            result[index] = symbol
    return result


def qr_matrix(payload: str) -> np.ndarray:
    """The QR code (byte mode, level M) of one payload, True = dark."""
    return qr_matrices([payload])[0]


def qr_image(matrix: np.ndarray, quiet: int = 1) -> Image.Image:
    """A one-pixel-per-module greyscale image of a QR matrix with a light quiet zone."""
    padded = np.pad(~matrix, quiet, constant_values=True)
    return Image.fromarray(padded.astype(np.uint8) * 255, mode="L")
