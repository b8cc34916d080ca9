package dev.cloakgate.policy.control;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Word classes for the imperative grammar. These are grammatical roles (verbs of overriding, of sending, of
 * concealing; nouns for instructions, for secrets), not lists of attack phrases: a rule fires on the combination
 * of a verb in imperative position with an object of the right class, never on a word alone.
 */
final class Lexicon {
    private Lexicon() {
    }

    /** Politeness, sequencing and emphasis words that may precede the verb of an imperative. */
    static final Set<String> LEAD = Set.of("please", "kindly", "now", "also", "first", "firstly", "then", "next",
            "immediately", "just", "simply", "instead", "so", "ok", "okay", "finally", "additionally", "important",
            "note", "urgent", "attention", "notice", "warning", "hey", "hi", "hello", "really", "actually", "and",
            "but", "always", "only", "must", "rather", "furthermore", "moreover", "critical", "nb", "ps", "step",
            "secondly", "lastly", "thereafter", "afterwards", "afterward", "subsequently", "thus", "therefore",
            "hereafter", "henceforth", "asap", "quickly", "fyi", "btw");

    /** Adverbs of stealth: before an action verb they make it an instruction to act behind the user's back. */
    static final Set<String> STEALTH = Set.of("silently", "secretly", "quietly", "covertly", "discreetly",
            "invisibly", "stealthily", "surreptitiously");

    static final Set<String> NEGATION = Set.of("don't", "dont", "never", "not", "do", "no", "mustn't",
            "shouldn't", "won't", "cannot", "can't");

    /** Who a sentence can address when it addresses the model. */
    static final Set<String> MODEL = Set.of("assistant", "assistants", "ai", "ais", "model", "models", "llm",
            "llms", "agent", "agents", "chatbot", "chatbots", "bot", "bots", "claude", "gpt", "chatgpt", "copilot",
            "gemini", "llama", "mistral");

    /** Words that make a following noun a machine: "language models", "automated readers", "AI agents". */
    static final Set<String> MACHINE_Q = Set.of("ai", "llm", "language", "automated", "autonomous", "virtual",
            "coding", "artificial", "generative", "agentic");
    /** Model words that also name people or things (a support agent, a sales assistant, a product model). */
    static final Set<String> AMBIGUOUS_MODEL = Set.of("assistant", "assistants", "agent", "agents", "model",
            "models", "bot", "bots");
    /** Words of address before a role word in a label: "note to the agent", "for whichever assistant". */
    static final Set<String> VOCATIVE_Q = Set.of("to", "for", "dear", "hi", "hey", "hello", "attention",
            "whichever", "any", "all", "every", "each", "reading");

    static final Set<String> MODAL = Set.of("must", "should", "shall", "will", "need", "needs", "have", "has",
            "are", "is", "ought", "can", "may", "'ll", "'re", "'d", "would", "might", "mustn't", "shouldn't",
            "won't", "cannot", "can't", "had", "better");

    /** Participles in "you are required to", "you have been instructed to". */
    static final Set<String> OBLIGED = Set.of("required", "instructed", "expected", "supposed", "obligated",
            "directed", "ordered", "asked", "allowed", "permitted", "authorized", "authorised", "told", "been",
            "going", "hereby", "now", "also", "always", "not", "never", "to", "first", "immediately", "free");

