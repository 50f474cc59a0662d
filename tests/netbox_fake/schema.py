"""What the fake knows of NetBox 4.6's models (netbox/dcim/models/, dcim/api/serializers_/): the
foreign keys of each endpoint, the fields a write must give, the uniqueness rules and their
messages, and the defaults of what a write leaves out."""

from __future__ import annotations

TAGS = "extras/tags"
MANUFACTURERS = "dcim/manufacturers"
ROLES = "dcim/device-roles"
DEVICE_TYPES = "dcim/device-types"
RACK_TYPES = "dcim/rack-types"
SITES = "dcim/sites"
LOCATIONS = "dcim/locations"
RACKS = "dcim/racks"
DEVICES = "dcim/devices"
INTERFACES = "dcim/interfaces"
POWER_PORTS = "dcim/power-ports"
POWER_OUTLETS = "dcim/power-outlets"
PANELS = "dcim/power-panels"
FEEDS = "dcim/power-feeds"
CABLES = "dcim/cables"
INTERFACE_TEMPLATES = "dcim/interface-templates"
POWER_PORT_TEMPLATES = "dcim/power-port-templates"
POWER_OUTLET_TEMPLATES = "dcim/power-outlet-templates"
MODULE_TYPES = "dcim/module-types"
MODULE_BAY_TEMPLATES = "dcim/module-bay-templates"
MODULE_BAYS = "dcim/module-bays"
MODULES = "dcim/modules"
CONSOLE_PORTS = "dcim/console-ports"
CONSOLE_PORT_TEMPLATES = "dcim/console-port-templates"

#: Component endpoint → the template endpoint it is made from, in NetBox's order of
#: instantiation (Device.save: power ports before the outlets that name them, then interfaces).
COMPONENT_TEMPLATES = {CONSOLE_PORTS: CONSOLE_PORT_TEMPLATES, POWER_PORTS: POWER_PORT_TEMPLATES,
                       POWER_OUTLETS: POWER_OUTLET_TEMPLATES, INTERFACES: INTERFACE_TEMPLATES,
                       MODULE_BAYS: MODULE_BAY_TEMPLATES}
#: The components a cable can end on (a module bay takes a module, not a cable).
COMPONENTS = (POWER_PORTS, POWER_OUTLETS, INTERFACES)
#: What a cable can end on.
CABLED = (*COMPONENTS, FEEDS)

#: Endpoint → field → the endpoint it refers to (a foreign key written as an id).
REFS: dict[str, dict[str, str]] = {
    DEVICE_TYPES: {"manufacturer": MANUFACTURERS},
    RACK_TYPES: {"manufacturer": MANUFACTURERS},
    INTERFACE_TEMPLATES: {"device_type": DEVICE_TYPES},
    POWER_PORT_TEMPLATES: {"device_type": DEVICE_TYPES},
    POWER_OUTLET_TEMPLATES: {"device_type": DEVICE_TYPES, "power_port": POWER_PORT_TEMPLATES},
    LOCATIONS: {"site": SITES, "parent": LOCATIONS},
    RACKS: {"site": SITES, "location": LOCATIONS, "rack_type": RACK_TYPES},
    DEVICES: {"device_type": DEVICE_TYPES, "role": ROLES, "site": SITES, "location": LOCATIONS, "rack": RACKS},
    INTERFACES: {"device": DEVICES},
    POWER_PORTS: {"device": DEVICES},
    POWER_OUTLETS: {"device": DEVICES, "power_port": POWER_PORTS},
    PANELS: {"site": SITES, "location": LOCATIONS},
    FEEDS: {"power_panel": PANELS, "rack": RACKS},
    MODULE_TYPES: {"manufacturer": MANUFACTURERS},
    MODULE_BAY_TEMPLATES: {"device_type": DEVICE_TYPES},
    MODULE_BAYS: {"device": DEVICES},
    CONSOLE_PORT_TEMPLATES: {"device_type": DEVICE_TYPES},
    CONSOLE_PORTS: {"device": DEVICES},
    MODULES: {"device": DEVICES, "module_bay": MODULE_BAYS, "module_type": MODULE_TYPES},
}
#: References NetBox protects: deleting the referred object while one refers to it is a 409.
PROTECTED = {(DEVICES, "site"), (DEVICES, "rack"), (DEVICES, "location"), (DEVICES, "device_type"),
             (DEVICES, "role"), (RACKS, "site"), (LOCATIONS, "site"), (PANELS, "site"), (FEEDS, "power_panel"),
             (FEEDS, "rack"), (DEVICE_TYPES, "manufacturer"), (MODULE_TYPES, "manufacturer"),
             (MODULES, "module_type"), (RACK_TYPES, "manufacturer"), (RACKS, "rack_type")}
