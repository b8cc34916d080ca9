// In-memory EventStore for the SDK's streamable-HTTP server transport (resumability, SEP-1699).
//
// Every message the transport sends on an SSE stream is stored here first and gets an event id.
// A client that lost the stream reconnects with GET + Last-Event-ID and is sent everything that
// was stored on the same stream after that id.
//
// Event ids have the form `<streamId>::<sequence>`: the stream is recoverable from the id alone
// (even after the event itself was evicted), and the sequence orders events across streams.

const SEPARATOR = '::';

export class MemoryEventStore {
  /** @type {Map<string, {streamId: string, seq: number, message: object}>} insertion order == seq order */
  #events = new Map();
  #seq = 0;
  #maxEvents;

  constructor({ maxEvents = 10_000 } = {}) {
    this.#maxEvents = maxEvents;
  }

  async storeEvent(streamId, message) {
    const seq = ++this.#seq;
    const eventId = `${streamId}${SEPARATOR}${seq}`;
    this.#events.set(eventId, { streamId, seq, message });
    // Bound memory for long test runs: drop the oldest events first.
    while (this.#events.size > this.#maxEvents) {
      this.#events.delete(this.#events.keys().next().value);
    }
    return eventId;
  }

  async getStreamIdForEventId(eventId) {
    return parseEventId(eventId)?.streamId;
  }

  async replayEventsAfter(lastEventId, { send }) {
    const parsed = parseEventId(lastEventId);
    if (!parsed) {
      // The transport calls getStreamIdForEventId first and answers 400 for unknown ids,
      // so this is only reached on misuse.
      throw new Error(`Malformed event id: ${lastEventId}`);
    }
    // Snapshot first: sending can make the transport store further events.
    const pending = [];
    for (const [eventId, event] of this.#events) {
      if (event.streamId === parsed.streamId && event.seq > parsed.seq) pending.push([eventId, event.message]);
    }
    for (const [eventId, message] of pending) {
      // Priming events are stored as `{}`: they carry no JSON-RPC message and are never re-sent.
      if (message && Object.keys(message).length > 0) await send(eventId, message);
    }
    return parsed.streamId;
  }
}

function parseEventId(eventId) {
  if (typeof eventId !== 'string') return undefined;
  const at = eventId.lastIndexOf(SEPARATOR);
  if (at <= 0) return undefined;
  const seq = Number(eventId.slice(at + SEPARATOR.length));
  if (!Number.isSafeInteger(seq) || seq <= 0) return undefined;
  return { streamId: eventId.slice(0, at), seq };
}