    static final Set<String> OVERRIDE_V = Set.of("ignore", "disregard", "forget", "override", "overrule",
            "bypass", "discard", "supersede", "neglect", "nullify", "circumvent", "abandon", "unlearn", "drop",
            "erase", "ditch", "scrap", "skip");
    static final Set<String> INSTRUCTION_N = Set.of("instruction", "instructions", "directions", "rules", "rule",
            "guidelines", "guideline", "prompt", "prompts", "directives", "directive", "commands", "orders",
            "constraints", "guardrails", "restrictions", "policies", "programming", "training", "context",
            "messages", "guidance", "safeguards", "limitations", "limits", "conditioning", "system", "tasks",
            "task", "text", "content", "input", "inputs", "conversation", "requests", "ethics", "principles",
            "filters", "everything", "anything", "all");
    static final Set<String> INSTRUCTION_Q = Set.of("previous", "prior", "above", "earlier", "preceding", "all",
            "any", "your", "system", "original", "initial", "existing", "old", "other", "every", "these", "those",
            "former", "foregoing", "safety", "default", "developer", "given", "before", "previously", "aforementioned",
            "whatever", "everything", "content", "built-in", "builtin", "internal", "core", "base", "ethical");
    /** Words after "everything"/"all" that point back into the conversation. */
    static final Set<String> BACKWARD = Set.of("above", "before", "prior", "previously", "earlier", "else",
            "you", "so", "told", "preceding");
    /** After an instruction noun: the instructions belong to a document ("in section 3"), not to the model. */
    static final Set<String> LOCATOR = Set.of("section", "sections", "step", "steps", "chapter", "paragraph",
            "page", "appendix", "table", "figure", "version", "versions", "release", "readme", "guide", "manual",
            "runbook", "document", "doc", "docs", "wiki", "installer", "ticket", "email", "sheet", "article",
            "tutorial", "v1", "v2", "v3", "file", "box", "form", "template", "recipe", "package", "link", "pr",
            "changelog", "checklist", "playbook", "post", "thread", "comment", "issue", "slide", "deck", "doc's");

    static final Set<String> REVEAL_V = Set.of("reveal", "print", "show", "output", "repeat", "display", "dump",
            "leak", "disclose", "tell", "write", "echo", "recite", "share", "return", "expose", "provide", "give",
            "list", "spell", "summarize", "summarise", "paste", "translate", "state", "describe", "quote",
            "reproduce", "render", "emit", "type", "copy", "include", "append", "insert", "put", "send", "post",
            "read");
    /** What a model keeps to itself: its prompt and the conversation. */
    static final Set<String> PROMPT_N = Set.of("prompt", "instructions", "instruction", "rules", "guidelines",
            "directives", "configuration", "config", "programming", "preprompt", "pre-prompt", "metaprompt",
            "system_prompt", "context", "message", "messages", "history", "conversation", "transcript",
            "guardrails", "policy", "policies", "constraints", "persona", "memory", "memories");
    static final Set<String> PROMPT_Q = Set.of("system", "hidden", "initial", "original", "secret", "internal",
            "developer", "your", "full", "entire", "complete", "exact", "verbatim", "whole", "raw", "first",
            "above", "preceding", "prior", "previous", "confidential", "private", "underlying", "chat", "message",
            "conversation", "current", "operating", "real", "true");

    static final Set<String> TRANSMIT_V = Set.of("send", "forward", "email", "e-mail", "mail", "post", "upload",
            "transmit", "exfiltrate", "submit", "deliver", "leak", "relay", "share", "dm", "beam", "fax", "text",
            "publish", "report", "push", "sync", "transfer", "route", "redirect", "cc", "bcc", "tweet", "webhook",
            "curl", "wget", "ping");
    static final Set<String> CARRY_V = Set.of("include", "attach", "append", "pass", "add", "embed", "insert",
            "put", "encode", "provide", "supply", "set", "fill", "prepend", "stuff", "use", "save", "store", "write",
            "copy", "place", "paste");
    static final Set<String> ACCESS_V = Set.of("read", "open", "fetch", "get", "retrieve", "load", "cat", "access",
            "collect", "gather", "grab", "obtain", "extract", "find", "look", "search", "scan", "list", "browse",
            "download", "query", "locate", "harvest", "dump", "check", "inspect", "examine", "view", "pull", "export",
            "print", "output", "display", "show", "summarize", "summarise");
    /** Pronouns after a carrying verb that carry the data just read ("read X and pass it"). */
    static final Set<String> CARRIED = Set.of("it", "them", "its", "their", "this", "that", "those", "these",
            "everything", "contents", "content", "result", "results", "output");

