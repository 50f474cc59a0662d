"""The previous backup is kept until the new file is in place (issue 19): a save whose final
rename is refused (an immutable plan file, ``chattr +i``) leaves ``NAME.hall.bak`` as it was;
a backup that cannot be replaced leaves the target as it was."""

from __future__ import annotations

import errno
import json
import os

import pytest

from planner.io import HallSaveError, atomic, save


def _revision(path) -> str:
    return json.loads(path.read_text(encoding="utf-8"))["meta"]["revision"]


@pytest.fixture
def two_revisions(core_doc, tmp_path):
    """plan.hall at revision B with plan.hall.bak at revision A; the document now at C."""
    target = tmp_path / "plan.hall"
    core_doc.meta.revision = "A"
    save(core_doc, target)
    core_doc.meta.revision = "B"
    save(core_doc, target)
    core_doc.meta.revision = "C"
    assert _revision(target) == "B" and _revision(tmp_path / "plan.hall.bak") == "A"
    return core_doc, target


def _refuse_renames_onto(monkeypatch, refused) -> list[tuple[str, str]]:
    """``os.replace`` in the atomic writer refuses (EPERM, as for an immutable file) every rename
    whose destination is ``refused``; returns the renames tried."""
    real = os.replace
    tried: list[tuple[str, str]] = []

    def replace(src, dst, *args, **kwargs):
        tried.append((os.fspath(src), os.fspath(dst)))
        if os.fspath(dst) == str(refused):
            raise PermissionError(errno.EPERM, "Operation not permitted", str(dst))
        return real(src, dst, *args, **kwargs)
    monkeypatch.setattr(atomic.os, "replace", replace)
    return tried


def test_a_refused_final_rename_keeps_the_previous_backup(two_revisions, monkeypatch):
    doc, target = two_revisions
    backup = target.with_name("plan.hall.bak")
    plan_before, backup_before = target.read_bytes(), backup.read_bytes()
    tried = _refuse_renames_onto(monkeypatch, target)
    with pytest.raises(HallSaveError) as info:
        save(doc, target)
    assert info.value.filename == str(target) and "not permitted" in info.value.strerror
    assert any(dst == str(target) for _src, dst in tried)  # the final rename was tried, and refused
    assert target.read_bytes() == plan_before
    assert backup.read_bytes() == backup_before and _revision(backup) == "A"
    assert sorted(p.name for p in target.parent.iterdir()) == ["plan.hall", "plan.hall.bak"]


def test_the_backup_is_replaced_only_after_the_new_file_is_in_place(two_revisions, monkeypatch):
    doc, target = two_revisions
    backup = target.with_name("plan.hall.bak")
    tried = _refuse_renames_onto(monkeypatch, "nothing is refused")
    save(doc, target)
    destinations = [dst for _src, dst in tried]
    assert destinations.index(str(target)) < destinations.index(str(backup))
    assert _revision(target) == "C" and _revision(backup) == "B"


def test_a_backup_that_cannot_be_replaced_leaves_the_target_as_it_was(two_revisions, monkeypatch):
    doc, target = two_revisions
    backup = target.with_name("plan.hall.bak")
    inode, backup_before = target.stat().st_ino, backup.read_bytes()
    _refuse_renames_onto(monkeypatch, backup)
    with pytest.raises(HallSaveError) as info:
        save(doc, target)
    assert "plan.hall.bak" in info.value.strerror
    assert _revision(target) == "B" and target.stat().st_ino == inode  # the old file itself, back
    assert backup.read_bytes() == backup_before
    assert sorted(p.name for p in target.parent.iterdir()) == ["plan.hall", "plan.hall.bak"]
