package dev.cloakgate.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.net.InetSocketAddress;

import org.junit.jupiter.api.Test;

class ConnectionLimitsTest {

    @Test
    void anAddressIsCappedAndOthersAreNot() {
        ConnectionLimits l = new ConnectionLimits(10, 2);
        ConnectionLimits.Client a = client("10.0.0.1");
        assertEquals(ConnectionLimits.Admission.ADMITTED, l.admit(a));
        assertEquals(ConnectionLimits.Admission.ADMITTED, l.admit(a));
        assertEquals(ConnectionLimits.Admission.ADDRESS_FULL, l.admit(a));
        assertEquals(ConnectionLimits.Admission.ADMITTED, l.admit(client("10.0.0.2")));
        assertEquals(3, l.open(), "a refused connection is not counted");
        l.release(a);
        assertEquals(ConnectionLimits.Admission.ADMITTED, l.admit(a));
    }

    @Test
    void theOverallCapHoldsWhateverTheAddresses() {
        ConnectionLimits l = new ConnectionLimits(3, 3);
        for (int i = 1; i <= 3; i++) {
            assertEquals(ConnectionLimits.Admission.ADMITTED, l.admit(client("10.0.1." + i)));
        }
        assertEquals(ConnectionLimits.Admission.FULL, l.admit(client("10.0.1.9")));
        l.release(client("10.0.1.1"));
        assertEquals(ConnectionLimits.Admission.ADMITTED, l.admit(client("10.0.1.9")));
    }

    @Test
    void anIpv6ClientIsCountedByItsSlash64() {
        ConnectionLimits l = new ConnectionLimits(10, 1);
        assertEquals(client("2001:db8:1:2::1"), client("2001:db8:1:2:ffff:ffff:ffff:ffff"));
        assertNotEquals(client("2001:db8:1:2::1"), client("2001:db8:1:3::1"));
        assertEquals(ConnectionLimits.Admission.ADMITTED, l.admit(client("2001:db8:1:2::1")));
        assertEquals(ConnectionLimits.Admission.ADDRESS_FULL, l.admit(client("2001:db8:1:2::77")));
    }

    private static ConnectionLimits.Client client(String address) {
        return ConnectionLimits.clientOf(new InetSocketAddress(address, 4000));
    }
}
