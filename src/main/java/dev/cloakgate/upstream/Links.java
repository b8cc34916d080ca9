package dev.cloakgate.upstream;

import java.net.http.HttpClient;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;

import dev.cloakgate.jsonrpc.JsonCodec;
import dev.cloakgate.tenant.UpstreamConfig;

/** Creates the link each upstream's transport needs, sharing the HTTP client, timers and writer threads. */
public final class Links implements LinkFactory {
    private final JsonCodec codec;
    private final HttpClient http;
    private final ScheduledExecutorService timer;
    private final Executor writers;
    private final HttpLink.Timeouts timeouts;

    public Links(JsonCodec codec, HttpClient http, ScheduledExecutorService timer, Executor writers,
            HttpLink.Timeouts timeouts) {
        this.codec = codec;
        this.http = http;
        this.timer = timer;
        this.writers = writers;
        this.timeouts = timeouts;
    }

    @Override
    public UpstreamLink create(UpstreamConfig config, String label, UpstreamLink.Inbound inbound) {
        if (config instanceof UpstreamConfig.Stdio s) {
            return new StdioLink(s, label, codec, inbound, new SerialExecutor(writers));
        }
        return new HttpLink((UpstreamConfig.Http) config, label, http, codec, inbound, timer, timeouts);
    }
}
