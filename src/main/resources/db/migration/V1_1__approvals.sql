-- issue 17: approval receipts shared by the replicas (store/PostgresApprovalStore): a receipt uploaded through any
-- replica's admin API releases the call waiting for it on any replica. Bytes only; the gate verifies every receipt.
CREATE TABLE approval_receipts (
    tenant      text        NOT NULL,
    fingerprint text        NOT NULL CHECK (fingerprint ~ '^[0-9a-f]{64}$'),
    receipt     bytea       NOT NULL CHECK (octet_length(receipt) BETWEEN 1 AND 65536),
    stored_at   timestamptz NOT NULL,
    PRIMARY KEY (tenant, fingerprint)
);
