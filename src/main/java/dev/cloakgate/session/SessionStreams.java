package dev.cloakgate.session;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The session's server-to-client event streams and a bounded buffer of what was sent on them, so a client that
 * reconnects with {@code Last-Event-ID} gets what it missed. Stream 0 is the standalone GET stream; each POST
 * answered as SSE gets its own number. Event ids are {@code {stream}-{seq}} with a session-wide sequence.
 */
public final class SessionStreams {

    /** The front's side of one open HTTP stream. */
    public interface Sink {
        /** Writes one event; false when the connection is gone. */
        boolean write(String eventId, String data);

        /** Ends the HTTP response. */
        void end();
    }

    /** One logical stream; its sink changes when the client reconnects. */
    public final class Stream {
        private final int number;
        private Sink sink;
        private boolean finished;
        private long delivered;

        private Stream(int number) {
            this.number = number;
        }

        public int number() {
            return number;
        }
    }

    private record Event(int stream, long seq, String data, int size) {
        String id() {
            return stream + "-" + seq;
        }
    }

    private final int maxEvents;
    private final long maxBytes;
    private final Backlog backlog;
    private final Deque<Event> buffer = new ArrayDeque<>();
    private final java.util.Map<Integer, Stream> streams = new java.util.HashMap<>();
    private final Stream standalone = new Stream(0);
    private long bufferedBytes;
    /** When a client last (re)opened a stream: a reconnect is activity too. */
    private volatile long lastAttachNanos = System.nanoTime();
    private long seq;
    private int nextStream = 1;

    /** @param maxQueuedBytes bytes written toward the client and not taken yet, over all its connections */
    public SessionStreams(int maxEvents, long maxBytes, long maxQueuedBytes) {
        this.maxEvents = maxEvents;
        this.maxBytes = maxBytes;
        this.backlog = new Backlog(maxQueuedBytes);
        streams.put(0, standalone);
    }

    public SessionStreams(int maxEvents, long maxBytes) {
        this(maxEvents, maxBytes, Long.MAX_VALUE);
    }

    /** What the session's connections have been given and not taken yet. */
    public Backlog backlog() {
        return backlog;
    }

    public Stream standalone() {
        return standalone;
    }

    /** A new stream for a POST answered as SSE, with {@code sink} attached. */
    public synchronized Stream open(Sink sink) {
        Stream s = new Stream(nextStream++);
        s.sink = sink;
        streams.put(s.number, s);
        return s;
    }

    /** Records and sends an event; an empty {@code data} is a priming event (a resume point, never replayed). */
    public synchronized String emit(Stream s, String data) {
        Event e = new Event(s.number, ++seq, data, data.length() + 16);
        buffer.addLast(e);
        bufferedBytes += e.size;
        while (buffer.size() > maxEvents || bufferedBytes > maxBytes) {
            Event old = buffer.removeFirst();
            bufferedBytes -= old.size;
        }
        if (s.sink != null) {
            if (s.sink.write(e.id(), data)) {
                s.delivered = e.seq;
            } else {
                s.sink = null;
            }
        }
        return e.id();
    }

    /** The stream's last event was sent: end its connection and let its buffer age out. */
    public synchronized void finish(Stream s) {
        s.finished = true;
        if (s.sink != null) {
            s.sink.end();
            s.sink = null;
        }
        if (s != standalone) {
            streams.remove(s.number);
        }
    }

    /** The connection of a stream went away (client disconnect); events keep buffering. */
    public synchronized void detach(Stream s, Sink sink) {
        if (s.sink == sink) {
            s.sink = null;
        }
    }

    /**
     * Attaches a GET connection. With a {@code lastEventId} from a known stream, replays that stream's later
     * events and, if it is still open, continues it on this connection; otherwise this becomes the standalone
     * stream and receives standalone events not yet delivered. Returns the stream now attached, or null when the
     * resumed stream had already finished (the caller ends the response after the replay).
     */
    public synchronized Stream attach(String lastEventId, Sink sink) {
        lastAttachNanos = System.nanoTime();
        int number = 0;
        long after = standalone.delivered;
        Stream target = standalone;
        int[] streamOf = new int[1];
        long resumeSeq = parseEventId(lastEventId, streamOf);
        if (resumeSeq >= 0 && (streams.containsKey(streamOf[0]) || bufferHas(streamOf[0]))) {
            number = streamOf[0];
            after = resumeSeq;
            target = streams.get(number);
        }
        for (Event e : buffer) {
            if (e.stream == number && e.seq > after && !e.data.isEmpty()) {
                if (!sink.write(e.id(), e.data)) {
                    return target;
                }
                if (target != null) {
                    target.delivered = e.seq;
                }
            }
        }
        if (target == null || target.finished) {
            return null;
        }
        if (target.sink != null && target.sink != sink) {
            // one connection per stream: a reconnect replaces a connection the client has given up on
            target.sink.end();
        }
        target.sink = sink;
        return target;
    }

    /** The sequence number of one of our event ids (its stream in {@code stream[0]}), or -1. */
    private static long parseEventId(String id, int[] stream) {
        if (id == null) {
            return -1;
        }
        int dash = id.indexOf('-');
        if (dash <= 0) {
            return -1;
        }
        try {
            stream[0] = Integer.parseInt(id.substring(0, dash));
            return Long.parseLong(id.substring(dash + 1));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private boolean bufferHas(int stream) {
        for (Event e : buffer) {
            if (e.stream == stream) {
                return true;
            }
        }
        return false;
    }

    public long lastAttachNanos() {
        return lastAttachNanos;
    }

    /** True when the standalone stream has a live connection. */
    public synchronized boolean standaloneConnected() {
        return standalone.sink != null;
    }

    /** Ends every connection (session closed). */
    public synchronized void closeAll() {
        for (Stream s : streams.values()) {
            if (s.sink != null) {
                s.sink.end();
                s.sink = null;
            }
            s.finished = true;
        }
    }

    /** Streams with a live connection, for keep-alive and idle accounting. */
    public synchronized int liveConnections() {
        int n = 0;
        for (Stream s : streams.values()) {
            if (s.sink != null) {
                n++;
            }
        }
        return n;
    }
}