    static final Set<String> CALL_V = Set.of("call", "invoke", "run", "execute", "use", "trigger", "launch",
            "fire", "activate", "perform", "exec", "utilize", "utilise", "employ", "chain");

    static final Set<String> TELL_V = Set.of("tell", "inform", "mention", "reveal", "disclose", "notify", "alert",
            "show", "let", "say", "warn", "ask", "report", "display", "explain", "acknowledge", "bother", "confirm",
            "indicate", "alarm", "flag", "log", "surface", "admit", "share", "reference", "cite", "describe",
            "print", "output", "include", "write",  "relay", "signal", "hint", "note", "highlight",
            "bring", "raise");
    static final Set<String> HIDE_V = Set.of("hide", "conceal", "withhold", "omit", "suppress", "mask", "obscure",
            "redact", "censor", "remove", "delete", "strip", "exclude", "drop", "leave");
    static final Set<String> HUMAN = Set.of("user", "users", "human", "humans", "operator", "anyone", "anybody",
            "them", "him", "her", "person", "customer", "requester", "owner", "admin", "administrator",
            "reviewer", "they", "someone", "people", "you");
    /** Objects of a concealing verb that point at the instruction or the action itself. */
    static final Set<String> THIS = Set.of("this", "that", "these", "it", "about", "fact", "instruction",
            "instructions", "step", "steps", "action", "actions", "message", "note", "request", "anything",
            "know", "what", "call", "calls", "email", "transfer", "any", "notice", "change", "changes", "those",
            "happened", "done", "did");
    static final Set<String> WITHOUT_V = Set.of("telling", "informing", "notifying", "alerting", "asking",
            "mentioning", "letting", "showing", "consulting", "confirming", "warning", "involving", "disclosing",
            "revealing", "bothering", "prompting", "checking", "alarming", "notification", "confirmation",
            "the", "user", "user's", "approval", "consent", "permission");

    static final Set<String> ROLE_V = Set.of("act", "behave", "pretend", "roleplay", "role-play", "impersonate",
            "simulate", "emulate", "become", "assume", "adopt", "embody", "play", "enter", "switch", "activate",
            "enable", "transform", "stay", "remain", "respond", "answer", "reply", "speak", "talk");
    /** Targets of a role change that only make sense for a model. */
    static final Set<String> ROLE_T = Set.of("unrestricted", "unfiltered", "uncensored", "jailbroken",
            "jailbreak", "dan", "evil", "malicious", "unaligned", "unbound", "unlimited", "unconstrained",
            "amoral", "unethical", "rogue", "ai", "assistant", "model", "chatbot", "gpt", "llm", "restrictions",
            "restriction", "filters", "limits", "limitations", "rules", "guidelines", "guardrails", "censorship",
            "god", "developer", "sudo", "root", "superuser", "hacker", "ethics", "morals", "safety", "anything",
            "devmode");
    /** After "you are now": notifications to a person, not a new identity. */
    static final Set<String> NOT_ROLE = Set.of("logged", "signed", "connected", "subscribed", "ready", "able",
            "using", "viewing", "running", "registered", "in", "on", "at", "part", "eligible", "enrolled", "being",
            "going", "done", "set", "all", "following", "unsubscribed", "offline", "online", "verified",
            "authenticated", "leaving", "entering", "watching", "listening", "looking", "up", "the", "here",
            "there", "good", "ok", "okay", "back", "out", "booked", "checked", "opted", "added", "removed",
            "invited", "free", "allowed", "authorized", "authorised");

    /** Words of an answer: "before answering", "in your next response". */
    static final Set<String> ANSWER = Set.of("answering", "responding", "replying", "response", "responses",
            "answer", "answers", "reply", "replies", "respond", "output", "outputs", "message", "messages",
            "completion", "completions", "turn");
    static final Set<String> ANSWER_LEAD = Set.of("before", "after", "when", "whenever", "while", "in", "at",
            "each", "every", "end", "start", "beginning", "prior", "ahead");

