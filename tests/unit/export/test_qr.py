"""The batch QR encoder (planner/export/qr.py) against reportlab's encoder, bit for bit."""

from __future__ import annotations

import numpy as np
import pytest
from reportlab.graphics.barcode import qrencoder

from planner.export import qr

PAYLOADS = ["", "R01-U01-N1-P1 ↔ R05-U01-L1-1/1", "Зал №1 <A&B> 机房", "x" * 90, "😀" * 40,
            "R01-U01-N1-P1 ↔ R05-U01-L1-1/1\nR01 U1 N1 P1\nR05 U1 L1 1/1", "9" * 700]


def _reportlab(payload: str, version: int, mask: int) -> np.ndarray:
    code = qrencoder.QRCode(version, qrencoder.QRErrorCorrectLevel.M)
    code.addData(qrencoder.QR8bitByte(payload))
    code.makeImpl(False, mask)
    return np.array(code.modules, dtype=bool)


@pytest.mark.parametrize("payload", PAYLOADS)
def test_every_mask_gives_reportlabs_symbol_bit_for_bit(payload):
    version = qr.version_for(payload)
    for mask in range(8):
        assert (qr.qr_symbols([payload], version, mask=mask)[0] == _reportlab(payload, version, mask)).all()


def test_a_batch_gives_each_code_what_it_gets_alone():
    batch = qr.qr_matrices(PAYLOADS)
    assert all((matrix == qr.qr_matrix(payload)).all() for matrix, payload in zip(batch, PAYLOADS, strict=True))
    assert {matrix.shape[0] for matrix in batch} != {batch[0].shape[0]}  # several versions in one batch


@pytest.mark.parametrize("payload", PAYLOADS[1:4])
def test_the_chosen_mask_has_the_lowest_penalty(payload):
    version = qr.version_for(payload)
    variants = np.array([_reportlab(payload, version, mask) for mask in range(8)])
    scores = qr.penalties(variants)
    assert (qr.qr_matrix(payload) == variants[int(np.argmin(scores))]).all()


def test_mask_penalty_worked_by_hand():
    blank = np.zeros((1, 21, 21), dtype=bool)
    # N1: 42 runs of 21 → 42 × (3 + 16) = 798; N2: 20 × 20 blocks × 3 = 1200; N3: none; N4: 0 % dark → 10 × 10
    assert qr.penalties(blank)[0] == 798 + 1200 + 0 + 100
    finder = np.zeros((1, 21, 21), dtype=bool)
    finder[0, 5, :11] = [1, 0, 1, 1, 1, 0, 1, 0, 0, 0, 0]
    # N1: row 5 becomes runs 1,1,3,1,1 and 14 light (3 + 9 = 12, was 19): −7; columns 0, 2, 3,
    # 4, 6 each become 5 light, 1 dark, 15 light (3 + 13 = 16, was 19): −15 → 776.
    # N2: the blocks over rows 4–5 and 5–6 at columns 0–6 touch a dark module: 1200 − 3 × 14 = 1158.
    # N3: the pattern once, in row 5: 40. N4: 5 of 441 dark, 1.1 %: 48 % off, 9 steps → 90.
    assert qr.penalties(finder)[0] == 776 + 1158 + 40 + 90


def test_capacity_follows_the_standard():
    # ISO/IEC 18004 Table 7, level M byte mode: version 1 holds 14 bytes, version 10 holds 213
    assert qr.fits("x" * 14, 1) and not qr.fits("x" * 15, 1)
    assert qr.fits("x" * 213, 10) and not qr.fits("x" * 214, 10)
    assert qr.version_for("x" * 2331) == 40
    with pytest.raises(ValueError):
        qr.version_for("x" * 2332)
