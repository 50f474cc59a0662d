"""Every reader of another tool's output gets the loader's treatment (issue 19): whatever is done
to a real-shaped input — bytes replaced, inserted or cut, lines duplicated, JSON or YAML nested
deep, numbers huge or negative, text in any script — the reader gives its records or its own
error (one line naming the input), never another exception (a NetBox YAML the YAML parser
refuses is reported by the import as "not YAML", as ``NetBoxSet`` does).

The inputs are the ones the verify and import tests use, shaped as ibnetdiscover, lldpctl
``-f json``, a links CSV, a cable list and a NetBox device-type YAML write them.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from planner.io.cable_list import CableListError, parse_cable_list
from planner.io.discovery.ibnetdiscover import parse_ibnetdiscover
from planner.io.discovery.links_csv import parse_links_csv
from planner.io.discovery.lldp import parse_lldp
from planner.io.discovery.records import DiscoveryError
from planner.io.netbox_catalog import DeviceTypeError, load_device_types

DATA = Path(__file__).resolve().parents[1] / "data" / "discovery"
CABLE_LIST = ("Cable ID,A Device,A Port,B Device,B Port,Media,Length (m)\n"
              "1,R01-N1,P1,R05-L1,1/1,dac,2.5\n2,R01-N1,P2,R05-L2,1/1,aoc,12\n")
DEVICE_TYPE = yaml.safe_dump({
    "manufacturer": "NVIDIA", "model": "DGX H100", "slug": "nvidia-dgx-h100", "u_height": 8, "is_full_depth": True,
    "weight": 130.45, "weight_unit": "kg",
    "interfaces": [{"name": f"ib{i}", "type": "infiniband-ndr"} for i in range(8)],
    "power-ports": [{"name": f"PSU{i}", "type": "iec-60320-c20", "maximum_draw": 3300} for i in range(6)],
})


def _readers() -> dict[str, tuple[str, object, type[Exception]]]:
    return {
        "ibnetdiscover": ((DATA / "as_planned.ibnet").read_text(encoding="latin-1"),
                          lambda text: parse_ibnetdiscover(text, "fabric.ibnet"), DiscoveryError),
        "lldp": ((DATA / "lldp" / "R05-L1.json").read_text(encoding="utf-8"),
                 lambda text: parse_lldp(text, "R05-L1", "R05-L1.json"), DiscoveryError),
        "links-csv": ((DATA / "links_faults.csv").read_text(encoding="utf-8"),
                      lambda text: parse_links_csv(text, "links.csv"), DiscoveryError),
        "cable-list": (CABLE_LIST, lambda text: parse_cable_list(text, "cables.csv"), CableListError),
        "netbox-yaml": (DEVICE_TYPE, _device_types, DeviceTypeError),
    }


def _device_types(text: str) -> list:
    """``load_device_types`` on a file holding ``text`` (it checks size and depth before parsing)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "type.yaml"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        try:
            return load_device_types(path)
        except (yaml.YAMLError, ValueError) as exc:  # what NetBoxSet._read_types reports as "not YAML (…)"
            if isinstance(exc, DeviceTypeError):
                raise
            return []


READERS = _readers()
HOSTILE = ["\x00", "\x1b[31m", "\u202e", "\ufeff", "=1+1", "-1e308", "1e400", "NaN", "999999999999999999999999",
           "[" * 2000, "{" * 2000, "\n" * 50, ",", '"', "\ud7ff", "机房", "\t", ":", "- ", "&a *a"]


@st.composite
def mutated(draw, text: str) -> str:
    """The text with a few edits: a span replaced by hostile or random text, a line repeated, or
    the text cut short."""
    for _ in range(draw(st.integers(1, 4))):
        if not text:
            break
        start = draw(st.integers(0, len(text) - 1))
        end = draw(st.integers(start, min(len(text), start + 40)))
        how = draw(st.sampled_from(("replace", "insert", "cut", "repeat")))
        if how == "cut":
            text = text[:start]
        elif how == "repeat":
            lines = text.splitlines(keepends=True)
            index = draw(st.integers(0, len(lines) - 1))
            text = "".join(lines[:index + 1] + [lines[index]] * draw(st.integers(1, 50)) + lines[index + 1:])
        else:
            piece = draw(st.one_of(st.sampled_from(HOSTILE), st.text(max_size=20)))
            text = text[:start] + piece + text[end if how == "replace" else start:]
    return text


@pytest.mark.parametrize("kind", list(READERS))
def test_the_unmutated_input_reads(kind):
    text, read, _error = READERS[kind]
    assert read(text)  # the sample is real: it gives records


@pytest.mark.parametrize("kind", list(READERS))
@settings(max_examples=100, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_mutated_input_reads_or_is_refused_in_the_readers_own_words(kind, data):
    text, read, error = READERS[kind]
    hostile = data.draw(mutated(text))
    try:
        read(hostile)
    except error as exc:
        message = str(exc)
        assert message and "\n" not in message.strip() and "Traceback" not in message
