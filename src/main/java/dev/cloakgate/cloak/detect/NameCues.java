package dev.cloakgate.cloak.detect;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Names the text itself introduces, found without the model: after a label ({@code Customer:}, {@code From:},
 * {@code Attendees:}, lists included: "founders: Kónya, Hodge and Baptiste"), a phrase ("my name is", "I'm",
 * "signed,"), a greeting or a sign-off ("Dear X", "Regards,⏎X"), a title ("Dr. X", "Sra. X"), an attribution
 * ("— X") or a speaker's turn at the start of a line ("Siiri: …", "[09:12] Tomasz: …"). Evidence this strong makes
 * a single capitalised word a name even when no list knows it; a weaker cue ("I'm", "by", a speaker seen once)
 * needs one word the name lists know. What is read as the name is a short run of capitalised words (with
 * particles, initials, hyphens and apostrophes), never a word from {@link #STOP}: labels, organisation words and
 * the capitalised words that follow greetings ("Dear Customer", "Hi team").
 *
 * <p>One line at a time, one pass over its words; state carried between lines is a pending sign-off and the
 * speakers seen so far. Cost is linear in the text.
 */
final class NameCues {
    /** How strong a cue is, and what may follow it. */
    private enum Kind {
        /** A label before a colon: a list of names may follow. */
        LABEL,
        /** A phrase that introduces one person by name. */
        STRONG,
        /** A phrase that often, not always, introduces a name: one word of it must be a known name. */
        WEAK,
        /** A greeting: the name must end at punctuation or the end of the line. */
        GREETING,
        /** A sign-off: the name follows on the same line or is the next line. */
        SIGN_OFF,
        /** A title before a name (Dr., Sra.): never part of the name. */
        TITLE,
        /** A dash before an attribution: the name ends the line. */
        DASH
    }

    private record Cue(String[] words, Kind kind) {
    }

    private static final int MAX_WORDS = 4;
    private static final int MAX_LIST = 12;

    private static final Map<String, List<Cue>> CUES = cues();

    /** Capitalised words that are not names where cues put them: labels, roles, organisations, greetings' objects. */
    static final Set<String> STOP = set("all", "everyone", "everybody", "team", "teams", "sir", "madam", "madame",
            "sirs", "customer", "customers", "client", "clients", "user", "users", "colleague", "colleagues", "friend",
            "friends", "folks", "guys", "there", "world", "support", "admin", "administrator", "staff", "members",
            "member", "partner", "partners", "valued", "dear", "hi", "hello", "hey", "thanks", "thank", "regards",
            "best", "kind", "warm", "sincerely", "cheers", "yours", "the", "a", "an", "our", "your", "my", "his", "her",
            "their", "its", "this", "that", "these", "those", "no", "not", "none", "null", "n", "na", "unknown",
            "tbd", "tbc", "anonymous", "guest", "visitor", "system", "service", "services", "bot", "root", "status",
            "error", "errors", "warning", "warnings", "info", "debug", "note", "notes", "summary", "description",
            "subject", "date", "time", "total", "amount", "number", "address", "email", "phone", "mobile", "fax",
            "account", "order", "invoice", "payment", "priority", "high", "low", "medium", "critical", "component",
            "type", "version", "build", "release", "location", "office", "department", "dept", "division", "group",
            "company", "corp", "corporation", "inc", "ltd", "llc", "gmbh", "ag", "sa", "srl", "bv", "nv", "plc",
            "co", "limited", "foundation", "university", "school", "hospital", "clinic", "bank", "finance",
            "billing", "sales", "marketing", "engineering", "legal", "hr", "it", "ops", "devops", "security",
            "platform", "product", "products", "management", "board", "committee", "council", "office", "desk",
            "helpdesk", "operations", "accounting", "procurement", "logistics", "research", "development", "qa",
            "sorry", "happy", "glad", "sure", "fine", "good", "ok", "okay", "back", "here", "ready", "afraid", "so",
            "very", "just", "also", "still", "going", "looking", "trying", "working", "available", "interested",
            "new", "currently", "calling", "writing", "reaching", "done", "late", "busy", "home", "away", "free",
            "excited", "pleased", "delighted", "grateful", "curious", "confused", "concerned", "worried", "unable",
            "morning", "afternoon", "evening", "night", "today", "tomorrow", "yesterday", "monday", "tuesday",
            "wednesday", "thursday", "friday", "saturday", "sunday", "january", "february", "march", "april", "may",
            "june", "july", "august", "september", "october", "november", "december", "yes", "true", "false",
            "pending", "open", "closed", "resolved", "active", "inactive", "approved", "rejected", "draft", "final",
            "all-hands", "everyone's", "equipo", "todos", "tous", "alle", "tutti", "wszyscy", "kaikki", "herkes",
            "mọi", "client", "cliente", "kunde", "klant", "klient", "service", "servicio", "servizio", "serviço",
            "atendimento", "kundenservice", "équipe", "team's", "question", "questions", "issue", "issues", "ticket",
            "request", "update", "updates", "reminder", "re", "fwd", "fw", "aw", "wg", "tr", "rv", "ps", "p.s",
            "mr", "mrs", "ms", "dr", "prof", "here's", "welcome", "again", "both", "above", "below", "following",
            "attached", "please", "name", "names", "first", "last", "full", "given", "family", "middle", "title",
            "role", "position", "manager", "director", "lead", "head", "chief", "officer", "engineer", "developer",
            "agent", "representative", "assistant", "coordinator", "specialist", "analyst", "consultant", "owner",
            "ceo", "cto", "cfo", "coo", "vp", "svp", "evp", "api", "app", "web", "server", "client-side", "backend",
            "frontend", "database", "cloud", "data", "net", "default", "test", "example", "sample", "demo", "impact",
            "workaround", "cause", "fix", "steps", "expected", "actual", "environment", "severity", "resolution",
            "comment", "comments", "answer", "reply", "response", "result", "results", "reason", "action",
            "actions", "outcome", "details", "context", "background", "problem", "solution", "goal", "goals",
            "scope", "agenda", "minutes", "decision", "decisions", "next", "todo", "done", "risk", "risks",
            "tip", "hint", "important", "caution", "danger", "usage", "example", "examples", "output", "input",
            "source", "target", "host", "hostname", "port", "path", "file", "url", "link", "size", "level",
            "region", "zone", "plan", "tier", "price", "cost", "tax", "balance", "credit", "card", "room",
            "building", "floor", "start", "end", "duration", "created", "updated", "modified", "deleted",
            "q", "a", "question", "step", "task", "tasks", "item", "items", "total", "subtotal", "message",
            "messages", "mãe", "pai", "mom", "mum", "dad", "mamá", "papá", "maman", "vó", "vô", "tio", "tia", "assistant", "visitor", "bot", "advisor", "adviser", "conseiller", "conseillère", "asesor",
            "berater", "beraterin", "operador", "operatore", "track", "secret", "refund", "payroll", "fraud",
            "prevention", "claims", "tags", "flags", "control", "job", "jobs", "landline", "kopie", "formulaire",
            "datum", "onderwerp", "objet", "betreff", "asunto", "oggetto", "temat", "předmět", "tárgy",
            "aihe", "konu", "van", "von", "an", "para", "à", "received", "delivered", "return", "content", "mime", "x", "list", "auto", "arrival",
            "original", "reporting", "remote", "diagnostic", "thread", "references", "importance", "sensitivity",
            "key", "keys", "signature", "algorithm", "issuer", "policy", "public", "private", "serial", "validity",
            "timestamp", "repository", "branch", "commit", "line", "column", "ihre", "ihr", "unser", "unsere",
            "votre", "vos", "notre", "nos", "su", "sus", "nuestro", "nuestra", "il", "lo", "los", "las", "gli",
            "del", "der", "die", "das", "het", "een", "uw", "onze", "twój", "wasz", "nasz", "log", "logs", "event", "events", "alert", "alerts", "incident", "ticket", "case");

    /** Lower-case words inside a name: particles and connectives of family names. */
    private static final Set<String> PARTICLES = set("van", "der", "den", "de", "da", "di", "del", "della",
            "des", "du", "la", "le", "von", "zu", "bin", "binti", "ibn", "bint", "al", "el", "ben", "dos", "das",
            "do", "ter", "ten", "af", "av", "y", "e", "ní", "nic", "mac", "ap", "st", "st.", "vom", "zur", "degli");

    /** Labels that are also keys in code and configuration: a label only when written capitalised. */
    private static final Set<String> NAME_KEYS = set("name", "nom", "nome", "nombre", "naam", "név", "nimi", "tên",
            "ad", "adı", "display", "owner", "author", "host", "to", "from", "contact", "client", "customer", "user");

    /** Words joining list items: "A, B and C", in the languages of the corpus. */
    private static final Set<String> AND = set("and", "&", "y", "e", "et", "und", "og", "och", "ve", "i", "és",
            "ja", "và", "oraz", "en", "a", "и", "or", "plus", "with");

    private final Set<String> known;

    /** A set of words, repeats allowed (the lists are easier to read grouped by kind than deduplicated). */
    private static Set<String> set(String... words) {
        return Set.copyOf(java.util.Arrays.asList(words));
    }

    NameCues(Set<String> knownNames) {
        this.known = knownNames;
    }

    /** Per text: a sign-off waiting for its name on the next line, and the speakers seen at line starts. */
    final class Pass {
        private final String s;
        private final List<int[]> found = new ArrayList<>();
        private boolean signOff;
        private final Map<String, Integer> speakers = new HashMap<>();
        private final List<int[]> speakerTurns = new ArrayList<>();
        private int knownSpeakers;
        /** Where the last name read by {@link #name} starts: after a title, if it had one. */
        private int nameFrom;
        private final Words w = new Words();

        Pass(String s) {
            this.s = s;
        }

        private final List<int[]> logins = new ArrayList<>();

        /** Logins the text shows as such ({@link LoginContexts}), as {start, end} pairs, added to by the caller. */
        List<int[]> logins() {
            return logins;
        }

        /** The names found so far, as {start, end} pairs. */
        List<int[]> found() {
            // a speaker seen twice is a name even when no list knows it ("Siiri: …" turns); once one is, the
            // text is a dialogue and the others who speak in it are names too
            int accepted = knownSpeakers;
            for (int[] t : speakerTurns) {
                accepted += speakers.getOrDefault(s.substring(t[0], t[1]), 0) >= 2 ? 1 : 0;
            }
            if (accepted >= 2) {
                found.addAll(speakerTurns);
            } else {
                for (int[] t : speakerTurns) {
                    if (speakers.getOrDefault(s.substring(t[0], t[1]), 0) >= 2) {
                        found.add(t);
                    }
                }
            }
            speakerTurns.clear();
            return found;
        }

        void line(int from, int to) {
            w.read(s, from, to);
            int n = w.size;
            if (n == 0) {
                return;
            }
            boolean wasSignOff = signOff;
            signOff = false;
            if (wasSignOff) {
                int end = name(0, Kind.STRONG);
                // the line after "Regards," is the writer's name, or a team's: one unknown word is not enough
                if (end > 0 && (end >= n || w.is(s, end, ',') || w.is(s, end, '(') || w.is(s, end, '|'))
                        && (end >= 2 || anyKnown(0, end))) {
                    add(nameFrom, end);
                    return;
                }
            }
            speaker();
            for (int k = 0; k < n; k++) {
                if (!w.word(k) && !w.dash(k) || !maybeCue(s, w.start[k], w.end[k])) {
                    continue;
                }
                List<Cue> cues = CUES.get(w.lower(s, k));
                if (cues == null) {
                    continue;
                }
                for (Cue c : cues) {
                    int after = matches(c, k);
                    if (after >= 0 && apply(c.kind(), k, after)) {
                        break;
                    }
                }
            }
        }

        /** The token after cue {@code c} starting at {@code k}, or -1. */
        private int matches(Cue c, int k) {
            int i = k;
            for (String part : c.words()) {
                if (i >= w.size || !part.equals(w.lower(s, i))) {
                    return -1;
                }
                i++;
            }
            return i;
        }

        private boolean apply(Kind kind, int cueStart, int at) {
            int n = w.size;
            switch (kind) {
                case LABEL -> {
                    if (at >= n || !w.is(s, at, ':') && !w.is(s, at, '：')) {
                        return false;
                    }
                    // "Name: …" is a form's label; "name: Export" a key in code or configuration
                    if (NAME_KEYS.contains(w.lower(s, cueStart)) && !Character.isUpperCase(s.charAt(w.start[cueStart]))) {
                        return false;
                    }
                    list(at + 1);
                    return true;
                }
                case STRONG, WEAK -> {
                    return nameAt(at, kind, false);
                }
                case GREETING -> {
                    return nameAt(at, Kind.STRONG, true);
                }
                case SIGN_OFF -> {
                    int i = at;
                    while (i < n && (w.is(s, i, ',') || w.is(s, i, '!') || w.is(s, i, '.') || w.is(s, i, '-'))) {
                        i++;
                    }
                    if (i >= n) {
                        signOff = cueStart <= 1; // the sign-off is the whole line: the name is on the next
                        return true;
                    }
                    return i > at && nameAt(i, Kind.STRONG, true);
                }
                case TITLE -> {
                    return nameAt(at < n && w.is(s, at, '.') ? at + 1 : at, Kind.STRONG, false);
                }
                case DASH -> {
                    // "— X" ends the line or a clause; a hyphen at a line start is a bullet, one inside a word
                    // joins it (Wi-Fi, X-Ray)
                    if (cueStart == 0 || w.start[cueStart] == w.end[cueStart - 1]) {
                        return false;
                    }
                    int end = name(at, Kind.STRONG);
                    // a heading's dash is followed by one capitalised word ("— Introduction"): two, or a known one
                    if (end > 0 && (end >= n || w.is(s, end, ',')) && anyKnown(at, end)) {
                        add(nameFrom, end);
                        return true;
                    }
                    return false;
                }
                default -> {
                    return false;
                }
            }
        }

        /** A name at token {@code at} (ending a clause, if asked), added when there is one. */
        private boolean nameAt(int at, Kind kind, boolean clause) {
            int end = name(at, kind);
            if (end > 0 && (!clause || endsClause(end))) {
                add(nameFrom, end);
                return true;
            }
            return false;
        }

        /** Names separated by commas, "and", "&", "/" or ";" after a label. */
        private void list(int at) {
            int i = at;
            for (int items = 0; items < MAX_LIST && i < w.size; items++) {
                int end = name(i, Kind.STRONG);
                if (end < 0) {
                    return;
                }
                if (!itemEnds(end)) {
                    return;
                }
                add(nameFrom, end);
                i = end;
                boolean sep = false;
                while (i < w.size && (w.is(s, i, ',') || w.is(s, i, ';') || w.is(s, i, '/') || w.is(s, i, '&')
                        || (w.word(i) && AND.contains(w.lower(s, i))))) {
                    sep = true;
                    i++;
                }
                if (!sep) {
                    return;
                }
            }
        }

        /** A list item ends at the line's end, a separator, an e-mail in angle brackets, or a bracketed aside. */
        private boolean itemEnds(int end) {
            if (end >= w.size) {
                return true;
            }
            char c = s.charAt(w.start[end]);
            return c == ',' || c == ';' || c == '/' || c == '&' || c == '<' || c == '(' || c == '|' || c == '.'
                    || c == '"' || c == '\'' || c == ')' || c == ']' || c == '}' || c == '-' || c == '—' || c == '–'
                    || (w.word(end) && AND.contains(w.lower(s, end)));
        }

        /** The name ends a clause: the line ends, or punctuation follows. */
        private boolean endsClause(int end) {
            if (end >= w.size) {
                return true;
            }
            char c = s.charAt(w.start[end]);
            return c == ',' || c == '!' || c == '.' || c == ':' || c == ';' || c == '(' || c == '<' || c == '|'
                    || c == '-' || c == '—' || c == '–' || c == ')' || c == '"' || c == '?';
        }

        /** "[09:12] Tomasz: …", "Carmen Ruiz: …", "08/12/2024 09:20 - Juliana: …": a speaker's turn. */
        private void speaker() {
            int i = 0;
            int n = w.size;
            // skip a timestamp or a bracketed prefix made of digits and punctuation
            while (i < n && !w.word(i)) {
                i++;
            }
            while (i < n && w.digits(s, i)) {
                i++;
                while (i < n && !w.word(i)) {
                    i++;
                }
            }
            if (i < n && (w.lower(s, i).equals("am") || w.lower(s, i).equals("pm"))) {
                i++;
                while (i < n && !w.word(i)) {
                    i++;
                }
            }
            if (i >= n || (i > 0 && !prefixOnlyPunctuationAndDigits(i))) {
                return;
            }
            int end = name(i, Kind.STRONG);
            if (end < 0 || end >= n || !w.is(s, end, ':') || end + 1 >= n || w.start[end + 1] == w.end[end]) {
                return; // "12:30" or "http://": the colon must be followed by a space
            }
            List<Cue> label = CUES.get(w.lower(s, i));
            if (label != null && label.stream().anyMatch(c -> c.kind() == Kind.LABEL)) {
                return; // "Customer: …" is a label, read as one
            }
            i = nameFrom;
            String who = s.substring(w.start[i], w.end[end - 1]);
            speakers.merge(who, 1, Integer::sum);
            // a turn says something in words ("Host: db1", "Timestamp: 2024-…" are fields), and a speaker is
            // not a hyphenated header field (Content-Type, Return-Path)
            if (prose(end + 1) < 2 || hyphenated(i, end)) {
                return;
            }
            if (anyKnown(i, end)) {
                knownSpeakers++;
                add(nameFrom, end);
            } else {
                // an unknown speaker counts when seen twice, or in a dialogue of known ones
                speakerTurns.add(new int[] { w.start[i], w.end[end - 1] });
            }
        }

        /** Lower-case words of two letters or more from token {@code from} on: a sentence, not a field value. */
        private int prose(int from) {
            int count = 0;
            for (int k = from; k < w.size && count < 2; k++) {
                if (w.word(k) && w.end[k] - w.start[k] >= 2 && Character.isLowerCase(s.charAt(w.start[k]))) {
                    count++;
                }
            }
            return count;
        }

        private boolean hyphenated(int from, int to) {
            for (int k = from; k < to; k++) {
                if (!w.word(k)) {
                    return true;
                }
            }
            return false;
        }

        private boolean prefixOnlyPunctuationAndDigits(int upTo) {
            for (int k = 0; k < upTo; k++) {
                if (w.word(k) && !w.digits(s, k) && !w.lower(s, k).equals("am") && !w.lower(s, k).equals("pm")) {
                    return false;
                }
            }
            return true;
        }

        /**
         * The end (exclusive token index) of a name starting at token {@code at}, or -1: up to {@value #MAX_WORDS}
         * capitalised words, with particles between them and hyphens, apostrophes and initials inside them.
         * A weak cue needs a word the name lists know; a single word must not be a stop word.
         */
        private int name(int at, Kind kind) {
            int i = at;
            // a title in front ("Tio Roberto:", "To: Avv. Marco Rinaldi") is not part of the name
            if (i + 1 < w.size && w.word(i) && TITLES.contains(w.lower(s, i))) {
                int j = w.is(s, i + 1, '.') ? i + 2 : i + 1;
                if (j < w.size && nameWord(j)) {
                    i = j;
                }
            }
            nameFrom = i;
            at = i;
            int n = w.size;
            int words = 0;
            int end = -1;
            while (i < n && words < MAX_WORDS) {
                if (nameWord(i)) {
                    i++;
                    // glued pieces: Jean-Pierre, O'Brien, D'Angelo
                    while (i + 1 < n && w.end[i - 1] == w.start[i] && w.start[i + 1] == w.end[i]
                            && (w.is(s, i, '-') || w.is(s, i, '\'') || w.is(s, i, '’')) && w.word(i + 1)
                            && Character.isLetter(s.charAt(w.start[i + 1]))) {
                        i += 2;
                    }
                    // an initial: "J." in "J. Smith"
                    if (i < n && w.end[i - 1] - w.start[i - 1] == 1 && w.is(s, i, '.') && w.end[i - 1] == w.start[i]) {
                        i++;
                    }
                    words++;
                    end = i;
                } else if (words > 0 && w.word(i) && PARTICLES.contains(w.lower(s, i)) && i + 1 < n && nameWord(i + 1)) {
                    i++;
                } else if (words == 0 && w.word(i) && PARTICLES.contains(w.lower(s, i)) && i + 1 < n
                        && Character.isUpperCase(s.charAt(w.start[i])) && nameWord(i + 1)) {
                    i++; // "De la Cruz", "Van Dijk" at the start
                } else {
                    break;
                }
            }
            if (end < 0) {
                return -1;
            }
            // a weak cue needs a known name, or a name that ends the clause or says where the person is from
            // ("I'm Aroha from billing", "this is Siiri, …"; not "I'm Happy to help")
            if (kind == Kind.WEAK && !anyKnown(at, end) && !(endsClause(end)
                    || end < n && w.word(end) && w.lower(s, end).equals("from"))) {
                return -1;
            }
            return end;
        }

        private boolean anyKnown(int from, int to) {
            for (int k = from; k < to; k++) {
                if (w.word(k) && known.contains(w.lower(s, k))) {
                    return true;
                }
            }
            return false;
        }

        /** A word that can be part of a name: capitalised or of a script without case, not a stop word. */
        private boolean nameWord(int k) {
            if (!w.word(k)) {
                return false;
            }
            int a = w.start[k];
            int b = w.end[k];
            char c0 = s.charAt(a);
            if (!Character.isLetter(c0) || Character.isLowerCase(c0)) {
                return false;
            }
            if (b - a == 1 && !(k + 1 < w.size && w.is(s, k + 1, '.') && w.start[k + 1] == b)) {
                return false; // a lone capital is an initial only when a full stop follows it
            }
            boolean upper = Character.isUpperCase(c0) || Character.isTitleCase(c0);
            boolean allCaps = upper && b - a > 1;
            for (int i = a + 1; i < b; i++) {
                char c = s.charAt(i);
                if (Character.isDigit(c)) {
                    return false;
                }
                allCaps &= !Character.isLowerCase(c);
            }
            String lower = w.lower(s, k);
            if (STOP.contains(lower) || NameFinderDetector.commonWord(s.substring(a, b))) {
                return false;
            }
            // ALL CAPS is a heading or an acronym unless the lists know it (TANAKA HIROSHI); in a script without
            // case any word is "capitalised", so only the lists can say
            return upper ? !allCaps || known.contains(lower) : known.contains(lower);
        }

        private void add(int from, int to) {
            found.add(new int[] { w.start[from], w.end[to - 1] });
        }
    }

    /**
     * One line's tokens: words (letters, digits and combining marks) and single other characters, with their
     * offsets in the text; arrays reused from line to line.
     */
    private static final class Words {
        int[] start = new int[64];
        int[] end = new int[64];
        boolean[] isWord = new boolean[64];
        String[] lower = new String[64];
        int size;

        void read(String s, int from, int to) {
            size = 0;
            int i = from;
            while (i < to) {
                char c = s.charAt(i);
                if (Character.isWhitespace(c) || c == '\u00A0') {
                    i++;
                    continue;
                }
                int j = i;
                boolean word = wordChar(c);
                if (word) {
                    while (j < to && wordChar(s.charAt(j))) {
                        j++;
                    }
                } else {
                    j = i + (Character.isHighSurrogate(c) && i + 1 < to ? 2 : 1);
                }
                add(i, j, word);
                i = j;
            }
        }

        private void add(int a, int b, boolean word) {
            if (size == start.length) {
                start = java.util.Arrays.copyOf(start, size * 2);
                end = java.util.Arrays.copyOf(end, size * 2);
                isWord = java.util.Arrays.copyOf(isWord, size * 2);
                lower = java.util.Arrays.copyOf(lower, size * 2);
            }
            start[size] = a;
            end[size] = b;
            isWord[size] = word;
            lower[size] = null;
            size++;
        }

        static boolean wordChar(char c) {
            if (Chars.letterOrDigit(c)) {
                return true;
            }
            if (c < 256) {
                return false; // no marks in Latin-1
            }
            int t = Character.getType(c);
            return t == Character.NON_SPACING_MARK || t == Character.COMBINING_SPACING_MARK
                    || t == Character.ENCLOSING_MARK;
        }

        boolean word(int k) {
            return isWord[k];
        }

        boolean dash(int k) {
            return !isWord[k] && end[k] - start[k] == 1;
        }

        boolean is(String s, int k, char c) {
            return !isWord[k] && end[k] - start[k] == 1 && s.charAt(start[k]) == c;
        }

        boolean digits(String s, int k) {
            if (!isWord[k]) {
                return false;
            }
            for (int i = start[k]; i < end[k]; i++) {
                if (!Character.isDigit(s.charAt(i))) {
                    return false;
                }
            }
            return true;
        }

        /** The token lower-cased (composed, so NFD text matches the lists), computed once. */
        String lower(String s, int k) {
            String l = lower[k];
            if (l == null) {
                l = s.substring(start[k], end[k]).toLowerCase(Locale.ROOT);
                if (isWord[k] && !belowCombiningMarks(l) && !java.text.Normalizer.isNormalized(l, java.text.Normalizer.Form.NFC)) {
                    l = java.text.Normalizer.normalize(l, java.text.Normalizer.Form.NFC);
                }
                lower[k] = l;
            }
            return l;
        }
    }

    /**
     * Whether every character of {@code l} comes before the combining marks (U+0300): such a text is already
     * composed (NFC), so the normaliser need not be asked (NameCuesTest checks every such character and pair).
     */
    static boolean belowCombiningMarks(String l) {
        for (int i = 0; i < l.length(); i++) {
            if (l.charAt(i) >= 0x300) {
                return false;
            }
        }
        return true;
    }

    /** Bits set by the case-folded hashes of every cue's first word: most words are ruled out without a copy. */
    private static final long[] FIRST_WORDS = firstWords();

    private static long[] firstWords() {
        long[] bits = new long[1 << 9];
        for (String k : CUES.keySet()) {
            int h = foldedHash(k, 0, k.length()) & ((1 << 15) - 1);
            bits[h >>> 6] |= 1L << h;
        }
        return bits;
    }

    private static int foldedHash(String s, int from, int to) {
        int h = 0;
        for (int i = from; i < to; i++) {
            h = 31 * h + Chars.lower(s.charAt(i));
        }
        return h;
    }

    /** False when {@code s[from, to)} is surely no cue's first word. */
    static boolean maybeCue(String s, int from, int to) {
        if (to - from > 24) {
            return false;
        }
        int h = foldedHash(s, from, to) & ((1 << 15) - 1);
        return (FIRST_WORDS[h >>> 6] & (1L << h)) != 0;
    }

    /** Single-word titles, read from the cue table. */
    private static final Set<String> TITLES = titles();

    private static Set<String> titles() {
        Set<String> t = new java.util.HashSet<>();
        CUES.forEach((k, l) -> l.stream().filter(c -> c.kind() == Kind.TITLE && c.words().length == 1).forEach(c -> t.add(k)));
        return Set.copyOf(t);
    }

    private static Map<String, List<Cue>> cues() {
        Map<String, List<Cue>> m = new HashMap<>();
        add(m);
        // the longest cue first: "best regards" before "best"
        m.values().forEach(l -> l.sort((a, b) -> b.words().length - a.words().length));
        return Map.copyOf(m);
    }

    private static void add(Map<String, List<Cue>> m) {
        String labels = """
                name|full name|first name|given name|last name|surname|family name|middle name|display name|
                preferred name|legal name|contact name|customer name|client name|patient name|employee name|
                from|to|cc|bcc|reply-to|customer|client|contact|contacts|contact person|assignee|assignees|
                assigned to|author|authors|owner|owners|patient|attendees|attendee|participants|participant|speaker|
                speakers|panelists|panellists|moderator|host|hosts|organizer|organiser|organizers|reporter|requester|
                requested by|reviewer|reviewers|approver|approvers|approved by|signed by|employee|candidate|applicant|
                holder|cardholder|card holder|account holder|account name|guest|guests|founder|founders|co-founders|
                cofounders|contributors|maintainer|maintainers|driver|passenger|recipient|sender|tenant|landlord|
                buyer|seller|spouse|emergency contact|next of kin|beneficiary|witness|witnesses|doctor|physician|
                nurse|teacher|student|caller|interviewer|interviewee|cast|starring|director|composer|lyricist|
                performer|performers|artist|artists|writer|writers|narrator|presenter|presenters|lecturer|
                instructor|trainer|coach|mentor|mentee|supervisor|reports to|line manager|manager|introduced by|
                referred by|co-authored-by|signed-off-by|reviewed-by|reported-by|acked-by|tested-by|cc'd|signatory|signatories|mother|father|parent|parents|guardian|husband|wife|partner|
                son|daughter|brother|sister|child|children|nom|prénom|prenom|nome|cognome|nombre|apellido|apellidos|
                naam|voornaam|achternaam|imię|imie|nazwisko|jméno|příjmení|név|nimi|etunimi|sukunimi|adı|ad|soyadı|
                ad soyad|adı soyadı|tên|họ tên|họ và tên|cliente|kunde|kundin|klant|klient|klientka|asiakas|müşteri|
                khách hàng|contacto|contatto|kontakt|yhteyshenkilö|ansprechpartner|autor|autorin|auteur|autore|
                von|an|para|destinatario|remitente|mittente|absender|empfänger|expéditeur|destinataire|paciente|
                patiente|paziente|pacjent|pacjentka|pacient|potilas|hasta|bệnh nhân|asistentes|participantes|
                teilnehmer|partecipanti|uczestnicy|résztvevők|osallistujat|katılımcılar|účastníci|deelnemers|
                fondateurs|fundadores|gründer|fondatori|założyciele|alapítók|perustajat|kurucular|zakladatelé|
                responsable|verantwortlich|odpowiedzialny|felelős|vastuuhenkilö|sorumlu|người liên hệ|imię i nazwisko
                """;
        putAll(m, Kind.LABEL, labels);
        putAll(m, Kind.STRONG, "my name is|my name's|his name is|her name is|their name is|i am called|"
                + "call me|je m'appelle|je m’appelle|mon nom est|me llamo|mi nombre es|mi chiamo|"
                + "il mio nome è|ich heiße|ich heisse|mein name ist|meu nome é|me chamo|nazywam się|mam na imię|"
                + "jmenuji se|jmenuju se|a nevem|nevem|nimeni on|minun nimeni on|benim adım|adım|tên tôi là|"
                + "tôi tên là|mijn naam is|ik heet|jag heter|jeg heter|jeg hedder|mitt namn är|mitt navn er|"
                + "ko toku ingoa|orúkọ mi ni|oruko mi ni|aha m bụ|aha m bu|mera naam|mera nam|ismim|ana ismi|"
                + "written by|directed by|produced by|composed by|performed by|presented by|prepared by|"
                + "authored by|sung by|painted by|narrated by|hosted by|moderated by|reported by|opened by|"
                + "raised by|filed by|submitted by|reviewed by|assigned to|introduced by|referred by|"
                + "accompanied by|signed by|approved by|escalated to|handed over to|forwarded to");
        putAll(m, Kind.WEAK, "i'm|i’m|i am|this is|je suis|soy|ich bin|eu sou|ik ben|jestem|tôi là|jag är|jeg er|by|"
                + "named|name is|whose name is|said|says|asked|replied|wrote|told|according to|thanks to|cc|ping|"
                + "met with|spoke with|spoke to|talked to|meeting with|call with");
        putAll(m, Kind.GREETING, "dear|hi|hello|hey|hiya|howdy|greetings|hallo|liebe|lieber|bonjour|salut|cher|chère|hola|"
                + "querido|querida|estimado|estimada|ciao|caro|cara|gentile|gentilissima|gentilissimo|olá|oi|"
                + "prezado|prezada|cześć|witam|szanowny|szanowna|szanowni|ahoj|milý|milá|vážený|vážená|hej|hei|moi|"
                + "terve|hyvä|kedves|szia|sziasztok|merhaba|sayın|chào|xin chào|kia ora|tēnā koe|tena koe|"
                + "thanks|thank you|thx|congrats|congratulations|welcome|good morning|good afternoon|"
                + "good evening|morning|goodbye|sorry|beste|lieve|goedemorgen|god morgon|"
                + "hallå|dzień dobry|jó napot|hyvää huomenta|günaydın|bom dia|boa tarde|buongiorno|buenos días|"
                + "buenas|grazie|gracias|obrigado|obrigada|merci|danke|dziękuję|köszönöm|kiitos|teşekkürler|"
                + "cảm ơn|tack|takk|dank je|bedankt");
        putAll(m, Kind.SIGN_OFF, "regards|best regards|kind regards|warm regards|warmest regards|best wishes|best|cheers|"
                + "sincerely|yours sincerely|yours truly|yours faithfully|yours|signed|love|xoxo|take care|"
                + "cordialement|bien cordialement|bien à vous|saludos|un saludo|saludos cordiales|atentamente|"
                + "grüße|viele grüße|beste grüße|liebe grüße|mit freundlichen grüßen|freundliche grüße|lg|mfg|vg|"
                + "pozdrawiam|z poważaniem|pozdrav|s pozdravem|srdečně|groeten|met vriendelijke groet|"
                + "vriendelijke groet|groet|mvg|üdvözlettel|tisztelettel|terveisin|ystävällisin terveisin|"
                + "saygılarımla|sevgiler|hälsningar|med vänlig hälsning|vänliga hälsningar|mvh|hilsen|"
                + "med venlig hilsen|venlig hilsen|med vennlig hilsen|atenciosamente|abraços|abraço|"
                + "cordiali saluti|saluti|distinti saluti|un saluto|trân trọng|thân ái|ngā mihi|nga mihi|"
                + "с уважением");
        putAll(m, Kind.TITLE, "mr|mrs|ms|miss|mx|dr|prof|professor|sir|dame|lord|lady|rev|fr|sr|sra|srta|sig|sig.ra|"
                + "sigra|dott|dott.ssa|avv|ing|herr|frau|hr|fr|mme|mlle|mevr|dhr|pan|pani|panna|paní|úr|asszony|"
                + "bay|bayan|ông|bà|dra|dña|don|doña|dona|mister|madame|monsieur|signor|signora|"
                + "señor|señora|senhor|senhora|uncle|aunt|auntie|tio|tia|tía|tío|vó|vovó|avó|avô|grandma|grandpa|"
                + "mama|papa|inspector|detective|officer|sergeant|captain|judge|justice|senator|president|"
                + "coach|nurse|chef|bro|sis");
        for (String d : new String[] { "—", "–", "―", "-", "~" }) {
            put(m, d, Kind.DASH);
        }
    }

    /** Every cue of a '|'-separated list (line breaks ignored) as {@code kind}. */
    private static void putAll(Map<String, List<Cue>> m, Kind kind, String bars) {
        for (String phrase : bars.replace("\n", "").split("\\|")) {
            put(m, phrase.strip(), kind);
        }
    }

    /** Cue words are split like the text's tokens: "i'm" is i, ', m; "sig.ra" is sig, ., ra. */
    private static void put(Map<String, List<Cue>> m, String phrase, Kind kind) {
        Words w = new Words();
        w.read(phrase, 0, phrase.length());
        String[] words = new String[w.size];
        for (int k = 0; k < w.size; k++) {
            words[k] = w.lower(phrase, k);
        }
        if (words.length > 0) {
            m.computeIfAbsent(words[0], x -> new ArrayList<>()).add(new Cue(words, kind));
        }
    }
}
