package dev.cloakgate.upstream;

import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The steps every link's setup shares, whether a session's own ({@link Upstream}) or a shared child's
 * ({@link SharedChild}): reading the upstream's initialize answer, naming a failure, and logging it.
 */
final class LinkSetup {
    private static final Logger LOG = Logger.getLogger(Upstream.class);

    private LinkSetup() {
    }

    /** The result of an initialize answer; refused when it is an error or names no protocol version. */
    static ObjectNode initializeResult(String upstream, ObjectNode response) {
        if (response.has("error")) {
            throw new UpstreamException(upstream, UpstreamException.Reason.UPSTREAM_PROTOCOL_ERROR,
                    "refused initialize (code " + response.path("error").path("code").asInt() + ")");
        }
        JsonNode r = response.get("result");
        if (!(r instanceof ObjectNode result) || !r.path("protocolVersion").isTextual()) {
            throw new UpstreamException(upstream, UpstreamException.Reason.UPSTREAM_PROTOCOL_ERROR,
                    "answered initialize without a protocolVersion");
        }
        return result;
    }

    /** What failed, as the error a caller gets (a timeout of the whole setup named as such). */
    static UpstreamException failure(String upstream, Throwable t, Duration initializeTimeout) {
        Throwable c = unwrap(t);
        if (c instanceof TimeoutException && initializeTimeout != null) {
            return new UpstreamException(upstream, UpstreamException.Reason.UPSTREAM_TIMEOUT,
                    "did not complete initialize within " + initializeTimeout.toMillis() + " ms");
        }
        if (c instanceof UpstreamException u) {
            return u;
        }
        if (c instanceof TimeoutException) {
            return new UpstreamException(upstream, UpstreamException.Reason.UPSTREAM_TIMEOUT, "timed out");
        }
        return new UpstreamException(upstream, UpstreamException.Reason.UPSTREAM_PROTOCOL_ERROR,
                "failed (" + c.getClass().getSimpleName() + ")");
    }

    /**
     * Why a link is not tried again yet: the failure that put it in backoff, so the caller learns what is wrong and
     * not only that it is, with the time to the next attempt.
     */
    static UpstreamException backingOff(String upstream, long waitNanos, UpstreamException lastFailure) {
        String next = "; next attempt in " + TimeUnit.NANOSECONDS.toMillis(waitNanos) + " ms";
        return lastFailure == null ? new UpstreamException(upstream, UpstreamException.Reason.UPSTREAM_UNAVAILABLE,
                "is unavailable" + next) : lastFailure.explained(next);
    }

    static Throwable unwrap(Throwable t) {
        Throwable c = t;
        while ((c instanceof CompletionException || c instanceof ExecutionException) && c.getCause() != null) {
            c = c.getCause();
        }
        return c;
    }

    /**
     * Says why an upstream could not be established, once a minute per cause: a child that could not start or
     * died before completing initialize at WARN, with the head of its stderr (a wrong command, a missing module);
     * anything else (unreachable, an HTTP status, a timeout) at INFO.
     */
    static void logFailure(String label, boolean child, UpstreamHealth health, UpstreamException why) {
        String line = why.detail() + (child ? " before completing initialize" : "") + " (" + why.reason().code() + ")"
                + (why.diagnostic() == null ? "" : "; stderr: " + why.diagnostic());
        if (!health.worthLogging(why)) {
            LOG.debugf("upstream %s: %s", label, line);
        } else if (child) {
            LOG.warnf("upstream %s: %s", label, line);
        } else {
            LOG.infof("upstream %s: could not be established: %s", label, line);
        }
    }
}
