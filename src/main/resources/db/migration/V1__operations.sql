-- issue 17: the operations store shared by the replicas (store/PostgresOperationStore). One table for every tenant,
-- the same columns as the SQLite store's file (store/SqliteOperationStore), plus the replica that began each attempt.
-- What is stored identifies a call, never an argument value or a hash of one; a done call keeps its cloaked result.
CREATE TABLE operations (
    tenant        text        NOT NULL,
    id            text        NOT NULL,
    tool          text        NOT NULL,
    upstream      text        NOT NULL,
    session       text,
    state         text        NOT NULL CHECK (state IN ('in_flight', 'done', 'failed', 'unknown', 'not_applied')),
    attempts      integer     NOT NULL,
    created_at    timestamptz NOT NULL,
    updated_at    timestamptz NOT NULL,
    approval      text,
    task_id       text,
    reconciled_by text,
    reconciled_at timestamptz,
    result        bytea,
    -- the replica (cloakgate.cluster.replica-id, or 'single') whose process forwarded the latest attempt
    replica       text        NOT NULL,
    PRIMARY KEY (tenant, id)
);
-- only the states a sweep or an operator looks for: millions of done rows keep it small
CREATE INDEX operations_open ON operations (tenant, state, replica) WHERE state IN ('in_flight', 'unknown');

-- the outbox of operators' reconciliations, until a replica put each on the tenant's ledger; a replica claims rows
-- (claimed_by, claimed_until) so that several replicas polling it record each one once
CREATE TABLE operation_reconciliations (
    seq           bigserial   PRIMARY KEY,
    tenant        text        NOT NULL,
    operation_id  text        NOT NULL,
    state         text        NOT NULL,
    by_whom       text        NOT NULL,
    at            timestamptz NOT NULL,
    recorded      boolean     NOT NULL DEFAULT false,
    claimed_by    text,
    claimed_until timestamptz
);
CREATE INDEX operation_reconciliations_unrecorded ON operation_reconciliations (tenant, seq) WHERE NOT recorded;

-- each replica's last sign of life (database time); in_flight operations of a replica silent for longer than
-- cloakgate.cluster.heartbeat-timeout become unknown (store/PostgresOperationStore#sweepDeadReplicas)
CREATE TABLE replica_heartbeats (
    replica   text        PRIMARY KEY,
    last_seen timestamptz NOT NULL
);
