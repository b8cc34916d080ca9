package dev.cloakgate.server;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;

import dev.cloakgate.jsonrpc.ErrorCodes;
import dev.cloakgate.jsonrpc.RpcError;

/**
 * The first handler of one client connection, ahead of the HTTP codec. A connection refused by
 * {@link ConnectionLimits} gets a 503 written here, and nothing it sends is read. An admitted one must complete
 * each request's line and headers within the header timeout, counted from the connection's start and, on a
 * kept-alive connection, from the end of the previous response: a client that dribbles a header byte every few
 * seconds is not idle, so an idle timeout would never fire. Request bodies are timed by {@link HttpLimits}.
 *
 * <p>Everything here runs on the connection's event loop; {@link #requestStarted} and {@link #requestEnded} hop
 * onto it when called from elsewhere.
 */
final class ConnectionGuard extends ChannelInboundHandlerAdapter {
    static final String NAME = "cloakgate-connection-guard";

    private final HttpLimits owner;
    private final ConnectionLimits.Admission admission;
    private ChannelHandlerContext ctx;
    private ScheduledFuture<?> headerDeadline;
    private int inflight;
    /** Bytes of a next request arrived while none was in progress: a timeout then owes the client a 408. */
    private boolean partial;

    ConnectionGuard(HttpLimits owner, ConnectionLimits.Admission admission) {
        this.owner = owner;
        this.admission = admission;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        if (admission == ConnectionLimits.Admission.ADMITTED) {
            armHeaderDeadline();
        } else {
            owner.refused(admission == ConnectionLimits.Admission.FULL ? "too_many_connections"
                    : "too_many_connections_per_address");
            ctx.writeAndFlush(Unpooled.wrappedBuffer(admission == ConnectionLimits.Admission.FULL
                    ? owner.fullAnswer() : owner.addressFullAnswer())).addListener(ChannelFutureListener.CLOSE);
        }
        super.channelActive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (admission != ConnectionLimits.Admission.ADMITTED) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (inflight == 0) {
            partial = true;
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        cancelHeaderDeadline();
        super.channelInactive(ctx);
    }

    /** The HTTP layer dispatched a request on this connection: its headers are complete. */
    void requestStarted() {
        if (!ctx.executor().inEventLoop()) {
            ctx.executor().execute(this::requestStarted);
            return;
        }
        inflight++;
        partial = false;
        cancelHeaderDeadline();
    }

    /** A response on this connection ended (or the exchange failed): with none left, the next request is timed. */
    void requestEnded() {
        if (!ctx.executor().inEventLoop()) {
            ctx.executor().execute(this::requestEnded);
            return;
        }
        if (inflight > 0 && --inflight == 0 && ctx.channel().isActive()) {
            armHeaderDeadline();
        }
    }

    private void armHeaderDeadline() {
        cancelHeaderDeadline();
        headerDeadline = ctx.executor().schedule(this::headerTimedOut, owner.headerTimeoutMillis(),
                TimeUnit.MILLISECONDS);
    }

    private void cancelHeaderDeadline() {
        if (headerDeadline != null) {
            headerDeadline.cancel(false);
            headerDeadline = null;
        }
    }

    private void headerTimedOut() {
        headerDeadline = null;
        if (inflight > 0 || !ctx.channel().isActive()) {
            return;
        }
        if (partial) {
            owner.refused("header_timeout");
            ctx.writeAndFlush(Unpooled.wrappedBuffer(owner.headerTimeoutAnswer())).addListener(ChannelFutureListener.CLOSE);
        } else {
            // an idle kept-alive connection: closing it is the ordinary end of keep-alive, owed no answer
            ctx.close();
        }
    }

    /** A complete HTTP/1.1 response with a JSON-RPC error body, for answers written beneath the HTTP layer. */
    static byte[] rawAnswer(int status, String statusText, RpcError error, String extraHeaders) {
        byte[] body = error.toResponse(null).toString().getBytes(StandardCharsets.UTF_8);
        String head = "HTTP/1.1 " + status + " " + statusText + "\r\nContent-Type: application/json\r\nContent-Length: "
                + body.length + "\r\nConnection: close\r\n" + extraHeaders + "\r\n";
        byte[] h = head.getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[h.length + body.length];
        System.arraycopy(h, 0, out, 0, h.length);
        System.arraycopy(body, 0, out, h.length, body.length);
        return out;
    }

    static RpcError timeoutError(String reason, String message) {
        return RpcError.of(ErrorCodes.INVALID_REQUEST, reason, message);
    }
}
