package dev.cloakgate.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;

import org.junit.jupiter.api.Test;

class UriTemplateTest {

    @Test
    void simpleVariablesMatchOneSegment() {
        UriTemplate t = new UriTemplate("demo://resource/dynamic/text/{index}");
        assertTrue(t.matches("demo://resource/dynamic/text/7"));
        assertFalse(t.matches("demo://resource/dynamic/text/7/extra"));
        assertFalse(t.matches("demo://resource/dynamic/text/"));
        assertFalse(t.matches("demo://resource/dynamic/blob/7"));
    }

    @Test
    void operators() {
        assertTrue(new UriTemplate("file:///{+path}").matches("file:///a/b/c.txt"));
        assertTrue(new UriTemplate("api://items{?page,size}").matches("api://items?page=2&size=3"));
        assertTrue(new UriTemplate("api://items{?page,size}").matches("api://items"));
        assertTrue(new UriTemplate("x://a{/seg}").matches("x://a/b/c"));
        assertFalse(new UriTemplate("x://{broken").matches("x://anything"));
        // regex metacharacters in literals are literal
        assertFalse(new UriTemplate("x://a.b/{id}").matches("x://aXb/1"));
    }

    @Test
    void indexPrefersExactListingsAndReportsAmbiguity() {
        ResourceIndex idx = new ResourceIndex(100);
        idx.addTemplate("a", "file:///{+path}");
        idx.addTemplate("b", "file:///{+path}");
        idx.addResource("b", "file:///etc/hosts");
        assertEquals(Set.of("b"), idx.lookup("file:///etc/hosts").upstreams());
        assertEquals(Set.of("a", "b"), idx.lookup("file:///other").upstreams());
        assertFalse(idx.lookup("file:///other").found());
        idx.forget("b");
        assertEquals(Set.of("a"), idx.lookup("file:///etc/hosts").upstreams());
        assertTrue(idx.lookup("demo://x").upstreams().isEmpty());
    }
}
