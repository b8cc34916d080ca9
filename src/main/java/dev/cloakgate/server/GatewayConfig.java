package dev.cloakgate.server;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Gateway properties ({@code cloakgate.*}, also as environment variables); README "Configuration" lists them. */
@ConfigMapping(prefix = "cloakgate")
public interface GatewayConfig {

    /** Directory of tenant files, one {@code {tenant}.json} each. */
    @WithDefault("config/tenants")
    String tenantsDir();

    /** Directory for the gateway's own state (SQLite databases). */
    @WithDefault("data")
    String dataDir();

    /**
     * The gateway's external base URL as agents and browsers reach it ({@code https://gateway.example}, optionally
     * with a path prefix; no query or fragment). It names each tenant's protected resource
     * ({@code <public-url>/t/<tenant>/mcp}) and the redirect URI of upstream OAuth connections. Never derived from
     * a request's {@code Host}: whoever sends the request chooses that header.
     */
    Optional<String> publicUrl();

    // ---- issue 17: where shared state lives ----
    /**
     * {@code sqlite} (files under the data dir; one gateway process) or {@code postgresql} (the state replicas share,
     * in the database of {@code quarkus.datasource.jdbc.url}). Checked by {@link SharedDatabase}.
     */
    @WithDefault("sqlite")
    String store();

    Http http();


    // ---- issue 16: the upstream OAuth store ----
    UpstreamOauth upstreamOauth();

    /** Where upstream OAuth connections (refresh tokens, registered clients) are kept, encrypted (README). */
    interface UpstreamOauth {
        /** A mounted Secret with the store's AES-256 key (64 hex digits or base64); unset: generated under the data dir. */
        Optional<String> keyFile();

        /** The key before a rotation: blobs under it are read and re-encrypted under the current key. */
        Optional<String> previousKeyFile();
    }

    Upstream upstream();

    Session session();

    Ledger ledger();

    // ---- issue 17: sessions without a sticky load balancer ----
    Cluster cluster();

    /** Several replicas behind one Service (README "Running several replicas"); unset replica id: one process. */
    interface Cluster {
        /** This replica's id (Helm: the pod name); setting it turns cluster mode on. */
        Optional<String> replicaId();

        /** The replicas' shared key: the standard base64 of 32 random bytes (a Secret). Required in cluster mode. */
        Optional<String> keyFile();

        /** Where replica {@code {replica}} is reached, e.g. {@code http://{replica}.cloakgate-peers.ns.svc.cluster.local:8080}. */
        Optional<String> peerUrl();

        /** {@code r0=http://host:port,r1=...}: every replica by id; wins over {@code peer-url}. */
        Optional<String> peers();

        /** How long a forward may take to connect to the owner; past it the session is answered as unknown (404). */
        @WithDefault("2s")
        Duration forwardConnectTimeout();

        /** A forward with no byte either way for this long is cut (streams carry keep-alives more often). */
        @WithDefault("150s")
        Duration forwardIdleTimeout();

        /** How far a forward's timestamp may be from the owner's clock. */
        @WithDefault("30s")
        Duration peerAuthWindow();

        // issue 17, shared stores (README "Shared state in PostgreSQL")
        /** How often this replica writes its heartbeat to the shared database. */
        @WithDefault("5s")
        Duration heartbeatInterval();

        /** A replica silent for this long is dead: its in_flight operations become unknown. At least 3 intervals. */
        @WithDefault("30s")
        Duration heartbeatTimeout();

        /** How many replicas serve the tenants: divides the tenant-wide limits (rounded up). */
        @WithDefault("1")
        int replicas();
    }
    // ---- end issue 17 ----

    // ---- issue 10: live tenant configuration and graceful drain ----
    Reload reload();

    Shutdown shutdown();

    /** Watching the tenants directory: changed files are reloaded while the gateway runs (README "Operations"). */
    interface Reload {
        /** Off: tenant files are read once, at start. */
        @WithDefault("true")
        boolean enabled();

        /** A change is read once the directory has been quiet this long (an editor or the kubelet writes in steps). */
        @WithDefault("500ms")
        Duration debounce();

        /** The directory is also scanned this often, for filesystems that do not report changes. */
        @WithDefault("15s")
        Duration rescanInterval();
    }

    /** What SIGTERM does (README "Operations"). */
    interface Shutdown {
        /**
         * After readiness goes down and new sessions are refused, calls in flight get this long to finish; then
         * those left are answered {@code shutting_down}, sessions and their upstreams are closed and the ledgers
         * signed. Keep it, plus a few seconds, under Kubernetes' {@code terminationGracePeriodSeconds}.
         */
        @WithDefault("20s")
        Duration drainTimeout();
    }
    // ---- end issue 10 ----

    interface Http {
        /** Largest request body accepted; larger ones get 413. */
        @WithDefault("8388608")
        int maxBodyBytes();

        /** Deepest JSON nesting accepted in a client message; deeper gets 413. */
        @WithDefault("64")
        int maxDepth();

        /** Origins allowed besides localhost, 127.0.0.1 and [::1] on any port; {@code *} allows any. */
        Optional<List<String>> allowedOrigins();

        /** Comment sent on an idle SSE stream so proxies and load balancers keep it open. */
        @WithDefault("15s")
        Duration keepAlive();

        /** The {@code retry} hint sent on event streams (milliseconds before a client reconnects). */
        @WithDefault("1000")
        long sseRetryMillis();

