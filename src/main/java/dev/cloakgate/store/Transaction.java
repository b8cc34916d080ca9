package dev.cloakgate.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

import javax.sql.DataSource;

/**
 * Issue 17: one transaction on a pooled connection of the shared database, committed whole or rolled back whole on any
 * failure, the connection handed back as it was taken. The stores in PostgreSQL (operations, pins, the ledger) all
 * write through it; each turns a failure into its own error.
 */
public final class Transaction {
    private Transaction() {
    }

    /** The work inside the transaction; it may fail with the store's own checked exception {@code X}. */
    @FunctionalInterface
    public interface Work<T, X extends Exception> {
        T run(Connection c) throws SQLException, X;
    }

    /**
     * Runs {@code work} in one transaction (read committed: what it decides on it reads under a row lock or in the
     * statement that writes it).
     *
     * @param durable false: the commit does not wait for the WAL flush ({@code synchronous_commit = off}), for writes
     *                whose loss on a database crash the caller tolerates
     */
    public static <T, X extends Exception> T run(DataSource db, boolean durable, Work<T, X> work) throws SQLException, X {
        try (Connection c = db.getConnection()) {
            boolean auto = c.getAutoCommit();
            c.setAutoCommit(false);
            try {
                if (!durable) {
                    try (Statement s = c.createStatement()) {
                        s.execute("SET LOCAL synchronous_commit = off");
                    }
                }
                T out = work.run(c);
                c.commit();
                return out;
            } catch (Exception e) {
                try {
                    c.rollback();
                } catch (SQLException ignored) {
                    // the connection is broken: nothing was committed either way
                }
                throw e;
            } finally {
                c.setAutoCommit(auto);
            }
        }
    }
}
