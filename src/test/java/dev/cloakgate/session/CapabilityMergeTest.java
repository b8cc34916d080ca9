package dev.cloakgate.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

class CapabilityMergeTest {
    private final ObjectMapper m = new ObjectMapper();

    @Test
    void unionOfObjectsWithBooleansOred() throws Exception {
        JsonNode a = m.readTree("{\"tools\":{\"listChanged\":false},\"logging\":{}}");
        JsonNode b = m.readTree("{\"tools\":{\"listChanged\":true},\"resources\":{\"subscribe\":true}}");
        assertEquals(m.readTree("{\"tools\":{\"listChanged\":true},\"logging\":{},\"resources\":{\"subscribe\":true}}"),
                CapabilityMerge.merge(List.of(a, b)));
    }
}
