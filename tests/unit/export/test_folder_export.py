"""Folder exports (NetBox, Slurm sets) appear whole or not at all, readable by the team."""

from __future__ import annotations

import os
import stat

import pytest

from planner.io.atomic_folder import EXPORT_MARKER, write_folder_atomic


def test_a_folder_is_written_whole_with_the_umask_modes(tmp_path):
    target = tmp_path / "set"
    write_folder_atomic(target, lambda folder: (folder / "a.csv").write_text("x"))
    assert sorted(os.listdir(target)) == [EXPORT_MARKER, "a.csv"]
    umask = os.umask(0o022)
    os.umask(umask)
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o777 & ~umask
    assert stat.S_IMODE(os.stat(target / "a.csv").st_mode) == 0o666 & ~umask


def test_a_second_export_replaces_the_folder_and_leaves_nothing_beside_it(tmp_path):
    target = tmp_path / "set"
    write_folder_atomic(target, lambda folder: (folder / "old.csv").write_text("x"))
    write_folder_atomic(target, lambda folder: (folder / "new.csv").write_text("y"))
    assert sorted(os.listdir(target)) == [EXPORT_MARKER, "new.csv"]
    assert os.listdir(tmp_path) == ["set"]


def test_a_failed_export_leaves_the_earlier_folder_as_it_was(tmp_path):
    target = tmp_path / "set"
    write_folder_atomic(target, lambda folder: (folder / "old.csv").write_text("x"))

    def fail(folder):
        (folder / "half.csv").write_text("y")
        raise RuntimeError("disk full")

    with pytest.raises(RuntimeError):
        write_folder_atomic(target, fail)
    assert sorted(os.listdir(target)) == [EXPORT_MARKER, "old.csv"]
    assert os.listdir(tmp_path) == ["set"]


def test_a_file_in_the_way_is_refused(tmp_path):
    (tmp_path / "set").write_text("mine")
    with pytest.raises(NotADirectoryError):
        write_folder_atomic(tmp_path / "set", lambda folder: None)
    assert (tmp_path / "set").read_text() == "mine"


def test_a_folder_of_other_files_is_never_replaced(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(FileExistsError):
        write_folder_atomic(tmp_path, lambda folder: (folder / "a.csv").write_text("x"))
    assert os.listdir(tmp_path) == ["notes.txt"]


def test_an_empty_folder_is_filled(tmp_path):
    target = tmp_path / "empty"
    target.mkdir()
    write_folder_atomic(target, lambda folder: (folder / "a.csv").write_text("x"))
    assert (target / "a.csv").read_text() == "x"
