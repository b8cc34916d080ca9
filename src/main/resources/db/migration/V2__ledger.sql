-- Issue 17 (pg-ledger): every tenant's evidence ledger, one log per tenant shared by every replica.
-- The head row serialises appends: a batch locks it (SELECT ... FOR UPDATE), continues the chain from next_seq and
-- last_hash read there, inserts its entries and moves the head, in one transaction. Entries are the exact RFC 8785
-- bytes the SQLite ledger stores; checkpoints are signed notes, one per tree size.
CREATE TABLE ledger_heads (
    tenant         TEXT PRIMARY KEY,
    format         INTEGER NOT NULL,
    origin         TEXT,
    next_seq       BIGINT NOT NULL,
    last_hash      BYTEA NOT NULL,
    -- the checkpoint key a key_rotated entry last named (hex key id): a rotation is recorded once for all replicas
    checkpoint_key TEXT
);

CREATE TABLE ledger_entries (
    tenant TEXT NOT NULL REFERENCES ledger_heads (tenant),
    seq    BIGINT NOT NULL,
    hash   BYTEA NOT NULL,
    bytes  BYTEA NOT NULL,
    PRIMARY KEY (tenant, seq)
);

CREATE TABLE ledger_checkpoints (
    tenant TEXT NOT NULL REFERENCES ledger_heads (tenant),
    size   BIGINT NOT NULL,
    note   BYTEA NOT NULL,
    PRIMARY KEY (tenant, size)
);

CREATE TABLE ledger_witness_state (
    tenant   TEXT NOT NULL REFERENCES ledger_heads (tenant),
    witness  TEXT NOT NULL,
    size     BIGINT NOT NULL,
    frontier BYTEA,
    PRIMARY KEY (tenant, witness)
);
