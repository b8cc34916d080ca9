package dev.cloakgate.store;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/** How cloakgate opens its SQLite files (the ledger, the operations store). */
public final class Sqlite {
    private Sqlite() {
    }

    /**
     * Straight to the SQLite driver, not through DriverManager: DriverManager hands a driver only to callers
     * whose class loader loaded that same driver class, which fails when the first user (a Quarkus class loader
     * in tests, or a dev-mode reload) is not this class's.
     */
    public static Connection connect(Path dbFile, Properties props) throws SQLException {
        return org.sqlite.JDBC.createConnection("jdbc:sqlite:" + dbFile.toAbsolutePath(), props);
    }

    /**
     * Puts the database in WAL mode (persistent in the file) or fails: a crash then leaves each transaction whole
     * or absent, and readers in other processes see a consistent snapshot while the writer commits.
     */
    public static void requireWal(Connection db, Path dbFile) throws SQLException {
        try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery("PRAGMA journal_mode=WAL")) {
            if (!rs.next() || !"wal".equalsIgnoreCase(rs.getString(1))) {
                throw new StoreException(dbFile + ": SQLite refused WAL journal mode");
            }
        }
    }

    public static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // closing after a failure; nothing more to save
            }
        }
    }
}
