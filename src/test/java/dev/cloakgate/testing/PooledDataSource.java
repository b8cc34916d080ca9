package dev.cloakgate.testing;

import java.sql.SQLException;

import io.agroal.api.AgroalDataSource;
import io.agroal.api.configuration.supplier.AgroalDataSourceConfigurationSupplier;
import io.agroal.api.security.NamePrincipal;
import io.agroal.api.security.SimplePassword;

/**
 * A pooled data source (Agroal, the pool Quarkus gives the gateway) on a {@link TestPostgres.Database}: a store that
 * takes a connection per transaction, as the gateway's do, would otherwise open a new session (and authenticate) for
 * each one, which measures the handshake rather than the store.
 */
public final class PooledDataSource {
    private PooledDataSource() {
    }

    public static AgroalDataSource of(TestPostgres.Database db, int maxSize) {
        try {
            return AgroalDataSource.from(new AgroalDataSourceConfigurationSupplier().connectionPoolConfiguration(pool -> pool
                    .minSize(0).maxSize(maxSize).initialSize(0).connectionFactoryConfiguration(factory -> factory
                            .jdbcUrl(db.url()).principal(new NamePrincipal(db.user()))
                            .credential(new SimplePassword(db.password())))));
        } catch (SQLException e) {
            throw new IllegalStateException("cannot pool test database " + db.name() + ": " + e.getMessage(), e);
        }
    }
}
