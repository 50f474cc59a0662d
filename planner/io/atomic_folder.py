"""Write a set of files (a NetBox, Slurm or NCCL set) into a folder that appears whole or not at
all, the folder counterpart of ``planner.io.atomic.write_atomic``.
"""

from __future__ import annotations

import errno
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from planner.io.atomic import umask

#: The file a folder export leaves in its folder, so that the next export may replace the folder.
EXPORT_MARKER = ".hall-planner-export"


def write_folder_atomic(path: str | os.PathLike, write: Callable[[Path], object]) -> None:
    """Write a set of files (a NetBox or Slurm set) into a folder that appears whole or not at all.

    ``write`` fills a temporary folder beside ``path``; then a folder already at ``path`` is moved
    aside, the new one renamed in and the old one removed. If ``write`` raises, the temporary
    folder goes and ``path`` is left as it was. Folders get the mode ``mkdir`` gives under the
    umask (``mkdtemp`` makes them 0700); files are written by ``write`` with plain ``open``, so
    they get the umask's mode too. A file (not a folder) at ``path`` is refused, and so is a
    folder holding anything but an earlier export (which carries ``EXPORT_MARKER``): replacing
    it whole would delete someone's files (``-o ~/Documents``).
    """
    target = os.path.abspath(os.fspath(path))
    if os.path.exists(target) and not os.path.isdir(target):
        raise NotADirectoryError(errno.ENOTDIR, "a file is in the way: the output is a folder", target)
    if os.path.isdir(target) and os.listdir(target) and not os.path.exists(os.path.join(target, EXPORT_MARKER)):
        raise FileExistsError(errno.EEXIST, "the folder holds other files: choose a new or empty folder", target)
    parent = os.path.dirname(target)
    temp = tempfile.mkdtemp(prefix=".export-", suffix=".part", dir=parent)
    old = None
    try:
        os.chmod(temp, 0o777 & ~umask())
        write(Path(temp))
        with open(os.path.join(temp, EXPORT_MARKER), "w", encoding="utf-8") as marker:
            marker.write("Written by Hall Planner; the next export to this folder replaces it whole.\n")
        if os.path.isdir(target):
            old = tempfile.mkdtemp(prefix=".export-", suffix=".old", dir=parent)
            os.replace(target, os.path.join(old, "previous"))
        os.replace(temp, target)
    except BaseException:
        shutil.rmtree(temp, ignore_errors=True)
        if old is not None and not os.path.exists(target):
            os.replace(os.path.join(old, "previous"), target)
        raise
    finally:
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
