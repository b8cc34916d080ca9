package dev.cloakgate.upstream;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The messages of one stream (an HTTP response), handled one at a time in the order they arrived, each on the
 * lane its size calls for. What is waiting is counted, so the reader can stop reading (pause the response) while
 * more than a message limit's worth is queued, and read on once the queue has drained.
 */
final class OrderedWork {
    private record Item(Runnable work, long bytes) {
    }

    private final MessageLanes lanes;
    private final Deque<Item> items = new ArrayDeque<>();
    private boolean running;
    private long queuedBytes;
    private final List<Runnable> onDrained = new ArrayList<>();

    OrderedWork(MessageLanes lanes) {
        this.lanes = lanes;
    }

    /** Queues a message's work; returns the bytes now waiting (this message included). */
    long submit(Runnable work, long bytes) {
        long queued;
        synchronized (this) {
            items.add(new Item(work, bytes));
            queuedBytes += bytes;
            queued = queuedBytes;
            if (running) {
                return queued;
            }
            running = true;
        }
        next();
        return queued;
    }

    /** Runs {@code r} once everything queued has been handled (at once when nothing is). */
    void whenDrained(Runnable r) {
        boolean now;
        synchronized (this) {
            now = !running;
            if (!now) {
                onDrained.add(r);
            }
        }
        if (now) {
            r.run();
        }
    }

    private void next() {
        Item it;
        synchronized (this) {
            it = items.peek();
            if (it == null) {
                running = false;
                if (!onDrained.isEmpty()) {
                    List<Runnable> due = List.copyOf(onDrained);
                    onDrained.clear();
                    lanes.laneFor(0).execute(() -> due.forEach(Runnable::run));
                }
                return;
            }
        }
        lanes.laneFor(it.bytes()).execute(() -> {
            try {
                it.work().run();
            } finally {
                synchronized (this) {
                    items.poll();
                    queuedBytes -= it.bytes();
                }
                next();
            }
        });
    }
}
