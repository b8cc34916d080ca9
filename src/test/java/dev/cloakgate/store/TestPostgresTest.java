package dev.cloakgate.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;

import org.junit.jupiter.api.Test;

import dev.cloakgate.testing.TestPostgres;

/** Issue 17: the tests' PostgreSQL is a real server, password-protected, and every caller gets its own database. */
class TestPostgresTest {

    @Test
    void eachCallerGetsItsOwnDatabaseOnARealServer() throws Exception {
        TestPostgres pg = TestPostgres.server();
        TestPostgres.Database a = pg.database("a");
        TestPostgres.Database b = pg.database("b");
        assertNotEquals(a.url(), b.url());
        try (Connection c = a.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (x int)");
            s.execute("INSERT INTO t VALUES (42)");
            try (ResultSet rs = s.executeQuery("SELECT current_setting('server_version_num')::int")) {
                assertTrue(rs.next());
                assertTrue(rs.getInt(1) >= 140000, "PostgreSQL 14 or newer");
            }
        }
        try (Connection c = b.dataSource().getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) FROM information_schema.tables WHERE table_name = 't'")) {
            assertTrue(rs.next());
            assertEquals(0, rs.getInt(1), "a table of one database is not in another");
        }
    }

    @Test
    void aWrongPasswordIsRefused() throws Exception {
        TestPostgres.Database a = TestPostgres.server().database("auth");
        org.postgresql.ds.PGSimpleDataSource ds = new org.postgresql.ds.PGSimpleDataSource();
        ds.setUrl(a.url());
        ds.setUser(a.user());
        ds.setPassword("not-" + a.password());
        boolean refused;
        try (Connection c = ds.getConnection()) {
            refused = false;
        } catch (java.sql.SQLException e) {
            refused = true;
        }
        assertTrue(refused, "the server checks passwords (the gateway must be given its credentials)");
        assertFalse(a.password().isEmpty());
    }
}
