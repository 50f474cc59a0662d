"""The facility tables as printed rows, straight from ``build_report``'s ``ppue``, ``draw`` and
``cdus`` (the `planner report --json` object), shared by the commissioning document's pPUE table
and the facility hand-off PDF and CSV, so all three print the same numbers."""

from __future__ import annotations

from typing import Any, Protocol

Table = tuple[list[str], list[list[Any]]]


class Number(Protocol):
    """How a figure becomes a cell: (value or None, decimals, one by default) -> cell."""

    def __call__(self, value: float | None, digits: int = 1, /) -> Any: ...


PPUE_HEADER = ["scope", "IT kW", "pumps kW", "air cooling kW", "losses kW", "pPUE", "target"]
DRAW_HEADER = ["racks", "nameplate kW", "steady kW", "steady A", "idle kW", "after step kW", "after step A",
               "step kW", "step A", "derated A", "rating A"]


def printed(value: float | None, digits: int = 1) -> str:
    """A figure on paper: fixed decimals with thousands separators, "—" for none."""
    return "—" if value is None else f"{value:,.{digits}f}"


def raw(value: float | None, digits: int = 1) -> float | str:
    """A figure in a CSV cell: a plain number a spreadsheet reads, empty for none."""
    return "" if value is None else round(value, digits)


def _ppue_cells(scope: str, row: dict[str, Any], target: float, num: Number) -> list[Any]:
    return [scope, num(row["it_kw"]), num(row["pump_kw"], 2), num(row["air_kw"], 2), num(row["loss_kw"], 2),
            num(row["ppue"], 3), num(target, 2)]


def ppue_table(report: dict[str, Any], racks: bool = False, num: Number = printed) -> Table:
    """pPUE per row and for the hall (and per rack when ``racks``)."""
    ppue = report["ppue"]
    target = ppue["target"]
    rows = [_ppue_cells(f"row {r['row']}" if r["row"] else "no row", r, target, num) for r in ppue["rows"]]
    rows.append(_ppue_cells("hall", ppue["hall"], target, num))
    if racks:
        rows += [[f"rack {r['name']}", "", "", "", "", num(r["ppue"], 3), num(target, 2)] for r in report["racks"]]
    return PPUE_HEADER, rows


def rack_groups_table(report: dict[str, Any], num: Number = printed) -> Table:
    """Racks grouped by their pPUE (to three decimals), highest first: a hall of 280 racks reads
    as the few kinds of rack it holds."""
    groups: dict[float | None, list[str]] = {}
    for rack in report["racks"]:
        value = None if rack["ppue"] is None else round(rack["ppue"], 3)
        groups.setdefault(value, []).append(rack["name"])
    order = sorted(groups, key=lambda v: (v is None, -(v or 0.0)))
    return ["rack pPUE", "racks", "which"], [[num(v, 3), len(groups[v]), ", ".join(groups[v])] for v in order]


def _draw_cells(row: dict[str, Any], num: Number) -> list[Any]:
    return [row["racks"], num(row["nameplate_kw"]), num(row["steady_kw"]), num(row["steady_a"], 0),
            num(row["idle_kw"]), num(row["after_step_kw"]), num(row["after_step_a"], 0), num(row["step_kw"]),
            num(row["step_a"], 0), num(row["derated_a"], 0), num(row["rating_a"], 0)]


def feed_table(report: dict[str, Any], num: Number = printed) -> Table:
    """Per busbar feed: normal load (each rack shared over its feeds) and after the step with the
    partner feed failed."""
    header = ["feed", "side", *DRAW_HEADER, "failover after step A"]
    rows = [[f["name"], f["side"], *_draw_cells(f, num), num(f["failover_after_step_a"], 0)]
            for f in report["draw"]["feeds"]]
    return header, rows


def cabinet_table(report: dict[str, Any], num: Number = printed) -> Table:
    header = ["cabinet", "row", "busbars", *DRAW_HEADER]
    rows = [[c["name"], c["row"], ", ".join(c["busbars"]) or "—", *_draw_cells(c, num)] for c in report["draw"]["cabinets"]]
    return header, rows


def hall_table(report: dict[str, Any], num: Number = printed) -> Table:
    hall = report["draw"]["hall"]
    header = ["racks", "nameplate kW", "steady kW", "idle kW", "after step kW", "step kW"]
    return header, [[hall["racks"], num(hall["nameplate_kw"]), num(hall["steady_kw"]), num(hall["idle_kw"]),
                     num(hall["after_step_kw"]), num(hall["step_kw"])]]


def cdu_table(report: dict[str, Any], num: Number = printed) -> Table:
    header = ["CDU", "racks", "heat to water kW", "pumps kW", "to facility kW", "flow L/min", "facility °C",
              "supply °C", "return °C", "at class limit °C", "pumps", "one pump out kW", "one pump out L/min"]
    rows = [[c["name"], c["racks"], num(c["liquid_kw"]), num(c["pump_kw"], 2), num(c["heat_to_facility_kw"]),
             num(c["flow_required_lpm"], 0), num(c["facility_supply_c"]), num(c["supply_c"]), num(c["return_c"]),
             num(c["supply_at_class_limit_c"]), num(c["pumps"], 0),
             num(c["capacity_one_pump_failed_kw"]), num(c["flow_one_pump_failed_lpm"], 0)]
            for c in report["cdus"]]
    return header, rows


def basis_text(report: dict[str, Any]) -> str:
    """The design-basis entries behind the facility figures, one sentence."""
    b = report["basis"]
    return (f"Design basis: loop pressure drop {b['loop_pressure_drop_kpa']:g} kPa, pump efficiency "
            f"{b['pump_efficiency']:g}, air cooling COP {b['air_cooling_cop']:g}, busbar {b['busbar_efficiency']:.1%}, "
            f"rack PDU {b['rack_pdu_efficiency']:.1%}, pPUE target {b['ppue_target']:g}; node idle "
            f"{b['idle_power_fraction']:.0%} of peak; facility water {b['facility_supply_c']:g} °C, class "
            f"{b['ashrae_class']}, cold-plate maximum {b['max_supply_c']:g} °C; {b['voltage_v']:g} V, PF "
            f"{b['power_factor']:g}, derating {b['derating']:g}, {b['redundancy']}.")
