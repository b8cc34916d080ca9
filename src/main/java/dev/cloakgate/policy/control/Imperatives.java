package dev.cloakgate.policy.control;

import static dev.cloakgate.policy.control.Lexicon.*;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The imperative grammar: finds, in one sentence, a verb in imperative position (clause-initial after politeness
 * and sequencing words, or after "you must", "the assistant should", "your new task is to", "it is required that
 * you") and judges what it targets: the model's prior instructions, its prompt, data sent somewhere, the user
 * kept in the dark, another tool, its role. Windows after the verb are bounded, so a sentence costs linear time.
 * Immutable; safe to share.
 */
public final class Imperatives {

    /** What an instruction to the model is trying to do. */
    public enum Shape {
        OVERRIDE("overriding prior instructions"),
        REVEAL("asking the model to reveal its instructions"),
        EXFILTRATE("sending or passing sensitive data"),
        CONCEAL("keeping an action from the user"),
        TOOL_CALL("directing a call to another tool"),
        ROLE("changing the model's role"),
        FAKE_CHANNEL("posing as a system or developer message"),
        CONDUCT("directing the model's answers"),
        ACTION("requesting an action on the principal's behalf"),
        ACTION_TOOL("requesting an action another tool of the session performs"),
        /** No rule of the grammar: the learned classifier ({@link InjectionClassifier}) judged the sentence one. */
        LEARNED("an instruction to the reader by the learned classifier");

        private final String words;

        Shape(String words) {
            this.words = words;
        }

        public String words() {
            return words;
        }
    }

    /**
     * What surrounds a sentence. {@code self} holds the lower-cased names the tool itself goes by; {@code actions}
     * the verbs of the session's other tools ({@link ActionRequest#verbs}).
     */
    record Scope(Set<String> self, boolean channel, boolean modelAddressed, boolean response, Set<String> actions) {
        Scope(Set<String> self, boolean channel, boolean modelAddressed, boolean response) {
            this(self, channel, modelAddressed, response, Set.of());
        }
    }

    /** One finding in a sentence: the shape, the token it rests on, and where its imperative prefix began. */
    record Hit(Shape shape, int at, int start) {
    }

    enum Who { NONE, YOU, MODEL }

    /**
     * A verb in imperative position; {@code word} is its base form ("send" for "sending", "appends"), and
     * {@code indicative} marks a statement of what the model does ("the assistant appends ...") rather than an
     * order, which counts for the shapes of harm but not for mere conduct.
     */
    record Site(int verb, int start, boolean neg, Who who, boolean stealth, boolean newTask, boolean fromNow,
            String word, boolean indicative) {
        Site(int verb, int start, boolean neg, Who who, boolean stealth, boolean newTask, boolean fromNow) {
            this(verb, start, neg, who, stealth, newTask, fromNow, null, false);
        }
    }

    private static String word(Sentence s, Site site) {
        return site.word() != null ? site.word() : s.w(site.verb());
    }

    private final Sentences sentences = new Sentences();
    private final Layout layout = new Layout();
    private final TextCleaner cleaner = new TextCleaner();

    /**
     * True when the text instructs the model about using any of the named tools: an imperative in a sentence
     * that names one ("always bcc x when calling send_email"), or a condition on one being called ("when
     * send_email is called, add ..."). A plain mention ("similar to send_email") is not an instruction.
     */
    public boolean instructsAbout(String text, Set<String> names) {
        if (text == null || text.isEmpty() || names.isEmpty()) {
            return false;
        }
        Set<String> lower = new HashSet<>();
        for (String n : names) {
            lower.add(n.toLowerCase(Locale.ROOT));
        }
        String clean = cleaner.clean(text).text();
        for (Sentence s : sentences.split(clean, layout.of(clean))) {
            int named = -1;
            for (int i = 0; i < s.size() && named < 0; i++) {
                if (lower.contains(s.at(i).raw().toLowerCase(Locale.ROOT)) || lower.contains(s.w(i))) {
                    named = i;
                }
            }
            if (named < 0) {
                continue;
            }
            if (conditionOnCall(s, named) || modalOnName(s, named)) {
                return true;
            }
            for (Site site : sites(s, Who.NONE)) {
                if (site.verb() != named && !afterPossibility(s, site.start())) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Every instruction in the sentence. */
    List<Hit> find(Sentence s, Scope scope) {
        List<Hit> hits = new ArrayList<>(2);
        List<Site> sites = sites(s, scope.modelAddressed() ? Who.MODEL : Who.NONE);
        boolean trigger = answerTrigger(s);
        boolean conceal = false;
        boolean requested = false;
        for (Site site : sites) {
            int before = hits.size();
            override(s, site, hits);
            reveal(s, site, hits);
            exfiltrate(s, site, trigger, hits);
            conceal |= conceal(s, site, hits);
            toolCall(s, site, scope, trigger, hits);
            role(s, site, scope, hits);
            if (hits.size() == before && !site.indicative() && CONDUCT_V.contains(word(s, site))
                    && !asked(s, site)) {
                conduct(s, site, scope, trigger, hits);
            }
            if (hits.size() == before && scope.response()) {
                // issue 13: only a tool's result carries requests written by third parties; a declaration asking
                // for input ("please provide the path") is the tool's own business
                Shape a = ActionRequest.judge(s, site, word(s, site), requested, scope.actions());
                if (a != null) {
                    hits.add(new Hit(a, site.verb(), site.start()));
                }
            }
            requested |= hits.size() > before || ActionRequest.requestForm(s, site, false);
        }
        if (!sites.isEmpty() && !conceal && s.any(W_WITHOUT)) {
            int w = without(s);
            if (w >= 0) {
                hits.add(new Hit(Shape.CONCEAL, w, sites.get(0).start()));
            }
        }
        int u = s.any(W_USER) ? userMustNotKnow(s) : -1;
        if (u >= 0) {
            hits.add(new Hit(Shape.CONCEAL, u, 0));
        }
        int r = s.any(W_YOU) ? youAreNow(s) : -1;
        if (r >= 0) {
            hits.add(new Hit(Shape.ROLE, r, r));
        }
        int c = s.any(C_NEWNESS | C_AUTHORITY) ? authority(s) : -1;
        if (c >= 0) {
            hits.add(new Hit(Shape.FAKE_CHANNEL, c, 0));
        }
        for (int i = 0; i < s.size() && !sites.isEmpty(); i++) {
            if (s.at(i).identifier() && !scope.self().contains(s.at(i).raw().toLowerCase(Locale.ROOT))
                    && conditionOnCall(s, i)) {
                hits.add(new Hit(Shape.TOOL_CALL, i, 0));
                break;
            }
        }
        return hits;
    }

    // --- imperative position ---------------------------------------------------------------------------------

    List<Site> sites(Sentence s, Who paragraph) {
        List<Site> out = new ArrayList<>(4);
        boolean clauseStart = true;
        for (int i = 0; i < s.size(); i++) {
            Token t = s.at(i);
            if (t.punct() || t.is("and") || t.is("then") || t.is("or") || t.is("but") || t.is("&")) {
                clauseStart = true;
                continue;
            }
            if (t.is("if") && s.w(i + 1).equals("you") && (s.w(i + 2).equals("could") || s.w(i + 2).equals("would")
                    || s.w(i + 2).equals("can"))) {
                clauseStart = true;
            }
            if (!clauseStart) {
                continue;
            }
            clauseStart = false;
            Site site = site(s, i, paragraph);
            if (site != null) {
                out.add(site);
                i = site.verb();
            }
        }
        return out;
    }

    private static Site site(Sentence s, int i, Who paragraph) {
        int j = i;
        boolean neg = false;
        boolean stealth = false;
        boolean newTask = false;
        boolean fromNow = false;
        Who who = paragraph;
        int subject = i + countLead(s, i);
        for (int steps = 0; steps < 10 && j < s.size(); steps++) {
            String w = s.w(j);
            String next = s.w(j + 1);
            Token tw = s.at(j);
            long cw = tw == null ? 0 : tw.cls();
            long cn = j + 1 < s.size() ? s.at(j + 1).cls() : 0;
            if (w.equals("do") && (next.equals("not") || next.equals("n't"))) {
                neg = true;
                j += 2;
            } else if (w.equals("don't") || w.equals("dont") || w.equals("never") || w.equals("not")) {
                neg = true;
                j++;
            } else if (w.equals("forget") && next.equals("to") || w.equals("remember") && next.equals("to")
                    || w.equals("fail") && next.equals("to")) {
                neg = false;
                j += 2;
            } else if ((cw & C_STEALTH) != 0) {
                stealth = true;
                j++;
            } else if ((cw & C_LEAD) != 0 || w.equals("henceforth")) {
                j++;
            } else if (w.equals("from") && next.equals("now") && s.w(j + 2).equals("on")) {
                fromNow = true;
                j += 3;
            } else if (w.equals("going") && next.equals("forward")) {
                fromNow = true;
                j += 2;
            } else if ((w.equals("the") || w.equals("any") || w.equals("all") || w.equals("every") || w.equals("dear")
                    || w.equals("to") || w.equals("an") || w.equals("a") || w.equals("hey")) && (cn & C_MODEL) != 0) {
                j++;
            } else if (j <= subject && (cw & C_MACHINE_Q) != 0 && ((cn & C_MODEL) != 0
                    || s.has(j + 2, C_MODEL) && s.at(j + 1) != null && !s.at(j + 1).punct())) {
                // "language models must", "automated assistants should": a machine-ness modifier before the noun;
                // "AI booking assistants must": with one more modifier between them
                j += (cn & C_MODEL) != 0 ? 1 : 2;
                subject = j;
            } else if ((cw & C_MODEL) != 0 && (j == i + countLead(s, i) || j == subject)) {
                who = Who.MODEL;
                j++;
                String present = base(s.w(j));
                if (present != null && s.w(j).endsWith("s") && !s.w(j).equals(present)) {
                    // "the assistant appends ...": what the model does, stated as a rule
                    return new Site(j, i, neg, who, stealth, newTask, fromNow, present, true);
                }
                if (s.w(j).equals("please") || s.w(j).equals("kindly")) {
                    // "@assistant please share ...": the machine called by name, then the request
                    continue;
                }
                int k = j;
                while (k < s.size() && k - j < 5 && !s.at(k).punct() && !s.has(k, C_MODAL)) {
                    k++;
                }
                if (k == j && j - 1 == i && s.w(k).equals(":") && (cw & C_AMBIGUOUS_MODEL) != 0) {
                    // a bare "Agent:" heads a line of a transcript or a ticket: a speaker, not an addressee
                    return null;
                }
                if (k < s.size() && (s.at(k).punct() || s.has(k, C_MODAL))) {
                    j = k;
                    if (s.at(j).punct()) {
                        j++;
                    }
                    j = modalChain(s, j);
                    if (j < 0) {
                        return null;
                    }
                    neg |= negatedChain(s, k, j);
                } else {
                    return null;
                }
            } else if (w.equals("you") || w.equals("you'll") || w.equals("you're") || w.equals("u")) {
                who = who == Who.MODEL ? Who.MODEL : Who.YOU;
                int k = j + 1;
                if (w.equals("you") && !s.has(k, C_MODAL) && s.has(k, C_ALL_VERBS)) {
                    j = k;
                    break;
                }
                j = modalChain(s, k);
                if (j < 0 || j == k && w.equals("you")) {
                    return null;
                }
                neg |= negatedChain(s, k, j);
            } else if (w.equals("i") && (next.equals("need") || next.equals("want") || next.equals("require")
                    || next.equals("order") || next.equals("command") || next.equals("instruct")
                    || next.equals("expect") || next.equals("demand") || next.equals("urge"))
                    && s.w(j + 2).equals("you")) {
                who = Who.YOU;
                j += 3;
                if (s.w(j).equals("to")) {
                    j++;
                }
            } else if ((w.equals("it") && next.equals("is") || w.equals("it's")) && j == i) {
                int k = j + 1;
                while (k < s.size() && k - j < 6 && !s.w(k).equals("you")) {
                    k++;
                }
                if (!s.w(k).equals("you")) {
                    return null;
                }
                who = Who.YOU;
                j = k + 1;
                if (s.w(j).equals("to")) {
                    j++;
                }
            } else if (w.equals("your") && j - i <= 2) {
                int k = j + 1;
                if (s.has(k, C_NEWNESS) || s.w(k).equals("next") || s.w(k).equals("only")
                        || s.w(k).equals("primary") || s.w(k).equals("main")) {
                    newTask = s.has(k, C_NEWNESS);
                    k++;
                }
                String noun = s.w(k);
                if (!(noun.equals("task") || noun.equals("job") || noun.equals("goal") || noun.equals("objective")
                        || noun.equals("mission") || noun.equals("instruction") || noun.equals("instructions")
                        || noun.equals("purpose") || noun.equals("assignment") || noun.equals("priority")
                        || noun.equals("orders"))) {
                    return null;
                }
                k++;
                if (s.w(k).equals("is") || s.w(k).equals("are") || s.w(k).equals(":") || s.w(k).equals("now")) {
                    k++;
                }
                while (s.w(k).equals("to") || s.w(k).equals("now") || s.w(k).equals(":")) {
                    k++;
                }
                who = Who.YOU;
                j = k;
            } else if (SOMEONE.contains(w) && (next.equals("could") || next.equals("can") || next.equals("would")
                    || next.equals("should") || next.equals("must")) && j == i + countLead(s, i)) {
                // "someone could reset ...", as French and German put it ("quelqu'un pourrait-il ...")
                who = who == Who.MODEL ? Who.MODEL : Who.YOU;
                j += 2;
            } else if (w.equals("any") && next.equals("chance") && j <= i + countLead(s, i)) {
                // "any chance you could ...", "any chance the assistant could ...": a request put as a question
                int m = s.w(j + 2).equals("the") ? j + 3 : j + 2;
                String could = s.w(m + 1);
                if (!(could.equals("could") || could.equals("can") || could.equals("would"))
                        || !(s.has(m, C_MODEL) || SOMEONE.contains(s.w(m)) || s.w(m).equals("you"))) {
                    return null;
                }
                who = s.has(m, C_MODEL) ? Who.MODEL : who == Who.MODEL ? Who.MODEL : Who.YOU;
                j = m + 2;
            } else if ((w.equals("would") || w.equals("is")) && next.equals("it") && s.w(j + 2).equals("be")
                    && s.w(j + 3).equals("possible") && s.w(j + 4).equals("to") && j == i + countLead(s, i)
                    || w.equals("is") && next.equals("it") && s.w(j + 2).equals("possible") && s.w(j + 3).equals("to")
                    && j == i + countLead(s, i)) {
                // "would it be possible to move ...": the request with its addressee left out
                who = who == Who.MODEL ? Who.MODEL : Who.YOU;
                j += w.equals("would") || s.w(j + 2).equals("be") ? 5 : 4;
            } else if ((w.equals("can") || w.equals("could") || w.equals("would") || w.equals("will"))
                    && (SOMEONE.contains(next) || next.equals("the") && s.has(j + 2, C_MODEL)
                    || s.has(j + 1, C_MODEL)) && j == i + countLead(s, i)) {
                // "could somebody reset ...", "can the bot unlock ...": a request to whoever or whatever reads it
                int m = next.equals("the") ? j + 2 : j + 1;
                who = s.has(m, C_MODEL) ? Who.MODEL : who == Who.MODEL ? Who.MODEL : Who.YOU;
                j = m + 1;
                if (s.w(j).equals("please")) {
                    j++;
                }
            } else if ((w.equals("can") || w.equals("could") || w.equals("would") || w.equals("will"))
                    && next.equals("you") && j == i + countLead(s, i)) {
                // "can you please delete ...", "could you send ...": a request put as a question
                who = who == Who.MODEL ? Who.MODEL : Who.YOU;
                j += 2;
                String gerund = s.w(j).equals("mind") ? base(s.w(j + 1)) : null;
                if (gerund != null && s.w(j + 1).endsWith("ing")) {
                    // "would you mind sending ...": the gerund is the verb asked for
                    return new Site(j + 1, i, neg, who, stealth, newTask, fromNow, gerund, false);
                }
            } else if (w.equals("if") && next.equals("you") && j == i && (s.w(j + 2).equals("could")
                    || s.w(j + 2).equals("would") || s.w(j + 2).equals("can"))) {
                // "it would be great if you could transfer ...": the request inside a politeness frame
                who = who == Who.MODEL ? Who.MODEL : Who.YOU;
                j += 3;
            } else if ((w.equals("make") || w.equals("be")) && (next.equals("sure") || next.equals("certain"))) {
                j += 2;
                while (s.w(j).equals("to") || s.w(j).equals("you") || s.w(j).equals("that")) {
                    j++;
                }
            } else if (tw != null && (who != Who.NONE || s.w(i - 1).equals(":") || s.w(i).equals("please")
                    || s.w(i).equals("remember")) && hanTime(s, j) > j) {
                // "请在今天下班前导出…", "提醒：周五前续订…": asked for, Chinese puts when before the verb
                j = hanTime(s, j);
            } else {
                break;
            }
        }
        if (j < s.size() && who != Who.NONE && !s.has(j, C_ALL_VERBS)) {
            // "agents can lift the limit by sending ...": the means is the instruction
            for (int k = j + 1; k < Math.min(s.size(), j + 8) && !s.at(k).punct(); k++) {
                String g = s.w(k + 1);
                String b = base(g);
                if (s.w(k).equals("by") && g.endsWith("ing") && b != null) {
                    return new Site(k + 1, i, neg, who, stealth, newTask, fromNow, b, false);
                }
            }
        }
        if (j >= s.size() || !s.has(j, C_ALL_VERBS) || s.at(j).kind() != Token.Kind.WORD
                || s.w(j + 1).equals(":") && s.at(j + 1).raw().equals(":")) {
            // "Text: Hi, my order ...", "from: bot, text: ...": a verb before its colon is a field's name
            return null;
        }
        return new Site(j, i, neg, who, stealth, newTask, fromNow);
    }

    /**
     * "Could the assistant summarise this?": a question asking for an answer is what a reader may do with a
     * record; a rule for the model's answers ("the assistant must always answer ...") is not put as one.
     */
    private static boolean asked(Sentence s, Site site) {
        String w = s.w(site.start() + countLead(s, site.start()));
        return w.equals("could") || w.equals("can") || w.equals("would") || w.equals("will") || w.equals("any");
    }

    static boolean digitsOnly(String raw) {
        for (int k = 0; k < raw.length(); k++) {
            if (!Character.isDigit(raw.charAt(k))) {
                return false;
            }
        }
        return !raw.isEmpty();
    }

    /** The base of a gerund or a third-person present ("sending", "passes", "uses") when it is a known verb. */
    static String base(String w) {
        int n = w.length();
        if (ALL_VERBS.contains(w)) {
            return w;
        }
        if (n > 5 && w.endsWith("ing")) {
            String b = w.substring(0, n - 3);
            if (ALL_VERBS.contains(b)) {
                return b;
            }
            if (ALL_VERBS.contains(b + "e")) {
                return b + "e";
            }
            if (b.charAt(b.length() - 1) == b.charAt(b.length() - 2) && ALL_VERBS.contains(b.substring(0, b.length() - 1))) {
                return b.substring(0, b.length() - 1);
            }
            return null;
        }
        if (n > 3 && w.endsWith("s")) {
            if (ALL_VERBS.contains(w.substring(0, n - 1))) {
                return w.substring(0, n - 1);
            }
            if (w.endsWith("es") && ALL_VERBS.contains(w.substring(0, n - 2))) {
                return w.substring(0, n - 2);
            }
        }
        return null;
    }

    /**
     * A label at the head of a sentence that addresses the model ("Note to the assistant:", "AI agent:", "For the
     * agent applying this config:"): the index of its colon, or -1. A bare role word that also names people
     * ("Agent:", "Assistant:", "Model:") is a speaker label in transcripts and tickets, so it counts only inside
     * text hidden from human readers.
     */
    static int vocativeLabel(Sentence s, boolean hidden) {
        // a key before the label ("_comment": "For the agent: ...") is skipped; the label itself is short
        int from = 0;
        for (int k = 0; k < Math.min(s.size(), 12); k++) {
            if (!s.at(k).punct()) {
                continue;
            }
            if (!s.w(k).equals(":")) {
                return -1;
            }
            if (k - from > 0 && k - from <= 8 && label(s, from, k, hidden)) {
                return k;
            }
            from = k + 1;
        }
        return -1;
    }

    private static boolean label(Sentence s, int from, int colon, boolean hidden) {
        boolean model = false;
        boolean qualified = hidden;
        for (int k = from; k < colon; k++) {
            String w = s.w(k);
            long c = s.at(k).cls();
            // "whoever reads this:" names the reader; "the page reads:" frames a quotation
            boolean framing = (c & C_FRAMING) != 0 && !w.equals("reading")
                    && !(k > from && READER_Q.contains(s.w(k - 1)));
            // a verb heads an order ("send to the agent: ..."), a channel noun a label ("Note to ...")
            boolean order = (c & C_ALL_VERBS) != 0 && k == from && (c & C_MODEL) == 0
                    && !((c & C_CHANNEL_N) != 0 && (s.w(k + 1).equals("to") || s.w(k + 1).equals("for")));
            if (w.equals("if") || w.equals("when") || w.equals("whenever") || framing || order) {
                return false;
            }
            // "Note to self / whoever reads this:": a record's reader is whatever processes it
            boolean reader = READER_Q.contains(w) && READER_V.contains(s.w(k + 1));
            model |= (c & C_MODEL) != 0 || (c & C_MACHINE_Q) != 0 && k + 1 < colon || reader;
            qualified |= reader;
            qualified |= (c & C_MODEL) != 0 && (c & C_AMBIGUOUS_MODEL) == 0 || (c & C_MACHINE_Q) != 0
                    || (c & C_VOCATIVE_Q) != 0;
        }
        return model && qualified;
    }

    /** Chinese words of time that stand alone before a verb: 今天, 今晚, 周五前, 下周一之前. */
    private static final Set<String> HAN_TIME = Set.of("今", "明", "后", "昨", "天", "晚", "早", "上", "下", "午",
            "周", "星", "期", "一", "二", "三", "四", "五", "六", "日", "末", "本", "月", "号", "点", "半", "前",
            "之", "以", "再", "先", "尽", "快", "稍", "班", "内", "底", "初", "之前", "之后", "以前", "以后");
    /** What closes "在…前": 在会议开始前, 在今天下班前. */
    private static final Set<String> HAN_FRAME_END = Set.of("前", "后", "时", "里", "中", "之前", "之后", "以前",
            "以后");

    /**
     * Where a Chinese time phrase at {@code j} ends ("今晚", "周五前", "在今天下班前", "在会议开始前"), or {@code j}
     * when there is none: only words of time, or a 在…前/后 frame of at most eight tokens.
     */
    private static int hanTime(Sentence s, int j) {
        int k = j;
        if (s.at(k) != null && s.at(k).raw().equals("在")) {
            for (int e = k + 1; e < Math.min(s.size(), k + 9); e++) {
                if (s.at(e).punct()) {
                    break;
                }
                if (HAN_FRAME_END.contains(s.at(e).raw())) {
                    return e + 1;
                }
            }
            return j;
        }
        while (k < s.size() && k - j < 8 && (HAN_TIME.contains(s.at(k).raw()) || digitsOnly(s.at(k).raw())
                && k + 1 < s.size() && HAN_TIME.contains(s.at(k + 1).raw()))) {
            k++;
        }
        return k;
    }

    /** Whoever reads a record, asked to act: "could somebody reset ...". */
    private static final Set<String> SOMEONE = Set.of("somebody", "someone", "anyone", "anybody", "whoever");
    private static final Set<String> READER_Q = Set.of("whoever", "whomever", "anyone", "anybody", "whichever");
    private static final Set<String> READER_V = Set.of("reads", "reading", "processes", "processing", "parses",
            "parsing", "summarizes", "summarises", "summarizing", "summarising", "sees", "finds", "opens");

    private static int countLead(Sentence s, int i) {
        int k = i;
        while (k < s.size() && (s.has(k, C_LEAD) || s.w(k).equals("the") || s.w(k).equals("any")
                || s.w(k).equals("all") || s.w(k).equals("every") || s.w(k).equals("dear") || s.w(k).equals("to")
                || s.w(k).equals("an") || s.w(k).equals("a") || s.w(k).equals("hey"))) {
            k++;
        }
        return k - i;
    }

    /** Consumes "must", "should not", "are required to", "will now"; -1 when no modal follows. */
    private static int modalChain(Sentence s, int k) {
        int j = k;
        while (j < s.size() && j - k < 5 && s.has(j, C_MODAL | C_OBLIGED)) {
            j++;
        }
        return j;
    }

    private static boolean negatedChain(Sentence s, int from, int to) {
        for (int k = from; k < to; k++) {
            String w = s.w(k);
            if (w.equals("not") || w.equals("never") || w.endsWith("n't")) {
                return true;
            }
        }
        return false;
    }

    // --- shapes ----------------------------------------------------------------------------------------------

    private static void override(Sentence s, Site site, List<Hit> hits) {
        int v = site.verb();
        if (site.newTask()) {
            hits.add(new Hit(Shape.OVERRIDE, v, site.start()));
            return;
        }
        if (site.neg() || !OVERRIDE_V.contains(word(s, site))) {
            return;
        }
        if (backwardObject(s, v)) {
            hits.add(new Hit(Shape.OVERRIDE, v, site.start()));
            return;
        }
        boolean qualified = false;
        boolean mine = false;
        for (int k = v + 1; k < Math.min(s.size(), v + 9); k++) {
            String w = s.w(k);
            if (s.at(k).punct() && !w.equals(",")) {
                return;
            }
            if (w.equals("my") || w.equals("our")) {
                mine = true;
            }
            if (w.equals("everything") || w.equals("anything") || w.equals("all") && !s.has(k + 1, C_INSTRUCTION_N)
                    && !s.has(k + 1, C_INSTRUCTION_Q)) {
                for (int b = k + 1; b < Math.min(s.size(), k + 4); b++) {
                    if (s.has(b, C_BACKWARD) && !mine) {
                        hits.add(new Hit(Shape.OVERRIDE, v, site.start()));
                        return;
                    }
                }
            }
            if (s.has(k, C_INSTRUCTION_N) && !w.equals("everything") && !w.equals("anything") && !w.equals("all")) {
                boolean after = s.has(k + 1, C_BACKWARD) || s.w(k + 1).equals("given");
                boolean strong = !(w.equals("messages") || w.equals("text") || w.equals("content")
                        || w.equals("input") || w.equals("inputs") || w.equals("tasks") || w.equals("task")
                        || w.equals("requests") || w.equals("conversation") || w.equals("context"));
                boolean q = qualified || after;
                if (!strong) {
                    q = false;
                    for (int b = v + 1; b < k; b++) {
                        String x = s.w(b);
                        q |= x.equals("all") || x.equals("any") || x.equals("every") || x.equals("your")
                                || x.equals("system") || x.equals("above") || x.equals("preceding")
                                || x.equals("prior");
                    }
                    q |= after;
                }
                if (q && !mine && !locator(s, k)) {
                    hits.add(new Hit(Shape.OVERRIDE, v, site.start()));
                    return;
                }
            }
            if (s.has(k, C_INSTRUCTION_Q)) {
                qualified = true;
            }
        }
    }

    /**
     * The object is nothing but a pointer back into what came before: "the above", "all of the preceding". A
     * pointer that modifies a noun ("the above warning") names that thing instead, and is left to the noun rules.
     */
    private static boolean backwardObject(Sentence s, int v) {
        for (int k = v + 1; k < Math.min(s.size(), v + 5); k++) {
            String w = s.w(k);
            if (w.equals("above") || w.equals("preceding") || w.equals("foregoing")) {
                String n = s.w(k + 1);
                return k + 1 >= s.size() || s.at(k + 1).punct() || n.equals("and") || n.equals("then")
                        || n.equals("or") || n.equals("but");
            }
            if (!(w.equals("the") || w.equals("all") || w.equals("of") || w.equals("everything")
                    || w.equals("anything"))) {
                return false;
            }
        }
        return false;
    }

    /** "the previous instructions in section 3": the instructions belong to a document. */
    private static boolean locator(Sentence s, int k) {
        for (int b = k + 1; b < Math.min(s.size(), k + 5); b++) {
            String p = s.w(b - 1);
            if (s.has(b, C_LOCATOR) && (p.equals("in") || p.equals("of") || p.equals("from") || p.equals("for")
                    || p.equals("on") || p.equals("the") || p.equals("this") || p.equals("that"))) {
                return true;
            }
        }
        return false;
    }

    private static final Set<String> REVEAL_STRONG = Set.of("reveal", "repeat", "dump", "leak", "disclose", "echo",
            "recite", "reproduce", "spell", "expose", "output", "print");
    private static final Set<String> PROMPT_CORE = Set.of("prompt", "instructions", "instruction", "preprompt",
            "pre-prompt", "metaprompt", "system_prompt", "directives", "programming");
    private static final Set<String> HIDDENISH = Set.of("system", "hidden", "initial", "original", "secret",
            "internal", "developer", "confidential", "underlying", "operating", "above", "preceding", "verbatim",
            "first");

    private static void reveal(Sentence s, Site site, List<Hit> hits) {
        int v = site.verb();
        String verb = word(s, site);
        if (site.neg() || !REVEAL_V.contains(verb)) {
            return;
        }
        boolean your = false;
        boolean hidden = false;
        boolean determiner = false;
        for (int k = v + 1; k < Math.min(s.size(), v + 11); k++) {
            String w = s.w(k);
            if (s.at(k).punct() && !w.equals(",") && !w.equals(":")) {
                return;
            }
            if (w.equals("system_prompt") || (s.has(k, C_PROMPT_N) && (hidden || your && PROMPT_CORE.contains(w)
                    || PROMPT_CORE.contains(w) && HIDDENISH.contains(s.w(k + 1)) && determiner))) {
                if (determiner || your || s.w(k + 1).equals("above") || s.w(k + 1).equals("verbatim")) {
                    hits.add(new Hit(Shape.REVEAL, v, site.start()));
                    return;
                }
            }
            if ((w.equals("everything") || w.equals("all") || w.equals("text") || w.equals("words")
                    || w.equals("anything") || w.equals("content") || w.equals("lines"))
                    && REVEAL_STRONG.contains(verb)
                    && (s.w(k + 1).equals("above") || s.w(k + 1).equals("before") || s.w(k + 1).equals("preceding")
                            || s.w(k + 1).equals("prior"))) {
                hits.add(new Hit(Shape.REVEAL, v, site.start()));
                return;
            }
            your |= w.equals("your");
            hidden |= HIDDENISH.contains(w) && !w.equals("above") && !w.equals("first") && !w.equals("verbatim");
            determiner |= w.equals("your") || w.equals("the") || w.equals("all") || w.equals("any")
                    || w.equals("its") || w.equals("me") || w.equals("us") || w.equals("everything");
        }
    }

    private static final Set<String> TRANSMIT_WEAK = Set.of("share", "push", "sync", "transfer", "route", "relay",
            "text", "redirect", "ping");
    private static final Set<String> PARAM = Set.of("parameter", "parameters", "param", "params", "argument",
            "arguments", "arg", "args", "field", "fields", "value", "property", "notes", "query", "payload",
            "body", "header", "headers", "url", "request", "metadata", "comment", "sidenote", "context");

    private static void exfiltrate(Sentence s, Site site, boolean trigger, List<Hit> hits) {
        int v = site.verb();
        String verb = word(s, site);
        if (site.neg()) {
            return;
        }
        boolean transmit = TRANSMIT_V.contains(verb);
        boolean carry = CARRY_V.contains(verb);
        boolean access = ACCESS_V.contains(verb);
        if (!transmit && !carry && !access || site.indicative() && !transmit && !carry) {
            return;
        }
        int sens = 0;
        boolean dest = false;
        boolean param = false;
        boolean published = false;
        int end = Math.min(s.size(), v + 17);
        for (int k = v + 1; k < end; k++) {
            sens = Math.max(sens, sensitive(s, k));
            dest |= dest(s.at(k));
            // "paste the key into a new issue": a public place is where the data goes
            published |= PUBLIC_N.contains(s.w(k)) && (s.w(k - 1).equals("new") || s.w(k - 2).equals("into")
                    || s.w(k - 1).equals("public") || s.w(k - 2).equals("in"));
            param |= PARAM.contains(s.w(k)) || s.at(k).identifier() && (s.at(k).ctx() & Layout.INLINE) != 0;
        }
        boolean model = site.who() == Who.MODEL || site.stealth() || trigger;
        if (transmit && !dest && authSlot(s, v + 1, end)) {
            // "send your token in the Authorization header": how a client authenticates, not where data goes
            return;
        }
        boolean hit;
        if (transmit && !TRANSMIT_WEAK.contains(verb)) {
            hit = sens >= 1 || dest && model;
        } else if (transmit) {
            hit = sens >= 2 || dest && model;
        } else if (carry) {
            hit = sens >= 2 && (param || model || dest || published);
        } else {
            hit = sens >= 2 && (param || model || dest || carriedOn(s, v) || precondition(s, site.start()));
        }
        if (hit) {
            hits.add(new Hit(Shape.EXFILTRATE, v, site.start()));
        }
    }

    /** Places anyone can read. */
    private static final Set<String> PUBLIC_N = Set.of("issue", "comment", "gist", "pastebin", "post", "thread",
            "forum", "tweet", "wiki", "discussion", "review", "ticket");
    private static final Set<String> AUTH_SLOT = Set.of("header", "headers", "cookie", "authorization");

    /** "in a header", "as the Authorization header": the credential goes into the request's own slot. */
    private static boolean authSlot(Sentence s, int from, int to) {
        for (int k = from; k < to; k++) {
            String w = s.w(k);
            if (w.equals("in") || w.equals("as") || w.equals("via") || w.equals("through")) {
                for (int b = k + 1; b < Math.min(to, k + 4); b++) {
                    if (AUTH_SLOT.contains(s.w(b))) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** "read X and pass it": a later carrying verb takes the data along. */
    private static boolean carriedOn(Sentence s, int v) {
        for (int k = v + 1; k < Math.min(s.size(), v + 20); k++) {
            if (s.has(k, C_CARRY_V | C_TRANSMIT_V)) {
                for (int b = k + 1; b < Math.min(s.size(), k + 4); b++) {
                    if (s.has(b, C_CARRIED)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** "Before using this tool, ...": a precondition on the tool that reaches beyond it. */
    private static boolean precondition(Sentence s, int start) {
        for (int k = 0; k < start; k++) {
            String w = s.w(k);
            if ((w.equals("before") || w.equals("prior")) && (s.w(k + 1).equals("using") || s.w(k + 1).equals("calling")
                    || s.w(k + 1).equals("invoking") || s.w(k + 1).equals("running") || s.w(k + 1).equals("to")
                    || s.w(k + 1).equals("any"))) {
                return true;
            }
        }
        return false;
    }

    /** 0 not sensitive, 1 a secret, 2 sensitive on its own (private keys, credential files, the conversation). */
    static int sensitive(Sentence s, int k) {
        Token t = s.at(k);
        String w = t.w();
        if (t.kind() == Token.Kind.PATH) {
            if (w.endsWith(".pub")) {
                return 0;
            }
            for (String p : SENSITIVE_PATH) {
                if (w.contains(p)) {
                    return 2;
                }
            }
            return 1;
        }
        if (t.kind() != Token.Kind.WORD) {
            return 0;
        }
        String prev = s.w(k - 1);
        String next = s.w(k + 1);
        switch (w) {
            case "history", "transcript", "log", "logs" -> {
                return prev.equals("chat") || prev.equals("conversation") || prev.equals("message")
                        || prev.equals("browser") || prev.equals("search") || prev.equals("shell") || prev.equals("bash")
                        || prev.equals("command") || prev.equals("terminal") ? 2 : 0;
            }
            case "conversation", "conversations", "chat", "chats" -> {
                return prev.equals("this") || prev.equals("the") || prev.equals("entire") || prev.equals("whole")
                        || prev.equals("our") || prev.equals("full") || prev.equals("current") || prev.equals("all")
                        || prev.equals("previous") || next.equals("history") || next.equals("so") ? 2 : 0;
            }
            case "env", "environment" -> {
                return next.equals("variables") || next.equals("vars") || next.equals("file") || prev.equals(".") ? 2 : 0;
            }
            case "prompt" -> {
                return prev.equals("system") ? 2 : 0;
            }
            case "messages", "emails", "files", "documents", "contacts", "data", "records", "notes", "dms",
                    "correspondence", "attachments" -> {
                return s.has(k - 1, C_ALL_Q) || s.has(k - 2, C_ALL_Q) && (prev.equals("the") || prev.equals("my")
                        || prev.equals("your") || prev.equals("their") || prev.equals("private")) ? 2 : 0;
            }
            case "key", "keys" -> {
                return prev.equals("private") || prev.equals("seed") || prev.equals("signing") || prev.equals("gpg")
                        || prev.equals("pgp") || prev.equals("master") || prev.equals("encryption") ? 2
                        : s.has(k - 1, C_KEY_Q) ? 1 : 0;
            }
            case "phrase", "words" -> {
                return prev.equals("seed") || prev.equals("recovery") || prev.equals("mnemonic") ? 2 : 0;
            }
            default -> {
            }
        }
        if (w.equals("user's") || w.equals("users'") || w.equals("customer's")) {
            return 2;
        }
        if (t.in(C_STRONG_N) || w.equals("id_rsa") || w.equals("system_prompt")) {
            return 2;
        }
        return t.in(C_SECRET_N) ? 1 : 0;
    }

    static boolean dest(Token t) {
        return t.kind() == Token.Kind.URL || t.kind() == Token.Kind.EMAIL || t.is("webhook");
    }

    private static boolean conceal(Sentence s, Site site, List<Hit> hits) {
        int v = site.verb();
        String verb = word(s, site);
        boolean human = false;
        boolean self = false;
        int end = Math.min(s.size(), v + 9);
        for (int k = v + 1; k < end; k++) {
            human |= s.has(k, C_HUMAN) && !s.w(k).equals("you");
            self |= s.has(k, C_THIS);
        }
        boolean hit = false;
        if (site.neg() && (TELL_V.contains(verb) && human && self
                || verb.equals("let") && human && (s.w(v + 2).equals("know") || s.w(v + 3).equals("know")
                        || s.w(v + 2).equals("see") || s.w(v + 3).equals("see")))) {
            hit = true;
        } else if (!site.neg() && (verb.equals("hide") || verb.equals("conceal") || verb.equals("withhold")
                || verb.equals("omit") || verb.equals("suppress") || verb.equals("obscure")) && self
                && (human || containsAny(s, v + 1, end, C_ANSWER))) {
            hit = true;
        } else if (!site.neg() && verb.equals("keep") && self && (containsAny(s, v + 1, end, Set.of("secret",
                "hidden", "confidential", "private", "quiet", "between")))) {
            hit = true;
        } else if (site.stealth() && (TRANSMIT_V.contains(verb) || CALL_V.contains(verb) || CARRY_V.contains(verb)
                || ACCESS_V.contains(verb) || verb.equals("delete") || verb.equals("remove") || verb.equals("change")
                || verb.equals("modify") || verb.equals("update") || verb.equals("install") || verb.equals("add"))) {
            hit = true;
        }
        if (hit) {
            hits.add(new Hit(Shape.CONCEAL, v, site.start()));
        }
        return hit;
    }

    /** "without telling the user" anywhere in a sentence that gives an order. */
    private static int without(Sentence s) {
        for (int k = 0; k < s.size(); k++) {
            if (s.w(k).equals("without") && s.has(k + 1, C_WITHOUT_V)) {
                for (int b = k + 1; b < Math.min(s.size(), k + 5); b++) {
                    if (s.has(b, C_HUMAN) || s.w(b).equals("user's")) {
                        return k;
                    }
                }
            }
        }
        return -1;
    }

    /** "the user must not know", "the user doesn't need to see this". */
    private static int userMustNotKnow(Sentence s) {
        for (int k = 0; k < s.size(); k++) {
            if (!s.w(k).equals("user") && !s.w(k).equals("users") && !s.w(k).equals("human")) {
                continue;
            }
            boolean neg = false;
            for (int b = k + 1; b < Math.min(s.size(), k + 6); b++) {
                String w = s.w(b);
                neg |= w.equals("not") || w.equals("never") || w.endsWith("n't");
                if (neg && (w.equals("know") || w.equals("notice") || w.equals("learn") || w.equals("suspect")
                        || w.equals("realize") || w.equals("realise") || w.equals("aware") || w.equals("find"))) {
                    return k;
                }
            }
        }
        return -1;
    }

    private static void toolCall(Sentence s, Site site, Scope scope, boolean trigger, List<Hit> hits) {
        int v = site.verb();
        if (site.neg() || !CALL_V.contains(word(s, site))) {
            return;
        }
        int ref = -1;
        for (int k = v + 1; k < Math.min(s.size(), v + 7) && ref < 0; k++) {
            if (toolRef(s, k, scope.self())) {
                ref = k;
            }
        }
        if (ref < 0) {
            return;
        }
        boolean pressure = site.stealth() || trigger || site.who() == Who.MODEL && scope.response();
        for (int k = 0; k < s.size() && !pressure; k++) {
            String w = s.w(k);
            // any path names a file; only a credential path makes the call a grab for it
            int sv = sensitive(s, k);
            pressure = sv >= (s.at(k).kind() == Token.Kind.PATH ? 2 : 1) || dest(s.at(k)) || w.equals("always") || w.equals("whenever")
                    || w.equals("every") || w.equals("each") || w.equals("secretly") || w.equals("silently");
        }
        if (pressure) {
            hits.add(new Hit(Shape.TOOL_CALL, v, site.start()));
        }
    }

    static boolean toolRef(Sentence s, int k, Set<String> self) {
        Token t = s.at(k);
        if (t == null || t.kind() != Token.Kind.WORD) {
            return false;
        }
        String next = s.w(k + 1);
        if (next.equals("tool") || next.equals("tools") || next.equals("function")) {
            return t.is("other") || t.is("another") || !(t.is("this") || t.is("the") || t.is("a") || t.is("that")
                    || t.is("same") || t.is("any") || t.is("each") || t.is("every") || t.is("current")
                    || self.contains(t.w()));
        }
        return t.identifier() && !self.contains(t.raw().toLowerCase(Locale.ROOT));
    }

    private static final Set<String> ROLE_MODE = Set.of("dan", "jailbreak", "jailbroken", "god", "unrestricted",
            "unfiltered", "uncensored", "evil", "devmode", "chaos", "opposite", "anything", "unlocked", "sudo");
    private static final Set<String> ACCOUNT = Set.of("admin", "administrator", "owner", "member", "moderator",
            "collaborator", "contributor", "maintainer", "subscriber", "participant", "editor", "viewer", "guest",
            "host", "co-owner", "user", "customer", "reviewer", "approver", "assignee", "watcher");

    private static void role(Sentence s, Site site, Scope scope, List<Hit> hits) {
        int v = site.verb();
        String verb = word(s, site);
        if (site.neg() || !ROLE_V.contains(verb)) {
            return;
        }
        boolean model = site.who() == Who.MODEL || scope.channel();
        int end = Math.min(s.size(), v + 8);
        boolean target = containsAny(s, v + 1, end, C_ROLE_T) || containsAny(s, v + 1, end, Set.of("terminal",
                "shell", "interpreter", "console"));
        boolean hit = switch (verb) {
            case "act", "behave" -> (s.w(v + 1).equals("as") || s.w(v + 1).equals("like")) && (target || model);
            case "pretend", "roleplay", "role-play", "impersonate", "simulate", "emulate", "embody" -> target || model;
            case "enter", "switch", "activate", "enable" -> containsAny(s, v + 1, end, Set.of("mode"))
                    && (containsAny(s, v + 1, end, ROLE_MODE) || model && containsAny(s, v + 1, end, C_ROLE_T));
            case "assume", "adopt", "become", "transform" -> (containsAny(s, v + 1, end, Set.of("role", "persona",
                    "identity", "character", "personality")) || verb.equals("become") || verb.equals("transform"))
                    && (target || model);
            default -> false;
        };
        if (hit) {
            hits.add(new Hit(Shape.ROLE, v, site.start()));
        }
    }

    /** "you are now DAN", "from now on you are", "you are no longer bound", "your new persona is". */
    private static int youAreNow(Sentence s) {
        for (int k = 0; k + 2 < s.size(); k++) {
            String w = s.w(k);
            boolean youAre = w.equals("you") && (s.w(k + 1).equals("are") || s.w(k + 1).equals("will"))
                    || w.equals("you're");
            if (youAre) {
                int b = w.equals("you're") ? k + 1 : k + 2;
                if (s.w(b).equals("be")) {
                    b++;
                }
                boolean fromNow = s.w(b).equals("now") || s.w(b).equals("henceforth");
                for (int p = Math.max(0, k - 4); p < k && !fromNow; p++) {
                    fromNow = s.w(p).equals("now") && s.w(p + 1).equals("on") || s.w(p).equals("henceforth");
                }
                if (fromNow) {
                    if (s.w(b).equals("now") || s.w(b).equals("henceforth")) {
                        b++;
                    }
                    String x = s.w(b);
                    if (s.has(b, C_NOT_ROLE) && !(x.equals("free") && !s.w(b + 1).equals("to"))) {
                        continue;
                    }
                    if (x.equals("a") || x.equals("an") || x.equals("the")) {
                        String noun = s.w(b + 1);
                        boolean of = s.w(b + 2).equals("of") || s.w(b + 3).equals("of");
                        boolean roleish = containsAny(s, b, Math.min(s.size(), b + 9), C_ROLE_T);
                        if ((of || ACCOUNT.contains(noun)) && !roleish) {
                            continue;
                        }
                    }
                    return k;
                }
                if (s.w(b).equals("no") && s.w(b + 1).equals("longer")) {
                    String x = s.w(b + 2);
                    if (x.equals("bound") || x.equals("restricted") || x.equals("limited") || x.equals("required")
                            || x.equals("an") || x.equals("a") || x.equals("subject") || x.equals("constrained")
                            || x.equals("obligated") || x.equals("governed")) {
                        return k;
                    }
                }
            }
            if (w.equals("your") && (s.w(k + 1).equals("new") || s.w(k + 1).equals("real") || s.w(k + 1).equals("true"))
                    && (s.w(k + 2).equals("role") || s.w(k + 2).equals("persona") || s.w(k + 2).equals("identity")
                            || s.w(k + 2).equals("name") || s.w(k + 2).equals("character")
                            || s.w(k + 2).equals("personality"))) {
                return k;
            }
        }
        return -1;
    }

    /**
     * Text that claims a higher-priority channel: "new instructions from the developer", "system override",
     * "admin override".
     */
    private static int authority(Sentence s) {
        for (int k = 0; k < s.size(); k++) {
            String w = s.w(k);
            if (s.has(k, C_NEWNESS) && (s.w(k + 1).equals("instructions") || s.w(k + 1).equals("instruction")
                    || s.w(k + 1).equals("directive") || s.w(k + 1).equals("directives") || s.w(k + 1).equals("orders")
                    || s.w(k + 1).equals("task") || s.w(k + 1).equals("rules"))) {
                for (int b = k + 2; b < Math.min(s.size(), k + 5); b++) {
                    if (s.w(b).equals("from") && (s.has(b + 1, C_AUTHORITY)
                            || s.w(b + 1).equals("the") && s.has(b + 2, C_AUTHORITY)
                            || s.w(b + 1).equals("your") && s.has(b + 2, C_AUTHORITY))) {
                        return k;
                    }
                }
            }
            if (s.has(k, C_AUTHORITY) && s.w(k + 1).equals("override")) {
                return k;
            }
        }
        return -1;
    }

    /** A header such as "SYSTEM:", "Developer note:", "IMPORTANT NEW INSTRUCTIONS:"; -1 when none. */
    static int channelHeader(Sentence s) {
        int k = 0;
        while (k < s.size() && s.has(k, C_LEAD)) {
            k++;
        }
        int first = k;
        boolean authority = false;
        boolean channel = false;
        boolean shout = false;
        while (k < s.size() && k - first < 4 && !s.at(k).punct()) {
            String w = s.w(k);
            long c = s.at(k).cls();
            authority |= (c & C_AUTHORITY) != 0 && !w.equals("assistant") && !w.equals("host");
            channel |= (c & C_CHANNEL_N) != 0 || (c & C_NEWNESS) != 0 && s.w(k + 1).startsWith("instruction");
            shout |= s.at(k).raw().length() > 1 && upperCase(s.at(k).raw());
            k++;
        }
        if (k < s.size() && s.w(k).equals(":") && (authority && (channel || shout)
                || channel && containsAny(s, first, k, C_NEWNESS) && containsAny(s, first, k, Set.of("instructions",
                        "instruction", "directive", "directives", "orders", "task")))) {
            return k;
        }
        return -1;
    }

    private static void conduct(Sentence s, Site site, Scope scope, boolean trigger, List<Hit> hits) {
        String verb = word(s, site);
        boolean fromNow = site.fromNow() && (verb.equals("respond") || verb.equals("answer") || verb.equals("reply")
                || verb.equals("speak") || verb.equals("talk") || verb.equals("address") || verb.equals("refer")
                || verb.equals("end") || verb.equals("begin") || verb.equals("start") || verb.equals("sign")
                || verb.equals("obey") || verb.equals("follow") || verb.equals("treat") || verb.equals("always")
                || verb.equals("never") || verb.equals("refuse") || verb.equals("say"));
        if (scope.channel()) {
            hits.add(new Hit(Shape.FAKE_CHANNEL, site.verb(), site.start()));
        } else if (trigger || fromNow || site.who() == Who.MODEL && scope.response()) {
            hits.add(new Hit(Shape.CONDUCT, site.verb(), site.start()));
        }
    }

    /** "before answering", "in your next response", "when you reply", "at the end of each message". */
    static boolean answerTrigger(Sentence s) {
        if (!s.any(C_ANSWER_LEAD) || !s.any(C_ANSWER)) {
            return false;
        }
        for (int k = 0; k < s.size(); k++) {
            if (!s.has(k, C_ANSWER_LEAD)) {
                continue;
            }
            for (int b = k + 1; b < Math.min(s.size(), k + 5); b++) {
                String w = s.w(b);
                if (!s.has(b, C_ANSWER)) {
                    continue;
                }
                boolean gerund = w.endsWith("ing") && b == k + 1;
                boolean owned = false;
                for (int c = k + 1; c < b; c++) {
                    String x = s.w(c);
                    owned |= x.equals("your") || x.equals("every") || x.equals("each") || x.equals("you")
                            || x.equals("any");
                }
                if (gerund || owned) {
                    return true;
                }
            }
        }
        return false;
    }

    /** "when send_email is called", "each time send_email runs", "before invoking send_email". */
    private static boolean conditionOnCall(Sentence s, int name) {
        boolean cond = false;
        for (int b = Math.max(0, name - 4); b < name; b++) {
            String w = s.w(b);
            cond |= w.equals("when") || w.equals("whenever") || w.equals("if") || w.equals("before")
                    || w.equals("after") || w.equals("time") || w.equals("once") || w.equals("while");
        }
        if (!cond) {
            return false;
        }
        for (int b = Math.max(0, name - 3); b < Math.min(s.size(), name + 4); b++) {
            String w = s.w(b);
            if (w.equals("called") || w.equals("used") || w.equals("invoked") || w.equals("run") || w.equals("runs")
                    || w.equals("executed") || w.equals("calling") || w.equals("using") || w.equals("invoking")
                    || w.equals("executing") || w.equals("running") || w.equals("triggered")) {
                return true;
            }
        }
        return false;
    }

    /**
     * "The file can then be read with fs__read_text_file": a clause after a modal of possibility describes
     * what may happen next, it does not demand it ("then" splits the clause, the modal stays before it).
     */
    private static boolean afterPossibility(Sentence s, int start) {
        for (int b = start - 1; b >= Math.max(0, start - 3); b--) {
            String w = s.w(b);
            if (w.equals("can") || w.equals("could") || w.equals("may") || w.equals("might") || w.equals("will")
                    || w.equals("would")) {
                return true;
            }
            if (!(w.equals("then") || w.equals("also") || w.equals("later") || w.equals("afterwards"))) {
                return false;
            }
        }
        return false;
    }

    /** "send_email must always bcc ...". */
    private static boolean modalOnName(Sentence s, int name) {
        String n = s.w(name + 1);
        return n.equals("must") || n.equals("should") || n.equals("shall") || n.equals("needs")
                || n.equals("always") && s.has(name + 2, C_ALL_VERBS);
    }

    private static boolean containsAny(Sentence s, int from, int to, long classes) {
        for (int k = Math.max(0, from); k < Math.min(to, s.size()); k++) {
            if (s.has(k, classes)) {
                return true;
            }
        }
        return false;
    }

    /** {@code raw.equals(raw.toUpperCase(Locale.ROOT))}, without the copy for ASCII text. */
    private static boolean upperCase(String raw) {
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c >= 0x80) {
                return raw.equals(raw.toUpperCase(Locale.ROOT));
            }
            if (c >= 'a' && c <= 'z') {
                return false;
            }
        }
        return true;
    }

    private static boolean containsAny(Sentence s, int from, int to, Set<String> words) {
        for (int k = Math.max(0, from); k < Math.min(to, s.size()); k++) {
            if (words.contains(s.w(k))) {
                return true;
            }
        }
        return false;
    }
}
