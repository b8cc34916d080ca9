-- Issue 17: upstream OAuth connections the replicas share (upstream/oauth/PostgresConnectionBlobs). The blob is
-- AES-256-GCM-sealed by the gateway, bound to its tenant and upstream: the database never holds a token in the clear.
CREATE TABLE upstream_oauth_connection (
    tenant     text        NOT NULL,
    upstream   text        NOT NULL,
    blob       bytea       NOT NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (tenant, upstream)
);
