"""What a rule reports: one Finding per problem, with its numbers and where the limit comes from."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import cached_property, lru_cache
from typing import Any

from planner.model.document import natural_key

ERROR = "error"
WARNING = "warning"
INFO = "info"
SEVERITIES = (ERROR, WARNING, INFO)
_SEVERITY_RANK = {ERROR: 0, WARNING: 1, INFO: 2}
#: Findings name the same ids and rules over and over: split each into its natural key once.
_natural = lru_cache(maxsize=1 << 17)(natural_key)


@dataclass(frozen=True)
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
        return self._sort_key

    @cached_property
    def _sort_key(self) -> tuple:
        return (_SEVERITY_RANK.get(self.severity, 3), _natural(self.rule),
                tuple(_natural(s) for s in self.subjects), self.message)


def sort_findings(findings: list[Finding]) -> list[Finding]:
    """Errors first, then by rule and subject: the order the dock and the CLI show."""
    return sorted(findings, key=Finding.sort_key)


def counts(findings: list[Finding]) -> dict[str, int]:
    result = {severity: 0 for severity in SEVERITIES}
    for finding in findings:
        result[finding.severity] = result.get(finding.severity, 0) + 1
    return result