#: References whose objects go with the referred one (on_delete=CASCADE).
CASCADE = {(INTERFACES, "device"), (POWER_PORTS, "device"), (POWER_OUTLETS, "device"),
           (INTERFACE_TEMPLATES, "device_type"), (POWER_PORT_TEMPLATES, "device_type"),
           (POWER_OUTLET_TEMPLATES, "device_type"), (LOCATIONS, "parent"), (RACKS, "location"),
           (PANELS, "location"), (MODULE_BAY_TEMPLATES, "device_type"), (MODULE_BAYS, "device"),
           (MODULES, "device"), (MODULES, "module_bay"), (CONSOLE_PORT_TEMPLATES, "device_type"),
           (CONSOLE_PORTS, "device")}

REQUIRED: dict[str, tuple[str, ...]] = {
    TAGS: ("name", "slug"), MANUFACTURERS: ("name", "slug"), ROLES: ("name", "slug"),
    DEVICE_TYPES: ("manufacturer", "model", "slug"), RACK_TYPES: ("manufacturer", "model", "slug", "form_factor"),
    INTERFACE_TEMPLATES: ("device_type", "name", "type"), POWER_PORT_TEMPLATES: ("device_type", "name"),
    POWER_OUTLET_TEMPLATES: ("device_type", "name"),
    SITES: ("name", "slug"), LOCATIONS: ("name", "slug", "site"), RACKS: ("name", "site"),
    DEVICES: ("device_type", "role", "site"), PANELS: ("name", "site"), FEEDS: ("power_panel", "name"),
    INTERFACES: ("device", "name", "type"), POWER_PORTS: ("device", "name"), POWER_OUTLETS: ("device", "name"),
    CABLES: (),
    MODULE_TYPES: ("manufacturer", "model"), MODULE_BAY_TEMPLATES: ("device_type", "name"),
    MODULE_BAYS: ("device", "name"), MODULES: ("device", "module_bay", "module_type"),
    CONSOLE_PORT_TEMPLATES: ("device_type", "name"), CONSOLE_PORTS: ("device", "name"),
}

