-- issue 17: one secret per tenant shared by the replicas (policy/SharedTenantSecrets), so that keyed digests (session
-- tags, payload digests in the ledger, subject digests) are the same on every replica. Never in the clear: AES-256-GCM
-- under the tenant-secrets subkey of the cluster key, the tenant and purpose as associated data. First writer wins.
CREATE TABLE tenant_secrets (
    tenant     text        PRIMARY KEY,
    nonce      bytea       NOT NULL CHECK (octet_length(nonce) = 12),
    sealed     bytea       NOT NULL,
    created_at timestamptz NOT NULL
);
