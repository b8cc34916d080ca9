package dev.cloakgate.server;

import java.util.Optional;

import javax.sql.DataSource;

import io.agroal.api.AgroalDataSource;
import io.quarkus.arc.InjectableInstance;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * Issue 17: the database the replicas share, or none. {@code cloakgate.store=sqlite} (the default) keeps every store in
 * files under the data dir and never opens a connection; {@code postgresql} hands the core Quarkus' default datasource
 * (Agroal pool, Flyway-migrated at start). The two must agree: a URL with {@code sqlite}, or {@code postgresql} without
 * a URL, stops the start, since either would leave replicas silently keeping their own state.
 */
@ApplicationScoped
public class SharedDatabase {
    /** The store kinds {@code cloakgate.store} accepts. */
    public enum Kind {
        SQLITE, POSTGRESQL
    }

    private final Kind kind;
    private final InjectableInstance<AgroalDataSource> pool;

    @Inject
    SharedDatabase(GatewayConfig config, InjectableInstance<AgroalDataSource> pool) {
        this.kind = kind(config.store());
        this.pool = pool;
        agree(kind, pool.getHandle().getBean().isActive());
    }

    /**
     * The store kind and the datasource must agree (also what {@code --check} asks): {@code postgresql} needs the URL,
     * and a URL with {@code sqlite} would be a database nobody uses.
     */
    static void agree(Kind kind, boolean configured) {
        if (kind == Kind.POSTGRESQL && !configured) {
            throw new IllegalStateException("store_postgresql_url_missing: cloakgate.store=postgresql needs the database:"
                    + " set quarkus.datasource.jdbc.url (jdbc:postgresql://host:5432/db), quarkus.datasource.username and"
                    + " quarkus.datasource.password (QUARKUS_DATASOURCE_PASSWORD from a Secret)");
        }
        if (kind == Kind.SQLITE && configured) {
            throw new IllegalStateException("store_mismatch: quarkus.datasource.jdbc.url is set but cloakgate.store is"
                    + " sqlite, so the database would not be used: set cloakgate.store=postgresql, or remove the URL");
        }
    }

    /**
     * Replicas must share their state: in cluster mode (a replica id) the SQLite default would give each replica its own
     * operations, pins and ledger behind one Service, so a call retried through another replica could run twice.
     */
    static void requireSharedInCluster(Kind kind, boolean clustered, boolean logIdentitySet) {
        if (clustered && kind != Kind.POSTGRESQL) {
            throw new dev.cloakgate.cluster.ClusterSetupException("cluster_requires_postgresql", "cloakgate.cluster.replica-id"
                    + " is set, so the replicas must share their state: set cloakgate.store=postgresql and"
                    + " quarkus.datasource.jdbc.url, username and password");
        }
        // the replicas write one log per tenant, whose origin names the identity: one generated per data dir differs
        if (clustered && !logIdentitySet) {
            throw new dev.cloakgate.cluster.ClusterSetupException("cluster_log_identity_required", "cloakgate.cluster."
                    + "replica-id is set, so the replicas' one log per tenant needs one log identity: set"
                    + " cloakgate.ledger.log-identity (e.g. mcp.team-a.example) to the same value on every replica");
        }
    }

    /** {@code cloakgate.store}'s value as a kind; anything else is {@code store_invalid}. */
    public static Kind kind(String configured) {
        return switch (configured == null ? "" : configured.strip()) {
            case "sqlite" -> Kind.SQLITE;
            case "postgresql" -> Kind.POSTGRESQL;
            default -> throw new IllegalArgumentException("store_invalid: cloakgate.store must be sqlite or postgresql");
        };
    }

    public Kind kind() {
        return kind;
    }

    /** The shared database's pool; empty with {@code cloakgate.store=sqlite}. */
    public Optional<DataSource> dataSource() {
        return kind == Kind.POSTGRESQL ? Optional.of(pool.get()) : Optional.empty();
    }
}
