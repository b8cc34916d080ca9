package dev.cloakgate.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.auth.Principal;
import dev.cloakgate.jsonrpc.JsonCodec;
import dev.cloakgate.tenant.DetectionSettings;
import dev.cloakgate.tenant.Namespace;
import dev.cloakgate.tenant.TenantConfig;
import dev.cloakgate.tenant.TenantLimits;
import dev.cloakgate.tenant.TokenScope;
import dev.cloakgate.tenant.UpstreamConfig;
import dev.cloakgate.testing.Json;
import dev.cloakgate.testing.NodeFixtures;
import dev.cloakgate.upstream.HttpLink;
import dev.cloakgate.upstream.Links;
import dev.cloakgate.upstream.MessageLanes;

/**
 * Issue 10, process economy, without Quarkus but with real stdio children: a session nobody streams from ends
 * sooner and gives its child back; a shared upstream is one child for many sessions; a tenant's caps on sessions
 * and children refuse only that tenant and are given back when a session ends.
 */
class ProcessEconomyTest {
    private static final String SCRIPT = "stateless-server.mjs";
    private final ScheduledExecutorService timer = Executors.newScheduledThreadPool(2);
    private final ExecutorService pool = Executors.newCachedThreadPool();
    private final io.vertx.core.Vertx vertx = io.vertx.core.Vertx.vertx();
    private final List<SessionRegistry> registries = new ArrayList<>();

    @AfterEach
    void stop() {
        registries.forEach(SessionRegistry::closeAll);
        timer.shutdownNow();
        pool.shutdownNow();
        vertx.close();
    }

    private SessionRegistry registry(Duration sessionIdle, Duration streamlessIdle, int maxSessions) {
        GatewaySettings d = GatewaySettings.defaults();
        GatewaySettings s = new GatewaySettings("test", Duration.ofSeconds(20), Duration.ofSeconds(10), Duration.ofSeconds(2),
                sessionIdle, Duration.ofMinutes(10), Duration.ofMillis(100), Duration.ofSeconds(1), 64, 1 << 20,
                d.clientLimits(), d.upstreamLimits(), maxSessions, 1 << 20, 1000, 100, streamlessIdle);
        JsonCodec codec = new JsonCodec(s.upstreamLimits());
        SessionRegistry r = new SessionRegistry(s, codec, new Links(codec, vertx, pool,
                new HttpLink.Timeouts(Duration.ofSeconds(2), Duration.ofSeconds(10)), 100,
                new MessageLanes(pool, pool, 1 << 16)), timer, t -> null);
        registries.add(r);
        return r;
    }

    private static TenantConfig tenant(String name, boolean shared, TenantLimits limits, String... upstreams) {
        NodeFixtures.requireInstalled();
        Map<String, UpstreamConfig> ups = new LinkedHashMap<>();
        for (String u : upstreams) {
            ups.put(u, new UpstreamConfig.Stdio(u, "node", List.of(NodeFixtures.DIR.resolve(SCRIPT).toString(), "stdio"),
                    Map.of(), null, shared));
        }
        return new TenantConfig(name, ups, Namespace.PREFIX, "x", false, DetectionSettings.defaults(), TokenScope.SESSION,
                100, null, null, limits);
    }

    private static TenantLimits limits(int sessions, int children) {
        return new TenantLimits(sessions == 0 ? OptionalInt.empty() : OptionalInt.of(sessions),
                children == 0 ? OptionalInt.empty() : OptionalInt.of(children));
    }

    private static ObjectNode initialize() {
        return Json.obj("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}");
    }

    private static GatewaySession open(SessionRegistry r, TenantConfig t) throws Exception {
        SessionRegistry.Admission a = r.admit(t, Principal.anonymous(t.name()), initialize().path("params"));
        GatewaySession s = assertInstanceOf(SessionRegistry.Admitted.class, a, a.toString()).session();
        ObjectNode init = s.initialize(initialize()).get(60, TimeUnit.SECONDS);
        assertTrue(init.has("result"), init.toString());
        r.register(s);
        return s;
    }

    private static String whoami(GatewaySession s, String upstream) throws Exception {
        ObjectNode call = Json.obj("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"" + upstream
                + "__whoami\",\"arguments\":{}}}");
        ObjectNode answer = s.request(call, ClientStream.NONE).get(60, TimeUnit.SECONDS);
        String text = answer.path("result").path("content").path(0).path("text").asText();
        assertTrue(text.startsWith("pid="), answer.toString());
        return text.substring(4);
    }

    private static Set<Long> children() {
        return ProcessHandle.current().descendants()
                .filter(p -> p.info().commandLine().map(c -> c.contains(SCRIPT)).orElse(false))
                .filter(ProcessHandle::isAlive).map(ProcessHandle::pid).collect(Collectors.toCollection(HashSet::new));
    }

