package dev.cloakgate.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.jsonrpc.JsonCodec;
import dev.cloakgate.tenant.Namespace;
import dev.cloakgate.tenant.TenantConfig;
import dev.cloakgate.tenant.UpstreamConfig;
import dev.cloakgate.testing.Json;
import dev.cloakgate.testing.NodeFixtures;
import dev.cloakgate.upstream.HttpLink;
import dev.cloakgate.upstream.Links;

/** Session lifetimes without Quarkus: a real stdio child per session, ended when idle, and re-spawned on use. */
class SessionRegistryTest {
    private final ScheduledExecutorService timer = Executors.newScheduledThreadPool(2);
    private final io.vertx.core.Vertx vertx = io.vertx.core.Vertx.vertx();

    @AfterEach
    void stop() {
        timer.shutdownNow();
        vertx.close();
    }

    private SessionRegistry registry(Duration upstreamIdle, Duration sessionIdle) {
        GatewaySettings d = GatewaySettings.defaults();
        GatewaySettings s = new GatewaySettings("test", Duration.ofSeconds(20), Duration.ofSeconds(10), Duration.ofSeconds(2),
                sessionIdle, upstreamIdle, Duration.ofMillis(100), Duration.ofSeconds(1), 64, 1 << 20, d.clientLimits(),
                d.upstreamLimits(), 100, 1 << 20);
        JsonCodec codec = new JsonCodec(s.upstreamLimits());
        java.util.concurrent.ExecutorService pool = Executors.newCachedThreadPool();
        return new SessionRegistry(s, codec, new Links(codec, vertx, pool,
                new HttpLink.Timeouts(Duration.ofSeconds(2), Duration.ofSeconds(10)), 100,
                new dev.cloakgate.upstream.MessageLanes(pool, pool, 1 << 16)), timer, t -> null);
    }

    private static TenantConfig probeTenant() {
        NodeFixtures.requireInstalled();
        return new TenantConfig("t", Map.of("alpha", new UpstreamConfig.Stdio("alpha", "node",
                List.of(NodeFixtures.PROBE.toString(), "stdio", "--name", "alpha"), Map.of(), null)), Namespace.PREFIX, "x",
                false, dev.cloakgate.tenant.DetectionSettings.defaults(), dev.cloakgate.tenant.TokenScope.SESSION, 100, null, null);
    }

    private static ObjectNode initialize() {
        return Json.obj("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}");
    }

    @Test
    void idleStdioChildIsEndedAndRespawnedOnNextUse() throws Exception {
        SessionRegistry r = registry(Duration.ofMillis(200), Duration.ofMinutes(5));
        java.util.Set<Long> before = probePids();
        GatewaySession s = r.create(probeTenant());
        ObjectNode init = s.initialize(initialize()).get();
        assertEquals("2025-06-18", init.path("result").path("protocolVersion").asText());
        r.register(s);
        long pid = childPid(before);
        assertTrue(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
        Thread.sleep(400);
        r.sweep();
        ProcessHandle.of(pid).ifPresent(p -> p.onExit().orTimeout(20, java.util.concurrent.TimeUnit.SECONDS).join());
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "idle child ended");
        assertFalse(s.upstreams().get("alpha").connected());

        ObjectNode call = Json.obj("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"alpha__echo\","
                + "\"arguments\":{\"text\":\"again\"}}}");
        ObjectNode answer = s.request(call, ClientStream.NONE).get();
        assertEquals("alpha:again", answer.path("result").path("content").path(0).path("text").asText(), answer.toString());
        r.closeAll();
    }

    @Test
    void idleSessionExpiresAndItsChildIsEnded() throws Exception {
        SessionRegistry r = registry(Duration.ofMinutes(5), Duration.ofMillis(200));
        java.util.Set<Long> before = probePids();
        GatewaySession s = r.create(probeTenant());
        s.initialize(initialize()).get();
        r.register(s);
        long pid = childPid(before);
        Thread.sleep(400);
        r.sweep();
        assertNull(r.get(s.id()), "expired sessions are gone (the client then gets 404)");
        assertTrue(s.closed());
        ProcessHandle.of(pid).ifPresent(p -> p.onExit().orTimeout(20, java.util.concurrent.TimeUnit.SECONDS).join());
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
    }

    // the child this test spawned, told apart from probes other tests left running by set difference, not by
    // the highest pid (pids wrap on busy CI machines)
    private static long childPid(java.util.Set<Long> before) {
        java.util.Set<Long> now = probePids();
        now.removeAll(before);
        assertEquals(1, now.size(), "exactly one new probe child: " + now);
        return now.iterator().next();
    }

    private static java.util.Set<Long> probePids() {
        return ProcessHandle.current().descendants()
                .filter(p -> p.info().commandLine().map(c -> c.contains("probe-server.mjs")).orElse(false))
                .filter(ProcessHandle::isAlive).map(ProcessHandle::pid)
                .collect(java.util.stream.Collectors.toCollection(java.util.HashSet::new));
    }

}
