"""The design basis: every threshold the rules check against, editable per plan.

Rules read their limits from here, never from constants in code; ``BASIS_SOURCES`` says where
each default comes from so a finding can cite it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

REDUNDANCY_CHOICES = ("2N", "N+1", "none")
LOAD_BASIS_CHOICES = ("peak", "steady")
FLUID_CHOICES = ("water", "pg25")
FLOOR_METHOD_CHOICES = ("footprint", "ibm")
UNIT_CHOICES = ("metric", "imperial")
PAPER_CHOICES = ("A4", "Letter")

#: Coolant properties: density kg/L and specific heat kJ/(kg·K) (DESIGN §5 Cooling).
#: Read-only (shared by every plan: ``DesignBasis.fluid_properties`` hands these out).
FLUID_PROPERTIES: Mapping[str, Mapping[str, float]] = MappingProxyType({
    "water": MappingProxyType({"density_kg_per_l": 0.997, "cp_kj_per_kg_k": 4.18}),
    "pg25": MappingProxyType({"density_kg_per_l": 1.02, "cp_kj_per_kg_k": 3.92}),
})


@dataclass
class DesignBasis:
    """Per-plan design values and thresholds, SI units."""

    voltage_v: float = 415.0
    power_factor: float = 0.95
    derating: float = 0.8
    redundancy: str = "2N"
    load_basis: str = "peak"
    fluid: str = "water"
    delta_t_k: float = 10.0
    facility_supply_c: float = 32.0
    max_supply_c: float = 45.0
    dew_point_c: float = 15.0
    dew_point_margin_k: float = 2.0
    front_aisle_min_m: float = 1.2
    rear_aisle_min_m: float = 0.9
    front_aisle_vendor_min_m: float = 0.9
    rear_aisle_vendor_min_m: float = 0.6
    working_space_m: float = 1.2
    floor_method: str = "footprint"
    floor_warn_fraction: float = 0.8
    ibm_service_load_kpa: float = 0.72
    ibm_raised_floor_load_kpa: float = 0.48
    ibm_service_depth_m: float = 0.76
    rack_feet: int = 4
    power_warn_fraction: float = 0.9
    phase_imbalance_warn: float = 0.10
    phase_imbalance_error: float = 0.20
    cable_slack_fraction: float = 0.10
    cable_slack_min_m: float = 0.3
    tray_height_m: float = 0.3
    row_tray_width_m: float = 0.6
    row_tray_depth_m: float = 0.1
    row_tray_levels: int = 1
    cross_tray_width_m: float = 0.9
    cross_tray_depth_m: float = 0.15
    cross_tray_levels: int = 1
    tray_fill_warn: float = 0.25
    tray_fill_error: float = 0.50
    oversubscription: float = 1.0
    fabric_kind: str = "infiniband"
    units: str = "metric"
    paper: str = "A4"
    scaling_efficiency_target: float = 0.9
    scaling_min_gpus: int = 8
    scaling_max_gpus: int = 64
    #: Commissioning pass floor: NCCL all-reduce busBw as a share of the line rate (see
    #: ``planner.export.nccl``). A planning assumption: nccl-tests runs on healthy 400G fabrics land
    #: at about 80–95 %; below 80 % a cable, NIC–GPU affinity or GPUDirect RDMA fault is likely.
    nccl_efficiency: float = 0.80
    #: Partial PUE at the rack (``planner.rules.ppue``): the loop's pressure drop and the pumps'
    #: wire-to-water efficiency (P_pump = Q · Δp / η), the COP of the hall's air cooling for the
    #: residual air heat, busbar and rack-PDU efficiencies, and the target the product states.
    loop_pressure_drop_kpa: float = 200.0
    pump_efficiency: float = 0.65
    air_cooling_cop: float = 4.0
    busbar_efficiency: float = 0.995
    rack_pdu_efficiency: float = 0.99
    ppue_target: float = 1.06
    #: A GPU node's idle draw as a share of its peak: the floor of the simultaneous step (P7).
    idle_power_fraction: float = 0.3
    #: The ASHRAE liquid-cooling class of the facility water (``ASHRAE_CLASSES``; C9).
    ashrae_class: str = "W32"
    #: The storage fabric (issue 21): the read bandwidth each GPU must get from shared storage, in
    #: GB/s (S1 finds a fabric or a storage system short of it), and whether each management
    #: network has an access switch per rack or per row (``MANAGEMENT_SCOPES``).
    storage_read_gbps_per_gpu: float = 0.488
    inband_switch_per: str = "row"
    oob_switch_per: str = "rack"
    sources: dict[str, str] = field(default_factory=dict)

    def source(self, name: str) -> str:
        """Where the value of ``name`` comes from: the plan's own note, else the default's source."""
        return self.sources.get(name) or BASIS_SOURCES.get(name, "design basis")

    @property
    def fluid_properties(self) -> Mapping[str, float]:
        return FLUID_PROPERTIES[self.fluid]


BASIS_SOURCES: dict[str, str] = {
    "storage_read_gbps_per_gpu": ("NVIDIA DGX SuperPOD RA-11333-001 V11, Table 6 'Guidelines for storage performance', "
                                  "Best: 125 GBps single-SU aggregate read for 32 DGX H100 (256 GPUs), 500 GBps for "
                                  "4 SU (1,024 GPUs): 0.488 GB/s per GPU (Good 15 GBps, Better 40 GBps per SU)"),
    "inband_switch_per": ("Design basis: an in-band access switch per row (64 x 100 GbE, NVIDIA SN4600C class, "
                          "RA-11333-001 Table 1), uplinked to an aggregation pair"),
    "oob_switch_per": ("Design basis: an out-of-band access switch per rack (48 x 1 GbE, NVIDIA SN2201 class, "
                       "RA-11333-001 Table 1), uplinked to an aggregation pair"),
    "voltage_v": "Design basis: 415 V 3-phase supply",
    "power_factor": "Design basis: IT load power factor",
    "derating": "NEC 210.19/215.2 continuous load 80 % (IEC practice 100 %)",
    "redundancy": "Design basis: A/B feed redundancy",
    "load_basis": "Design basis: rack power at peak or steady draw",
    "fluid": "Design basis: coolant fluid",
    "delta_t_k": "Design basis: coolant ΔT across the cold plates",
    "facility_supply_c": "Design basis: facility water supply temperature",
    "max_supply_c": "Cold-plate vendor limit: coolant supply under 45 °C",
    "dew_point_c": "Design basis: room dew point",
    "dew_point_margin_k": "ASHRAE TC 9.9 liquid cooling: keep supply above dew point",
    "front_aisle_min_m": "Design basis: cold aisle ≥ 1.2 m (recommended)",
    "rear_aisle_min_m": "Design basis: hot aisle ≥ 0.9 m (recommended)",
    "front_aisle_vendor_min_m": "Rack vendor minimum front clearance",
    "rear_aisle_vendor_min_m": "Rack vendor minimum rear clearance",
    "working_space_m": "NEC 110.26 electrical working space (0.9–1.2 m)",
    "floor_method": "Design basis: floor load method (footprint or IBM spread)",
    "floor_warn_fraction": "Design basis: warn above 80 % of the zone rating",
    "ibm_service_load_kpa": "IBM floor-loading method: 0.72 kPa live load on service area",
    "ibm_raised_floor_load_kpa": "IBM floor-loading method: 0.48 kPa raised floor and cables",
    "ibm_service_depth_m": "IBM floor-loading method: service area within 0.76 m",
    "rack_feet": "Rack vendor: four levelling feet",
    "power_warn_fraction": "Design basis: warn above 90 % of the derated rating",
    "phase_imbalance_warn": "Design basis: phase imbalance warning above 10 %",
    "phase_imbalance_error": "Design basis: phase imbalance error above 20 %",
    "cable_slack_fraction": "Design basis: cable slack 10 %",
    "cable_slack_min_m": "Design basis: minimum cable slack 0.3 m",
    "tray_height_m": "Design basis: overhead tray height above the rack top",
    "row_tray_width_m": "Design basis: row tray 600 mm wide (wire-mesh tray over each row)",
    "row_tray_depth_m": "Design basis: row tray 100 mm fill depth",
    "row_tray_levels": "Design basis: stacked row trays over each row",
    "cross_tray_width_m": "Design basis: cross-aisle trunk tray 900 mm wide",
    "cross_tray_depth_m": "Design basis: cross-aisle trunk tray 150 mm fill depth",
    "cross_tray_levels": "Design basis: stacked cross-aisle trunk trays",
    "tray_fill_warn": "TIA-569 / NEC 392 practice: tray fill warning above 25 %",
    "tray_fill_error": "NEC 392.22: tray fill limit 50 %",
    "oversubscription": "Design basis: fabric oversubscription (1.0 = non-blocking)",
    "fabric_kind": "Design basis: InfiniBand or RoCEv2 Ethernet fabric",
    "units": "Display preference",
    "paper": "Print preference",
    "scaling_efficiency_target": "Product brief: scaling efficiency above 90 % from 8 to 64 GPUs",
    "scaling_min_gpus": "Product brief: scaling test starts at 8 GPUs (one node)",
    "scaling_max_gpus": "Product brief: scaling test up to 64 GPUs",
    "nccl_efficiency": "Commissioning: NCCL bus bandwidth floor as a share of line rate (planning assumption)",
    "loop_pressure_drop_kpa": ("Planning value: secondary (TCS) loop pressure drop at rated flow, cold plates, "
                               "manifolds, quick disconnects and hoses, typically 150–250 kPa (CDU pump head); 200 kPa"),
    "pump_efficiency": ("Planning value: centrifugal pump with motor and VFD, wire-to-water efficiency "
                        "typically 0.6–0.7; 0.65"),
    "air_cooling_cop": ("Planning value: air cooling of the residual heat (CRAH fans with the chilled-water plant), "
                        "system COP 3–6; chiller COP 3.5 to 6–7 for water-cooled centrifugal; 4.0"),
    "busbar_efficiency": "Planning value: overhead busway I²R loss about 0.5 % at rated load: 99.5 %",
    "rack_pdu_efficiency": "Planning value: rack PDU (breakers, metering, outlets) loss about 1 % at load: 99 %",
    "ppue_target": "Product brief: design PUE at the rack 1.06 (partial PUE, The Green Grid; EN 50600-4-2)",
    "idle_power_fraction": ("Planning assumption: an 8-GPU node idles near 30 % of its maximum power (GPUs "
                            "~70–100 W of 700 W each at idle; CPUs, memory, fans and NICs stay on); measure on site"),
    "ashrae_class": ("ASHRAE TC 9.9 liquid cooling classes (Emergence and Expansion of Liquid Cooling in "
                     "Mainstream Data Centers, 2021; Liquid Cooling Guidelines for Datacom Equipment Centers): "
                     "W17/W27/W32/W40/W45 name the maximum facility water supply in °C, W+ above 45 °C"),
}

#: ASHRAE TC 9.9 liquid-cooling classes: the maximum facility water supply temperature in °C each
#: allows; W+ has no upper limit (above 45 °C, for heat reuse). Source: ``BASIS_SOURCES["ashrae_class"]``.
ASHRAE_CLASSES: Mapping[str, float | None] = MappingProxyType({
    "W17": 17.0, "W27": 27.0, "W32": 32.0, "W40": 40.0, "W45": 45.0, "W+": None,
})
ASHRAE_CLASS_CHOICES = tuple(ASHRAE_CLASSES)
#: Where a management network's access switches stand: one per rack, or one per row (more when
#: a row has more ports than one switch).
MANAGEMENT_SCOPES = ("rack", "row")

#: Design-basis fields whose value is one of a few words (the loader and the editors refuse the rest).
BASIS_CHOICES: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "redundancy": REDUNDANCY_CHOICES, "load_basis": LOAD_BASIS_CHOICES, "fluid": FLUID_CHOICES,
    "floor_method": FLOOR_METHOD_CHOICES, "units": UNIT_CHOICES, "paper": PAPER_CHOICES,
    "ashrae_class": ASHRAE_CLASS_CHOICES,
    "inband_switch_per": MANAGEMENT_SCOPES, "oob_switch_per": MANAGEMENT_SCOPES,
})
