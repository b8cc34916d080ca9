-- issue 17: tool pins and their quarantine shared by the replicas (policy/PostgresPinStore): a pin accepted through
-- one replica takes effect on every replica. The columns are those of a pin file's entry; definitions are kept as the
-- JSON text the file keeps (what `pins diff` shows), never an argument or a result.
CREATE TABLE tool_pins (
    tenant             text NOT NULL,
    tool               text NOT NULL,
    sha256             text NOT NULL,
    pinned_at          text NOT NULL,
    pending            text,
    definition         text,
    pending_definition text,
    PRIMARY KEY (tenant, tool)
);
-- one row per tenant: its lock serialises a tenant's pin changes across replicas (as the pin file's lock does for
-- processes), and its version, raised by every change, tells a replica whether its cached pins are current
CREATE TABLE tool_pin_versions (
    tenant  text   PRIMARY KEY,
    version bigint NOT NULL
);
