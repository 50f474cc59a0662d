"""Saving never loses the plan (issue 10): the target exists, whole, at every instant; the old
file becomes the backup by link or copy; a failure of any kind leaves the target as it was and
no temporary behind; a folder is refused; stale temporaries of a crash are cleaned."""

from __future__ import annotations

import errno
import json
import os
import stat
import time

import pytest

from planner.io import HallSaveError, atomic, dumps, load, save
from planner.io.atomic import TEMP_SUFFIX, remove_stale_temporaries


@pytest.fixture
def saved(core_doc, tmp_path):
    """A plan saved once at plan.hall (revision A), its document now at revision B."""
    target = tmp_path / "plan.hall"
    save(core_doc, target)
    core_doc.meta.revision = "B"
    return core_doc, target


def _revision(path) -> str:
    return json.loads(path.read_text(encoding="utf-8"))["meta"]["revision"]


def test_the_target_exists_whole_at_every_step(saved, monkeypatch):
    """Every file-system step of a save happens while the target holds a whole plan."""
    doc, target = saved
    seen = []

    def watching(name):
        real = getattr(os, name)

        def step(*args, **kwargs):
            seen.append((name, _revision(target)))  # the target parses: it exists and is whole
            return real(*args, **kwargs)
        return step

    for name in ("replace", "link", "unlink", "fsync", "rename"):
        monkeypatch.setattr(atomic.os, name, watching(name))
    save(doc, target)
    assert ("replace", "A") in seen and ("link", "A") in seen and "rename" not in {n for n, _r in seen}
    assert _revision(target) == "B" and _revision(target.with_name("plan.hall.bak")) == "A"
    assert sorted(p.name for p in target.parent.iterdir()) == ["plan.hall", "plan.hall.bak"]


def test_the_backup_is_a_hard_link_or_else_a_copy(saved, monkeypatch):
    doc, target = saved
    inode = target.stat().st_ino
    save(doc, target)
    assert target.with_name("plan.hall.bak").stat().st_ino == inode  # the old file itself, never moved
    doc.meta.revision = "C"

    def no_links(*_args):
        raise OSError(errno.EPERM, "Operation not permitted")
    monkeypatch.setattr(atomic.os, "link", no_links)
    save(doc, target)
    assert _revision(target) == "C" and _revision(target.with_name("plan.hall.bak")) == "B"


@pytest.mark.parametrize("step, error", [
    ("fsync", OSError(errno.ENOSPC, "No space left on device")),
    ("fchmod", OSError(errno.EFBIG, "File too large")),
    ("replace", OSError(errno.EROFS, "Read-only file system")),
    ("link", OSError(errno.EACCES, "Permission denied")),
])
def test_a_failure_leaves_the_old_file_and_no_temporary(saved, monkeypatch, step, error):
    doc, target = saved
    before = target.read_bytes()
    if step == "link":  # neither a link nor a copy can be made: the backup fails, the save with it
        monkeypatch.setattr(atomic.shutil, "copy2", lambda *_a: (_ for _ in ()).throw(error))

    def failing(*_args, **_kwargs):
        raise error
    monkeypatch.setattr(atomic.os, step, failing)
    with pytest.raises(HallSaveError) as info:
        save(doc, target)
    assert info.value.filename == str(target) and error.strerror in info.value.strerror
    assert target.read_bytes() == before
    assert sorted(p.name for p in target.parent.iterdir()) == ["plan.hall"]


def test_a_folder_is_refused_and_left_alone(core_doc, tmp_path):
    folder = tmp_path / "plans"
    folder.mkdir()
    (folder / "inside.txt").write_text("kept")
    with pytest.raises(HallSaveError, match="is a folder") as info:
        save(core_doc, folder)
    assert info.value.errno == errno.EISDIR and info.value.filename == str(folder)
    assert folder.is_dir() and (folder / "inside.txt").read_text() == "kept"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plans"]  # no plans.bak


def test_a_missing_folder_is_one_clear_error(core_doc, tmp_path):
    with pytest.raises(HallSaveError, match="folder does not exist") as info:
        save(core_doc, tmp_path / "nowhere" / "plan.hall")
    assert info.value.errno == errno.ENOENT


def test_a_read_only_folder_is_one_clear_error(saved, monkeypatch):
    doc, target = saved
    before = target.read_bytes()

    def denied(*_args, **_kwargs):
        raise PermissionError(errno.EACCES, "Permission denied", str(target.parent / ".plan.hall.x"))
    monkeypatch.setattr(atomic.tempfile, "mkstemp", denied)  # as root a chmod would not stop us
    with pytest.raises(HallSaveError) as info:
        save(doc, target)
    assert (info.value.filename, info.value.strerror) == (str(target), "Permission denied")
    assert target.read_bytes() == before


def test_stale_temporaries_of_a_crash_are_removed(saved):
    doc, target = saved
    directory = target.parent
    dead = directory / f".plan.hall.999999999.abcd1234{TEMP_SUFFIX}"  # no such process
    dead_backup = directory / f".plan.hall.bak.999999999.abcd{TEMP_SUFFIX}"
    old = directory / f".plan.hall.{os.getpid()}.old{TEMP_SUFFIX}"
    live = directory / f".plan.hall.{os.getpid()}.live{TEMP_SUFFIX}"  # ours, young: maybe a save under way
    other = directory / f".other.hall.999999999.x{TEMP_SUFFIX}"
    for path in (dead, dead_backup, old, live, other):
        path.write_text("partial")
    day_ago = time.time() - 2 * atomic.STALE_AFTER_S
    os.utime(old, (day_ago, day_ago))
    save(doc, target)
    left = {p.name for p in directory.iterdir()}
    assert left == {"plan.hall", "plan.hall.bak", live.name, other.name}
    assert remove_stale_temporaries(directory, "other.hall") == [other]


def test_a_symbolic_link_stays_a_link(saved, tmp_path):
    doc, target = saved
    link = tmp_path / "current.hall"
    link.symlink_to(target)
    save(doc, link)
    assert link.is_symlink() and _revision(target) == "B"


def test_new_files_get_the_umask_mode_and_saves_keep_theirs(core_doc, tmp_path):
    previous = os.umask(0o027)
    try:
        save(core_doc, tmp_path / "new.hall")
    finally:
        os.umask(previous)
    assert stat.S_IMODE((tmp_path / "new.hall").stat().st_mode) == 0o640
    (tmp_path / "new.hall").chmod(0o604)
    save(core_doc, tmp_path / "new.hall")
    assert stat.S_IMODE((tmp_path / "new.hall").stat().st_mode) == 0o604


def test_what_was_saved_loads_back(saved):
    doc, target = saved
    save(doc, target)
    assert dumps(load(target)) == dumps(doc)