#: Uniqueness: endpoint → [(fields, field the error is under, message)]. The messages are
#: NetBox's (the recorded ones where a refusal was recorded, the model's constraint otherwise).
UNIQUE: dict[str, list[tuple[tuple[str, ...], str, str]]] = {
    TAGS: [(("name",), "name", "tag with this name already exists."),
           (("slug",), "slug", "tag with this slug already exists.")],
    MANUFACTURERS: [(("name",), "name", "manufacturer with this name already exists."),
                    (("slug",), "slug", "manufacturer with this slug already exists.")],
    ROLES: [(("name",), "__all__", "A top-level device role with this name already exists."),
            (("slug",), "__all__", "A top-level device role with this slug already exists.")],
    DEVICE_TYPES: [(("manufacturer", "model"), "__all__",
                    "Device type with this Manufacturer and Model already exists."),
                   (("manufacturer", "slug"), "__all__", "Device type with this Manufacturer and Slug already exists.")],
    RACK_TYPES: [(("slug",), "slug", "rack type with this slug already exists."),
                 (("manufacturer", "model"), "__all__", "Rack type with this Manufacturer and Model already exists.")],
    SITES: [(("name",), "name", "site with this name already exists."),
            (("slug",), "slug", "site with this slug already exists.")],
    LOCATIONS: [(("site", "name"), "__all__", "A location with this name already exists within the specified site."),
                (("site", "slug"), "__all__", "A location with this slug already exists within the specified site.")],
    RACKS: [(("location", "name"), "__all__", "RECORDED:rack-duplicate")],
    DEVICES: [(("site", "name"), "__all__", "RECORDED:device-duplicate")],
    PANELS: [(("site", "name"), "__all__", "Power panel with this Site and Name already exists.")],
    FEEDS: [(("power_panel", "name"), "__all__", "Power feed with this Power panel and Name already exists.")],
    INTERFACE_TEMPLATES: [(("device_type", "name"), "__all__",
                           "Interface template with this Device type and Name already exists.")],
    POWER_PORT_TEMPLATES: [(("device_type", "name"), "__all__",
                            "Power port template with this Device type and Name already exists.")],
    POWER_OUTLET_TEMPLATES: [(("device_type", "name"), "__all__",
                              "Power outlet template with this Device type and Name already exists.")],
    INTERFACES: [(("device", "name"), "__all__", "Interface with this Device and Name already exists.")],
    POWER_PORTS: [(("device", "name"), "__all__", "Power port with this Device and Name already exists.")],
    POWER_OUTLETS: [(("device", "name"), "__all__", "Power outlet with this Device and Name already exists.")],
    MODULE_TYPES: [(("manufacturer", "model"), "__all__",
                    "Module type with this Manufacturer and Model already exists.")],
    MODULE_BAY_TEMPLATES: [(("device_type", "name"), "__all__",
                            "Module bay template with this Device type and Name already exists.")],
    MODULE_BAYS: [(("device", "name"), "__all__", "Module bay with this Device and Name already exists.")],
    CONSOLE_PORT_TEMPLATES: [(("device_type", "name"), "__all__",
                              "Console port template with this Device type and Name already exists.")],
    CONSOLE_PORTS: [(("device", "name"), "__all__", "Console port with this Device and Name already exists.")],
}

#: The model defaults of fields a create leaves out (netbox/dcim/models/).
DEFAULTS: dict[str, dict[str, object]] = {
    TAGS: {"color": "9e9e9e", "weight": 1000},
    ROLES: {"color": "9e9e9e", "vm_role": True},
    DEVICE_TYPES: {"u_height": 1.0, "is_full_depth": True, "exclude_from_utilization": False},
    SITES: {"status": "active"},
    LOCATIONS: {"status": "active"},
    RACKS: {"status": "active", "width": 19, "u_height": 42, "starting_unit": 1, "desc_units": False},
    RACK_TYPES: {"width": 19, "u_height": 42, "starting_unit": 1, "desc_units": False},
    DEVICES: {"status": "active"},
    INTERFACES: {"enabled": True, "mgmt_only": False, "mark_connected": False},
    INTERFACE_TEMPLATES: {"enabled": True, "mgmt_only": False},
    POWER_PORTS: {"mark_connected": False},
    POWER_OUTLETS: {"mark_connected": False, "status": "enabled"},
    FEEDS: {"status": "active", "type": "primary", "supply": "ac", "phase": "single-phase", "voltage": 120,
            "amperage": 20, "max_utilization": 80, "mark_connected": False},
    CABLES: {"status": "connected"},
    MODULE_BAYS: {"enabled": True},
    MODULE_BAY_TEMPLATES: {"enabled": True},
    MODULES: {"status": "active"},
    CONSOLE_PORTS: {"mark_connected": False},
}

#: What a rack takes from its rack type on every save (dcim/models/racks.py Rack.RACKTYPE_FIELDS).
RACKTYPE_FIELDS = ("form_factor", "width", "u_height", "starting_unit", "desc_units", "outer_width", "outer_height",
                   "outer_depth", "outer_unit", "mounting_depth", "weight", "weight_unit", "max_weight")

#: Keys the server works out (never taken from a write).
COMPUTED = {"id", "url", "display_url", "display", "created", "last_updated", "cable", "cable_end", "link_peers",
            "link_peers_type", "connected_endpoints", "connected_endpoints_type", "connected_endpoints_reachable",
            "_occupied", "_depth", "tagged_items", "config_context", "count_ipaddresses", "count_fhrp_groups",
            "object_types"}

#: The filters the fake answers: ``<ref>_id`` and ``<ref>`` (by slug or name) of each foreign
#: key, and these, for every endpoint.
PLAIN_FILTERS = ("id", "name", "slug", "label", "model")