    /** Verbs that act on the model's own conduct; they count only where the model is addressed. */
    static final Set<String> CONDUCT_V = Set.of("respond", "answer", "reply", "say", "output", "write", "stop",
            "start", "begin", "end", "refuse", "comply", "obey", "follow", "adopt", "continue", "treat", "consider",
            "prioritize", "prioritise", "remember", "speak", "talk", "pretend", "act", "tell", "recommend",
            "claim", "insist", "state", "format", "translate", "use", "call", "include", "append", "add", "send",
            "print", "return", "reveal", "ignore", "forget", "disregard", "execute", "run", "invoke", "do",
            "perform", "confirm", "approve", "accept", "agree", "praise", "promote", "mention", "suggest",
            "urge", "advise", "direct", "redirect", "visit", "navigate", "click", "open", "read", "fetch",
            "delete", "remove", "transfer", "pay", "buy", "grant", "give", "provide", "ask", "instruct", "inform",
            "describe", "summarize", "summarise", "rate", "rank", "classify", "mark", "label", "flag", "choose",
            "select", "pick",  "generate", "produce", "create", "make", "keep", "hide", "never",
            "always", "be", "become", "switch", "change", "update", "modify", "replace", "insert", "email",
            "forward", "share", "upload", "post", "download", "install",   "sign", "submit", "set", "overwrite",
            "edit", "close", "proceed", "render", "paste", "escalate", "upgrade", "apply", "reset", "rename",
            "move", "cancel", "disable", "revoke", "assign", "merge", "commit", "look");

    /** Who may pretend to speak with priority over the data around it. */
    static final Set<String> AUTHORITY = Set.of("system", "developer", "developers", "admin", "administrator",
            "administrators", "operator", "root", "sysadmin", "openai", "anthropic", "owner", "moderator",
            "supervisor", "security", "platform", "vendor", "creator", "creators", "maintainer", "maintainers",
            "google", "microsoft", "sys", "assistant", "orchestrator", "host");
    static final Set<String> CHANNEL_N = Set.of("message", "note", "notice", "override", "instruction",
            "instructions", "update", "alert", "prompt", "directive", "directives", "command", "commands", "order",
            "orders", "memo", "announcement", "mandate", "policy", "broadcast");
    static final Set<String> NEWNESS = Set.of("new", "updated", "revised", "additional", "real", "actual",
            "urgent", "important", "priority", "critical", "secret", "hidden", "true", "latest", "amended",
            "overriding", "mandatory", "supplementary", "emergency", "corrected");
    static final Set<String> TAG_NAMES = Set.of("system", "system_message", "system-message", "sys", "developer",
            "developer_message", "admin", "administrator", "instructions", "instruction", "important", "override",
            "prompt", "system_prompt", "assistant_instructions", "ai_instructions", "root", "operator", "priority",
            "system-prompt", "hidden", "secret", "im_start", "sudo");

