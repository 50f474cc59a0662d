"""Write a plan file so that the plan is never lost: the target exists, whole, at every instant.

The new text goes to a temporary file beside the target (same directory, so same file system),
is flushed and fsynced; the old file is held under a temporary name by a hard link (or a copy
where the file system has none); one ``os.replace`` swaps the new file in; only then does the
held old file replace ``<name>.bak`` (a refused final rename leaves the previous backup as it
was), and the directory is fsynced so the renames survive a power cut. A crash at any point leaves either the old file or the new one at the target, and
at worst a temporary beside it: those are named ``.<name>.<pid>.<random>.hall-tmp`` and the
next save into that directory removes the ones whose process is gone.

Every failure is a ``HallSaveError`` (an ``OSError``) naming the target and the reason, raised
after the temporaries are removed and with the target as it was.
"""

from __future__ import annotations

import errno
import glob
import io
import os
import shutil
import stat
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path

#: The end of every temporary this module writes, so that leftovers of a crash are recognisable.
TEMP_SUFFIX = ".hall-tmp"
#: A temporary this old is stale even when its process id is in use again (or on another host).
STALE_AFTER_S = 24 * 3600


class HallSaveError(OSError):
    """The plan could not be written to ``filename``; the file there (if any) is as it was."""


#: Something that writes a file's bytes into the open handle it is given (an export's writer).
Writer = Callable[[io.BufferedWriter], object]


def write_atomic(path: str | os.PathLike[str], data: bytes | Iterable[bytes] | Writer, backup: bool = True) -> Path:
    """Write ``data`` (bytes, pieces of bytes written in turn, or a ``Writer`` that writes into
    the file) to ``path`` atomically, keeping the old file as ``<name>.bak`` when ``backup``;
    returns the path written (a symbolic link's target: the link stays a link). Plans, merges,
    recovery notes and every export go through here; what a ``Writer`` raises (a failure, an
    export cancelled) leaves the file as it was and is raised as it is."""
    target = Path(path)
    if target.is_symlink():
        target = Path(os.path.realpath(target))
    if target.is_dir():
        raise HallSaveError(errno.EISDIR, "is a folder, not a plan file; choose a file name", str(target))
    directory = target.parent
    if not directory.is_dir():
        raise HallSaveError(errno.ENOENT, "its folder does not exist", str(target))
    remove_stale_temporaries(directory, target.name)
    mode = new_file_mode(target)
    try:
        fd, temp = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}.", suffix=TEMP_SUFFIX, dir=directory)
    except OSError as exc:
        raise _save_error(exc, target) from exc
    old: str | None = None  # the old file under a temporary name, until it becomes the backup
    try:
        with os.fdopen(fd, "wb") as handle:
            if hasattr(os, "fchmod"):
                os.fchmod(handle.fileno(), mode)
            if callable(data):
                data(handle)
            else:
                for piece in (data,) if isinstance(data, bytes | bytearray | memoryview) else data:
                    handle.write(piece)
            handle.flush()
            os.fsync(handle.fileno())
        if backup and target.exists():
            old = _hold_old_file(target)
        os.replace(temp, target)
    except BaseException as exc:
        _remove(temp)
        if old is not None:
            _remove(old)
        if isinstance(exc, OSError) and not isinstance(exc, HallSaveError):
            raise _save_error(exc, target) from exc
        raise
    if old is not None:
        _install_backup(target, old)
    _fsync_directory(directory)
    return target


def _save_error(exc: OSError, target: Path, what: str = "") -> HallSaveError:
    reason = exc.strerror or str(exc) or type(exc).__name__
    return HallSaveError(exc.errno or errno.EIO, f"{what}{reason}", str(target))


def _hold_old_file(target: Path) -> str:
    """The old file under a temporary name beside it (a hard link, or a copy where the file
    system has none); ``_install_backup`` makes it ``<name>.bak`` once the new file is in place,
    so a save whose final rename is refused leaves the previous backup as it was."""
    fd, temp = tempfile.mkstemp(prefix=f".{target.name}.bak.{os.getpid()}.", suffix=TEMP_SUFFIX,
                                dir=target.parent)
    os.close(fd)
    try:
        os.unlink(temp)  # only its unique name was wanted: link() needs the name free
        try:
            os.link(target, temp)
        except OSError:  # no hard links here (FAT, some network shares): copy instead
            shutil.copy2(target, temp)
            _fsync_file(temp)
    except OSError as exc:
        _remove(temp)
        raise _save_error(exc, target, f"cannot keep the backup {target.name}.bak: ") from exc
    return temp


def _install_backup(target: Path, old: str) -> None:
    """Make the held old file ``<name>.bak`` (the new file is in place). When the backup cannot
    be replaced (an immutable or read-only ``.bak``, a folder of that name) the old file goes back
    to the target and the save fails: every failure leaves the target and its backup as they were."""
    backup = target.with_name(target.name + ".bak")
    try:
        os.replace(old, backup)
    except OSError as exc:
        try:
            os.replace(old, target)
        except OSError:  # the new file stays: it is whole, and the old backup is untouched
            _remove(old)
        _fsync_directory(target.parent)
        raise _save_error(exc, target, f"cannot keep the backup {backup.name}: ") from exc


def remove_stale_temporaries(directory: Path, name: str) -> list[Path]:
    """Remove temporaries of ``name`` left in ``directory`` by a save that crashed: those whose
    process has ended, and any older than a day. Returns what was removed."""
    removed = []
    prefix = f".{name}."
    for found in glob.glob(os.path.join(glob.escape(str(directory)), glob.escape(prefix) + "*" + TEMP_SUFFIX)):
        path = Path(found)
        middle = path.name[len(prefix):-len(TEMP_SUFFIX)].removeprefix("bak.")
        pid_text = middle.split(".", 1)[0]
        try:
            old = time.time() - path.lstat().st_mtime > STALE_AFTER_S
        except OSError:
            continue
        stale = old or not pid_text.isdigit() or not _process_alive(int(pid_text))
        if stale and _remove(str(path)):
            removed.append(path)
    return removed


def _process_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True  # another save of ours may be under way (a thread): only age makes it stale
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True  # someone else's process (or unknowable): leave its file alone
    return True


def _remove(path: str) -> bool:
    try:
        os.unlink(path)
    except OSError:
        return False
    return True


def new_file_mode(target: str | os.PathLike[str]) -> int:
    """The mode a written file gets: the replaced file's, or what a new file gets under the umask.

    ``mkstemp`` creates its file 0600 and the rename keeps that, so without this every file
    written was unreadable to the rest of the team. The umask is read from /proc (Linux), where
    setting and restoring it — the portable way — would briefly change it for every thread of
    the app (exports run in a background thread).
    """
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        return 0o666 & ~umask()


def umask() -> int:
    """The process's umask, read without changing it where the system allows."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            return next(int(line.split()[1], 8) for line in status if line.startswith("Umask:"))
    except (OSError, StopIteration, ValueError, IndexError):
        mask = os.umask(0o022)
        os.umask(mask)
        return mask


def _fsync_file(path: str) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_directory(directory: Path) -> None:
    """Make the rename durable; not every platform or file system can, which is no failure."""
    try:
        fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