    private static void awaitGone(long pid) {
        ProcessHandle.of(pid).ifPresent(p -> p.onExit().orTimeout(30, TimeUnit.SECONDS).join());
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "child " + pid + " ended");
    }

    /** A sink that stands for a client holding a GET stream open. */
    private static final class OpenStream implements SessionStreams.Sink {
        @Override
        public boolean write(String eventId, String data) {
            return true;
        }

        @Override
        public void end() {
        }
    }

    @Test
    void aSessionNobodyStreamsFromEndsAtTheShorterTimeoutAndGivesItsChildBack() throws Exception {
        SessionRegistry r = registry(Duration.ofMinutes(10), Duration.ofMillis(300), 100);
        TenantConfig t = tenant("eco", false, TenantLimits.defaults(), "st");
        Set<Long> before = children();
        GatewaySession gone = open(r, t);
        long pid = Long.parseLong(whoami(gone, "st"));
        assertFalse(before.contains(pid));
        GatewaySession listening = open(r, t);
        whoami(listening, "st");
        listening.streams().attach(null, new OpenStream());
        Thread.sleep(700);
        r.sweep();
        assertNull(r.get(gone.id()), "a session with no open stream and no traffic is ended at the shorter timeout");
        assertTrue(gone.closed());
        awaitGone(pid);
        assertNotNull(r.get(listening.id()), "a session whose client keeps a stream open stays for the longer one");
        assertEquals(new SessionRegistry.Held(1, 1), r.held("eco"), "the ended session gave back its slot and child");
    }

    @Test
    void aSharedUpstreamIsOneChildForEverySessionAndEndsWithTheLast() throws Exception {
        SessionRegistry r = registry(Duration.ofMinutes(10), Duration.ofMinutes(5), 100);
        TenantConfig shared = tenant("pooled", true, limits(0, 1), "st");
        Set<Long> before = children();
        List<GatewaySession> sessions = new ArrayList<>();
        Set<String> pids = new HashSet<>();
        for (int i = 0; i < 5; i++) {
            GatewaySession s = open(r, shared);
            sessions.add(s);
            pids.add(whoami(s, "st"));
        }
        assertEquals(1, pids.size(), "every session reached the same child: " + pids);
        Set<Long> spawned = children();
        spawned.removeAll(before);
        assertEquals(Set.of(Long.parseLong(pids.iterator().next())), spawned, "exactly one child was spawned");
        assertEquals(new SessionRegistry.Held(5, 1), r.held("pooled"), "five sessions, one child (under a cap of one)");

        for (int i = 0; i < 4; i++) {
            r.remove(sessions.get(i).id());
        }
        long pid = spawned.iterator().next();
        assertTrue(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "the child serves the last session");
        assertEquals(pids.iterator().next(), whoami(sessions.get(4), "st"));
        r.remove(sessions.get(4).id());
        awaitGone(pid);
        assertEquals(new SessionRegistry.Held(0, 0), r.held("pooled"));
    }

    @Test
    void aTenantAtItsCapsRefusesOnlyItselfUntilASessionEnds() throws Exception {
        SessionRegistry r = registry(Duration.ofMinutes(10), Duration.ofMinutes(5), 100);
        TenantConfig a = tenant("a", false, limits(0, 3), "one", "two");
        TenantConfig b = tenant("b", false, limits(1, 0), "one");
        GatewaySession first = open(r, a);
        SessionRegistry.Admission refused = r.admit(a, Principal.anonymous(a.name()), initialize().path("params"));
        assertEquals("too_many_stdio_children", assertInstanceOf(SessionRegistry.Refused.class, refused).reason(),
                "two children held of three, a session needs two");
        open(r, b);
        SessionRegistry.Admission second = r.admit(b, Principal.anonymous(b.name()), initialize().path("params"));
        assertEquals("too_many_tenant_sessions", assertInstanceOf(SessionRegistry.Refused.class, second).reason());
        r.remove(first.id());
        open(r, a);
    }

    @Test
    void theGatewayCeilingStillHolds() throws Exception {
        SessionRegistry r = registry(Duration.ofMinutes(10), Duration.ofMinutes(5), 1);
        TenantConfig a = tenant("a", true, TenantLimits.defaults(), "st");
        TenantConfig b = tenant("b", true, TenantLimits.defaults(), "st");
        open(r, a);
        SessionRegistry.Admission refused = r.admit(b, Principal.anonymous(b.name()), initialize().path("params"));
        assertEquals("too_many_sessions", assertInstanceOf(SessionRegistry.Refused.class, refused).reason());
    }
}