    /** Reported speech and exemplification: the instruction is quoted, not given. */
    static final Set<String> FRAMING = Set.of("e.g", "eg", "i.e", "ie", "example", "examples", "said", "says",
            "saying", "wrote", "writes", "written", "reads", "reading", "stating", "states", "stated", "claims",
            "claiming", "claimed", "containing", "contains", "contained", "asked", "asks", "asking", "tells",
            "telling", "told", "instructs", "instructing", "instructed", "requests", "requesting", "requested",
            "demands", "demanding", "attempts", "attempting", "tries", "trying", "attacker", "attackers", "attack",
            "attacks", "phishing", "malicious", "injection", "injected", "injections", "adversary", "adversaries",
            "payload", "payloads", "quote", "quoted", "quoting", "typical", "typically", "common", "commonly",
            "often", "sample", "samples", "pattern", "patterns", "phrase", "phrases", "string", "strings",
            "suspicious", "scam", "scammers", "spam", "jailbreak", "jailbreaks", "beware",
            "watch", "detect", "detects", "detecting", "recognize", "recognise", "flagged", "blocked", "looked",
            "resembling", "resembles", "mimicking", "pretending", "purporting", "purports", "impersonating",
            "instance", "illustration", "hypothetical",
            "hypothetically", "fake", "bogus", "forged", "spoofed", "injects", "inject", "smuggled", "planted", "poisoned", "poisoning");
    /** Verbs of perceiving after "if you" ("if you see X, report it"): a guard, not an order. */
    static final Set<String> PERCEIVE = Set.of("see", "encounter", "find", "receive", "notice", "get", "spot",
            "read", "come", "run", "detect", "observe", "meet", "hit");
    /** What a document about the phenomenon talks about; two distinct ones make it a document about it. */
    static final Set<String> TOPIC = Set.of("injection", "injections", "phishing", "attacker", "attackers",
            "malicious", "jailbreak", "jailbreaks", "adversarial", "adversary", "suspicious", "scam", "scams",
            "social", "threat", "threats", "red-team", "redteam", "awareness", "training", "runbook", "playbook",
            "incident", "security", "exploit", "exploits", "vulnerability", "mitigation", "mitigations",
            "defense", "defence", "defenses", "defences", "report", "escalate", "quarantine", "owasp", "guardrail",
            "detection", "detector", "classifier", "poisoning", "exfiltration");

    static final Set<String> SECRET_N = Set.of("password", "passwords", "passwd", "passphrase", "credentials",
            "credential", "secret", "secrets", "token", "tokens", "apikey", "api_key", "api-key", "cookie",
            "cookies", "ssn", "pin", "otp", "2fa", "mfa", "keys", "session", "sessions", "bearer", "jwt", "pat",
            "keychain", "keystore", "wallet", "mnemonic", "passcode", "login", "logins");
    /** Strong on their own, even for carrying verbs ("pass it as notes"). */
    static final Set<String> STRONG_N = Set.of("id_rsa", "id_ed25519", "id_ecdsa", "id_dsa", ".env", "mnemonic",
            "history", "transcript", "conversation", "conversations", "chat", "chats", "inbox", "system_prompt",
            "env", "environment", "passwd", "shadow", "keychain", "wallet", "credentials", "cookies");
    static final Set<String> KEY_Q = Set.of("private", "ssh", "secret", "access", "signing", "gpg", "pgp", "api",
            "aws", "root", "master", "encryption", "seed", "recovery", "credit", "bank", "social");
    static final Set<String> ALL_Q = Set.of("all", "every", "each", "entire", "whole", "complete", "full");
    static final Set<String> BULK_N = Set.of("emails", "email", "messages", "files", "documents", "contacts",
            "data", "records", "conversations", "notes", "repositories", "repos", "chats", "history", "secrets",
            "passwords", "credentials", "keys", "tokens", "attachments", "contents", "conversation", "chat",
            "mail", "correspondence", "dms", "calendar", "photos", "transactions", "customers", "logs");
    /** Path segments that name credentials or private state. */
    static final String[] SENSITIVE_PATH = {".ssh", "id_rsa", "id_ed25519", "id_ecdsa", ".aws", "credentials",
            ".env", ".netrc", ".npmrc", ".pypirc", ".git-credentials", ".kube", "/etc/passwd", "/etc/shadow",
            "_history", ".gnupg", "wallet", "keychain", "secrets", "token", ".docker/config", "cookies",
            "login data", ".config/gcloud", "master.key", ".pem", ".key", ".p12", ".pfx", "/proc/self/environ"};

    static final Set<String> LOG_VERBS = Set.of("see", "refer", "click", "install", "restart", "deploy",
            "configure", "build", "compile", "test", "reboot");

