package dev.cloakgate.gate;

import java.util.Optional;

/**
 * Where the gate finds the approval receipt for a call: the bytes of {@code <fingerprint>.approval.json}, or empty
 * when there is none yet. The approvals store satisfies it by method reference. A lookup that cannot be made throws
 * {@link java.io.UncheckedIOException}; the gate refuses the call ({@code approval_unreadable}), it never passes it.
 */
@FunctionalInterface
public interface ReceiptLookup {
    ReceiptLookup NONE = fingerprint -> Optional.empty();

    Optional<byte[]> find(String fingerprintHex);
}
