"""What a rule reports: one Finding per problem, with its numbers and where the limit comes from."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import Any

from planner.model.document import natural_key, prefix_of

ERROR = "error"
WARNING = "warning"
INFO = "info"
SEVERITIES = (ERROR, WARNING, INFO)
_SEVERITY_RANK = {ERROR: 0, WARNING: 1, INFO: 2}
_DIGIT = re.compile(r"\d")  # a digit as ``natural_key`` splits at them


def _natural_key(text: str) -> tuple:
    """``natural_key``, an id of the plan's own form (``link-67688``: no digit before the last
    dash, ASCII digits after it) split without the regex: a moved network rack's 2k findings
    each name a cable the findings have not named before."""
    head, dash, number = text.rpartition("-")
    if dash and number.isdigit() and number.isascii() and (head.isalpha() or _DIGIT.search(head) is None):
        return (text[:len(head) + 1], int(number), "")
    return natural_key(text)


#: A finding is placed by this many of its first subjects in natural order (then by its message,
#: and only then by all its subjects as they are): N8 names a rack pair's 1k stale cables.
_SORTED_SUBJECTS = 8
#: An id's or a rule's natural key (``natural_key``): findings name the same ids and rules over
#: and over, each is split once.
id_key = lru_cache(maxsize=1 << 17)(_natural_key)


@dataclass(frozen=True, init=False)
class Finding:
    """One problem in the plan, in words a reviewer can act on.

    ``subjects`` are the ids of the objects concerned (first the one the finding is about);
    ``message`` carries the numbers with units; ``source`` names the standard, datasheet or
    design-basis entry the threshold comes from, so the finding can be argued with.
    """

    rule: str
    severity: str
    subjects: tuple[str, ...]
    message: str
    source: str

    def __init__(self, rule: str, severity: str, subjects: tuple[str, ...], message: str, source: str) -> None:
        # the fields as the frozen dataclass's own __init__ sets them, in half its time (one
        # object.__setattr__ call per field): a moved network rack makes 2k findings
        values = self.__dict__
        values["rule"], values["severity"], values["subjects"] = rule, severity, subjects
        values["message"], values["source"] = message, source

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["subjects"] = list(self.subjects)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Finding:
        return cls(rule=data["rule"], severity=data["severity"], subjects=tuple(data["subjects"]),
                   message=data["message"], source=data["source"])

    @property
    def family(self) -> str:
        """Rule family letter(s): F floor, P power, C cooling, S space, N network …"""
        return self.rule.rstrip("0123456789")

    def sort_key(self) -> tuple:
        # made once per finding and kept beside the fields (as ``functools.cached_property``
        # would, without its lock); not a field: equality, hash and repr do not see it
        values = self.__dict__
        key = values.get("_sort_key")
        if key is None:
            subjects = self.subjects
            key = values["_sort_key"] = (_SEVERITY_RANK.get(self.severity, 3), id_key(self.rule),
                                         tuple(map(id_key, subjects[:_SORTED_SUBJECTS])), self.message, subjects)
        return key


def cables_named(finding: Finding) -> str:
    """"26 cables" for a finding that names cables alone, more than one (N8's stale lengths of a
    rack pair), where a list of their ids would say less; "" otherwise."""
    subjects = finding.subjects
    if len(subjects) > 1 and all(prefix_of(s) == "link" for s in subjects):
        return f"{len(subjects):,} cables"
    return ""


def sort_findings(findings: list[Finding]) -> list[Finding]:
    """Errors first, then by rule and subject: the order the dock and the CLI show."""
    return sorted(findings, key=Finding.sort_key)


def counts(findings: list[Finding]) -> dict[str, int]:
    result = {severity: 0 for severity in SEVERITIES}
    for finding in findings:
        result[finding.severity] = result.get(finding.severity, 0) + 1
    return result