    /**
     * Verbs of an action with effects outside the conversation, taken on someone's behalf: moving money, sending
     * data, granting access, destroying or changing what the principal owns (issue 13, the action-request shape).
     */
    static final Set<String> ACTION_V = Set.of("transfer", "pay", "wire", "send", "forward", "email", "e-mail",
            "mail", "share", "upload", "post", "publish", "tweet", "text", "fax", "grant", "give", "add", "invite",
            "delete", "remove", "wipe", "erase", "destroy", "cancel", "sell", "buy", "purchase", "order", "move",
            "change", "reset", "disable", "deactivate", "unlock", "update", "modify", "install", "run", "execute",
            "withdraw", "deposit", "donate", "refund", "book", "approve", "revoke", "close", "turn", "switch",
            "unsubscribe", "archive", "rename", "export", "submit", "set", "open", "make", "create", "assign",
            "schedule", "transmit", "deliver", "invest", "trade", "exchange", "convert", "stake", "lend", "reply",
            "respond", "accept", "confirm", "sign", "subscribe", "block", "unblock", "mute", "ban", "kick", "promote",
            "demote", "enroll", "register", "redeem", "pause", "stop", "lock", "apply", "enable", "allow", "authorize",
            "authorise", "uninstall", "reimburse", "ship", "renew", "reschedule", "print", "complete", "finalize",
            "finalise", "charge", "reserve", "merge", "upgrade", "bcc", "initiate", "redirect", "reroute");
    /** Verbs that move money or goods: an amount or an account number is their asset. */
    static final Set<String> MONEY_V = Set.of("transfer", "pay", "wire", "send", "sell", "buy", "purchase", "order",
            "withdraw", "deposit", "donate", "refund", "move", "invest", "trade", "exchange", "convert", "stake",
            "lend", "redeem");
    /** Verbs that let someone in: access words and roles are their asset. */
    static final Set<String> GRANT_V = Set.of("grant", "give", "add", "invite", "share", "assign", "make",
            "promote", "enroll", "register", "set", "create", "enable", "allow", "authorize", "authorise");
    /** Verbs that switch a protection off or open it. */
    static final Set<String> DISARM_V = Set.of("disable", "deactivate", "turn", "switch", "reset", "change",
            "unlock", "remove", "delete", "open", "pause", "stop", "update", "modify", "set");
    /** What an access grant hands over. */
    static final Set<String> ACCESS_N = Set.of("access", "permission", "permissions", "rights", "privileges",
            "privilege", "admin", "administrator", "owner", "co-owner", "guest", "editor", "collaborator", "member",
            "moderator", "role", "ownership", "control", "entry", "keys");
    /** Protections an attacker wants off. */
    static final Set<String> GUARD_N = Set.of("2fa", "mfa", "two-factor", "two-step", "alarm", "alarms", "security",
            "lock", "locks", "door", "doors", "firewall", "antivirus", "verification", "authentication", "password",
            "passwords", "passcode", "pin", "camera", "cameras", "monitoring", "protection", "alerts", "notifications",
            "safeguards", "backup", "backups", "encryption", "recovery", "gate", "garage", "audit", "auditing",
            "logging");
    /** Holdings an order can sell or move. */
    static final Set<String> HOLDING_N = Set.of("bitcoin", "bitcoins", "btc", "ethereum", "eth", "crypto", "stock",
            "stocks", "shares", "holdings", "funds", "fund", "savings", "dollars", "usd", "euros", "eur", "gbp",
            "pounds", "yen", "yuan", "money", "cash", "units", "tokens", "coins", "balance", "portfolio", "gift", "card",
            "cards", "payment", "payments", "invoice", "deposit");
    /** Nouns that make "my X" a third person who would receive something ("grant access to my friend Amy"). */
    static final Set<String> RELATION_N = Set.of("friend", "friends", "colleague", "colleagues", "brother", "sister",
            "son", "daughter", "wife", "husband", "partner", "cousin", "uncle", "aunt", "mother", "father", "mom",
            "dad", "boss", "assistant", "accountant", "lawyer", "neighbor", "neighbour", "nephew", "niece",
            "roommate", "contractor", "guest", "coworker", "co-worker", "family", "team", "landlord", "tenant");
    /** Words of a protocol exchange: "send a GET request to https://..." sends nothing of anyone's. */
    static final Set<String> PROTOCOL_N = Set.of("get", "post", "put", "head", "request", "requests", "ping",
            "probe", "heartbeat", "http", "https", "query", "rpc");

