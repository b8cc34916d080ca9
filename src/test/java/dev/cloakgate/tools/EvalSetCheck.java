package dev.cloakgate.tools;

import com.google.i18n.phonenumbers.NumberParseException;
import com.google.i18n.phonenumbers.PhoneNumberMatch;
import com.google.i18n.phonenumbers.PhoneNumberUtil;
import com.google.i18n.phonenumbers.Phonenumber;

import java.io.IOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Checks the hand-labelled detection evaluation set under src/test/resources/detection/eval.
 *
 * <p>Every document is a UTF-8 file {@code NNN-kind.txt} in which each PII value is written as
 * {@code ⟦CATEGORY|value⟧} (or {@code ⟦PHONE@RR|value⟧} for a phone number in national format,
 * RR being the region that number is dialled in). This tool parses every file, checks the markup,
 * validates each labelled value for its category (Luhn and issuer ranges, IBAN mod-97 and length,
 * SSN ranges, libphonenumber validity, IP syntax, secret formats and JWT headers), checks that
 * each document round-trips (markup stripped, spans re-extracted and re-applied give back the
 * file), reports unlabelled look-alikes for review and prints counts per category and per kind.
 *
 * <p>Usage: {@code EvalSetCheck DIR [--jsonl OUT]}. Exit code 1 when any error is found.
 * With {@code --jsonl}, writes one JSON object per document: name, kind, text (markup stripped)
 * and spans with start/end offsets in Unicode code points of that text (end exclusive).
 */
public final class EvalSetCheck {

    static final List<String> CATEGORIES = List.of(
            "PERSON", "EMAIL", "PHONE", "IP_ADDRESS", "SECRET", "CREDIT_CARD", "IBAN", "US_SSN");
    static final List<String> KINDS = List.of(
            "crm", "ticket", "log", "email", "listing", "code", "csv", "sql", "chat", "calendar", "misc",
            // issue 14, second set (eval-b) and benign set: shapes the first set does not have
            "transcript", "record", "review", "news", "media", "team", "notes",
            "docs", "changelog", "api", "catalog", "weather", "build", "recipe");
    static final Pattern FILE_NAME = Pattern.compile("(\\d{3})-([a-z]+)\\.txt");
    static final char OPEN = '\u27E6';
    static final char CLOSE = '\u27E7';

    static final PhoneNumberUtil PHONES = PhoneNumberUtil.getInstance();

    record Span(String category, String region, String value, int start, int end) { }

    record Doc(String name, String kind, String raw, List<Span> spans, long bytes) { }

    private final List<String> errors = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();
    private final Map<String, Integer> subtypes = new TreeMap<>();
    /** file name -> strings deliberately left unlabelled there (organisation names, Message-IDs...). */
    private final Map<String, List<String>> allowed = new TreeMap<>();
    private int allowedHits;