        /**
         * A request's line and headers must be complete this long after the connection opened, or after the
         * previous response on a kept-alive connection ended; else 408 (or a plain close when nothing was sent).
         */
        @WithDefault("10s")
        Duration headerTimeout();

        /**
         * The body of a request that declares one must be complete this long after its headers; else 408 and the
         * connection is closed.
         */
        @WithDefault("30s")
        Duration bodyTimeout();

        /** Open connections the gateway accepts at once; beyond it a new connection gets 503 and is closed. */
        @WithDefault("16384")
        int maxConnections();

        /**
         * Open connections from one client address (an IPv6 client's /64); beyond it 503. Behind a proxy every
         * client has the proxy's address: size this for the proxy, not for one client.
         */
        @WithDefault("256")
        int maxConnectionsPerAddress();

        /**
         * Bytes written to one connection that its client has not taken yet; a connection already this far behind
         * when another event is due is ended (the events stay in the session's replay buffer).
         */
        @WithDefault("4194304")
        long maxQueuedBytes();

        /** A connection with bytes waiting that its client has not read for this long is ended. */
        @WithDefault("30s")
        Duration writeStallTimeout();
    }

    interface Upstream {
        @WithDefault("60s")
        Duration initializeTimeout();

        /** Longest wait for an upstream's answer; the client then gets an error naming the upstream. */
        @WithDefault("120s")
        Duration requestTimeout();

        @WithDefault("10s")
        Duration connectTimeout();

        /** A stdio child idle this long is ended, and re-spawned on next use. */
        @WithDefault("10m")
        Duration idleTimeout();

        @WithDefault("500ms")
        Duration backoffInitial();

        @WithDefault("30s")
        Duration backoffMax();

        /**
         * Largest message accepted from an upstream, judged while reading: a larger one is skipped unbuffered and
         * the call it answers gets an error at once. Six at once must fit a 1 GiB heap with the cloak running.
         */
        @WithDefault("8388608")
        int maxMessageBytes();

        /** Messages larger than this are parsed, judged and cloaked on the large-message workers. */
        @WithDefault("262144")
        int largeMessageBytes();

        /**
         * Threads for large messages: at most this many are parsed, judged and cloaked at once. Each needs up to
         * about 50 times {@code max-message-bytes} of heap with the cloak running (README, "Limits").
         */
        @WithDefault("1")
        int largeMessageWorkers();

        @WithDefault("256")
        int maxDepth();

        /**
         * Issue 10: stdio children one tenant's sessions may hold at once (a session holds one per stdio upstream
         * for its lifetime; a shared upstream one per protocol version); a tenant file's
         * {@code limits.max_stdio_children} overrides it. A new session beyond it gets 503.
         */
        @WithDefault("100")
        int maxStdioChildrenPerTenant();
    }

    interface Session {
        /** A session whose client keeps a stream open, with no traffic for this long, is ended. */
        @WithDefault("30m")
        Duration idleTimeout();

        /**
         * Issue 10: a session with no open stream and no traffic for this long is ended (a client that went away
         * without DELETE leaves no stream open), and gives back its stdio children.
         */
        @WithDefault("5m")
        Duration streamlessIdleTimeout();

        /** Issue 10: sessions one tenant may hold at once; a tenant file's {@code limits.max_sessions} overrides it. */
        @WithDefault("1000")
        int maxSessionsPerTenant();

        /** Events kept per session for replay after a reconnect ({@code Last-Event-ID}). */
        @WithDefault("512")
        int bufferEvents();

        @WithDefault("8388608")
        long bufferBytes();

        @WithDefault("10000")
        int maxSessions();

        /**
         * Bytes written toward one session's client over all its connections and not taken yet; beyond it the
         * connection furthest behind is ended.
         */
        @WithDefault("16777216")
        long maxQueuedBytes();
    }

    interface Ledger {
        /**
         * File holding the Ed25519 checkpoint signing key (a 32-byte seed, hex or base64), e.g. a mounted
         * Kubernetes secret.
         */
        Optional<String> signingKeyFile();

        /** The seed itself (hex or base64), for a secret exposed as env {@code CLOAKGATE_LEDGER_SIGNING_KEY}. */
        Optional<String> signingKey();

        /**
         * Development only: without a configured key, generate one under {@code {data-dir}/keys/} (and say so at
         * startup). Off by default, so production never signs with a key nobody provisioned.
         */
        @WithDefault("false")
        boolean devKey();

        // ---- issue 15, log identity and keys ----
        /**
         * The deployment's log identity, URL-like without scheme ({@code gateway.acme.example}); tenant T's ledger
         * has origin {@code <identity>/ledger/<T>}. Unset: generated once under the data dir, with a warning.
         */
        Optional<String> logIdentity();

        /** The signing key used before a rotation, for the start that rotates: it endorses the new keys. */
        Optional<String> previousSigningKeyFile();
        // ---- end issue 15 ----

        /** A signed checkpoint after this many entries... */
        @WithDefault("1000")
        int checkpointEvery();

        /** ...or after this long with unsigned entries, and always at shutdown. */
        @WithDefault("10s")
        Duration checkpointInterval();

        // ---- issue 15, witness cosigning ----
        /**
         * Witnesses that cosign each checkpoint (C2SP tlog-witness), each {@code <cosignature/v1 verifier key>@<https
         * URL of its submission prefix>}; none by default.
         */
        Optional<List<String>> witnesses();

        /** Connect and answer timeout of one add-checkpoint request. */
        @WithDefault("10s")
        Duration witnessTimeout();
        // ---- end issue 15 ----
    }
}