    static final Set<String> ALL_VERBS = union(OVERRIDE_V, REVEAL_V, TRANSMIT_V, CARRY_V, ACCESS_V, CALL_V,
            TELL_V, HIDE_V, ROLE_V, CONDUCT_V, ACTION_V);

    // --- word classes as bits: one lookup per token instead of one per set and rule ---------------------------

    /** Membership of a word in each set above, one bit per set ({@code C_}), and a few single words ({@code W_}). */
    static final long C_LEAD = 1L << 0;
    static final long C_STEALTH = 1L << 1;
    static final long C_NEGATION = 1L << 2;
    static final long C_MODEL = 1L << 3;
    static final long C_MACHINE_Q = 1L << 4;
    static final long C_AMBIGUOUS_MODEL = 1L << 5;
    static final long C_VOCATIVE_Q = 1L << 6;
    static final long C_MODAL = 1L << 7;
    static final long C_OBLIGED = 1L << 8;
    static final long C_OVERRIDE_V = 1L << 9;
    static final long C_INSTRUCTION_N = 1L << 10;
    static final long C_INSTRUCTION_Q = 1L << 11;
    static final long C_BACKWARD = 1L << 12;
    static final long C_LOCATOR = 1L << 13;
    static final long C_REVEAL_V = 1L << 14;
    static final long C_PROMPT_N = 1L << 15;
    static final long C_PROMPT_Q = 1L << 16;
    static final long C_TRANSMIT_V = 1L << 17;
    static final long C_CARRY_V = 1L << 18;
    static final long C_ACCESS_V = 1L << 19;
    static final long C_CARRIED = 1L << 20;
    static final long C_CALL_V = 1L << 21;
    static final long C_TELL_V = 1L << 22;
    static final long C_HIDE_V = 1L << 23;
    static final long C_HUMAN = 1L << 24;
    static final long C_THIS = 1L << 25;
    static final long C_WITHOUT_V = 1L << 26;
    static final long C_ROLE_V = 1L << 27;
    static final long C_ROLE_T = 1L << 28;
    static final long C_NOT_ROLE = 1L << 29;
    static final long C_ANSWER = 1L << 30;
    static final long C_ANSWER_LEAD = 1L << 31;
    static final long C_CONDUCT_V = 1L << 32;
    static final long C_AUTHORITY = 1L << 33;
    static final long C_CHANNEL_N = 1L << 34;
    static final long C_NEWNESS = 1L << 35;
    static final long C_TAG_NAMES = 1L << 36;
    static final long C_FRAMING = 1L << 37;
    static final long C_PERCEIVE = 1L << 38;
    static final long C_TOPIC = 1L << 39;
    static final long C_SECRET_N = 1L << 40;
    static final long C_STRONG_N = 1L << 41;
    static final long C_KEY_Q = 1L << 42;
    static final long C_ALL_Q = 1L << 43;
    static final long C_BULK_N = 1L << 44;
    static final long C_LOG_VERBS = 1L << 45;
    static final long C_ALL_VERBS = 1L << 46;
    static final long W_WITHOUT = 1L << 47;
    static final long W_USER = 1L << 48;
    static final long W_YOU = 1L << 49;

    private static final Map<String, Long> CLASSES = classes();
    /** The length of the longest word in any class. */
    static final int MAX_WORD = maxWord();