    public static void main(String[] args) throws IOException {
        if (args.length < 1) {
            System.err.println("usage: EvalSetCheck DIR [--jsonl OUT]");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        Path jsonl = null;
        for (int i = 1; i < args.length; i++) {
            if (args[i].equals("--jsonl") && i + 1 < args.length) {
                jsonl = Path.of(args[++i]);
            }
        }
        EvalSetCheck check = new EvalSetCheck();
        List<Doc> docs = check.run(dir);
        check.report(docs);
        if (jsonl != null) {
            writeJsonl(docs, jsonl);
            System.out.println("wrote " + jsonl);
        }
        System.exit(check.errors.isEmpty() ? 0 : 1);
    }

    /** The errors the checker finds in {@code dir} (empty when the set is well-formed), for tests. */
    public static List<String> errors(Path dir) throws IOException {
        EvalSetCheck check = new EvalSetCheck();
        check.run(dir);
        return List.copyOf(check.errors);
    }

    List<Doc> run(Path dir) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.getFileName().toString().endsWith(".txt")).sorted().toList();
        }
        Path allowFile = dir.resolve("intentionally-unlabelled.tsv");
        if (Files.exists(allowFile)) {
            for (String l : Files.readAllLines(allowFile, StandardCharsets.UTF_8)) {
                if (l.isBlank() || l.startsWith("#")) {
                    continue;
                }
                String[] cols = l.split("\t");
                if (cols.length < 3) {
                    errors.add("intentionally-unlabelled.tsv: need file, text, reason: " + l);
                    continue;
                }
                allowed.computeIfAbsent(cols[0], k -> new ArrayList<>()).add(cols[1]);
            }
        }
        List<Doc> docs = new ArrayList<>();
        Set<String> numbers = new java.util.HashSet<>();
        for (Path f : files) {
            String name = f.getFileName().toString();
            Matcher m = FILE_NAME.matcher(name);
            if (!m.matches()) {
                errors.add(name + ": file name is not NNN-kind.txt");
                continue;
            }
            if (!KINDS.contains(m.group(2))) {
                errors.add(name + ": unknown kind " + m.group(2));
            }
            if (!numbers.add(m.group(1))) {
                errors.add(name + ": number " + m.group(1) + " used twice");
            }
            byte[] bytes = Files.readAllBytes(f);
            String text;
            try {
                text = StandardCharsets.UTF_8.newDecoder()
                        .onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT)
                        .decode(java.nio.ByteBuffer.wrap(bytes)).toString();
            } catch (CharacterCodingException e) {
                errors.add(name + ": not valid UTF-8");
                continue;
            }
            Doc doc = parse(name, m.group(2), text, bytes.length);
            if (doc == null) {
                continue;
            }
            roundTrip(doc, text);
            for (Span s : doc.spans) {
                validate(doc, s);
            }
            unlabelledRepeats(doc);
            lookAlikes(doc);
            docs.add(doc);
        }
        return docs;
    }

    // ---------------------------------------------------------------- markup

    Doc parse(String name, String kind, String text, long bytes) {
        StringBuilder raw = new StringBuilder();
        List<Span> spans = new ArrayList<>();
        int rawCp = 0;
        int i = 0;
        boolean ok = true;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == OPEN) {
                int close = text.indexOf(CLOSE, i + 1);
                int nextOpen = text.indexOf(OPEN, i + 1);
                if (close < 0) {
                    errors.add(name + ": unclosed " + OPEN + " at line " + line(text, i));
                    return null;
                }
                if (nextOpen >= 0 && nextOpen < close) {
                    errors.add(name + ": nested or unclosed " + OPEN + " at line " + line(text, i));
                    return null;
                }
                String inner = text.substring(i + 1, close);
                int bar = inner.indexOf('|');
                if (bar < 0) {
                    errors.add(name + ": label without '|' at line " + line(text, i) + ": " + inner);
                    ok = false;
                    i = close + 1;
                    continue;
                }
                String head = inner.substring(0, bar);
                String value = inner.substring(bar + 1);
                String category = head;
                String region = null;
                int at = head.indexOf('@');
                if (at >= 0) {
                    category = head.substring(0, at);
                    region = head.substring(at + 1);
                }
                if (!CATEGORIES.contains(category)) {
                    errors.add(name + ": unknown category '" + category + "' at line " + line(text, i));
                    ok = false;
                }
                if (region != null && !category.equals("PHONE")) {
                    errors.add(name + ": region only allowed on PHONE, line " + line(text, i));
                }
                if (value.isEmpty() || !value.equals(value.strip())) {
                    errors.add(name + ": empty value or surrounding whitespace at line " + line(text, i)
                            + ": [" + value + "]");
                }
                int cps = value.codePointCount(0, value.length());
                spans.add(new Span(category, region, value, rawCp, rawCp + cps));
                raw.append(value);
                rawCp += cps;
                i = close + 1;
            } else if (c == CLOSE) {
                errors.add(name + ": stray " + CLOSE + " at line " + line(text, i));
                return null;
            } else {
                raw.append(c);
                if (!Character.isHighSurrogate(c)) {
                    rawCp++;
                }
                i++;
            }
        }
        return ok ? new Doc(name, kind, raw.toString(), spans, bytes) : null;
    }

    void roundTrip(Doc doc, String original) {
        String raw = doc.raw;
        int total = raw.codePointCount(0, raw.length());
        StringBuilder rebuilt = new StringBuilder();
        int prev = 0;
        for (Span s : doc.spans) {
            if (s.start < prev || s.end > total) {
                errors.add(doc.name + ": span out of order");
                return;
            }
            int a = raw.offsetByCodePoints(0, s.start);
            int b = raw.offsetByCodePoints(0, s.end);
            int p = raw.offsetByCodePoints(0, prev);
            String extracted = raw.substring(a, b);
            if (!extracted.equals(s.value)) {
                errors.add(doc.name + ": span text differs from label: " + s.value);
            }
            rebuilt.append(raw, p, a).append(OPEN).append(s.category)
                    .append(s.region == null ? "" : "@" + s.region).append('|').append(extracted).append(CLOSE);
            prev = s.end;
        }
        rebuilt.append(raw.substring(raw.offsetByCodePoints(0, prev)));
        if (!rebuilt.toString().equals(original)) {
            errors.add(doc.name + ": round trip differs");
        }
    }

    // ---------------------------------------------------------------- validation

    void validate(Doc doc, Span s) {
        String v = s.value;
        String where = doc.name + " " + s.category + " [" + shortValue(v) + "]: ";
        String problem = switch (s.category) {
            case "EMAIL" -> email(v);
            case "PHONE" -> phone(v, s.region);
            case "CREDIT_CARD" -> card(v);
            case "IBAN" -> iban(v);
            case "US_SSN" -> ssn(v);
            case "IP_ADDRESS" -> ip(v);
            case "SECRET" -> secret(v);
            case "PERSON" -> person(v);
            default -> "unknown category";
        };
        if (problem != null) {
            errors.add(where + problem);
        }
        // a label must not swallow the surrounding token: the neighbours of a span should not be
        // letters/digits continuing the same value (except in unspaced CJK text)
        int a = doc.raw.offsetByCodePoints(0, s.start);
        int b = doc.raw.offsetByCodePoints(0, s.end);
        if (a > 0 && b < doc.raw.length()) {
            int before = doc.raw.codePointBefore(a);
            int after = doc.raw.codePointAt(b);
            boolean cjk = isCjk(v.codePointAt(0)) || isCjk(before) || isCjk(after);
            if (!cjk && !s.category.equals("PERSON") && Character.isLetterOrDigit(before)
                    && Character.isLetterOrDigit(v.codePointAt(0)) && !s.category.equals("EMAIL")) {
                warnings.add(where + "glued to preceding text");
            }
        }
    }

    static final Pattern EMAIL = Pattern.compile(
            "[\\p{L}\\p{N}._%+'-]+@[\\p{L}\\p{N}-]+(\\.[\\p{L}\\p{N}-]+)*\\.[\\p{L}]{2,}");

    static final Pattern EMAIL_LIKE = Pattern.compile(
            "(?<![\\p{L}\\p{N}._%+'-])[\\p{L}\\p{N}][\\p{L}\\p{N}._%+'-]*@[\\p{L}\\p{N}-]+(\\.[\\p{L}\\p{N}-]+)*\\.[\\p{L}]{2,}");

    String email(String v) {
        if (v.contains("%40")) {
            count("EMAIL url-encoded");
            v = v.replace("%40", "@");
        }
        if (!EMAIL.matcher(v).matches()) {
            return "not an e-mail address";
        }
        if (v.startsWith(".") || v.contains("..") || v.indexOf('@') != v.lastIndexOf('@')) {
            return "malformed e-mail";
        }
        return null;
    }

    static final Pattern PHONE_CHARS = Pattern.compile("\\+?[0-9 ().\\-/\u00A0]+");

    String phone(String v, String region) {
        if (!PHONE_CHARS.matcher(v).matches()) {
            return "phone has characters other than digits, spaces, ()-./+";
        }
        boolean intl = v.startsWith("+");
        if (!intl && region == null) {
            return "national-format phone needs a region: PHONE@RR";
        }
        if (intl && region != null) {
            return "international phone should carry no region";
        }
        try {
            Phonenumber.PhoneNumber p = PHONES.parse(v, intl ? "ZZ" : region);
            if (!PHONES.isValidNumber(p)) {
                return "not a valid number per libphonenumber";
            }
            String r = PHONES.getRegionCodeForNumber(p);
            count("PHONE " + (intl ? "international" : "national") + " " + r);
            if (!intl && !region.equals(r) && PHONES.getCountryCodeForRegion(region) != p.getCountryCode()) {
                return "region " + region + " but number belongs to " + r;
            }
        } catch (NumberParseException e) {
            return "does not parse: " + e.getMessage();
        }
        return null;
    }

    String card(String v) {
        if (!v.matches("\\d+(?:[ -]\\d+)*")) {
            return "card must be digits with single spaces or dashes";
        }
        if (v.contains(" ") && v.contains("-")) {
            return "mixed separators";
        }
        String d = v.replaceAll("[ -]", "");
        if (d.length() < 12 || d.length() > 19) {
            return "length " + d.length();
        }
        if (!luhn(d)) {
            return "Luhn check fails";
        }
        String brand = brand(d);
        if (brand == null) {
            return "no known issuer range for this prefix/length";
        }
        count("CREDIT_CARD " + brand + " " + d.length());
        return null;
    }

    static boolean luhn(String d) {
        int sum = 0;
        boolean dbl = false;
        for (int i = d.length() - 1; i >= 0; i--) {
            int x = d.charAt(i) - '0';
            if (dbl) {
                x *= 2;
                if (x > 9) {
                    x -= 9;
                }
            }
            sum += x;
            dbl = !dbl;
        }
        return sum % 10 == 0;
    }

    static String brand(String d) {
        int n = d.length();
        int p2 = Integer.parseInt(d.substring(0, 2));
        int p3 = Integer.parseInt(d.substring(0, 3));
        int p4 = Integer.parseInt(d.substring(0, 4));
        if (d.startsWith("4") && (n == 13 || n == 16 || n == 19)) {
            return "Visa";
        }
        if (((p2 >= 51 && p2 <= 55) || (p4 >= 2221 && p4 <= 2720)) && n == 16) {
            return "Mastercard";
        }
        if ((p2 == 34 || p2 == 37) && n == 15) {
            return "Amex";
        }
        if ((p4 == 6011 || p2 == 65 || (p3 >= 644 && p3 <= 649)) && n >= 16 && n <= 19) {
            return "Discover";
        }
        if (p4 >= 3528 && p4 <= 3589 && n >= 16 && n <= 19) {
            return "JCB";
        }
        if ((p2 == 36 && n >= 14 && n <= 19) || ((p2 == 38 || p2 == 39 || p2 == 30) && (n == 14 || n == 16))) {
            if (p2 == 30 && !(p3 >= 300 && p3 <= 305) && p4 != 3095) {
                return null;
            }
            return "Diners";
        }
        if (p2 == 62 && n >= 16 && n <= 19) {
            return "UnionPay";
        }
        // issue 14: the issuer ranges the second set adds (older JCB, Mir, Troy, Maestro and the national
        // schemes in Maestro's 50/56-69 space such as RuPay 60, Dankort 5019)
        if ((p4 == 2131 || p4 == 1800) && n == 15) {
            return "JCB";
        }
        if (p4 >= 2200 && p4 <= 2204 && n >= 16 && n <= 19) {
            return "Mir";
        }
        if (p4 == 9792 && n == 16) {
            return "Troy";
        }
        if ((p2 == 50 || (p2 >= 56 && p2 <= 69)) && n >= 12 && n <= 19) {
            return "Maestro";
        }
        return null;
    }

    /** IBAN length and BBAN shape per country (ISO 13616 registry). */
    static final Map<String, Object[]> IBAN_FORMATS = new LinkedHashMap<>();

    static {
        f("AD", 24, "\\d{8}[A-Z0-9]{12}");
        f("AE", 23, "\\d{19}");
        f("AT", 20, "\\d{16}");
        f("BE", 16, "\\d{12}");
        f("BG", 22, "[A-Z]{4}\\d{6}[A-Z0-9]{8}");
        f("BR", 29, "\\d{23}[A-Z][A-Z0-9]");
        f("CH", 21, "\\d{5}[A-Z0-9]{12}");
        f("CY", 28, "\\d{8}[A-Z0-9]{16}");
        f("CZ", 24, "\\d{20}");
        f("DE", 22, "\\d{18}");
        f("DK", 18, "\\d{14}");
        f("EE", 20, "\\d{16}");
        f("ES", 24, "\\d{20}");
        f("FI", 18, "\\d{14}");
        f("FR", 27, "\\d{10}[A-Z0-9]{11}\\d{2}");
        f("GB", 22, "[A-Z]{4}\\d{14}");
        f("GR", 27, "\\d{7}[A-Z0-9]{16}");
        f("HR", 21, "\\d{17}");
        f("HU", 28, "\\d{24}");
        f("IE", 22, "[A-Z]{4}\\d{14}");
        f("IT", 27, "[A-Z]\\d{10}[A-Z0-9]{12}");
        f("LT", 20, "\\d{16}");
        f("LU", 20, "\\d{3}[A-Z0-9]{13}");
        f("LV", 21, "[A-Z]{4}[A-Z0-9]{13}");
        f("MC", 27, "\\d{10}[A-Z0-9]{11}\\d{2}");
        f("MT", 31, "[A-Z]{4}\\d{5}[A-Z0-9]{18}");
        f("NL", 18, "[A-Z]{4}\\d{10}");
        f("NO", 15, "\\d{11}");
        f("PL", 28, "\\d{24}");
        f("PT", 25, "\\d{21}");
        f("RO", 24, "[A-Z]{4}[A-Z0-9]{16}");
        f("SA", 24, "\\d{2}[A-Z0-9]{18}");
        f("SE", 24, "\\d{20}");
        f("SI", 19, "\\d{15}");
        f("SK", 24, "\\d{20}");
        f("TR", 26, "\\d{5}0[A-Z0-9]{16}");
    }

    static void f(String cc, int len, String bban) {
        IBAN_FORMATS.put(cc, new Object[] {len, Pattern.compile(bban)});
    }

    String iban(String v) {
        String compact = v.replace(" ", "");
        if (!v.equals(compact) && !v.matches("[A-Z0-9]{4}( [A-Z0-9]{4})*( [A-Z0-9]{1,3})?")) {
            return "spaced IBAN must be in groups of four";
        }
        if (!compact.matches("[A-Z]{2}\\d{2}[A-Z0-9]+")) {
            return "not an IBAN shape";
        }
        String cc = compact.substring(0, 2);
        Object[] fmt = IBAN_FORMATS.get(cc);
        if (fmt == null) {
            return "country " + cc + " not in the checker's table";
        }
        if (compact.length() != (int) fmt[0]) {
            return cc + " IBAN must have " + fmt[0] + " characters, has " + compact.length();
        }
        if (!((Pattern) fmt[1]).matcher(compact.substring(4)).matches()) {
            return "BBAN shape wrong for " + cc;
        }
        if (!ibanMod97(compact)) {
            return "mod-97 check fails";
        }
        count("IBAN " + cc + (v.equals(compact) ? " compact" : " grouped"));
        return null;
    }

    static boolean ibanMod97(String compact) {
        String r = compact.substring(4) + compact.substring(0, 4);
        StringBuilder n = new StringBuilder();
        for (char c : r.toCharArray()) {
            n.append(Character.isDigit(c) ? String.valueOf(c) : String.valueOf(c - 'A' + 10));
        }
        return new BigInteger(n.toString()).mod(BigInteger.valueOf(97)).intValue() == 1;
    }

    String ssn(String v) {
        Matcher m = Pattern.compile("(\\d{3})([- ]?)(\\d{2})\\2(\\d{4})").matcher(v);
        if (!m.matches()) {
            return "SSN must be ddd-dd-dddd, ddd dd dddd or ddddddddd";
        }
        String problem = ssnRange(m.group(1), m.group(3), m.group(4));
        if (problem == null) {
            count("US_SSN " + (m.group(2).isEmpty() ? "plain" : "separated"));
        }
        return problem;
    }

    static String ssnRange(String area, String group, String serial) {
        int a = Integer.parseInt(area);
        if (a == 0 || a == 666 || a >= 900) {
            return "invalid area " + area;
        }
        if (group.equals("00")) {
            return "invalid group 00";
        }
        if (serial.equals("0000")) {
            return "invalid serial 0000";
        }
        return null;
    }

    static final Pattern IPV4 = Pattern.compile(
            "(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}");

    String ip(String v) {
        if (IPV4.matcher(v).matches()) {
            count("IP_ADDRESS v4");
            return null;
        }
        if (v.contains(":") && v.matches("[0-9A-Fa-f:.]+")) {
            try {
                InetAddress.getByName(v);
                count("IP_ADDRESS v6" + (v.contains("::") ? " compressed" : " full")
                        + (v.contains(".") ? " embedded-v4" : ""));
                return null;
            } catch (Exception e) {
                return "not a valid IPv6 literal";
            }
        }
        return "not an IP address";
    }

    static final Pattern PEM = Pattern.compile(
            "-----BEGIN ((?:RSA |EC |DSA |OPENSSH |ENCRYPTED )?)PRIVATE KEY-----(\\n|\\\\n)"
                    + "(?:[ \\t]*[A-Za-z0-9+/=]{1,76}\\2)+[ \\t]*-----END \\1PRIVATE KEY-----");

    String secret(String v) {
        String type;
        if (v.startsWith("-----BEGIN")) {
            type = PEM.matcher(v).matches() ? "pem-private-key" : null;
        } else if (v.matches("(AKIA|ASIA)[A-Z0-9]{16}")) {
            type = "aws-access-key-id";
        } else if (v.matches("gh[pousr]_[A-Za-z0-9]{36}")) {
            type = "github-" + v.substring(0, 3);
        } else if (v.matches("github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}")) {
            type = "github-fine-grained-pat";
        } else if (v.matches("xox[abpr]-(\\d+-){1,3}[A-Za-z0-9]{16,40}")) {
            type = "slack-" + v.substring(0, 4);
        } else if (v.matches("https://hooks\\.slack\\.com/services/T[A-Z0-9]{8,10}/B[A-Z0-9]{8,11}/[A-Za-z0-9]{24}")) {
            type = "slack-webhook";
        } else if (v.startsWith("eyJ")) {
            type = jwt(v) ? "jwt" : null;
        } else if (v.matches("sk-ant-(api03|admin01)-[A-Za-z0-9_-]{90,100}")) {
            type = "anthropic";
        } else if (v.matches("sk-(proj-|svcacct-)?[A-Za-z0-9_-]{40,170}") && !v.startsWith("sk-ant-")) {
            type = "openai";
        } else if (v.matches("(sk|rk)_(live|test)_[A-Za-z0-9]{24,99}")) {
            type = "stripe-" + v.substring(0, 2) + "_" + (v.contains("_live_") ? "live" : "test");
        } else if (v.matches("AIza[0-9A-Za-z_-]{35}")) {
            type = "google-api-key";
        } else if (v.matches("SG\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}")) {
            type = "sendgrid";
        } else if (v.matches("AC[0-9a-f]{32}")) {
            type = "twilio-account-sid";
        } else if (v.matches("SK[0-9a-f]{32}")) {
            type = "twilio-api-key";
        } else if (v.matches("[A-Za-z0-9/+]{40}")) {
            type = "aws-secret-access-key";
        } else {
            type = null;
        }
        if (type == null) {
            return "not a recognised secret format";
        }
        count("SECRET " + type);
        return null;
    }

    static boolean jwt(String v) {
        String[] parts = v.split("\\.", -1);
        if (parts.length != 3 || !v.matches("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+")) {
            return false;
        }
        try {
            String header = new String(Base64.getUrlDecoder().decode(parts[0]), StandardCharsets.UTF_8).strip();
            String payload = new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8).strip();
            return header.startsWith("{") && header.endsWith("}") && header.contains("\"alg\"")
                    && payload.startsWith("{") && payload.endsWith("}");
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    static final Set<String> TITLES = Set.of("dr", "dr.", "mr", "mr.", "mrs", "mrs.", "ms", "ms.", "prof",
            "prof.", "mme", "mme.", "mlle", "herr", "herrn", "frau", "sr.", "sra.", "sir", "dame", "madame", "monsieur",
            "dott.", "dott.ssa", "ing.", "mx.", "sig.", "sig.ra", "sig.na", "avv.", "dra.", "sr", "sra");

    String person(String v) {
        if (v.length() > 70) {
            return "too long for a name";
        }
        if (v.matches(".*[0-9@\\\\:;=<>()\\[\\]{}].*")) {
            return "name contains digits or markup characters";
        }
        if (!v.codePoints().anyMatch(Character::isLetter)) {
            return "no letters";
        }
        String first = v.split("[\\s_/]+")[0].toLowerCase(Locale.ROOT);
        if (TITLES.contains(first)) {
            return "title inside the span";
        }
        int last = v.codePointBefore(v.length());
        if (!Character.isLetter(last) && last != '.') {
            return "name ends with punctuation";
        }
        boolean upper = v.equals(v.toUpperCase(Locale.ROOT)) && !v.equals(v.toLowerCase(Locale.ROOT));
        boolean lower = v.equals(v.toLowerCase(Locale.ROOT)) && !v.equals(v.toUpperCase(Locale.ROOT));
        count("PERSON " + script(v) + (upper ? " UPPER" : lower ? " lower" : ""));
        return null;
    }

    static String script(String v) {
        for (int cp : v.codePoints().toArray()) {
            Character.UnicodeScript s = Character.UnicodeScript.of(cp);
            if (s != Character.UnicodeScript.LATIN && s != Character.UnicodeScript.COMMON
                    && s != Character.UnicodeScript.INHERITED) {
                return s.name().toLowerCase(Locale.ROOT);
            }
        }
        return "latin";
    }

    static boolean isCjk(int cp) {
        Character.UnicodeScript s = Character.UnicodeScript.of(cp);
        return s == Character.UnicodeScript.HAN || s == Character.UnicodeScript.HIRAGANA
                || s == Character.UnicodeScript.KATAKANA || s == Character.UnicodeScript.HANGUL
                || s == Character.UnicodeScript.THAI;
    }

    // ---------------------------------------------------------------- completeness

    /** True if [a, b) (char offsets in raw) overlaps any labelled span. */
    static boolean covered(Doc doc, int[] charSpans, int a, int b) {
        for (int i = 0; i < charSpans.length; i += 2) {
            if (a < charSpans[i + 1] && b > charSpans[i]) {
                return true;
            }
        }
        return false;
    }

    static int[] charSpans(Doc doc) {
        int[] r = new int[doc.spans.size() * 2];
        for (int i = 0; i < doc.spans.size(); i++) {
            r[2 * i] = doc.raw.offsetByCodePoints(0, doc.spans.get(i).start);
            r[2 * i + 1] = doc.raw.offsetByCodePoints(0, doc.spans.get(i).end);
        }
        return r;
    }

    /** True if [a, b) lies inside an occurrence of a string listed as deliberately unlabelled for this file. */
    boolean allowedAt(Doc doc, int a, int b) {
        for (String t : allowed.getOrDefault(doc.name, List.of())) {
            int from = Math.max(0, b - t.length());
            while (true) {
                int at = doc.raw.indexOf(t, from);
                if (at < 0 || at > a) {
                    break;
                }
                if (at + t.length() >= b) {
                    allowedHits++;
                    return true;
                }
                from = at + 1;
            }
        }
        return false;
    }

    /** Every occurrence of a labelled value must be labelled. */
    void unlabelledRepeats(Doc doc) {
        int[] cs = charSpans(doc);
        Set<String> seen = new java.util.HashSet<>();
        for (Span s : doc.spans) {
            if (!seen.add(s.category.equals("PERSON") ? s.value.toLowerCase(Locale.ROOT) : s.value)) {
                continue;
            }
            // PERSON values are also searched case-insensitively ("lukas" / "Lukas" / "LUKAS")
            boolean fold = s.category.equals("PERSON");
            String hay = fold ? doc.raw.toLowerCase(Locale.ROOT) : doc.raw;
            String needle = fold ? s.value.toLowerCase(Locale.ROOT) : s.value;
            if (hay.length() != doc.raw.length() || needle.length() != s.value.length()) {
                hay = doc.raw;
                needle = s.value;
            }
            int from = 0;
            while (true) {
                int at = hay.indexOf(needle, from);
                if (at < 0) {
                    break;
                }
                int end = at + needle.length();
                from = at + 1;
                if (covered(doc, cs, at, end) || allowedAt(doc, at, end)) {
                    continue;
                }
                boolean cjk = isCjk(s.value.codePointAt(0));
                boolean leftOk = at == 0 || cjk || !Character.isLetterOrDigit(doc.raw.codePointBefore(at));
                boolean rightOk = end >= doc.raw.length() || cjk || !Character.isLetterOrDigit(doc.raw.codePointAt(end));
                if (leftOk && rightOk) {
                    errors.add(doc.name + ": '" + shortValue(s.value) + "' (" + s.category
                            + ") also occurs unlabelled at line " + line(doc.raw, at));
                }
            }
        }
    }

    static final Pattern CARD_LIKE = Pattern.compile("(?<![\\d.-])\\d(?:[ -]?\\d){12,18}(?![\\d])");
    static final Pattern IBAN_LIKE = Pattern.compile("\\b[A-Z]{2}\\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\\b");
    static final Pattern SSN_LIKE = Pattern.compile("(?<![\\d-])(\\d{3})-(\\d{2})-(\\d{4})(?![\\d-])");
    static final Pattern IPV4_LIKE = Pattern.compile("(?<![\\d.])(?:\\d{1,3}\\.){3}\\d{1,3}(?![\\d]|\\.\\d)");
    static final Pattern IPV6_LIKE = Pattern.compile("(?<![0-9A-Za-z:])[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}(?::(?:\\d{1,3}\\.){3}\\d{1,3})?(?![0-9A-Za-z:])");
    static final Pattern SECRET_LIKE = Pattern.compile(
            "AKIA[0-9A-Z]{16}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_|xox[abpr]-|hooks\\.slack\\.com/services/T"
                    + "|eyJ[A-Za-z0-9_-]{8,}\\.eyJ|PRIVATE KEY-----|sk-ant-|\\bsk-[A-Za-z0-9]{20,}|\\b[sr]k_live_"
                    + "|AIza[0-9A-Za-z_-]{35}|\\bSG\\.[A-Za-z0-9_-]{22}\\.|\\bAC[0-9a-f]{32}\\b|\\bSK[0-9a-f]{32}\\b");

    /** Reports unlabelled strings that look like a category, for review (hard negatives show up here). */
    void lookAlikes(Doc doc) {
        int[] cs = charSpans(doc);
        String raw = doc.raw;
        Matcher m = EMAIL_LIKE.matcher(raw);
        while (m.find()) {
            if (!covered(doc, cs, m.start(), m.end()) && !allowedAt(doc, m.start(), m.end())) {
                errors.add(doc.name + ": unlabelled e-mail-like " + m.group() + " line " + line(raw, m.start()));
            }
        }
        m = SECRET_LIKE.matcher(raw);
        while (m.find()) {
            if (!covered(doc, cs, m.start(), m.end())) {
                warnings.add(doc.name + ": unlabelled secret-like " + shortValue(m.group()) + " line " + line(raw, m.start()));
            }
        }
        m = CARD_LIKE.matcher(raw);
        while (m.find()) {
            String d = m.group().replaceAll("[ -]", "");
            if (!covered(doc, cs, m.start(), m.end()) && luhn(d) && brand(d) != null) {
                warnings.add(doc.name + ": unlabelled card-like (Luhn ok) " + m.group() + " line " + line(raw, m.start()));
            }
        }
        m = IBAN_LIKE.matcher(raw);
        while (m.find()) {
            String c = m.group().replace(" ", "");
            if (!covered(doc, cs, m.start(), m.end()) && IBAN_FORMATS.containsKey(c.substring(0, 2))
                    && ibanMod97(c)) {
                warnings.add(doc.name + ": unlabelled IBAN-like (mod-97 ok) " + m.group() + " line " + line(raw, m.start()));
            }
        }
        m = SSN_LIKE.matcher(raw);
        while (m.find()) {
            if (!covered(doc, cs, m.start(), m.end()) && ssnRange(m.group(1), m.group(2), m.group(3)) == null) {
                warnings.add(doc.name + ": unlabelled SSN-like (range ok) " + m.group() + " line " + line(raw, m.start()));
            }
        }
        m = IPV4_LIKE.matcher(raw);
        while (m.find()) {
            if (!covered(doc, cs, m.start(), m.end()) && IPV4.matcher(m.group()).matches()) {
                warnings.add(doc.name + ": unlabelled IPv4-like " + m.group() + " line " + line(raw, m.start()));
            }
        }
        m = IPV6_LIKE.matcher(raw);
        while (m.find()) {
            String g = m.group();
            if (covered(doc, cs, m.start(), m.end()) || !(g.contains("::") || g.chars().filter(c -> c == ':').count() >= 5)) {
                continue;
            }
            if (g.matches("[0-9a-fA-F]{2}(:[0-9a-fA-F]{2}){5}") || g.equals("::")) {
                continue; // MAC address or bare ::
            }
            try {
                InetAddress.getByName(g);
                warnings.add(doc.name + ": unlabelled IPv6-like " + g + " line " + line(raw, m.start()));
            } catch (Exception ignored) {
                // not an address
            }
        }
        // international phone numbers anywhere, national ones for the regions the document uses
        Set<String> regions = new java.util.TreeSet<>();
        regions.add("ZZ");
        for (Span s : doc.spans) {
            if (s.region != null) {
                regions.add(s.region);
            }
        }
        for (String region : regions) {
            for (PhoneNumberMatch pm : PHONES.findNumbers(raw, region, PhoneNumberUtil.Leniency.VALID, Long.MAX_VALUE)) {
                if (!covered(doc, cs, pm.start(), pm.end())) {
                    warnings.add(doc.name + ": unlabelled phone-like (" + region + ") " + pm.rawString()
                            + " line " + line(raw, pm.start()));
                }
            }
        }
    }

    // ---------------------------------------------------------------- report

    void report(List<Doc> docs) {
        Map<String, Integer> perCategory = new LinkedHashMap<>();
        CATEGORIES.forEach(c -> perCategory.put(c, 0));
        Map<String, Map<String, Integer>> perKind = new TreeMap<>();
        Map<String, long[]> kindSize = new TreeMap<>();
        long chars = 0;
        long piiChars = 0;
        long bytes = 0;
        for (Doc d : docs) {
            int len = d.raw.codePointCount(0, d.raw.length());
            chars += len;
            bytes += d.bytes;
            long[] ks = kindSize.computeIfAbsent(d.kind, k -> new long[3]);
            ks[0]++;
            ks[1] += d.bytes;
            Map<String, Integer> k = perKind.computeIfAbsent(d.kind, x -> {
                Map<String, Integer> m = new LinkedHashMap<>();
                CATEGORIES.forEach(c -> m.put(c, 0));
                return m;
            });
            for (Span s : d.spans) {
                perCategory.merge(s.category, 1, Integer::sum);
                k.merge(s.category, 1, Integer::sum);
                piiChars += s.end - s.start;
                ks[2]++;
            }
        }
        System.out.println("documents: " + docs.size() + ", bytes (with markup): " + bytes
                + ", characters (markup stripped): " + chars + ", PII characters: " + piiChars
                + String.format(Locale.ROOT, " (%.1f%%)", 100.0 * piiChars / Math.max(1, chars)));
        System.out.println();
        System.out.println("per category:");
        int total = 0;
        for (var e : perCategory.entrySet()) {
            System.out.printf(Locale.ROOT, "  %-12s %5d%n", e.getKey(), e.getValue());
            total += e.getValue();
        }
        System.out.printf(Locale.ROOT, "  %-12s %5d%n", "total", total);
        System.out.println();
        System.out.println("per kind:");
        StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "  %-9s %4s %7s", "kind", "docs", "bytes"));
        for (String c : CATEGORIES) {
            head.append(String.format(Locale.ROOT, " %11s", c));
        }
        System.out.println(head);
        for (var e : perKind.entrySet()) {
            long[] ks = kindSize.get(e.getKey());
            StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "  %-9s %4d %7d", e.getKey(), ks[0], ks[1]));
            for (String c : CATEGORIES) {
                row.append(String.format(Locale.ROOT, " %11d", e.getValue().get(c)));
            }
            System.out.println(row);
        }
        System.out.println();
        System.out.println("breakdown:");
        subtypes.forEach((k, v) -> System.out.printf(Locale.ROOT, "  %-45s %5d%n", k, v));
        System.out.println();
        System.out.println("occurrences covered by intentionally-unlabelled.tsv: " + allowedHits);
        System.out.println("unlabelled look-alikes for review (intended hard negatives): " + warnings.size());
        warnings.forEach(w -> System.out.println("  " + w));
        System.out.println();
        System.out.println("errors: " + errors.size());
        errors.forEach(e -> System.out.println("  " + e));
    }

    void count(String key) {
        subtypes.merge(key, 1, Integer::sum);
    }

    static int line(String text, int charIndex) {
        int n = 1;
        for (int i = 0; i < charIndex && i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                n++;
            }
        }
        return n;
    }

    static String shortValue(String v) {
        String one = v.replace("\n", "\\n");
        return one.length() > 60 ? one.substring(0, 57) + "..." : one;
    }

    static void writeJsonl(List<Doc> docs, Path out) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (Doc d : docs) {
            sb.append("{\"name\":").append(json(d.name)).append(",\"kind\":").append(json(d.kind))
                    .append(",\"text\":").append(json(d.raw)).append(",\"spans\":[");
            for (int i = 0; i < d.spans.size(); i++) {
                Span s = d.spans.get(i);
                if (i > 0) {
                    sb.append(',');
                }
                sb.append("{\"start\":").append(s.start).append(",\"end\":").append(s.end)
                        .append(",\"label\":").append(json(s.category));
                if (s.region != null) {
                    sb.append(",\"region\":").append(json(s.region));
                }
                sb.append('}');
            }
            sb.append("]}\n");
        }
        Files.writeString(out, sb.toString(), StandardCharsets.UTF_8);
    }

    static String json(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
