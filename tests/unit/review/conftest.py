"""A temporary git repository whose git runs the installed planner (`planner` on PATH is a
script calling `python -I -m planner`: the console script may not be on PATH in every install)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

Git = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def git_work(tmp_path) -> tuple[Path, Git]:
    """(work tree, git) with an empty repository on branch main; ``git(*args, ok=True)`` runs git
    there and, unless ``ok=False``, asserts it succeeded."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    wrapper = bin_dir / "planner"
    wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" -I -m planner "$@"\n')
    wrapper.chmod(0o755)
    work = tmp_path / "work"
    work.mkdir()
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}", "HOME": str(tmp_path),
           "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_PAGER": "cat"}

    def git(*args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
        result = subprocess.run(["git", *args], cwd=work, env=env, capture_output=True, text=True, check=False)
        if ok:
            assert result.returncode == 0, result.stdout + result.stderr
        return result

    git("init", "-q", "-b", "main")
    return work, git