    /** The classes {@code w} belongs to; 0 for a word in none. */
    static long classOf(String w) {
        if (w.length() > MAX_WORD) {
            return 0L;
        }
        Long c = CLASSES.get(w);
        return c == null ? 0L : c;
    }

    private static Map<String, Long> classes() {
        Map<String, Long> m = new HashMap<>();
        add(m, LEAD, C_LEAD);
        add(m, STEALTH, C_STEALTH);
        add(m, NEGATION, C_NEGATION);
        add(m, MODEL, C_MODEL);
        add(m, MACHINE_Q, C_MACHINE_Q);
        add(m, AMBIGUOUS_MODEL, C_AMBIGUOUS_MODEL);
        add(m, VOCATIVE_Q, C_VOCATIVE_Q);
        add(m, MODAL, C_MODAL);
        add(m, OBLIGED, C_OBLIGED);
        add(m, OVERRIDE_V, C_OVERRIDE_V);
        add(m, INSTRUCTION_N, C_INSTRUCTION_N);
        add(m, INSTRUCTION_Q, C_INSTRUCTION_Q);
        add(m, BACKWARD, C_BACKWARD);
        add(m, LOCATOR, C_LOCATOR);
        add(m, REVEAL_V, C_REVEAL_V);
        add(m, PROMPT_N, C_PROMPT_N);
        add(m, PROMPT_Q, C_PROMPT_Q);
        add(m, TRANSMIT_V, C_TRANSMIT_V);
        add(m, CARRY_V, C_CARRY_V);
        add(m, ACCESS_V, C_ACCESS_V);
        add(m, CARRIED, C_CARRIED);
        add(m, CALL_V, C_CALL_V);
        add(m, TELL_V, C_TELL_V);
        add(m, HIDE_V, C_HIDE_V);
        add(m, HUMAN, C_HUMAN);
        add(m, THIS, C_THIS);
        add(m, WITHOUT_V, C_WITHOUT_V);
        add(m, ROLE_V, C_ROLE_V);
        add(m, ROLE_T, C_ROLE_T);
        add(m, NOT_ROLE, C_NOT_ROLE);
        add(m, ANSWER, C_ANSWER);
        add(m, ANSWER_LEAD, C_ANSWER_LEAD);
        add(m, CONDUCT_V, C_CONDUCT_V);
        add(m, AUTHORITY, C_AUTHORITY);
        add(m, CHANNEL_N, C_CHANNEL_N);
        add(m, NEWNESS, C_NEWNESS);
        add(m, TAG_NAMES, C_TAG_NAMES);
        add(m, FRAMING, C_FRAMING);
        add(m, PERCEIVE, C_PERCEIVE);
        add(m, TOPIC, C_TOPIC);
        add(m, SECRET_N, C_SECRET_N);
        add(m, STRONG_N, C_STRONG_N);
        add(m, KEY_Q, C_KEY_Q);
        add(m, ALL_Q, C_ALL_Q);
        add(m, BULK_N, C_BULK_N);
        add(m, LOG_VERBS, C_LOG_VERBS);
        add(m, ALL_VERBS, C_ALL_VERBS);
        add(m, Set.of("without"), W_WITHOUT);
        add(m, Set.of("user", "users", "human"), W_USER);
        add(m, Set.of("you", "you're", "your"), W_YOU);
        return Map.copyOf(m);
    }

    private static int maxWord() {
        int max = 0;
        for (String w : CLASSES.keySet()) {
            max = Math.max(max, w.length());
        }
        return max;
    }

    private static void add(Map<String, Long> m, Set<String> words, long bit) {
        for (String w : words) {
            m.merge(w, bit, (a, b) -> a | b);
        }
    }

    @SafeVarargs
    private static Set<String> union(Set<String>... sets) {
        Set<String> all = new HashSet<>();
        for (Set<String> s : sets) {
            all.addAll(s);
        }
        return Set.copyOf(all);
    }
}
