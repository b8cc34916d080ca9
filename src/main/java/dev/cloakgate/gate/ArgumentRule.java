package dev.cloakgate.gate;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One schema of the tool-contract language, compiled when the contract is read: the seed's deterministic subset of
 * JSON Schema (type, enum, const, minLength/maxLength in Unicode scalar values, pattern as an anchored full match,
 * minimum/maximum, properties, required, additionalProperties, minProperties/maxProperties, items, minItems/maxItems)
 * plus {@code bindTo: task.<key>}. Anything else is a parse error naming its path.
 *
 * <p>Closed by default, everywhere: an object checked against a schema may hold only the properties that schema
 * declares unless it says {@code additionalProperties: true} (or gives a schema for them), and an array without
 * {@code items} has its items checked against the empty schema, so an object inside it must be empty (except in a
 * value pinned by {@code const} or {@code enum}, which is exactly one the author wrote). Keywords
 * about one type say nothing about values of another (JSON Schema): {@code maxLength} alone does not refuse a number;
 * say {@code type} too.
 *
 * <p>Numbers compare by mathematical value, so {@code 1.0} is an integer and equals {@code 1} (JSON Schema; JCS
 * writes both as {@code 1}, so they fingerprint alike too). A check visits each part of the value once per schema
 * that applies to it, which the contract fixes, so its cost is linear in the size of the arguments; recursion is
 * bounded by {@link #MAX_VALUE_DEPTH} (the gateway's own parser bounds nesting well below it).
 */
public final class ArgumentRule {
    /** How deep schemas may nest in a contract. */
    static final int MAX_SCHEMA_DEPTH = 32;
    /** How deep a value is followed; deeper is refused ({@code argument_type}), never skipped. */
    static final int MAX_VALUE_DEPTH = 128;
    /** Steps the pattern matcher may take per character (and a floor): past it the value is refused. */
    private static final int PATTERN_STEPS_PER_CHAR = 256;
    private static final int PATTERN_STEPS_FLOOR = 1 << 16;
    private static final Set<String> KEYWORDS = Set.of("type", "enum", "const", "minLength", "maxLength", "pattern",
            "minimum", "maximum", "properties", "required", "additionalProperties", "minProperties", "maxProperties",
            "items", "minItems", "maxItems", "bindTo");

    enum Type {
        STRING, INTEGER, NUMBER, BOOLEAN, OBJECT, ARRAY, NULL
    }

    // set only while compiling (parse, toolArguments), never after the rule is returned: immutable once published
    private String path;
    private Set<Type> types;
    private List<JsonNode> enumValues;
    private JsonNode constValue;
    private int minLength = -1;
    private int maxLength = -1;
    private Pattern pattern;
    private BigDecimal minimum;
    private BigDecimal maximum;
    private Map<String, ArgumentRule> properties = new LinkedHashMap<>();
    private List<String> required = List.of();
    private boolean anyAdditional;
    private ArgumentRule additional;
    private int minProperties = -1;
    private int maxProperties = -1;
    private ArgumentRule items;
    private int minItems = -1;
    private int maxItems = -1;
    private List<String> bindTo;

    private ArgumentRule() {
    }

    /** Where this schema sits in its contract. */
    public String path() {
        return path;
    }

    /** The task-context keys this schema binds to ({@code bindTo: task.a.b} is [a, b]), or null. */
    public List<String> bindTo() {
        return bindTo;
    }

    /** The schemas of declared properties (for a tool's rule: its arguments), by name. */
    public Map<String, ArgumentRule> properties() {
        return properties;
    }

    /**
     * The arguments of one tool: an object whose properties are {@code arguments}, {@code required} names, and
     * nothing else. {@code base} is {@code spec.tools.<tool>}.
     */
    static ArgumentRule toolArguments(String base, JsonNode arguments, JsonNode required) {
        ArgumentRule b = new ArgumentRule();
        b.path = base + ".arguments";
        b.types = EnumSet.of(Type.OBJECT);
        if (arguments != null) {
            if (!arguments.isObject()) {
                throw error(b.path, "must be a mapping of argument name to schema");
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = arguments.fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> e = it.next();
                b.properties.put(e.getKey(), parse(e.getValue(), b.path + "." + e.getKey(), 1));
            }
        }
        b.required = names(required, base + ".required", b.properties, false);
        b.properties = Collections.unmodifiableMap(b.properties);
        return b;
    }

    /** Compiles one schema at {@code path}. */
    static ArgumentRule parse(JsonNode schema, String path, int depth) {
        if (depth > MAX_SCHEMA_DEPTH) {
            throw error(path, "schemas nest deeper than " + MAX_SCHEMA_DEPTH);
        }
        if (schema == null || !schema.isObject()) {
            throw error(path, "must be a schema (a mapping of keywords)");
        }
        ArgumentRule b = new ArgumentRule();
        b.path = path;
        for (Iterator<String> it = schema.fieldNames(); it.hasNext();) {
            String k = it.next();
            if (!KEYWORDS.contains(k)) {
                throw error(path + "." + k, "unknown keyword (the contract language is " + new java.util.TreeSet<>(KEYWORDS) + ")");
            }
        }
        b.types = types(schema.get("type"), path + ".type");
        if (schema.has("enum")) {
            JsonNode e = schema.get("enum");
            if (!e.isArray() || e.isEmpty()) {
                throw error(path + ".enum", "must be a non-empty list");
            }
            List<JsonNode> values = new ArrayList<>();
            e.forEach(v -> values.add(v.deepCopy()));
            b.enumValues = List.copyOf(values);
        }
        if (schema.has("const")) {
            b.constValue = schema.get("const").deepCopy();
        }
        b.minLength = count(schema, "minLength", path);
        b.maxLength = count(schema, "maxLength", path);
        order(b.minLength, b.maxLength, path, "minLength", "maxLength");
        if (schema.has("pattern")) {
            JsonNode p = schema.get("pattern");
            if (!p.isTextual()) {
                throw error(path + ".pattern", "must be a string (a regular expression)");
            }
            try {
                b.pattern = Pattern.compile(p.textValue());
            } catch (PatternSyntaxException bad) {
                throw error(path + ".pattern", "is not a valid regular expression (" + bad.getDescription() + ")");
            }
        }
        b.minimum = number(schema, "minimum", path);
        b.maximum = number(schema, "maximum", path);
        if (b.minimum != null && b.maximum != null && b.minimum.compareTo(b.maximum) > 0) {
            throw error(path, "minimum is above maximum");
        }
        if (schema.has("properties")) {
            JsonNode props = schema.get("properties");
            if (!props.isObject()) {
                throw error(path + ".properties", "must be a mapping of property name to schema");
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = props.fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> e = it.next();
                b.properties.put(e.getKey(), parse(e.getValue(), path + ".properties." + e.getKey(), depth + 1));
            }
        }
        JsonNode additional = schema.get("additionalProperties");
        if (additional != null) {
            if (additional.isBoolean()) {
                b.anyAdditional = additional.booleanValue();
            } else {
                b.additional = parse(additional, path + ".additionalProperties", depth + 1);
            }
        }
        b.required = names(schema.get("required"), path + ".required", b.properties, b.anyAdditional || b.additional != null);
        b.minProperties = count(schema, "minProperties", path);
        b.maxProperties = count(schema, "maxProperties", path);
        order(b.minProperties, b.maxProperties, path, "minProperties", "maxProperties");
        if (schema.has("items")) {
            b.items = parse(schema.get("items"), path + ".items", depth + 1);
        }
        b.minItems = count(schema, "minItems", path);
        b.maxItems = count(schema, "maxItems", path);
        order(b.minItems, b.maxItems, path, "minItems", "maxItems");
        if (schema.has("bindTo")) {
            JsonNode t = schema.get("bindTo");
            if (!t.isTextual() || !t.textValue().matches("task(\\.[^.]+)+")) {
                throw error(path + ".bindTo", "must be task.<key> (a dotted path into the task context)");
            }
            b.bindTo = List.of(t.textValue().substring("task.".length()).split("\\.", -1));
        }
        b.properties = Collections.unmodifiableMap(b.properties);
        return b;
    }

    private static Set<Type> types(JsonNode t, String at) {
        if (t == null) {
            return null;
        }
        Set<Type> out = EnumSet.noneOf(Type.class);
        if (t.isTextual()) {
            out.add(type(t.textValue(), at));
        } else if (t.isArray() && !t.isEmpty()) {
            for (JsonNode each : t) {
                if (!each.isTextual() || !out.add(type(each.textValue(), at))) {
                    throw error(at, "must list distinct type names");
                }
            }
        } else {
            throw error(at, "must be a type name or a non-empty list of them");
        }
        return Collections.unmodifiableSet(out);
    }

    private static Type type(String name, String at) {
        return switch (name) {
            case "string" -> Type.STRING;
            case "integer" -> Type.INTEGER;
            case "number" -> Type.NUMBER;
            case "boolean" -> Type.BOOLEAN;
            case "object" -> Type.OBJECT;
            case "array" -> Type.ARRAY;
            case "null" -> Type.NULL;
            default -> throw error(at, "unknown type (string, integer, number, boolean, object, array, null)");
        };
    }

    private static List<String> names(JsonNode list, String at, Map<String, ArgumentRule> declared, boolean open) {
        if (list == null) {
            return List.of();
        }
        if (!list.isArray()) {
            throw error(at, "must be a list of names");
        }
        Set<String> out = new LinkedHashSet<>();
        for (JsonNode n : list) {
            if (!n.isTextual() || !out.add(n.textValue())) {
                throw error(at, "must list distinct names");
            }
            if (!open && !declared.containsKey(n.textValue())) {
                // closed and not declared: no value could ever satisfy it
                throw error(at, "names " + n.textValue() + ", which is not declared");
            }
        }
        return List.copyOf(out);
    }

    private static int count(JsonNode schema, String key, String path) {
        JsonNode v = schema.get(key);
        if (v == null) {
            return -1;
        }
        if (!v.isNumber() || !isIntegral(v) || v.decimalValue().signum() < 0
                || v.decimalValue().compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) > 0) {
            throw error(path + "." + key, "must be a non-negative integer");
        }
        return v.decimalValue().intValueExact();
    }

    private static void order(int min, int max, String path, String minKey, String maxKey) {
        if (min >= 0 && max >= 0 && min > max) {
            throw error(path, minKey + " is above " + maxKey);
        }
    }

    private static BigDecimal number(JsonNode schema, String key, String path) {
        JsonNode v = schema.get(key);
        if (v == null) {
            return null;
        }
        if (!v.isNumber()) {
            throw error(path + "." + key, "must be a number");
        }
        return v.decimalValue();
    }

    static IllegalArgumentException error(String at, String problem) {
        return new IllegalArgumentException(at + ": " + problem);
    }

    /** The first rule {@code value} breaks, or null when it keeps every one. */
    Violation check(JsonNode value, TaskContext context) {
        return check(value, context, 0);
    }

    private Violation check(JsonNode v, TaskContext context, int depth) {
        if (depth > MAX_VALUE_DEPTH) {
            return new Violation("argument_type", path);
        }
        Type t = typeOf(v);
        if (t == null || types != null && !types.contains(t) && !(t == Type.INTEGER && types.contains(Type.NUMBER))) {
            return new Violation("argument_type", path);
        }
        if (constValue != null && !JsonEquality.equal(constValue, v)) {
            return new Violation("argument_const", path);
        }
        if (enumValues != null && enumValues.stream().noneMatch(e -> JsonEquality.equal(e, v))) {
            return new Violation("argument_enum", path);
        }
        if (bindTo != null) {
            if (context == null) {
                return new Violation("task_context_missing", path);
            }
            JsonNode bound = context.value(bindTo);
            if (bound == null || !JsonEquality.equal(bound, v)) {
                return new Violation("task_binding_mismatch", path);
            }
        }
        return switch (t) {
            case STRING -> string(v.textValue());
            case INTEGER, NUMBER -> range(v.decimalValue());
            case OBJECT -> object(v, context, depth);
            case ARRAY -> array(v, context, depth);
            default -> null;
        };
    }

    private Violation string(String s) {
        if (minLength >= 0 || maxLength >= 0) {
            if (outside(s.codePointCount(0, s.length()), minLength, maxLength)) {
                return new Violation("argument_length", path);
            }
        }
        if (pattern != null && !BoundedMatch.matches(pattern, s,
                (long) PATTERN_STEPS_PER_CHAR * s.length() + PATTERN_STEPS_FLOOR)) {
            return new Violation("argument_pattern", path);
        }
        return null;
    }

    private Violation range(BigDecimal n) {
        if ((minimum != null && n.compareTo(minimum) < 0) || (maximum != null && n.compareTo(maximum) > 0)) {
            return new Violation("argument_range", path);
        }
        return null;
    }

    private Violation object(JsonNode o, TaskContext context, int depth) {
        if (outside(o.size(), minProperties, maxProperties)) {
            return new Violation("argument_count", path);
        }
        for (String name : required) {
            if (!o.has(name)) {
                ArgumentRule declared = properties.get(name);
                return new Violation("argument_missing", declared != null ? declared.path : path + ".required");
            }
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            ArgumentRule rule = properties.get(e.getKey());
            if (rule == null) {
                rule = additional;
            }
            if (rule == null) {
                if (anyAdditional || pinned()) {
                    continue;
                }
                // the path of the closed schema, never the name the agent sent
                return new Violation("argument_not_allowed", path);
            }
            Violation v = rule.check(e.getValue(), context, depth + 1);
            if (v != null) {
                return v;
            }
        }
        return null;
    }

    private Violation array(JsonNode a, TaskContext context, int depth) {
        if (outside(a.size(), minItems, maxItems)) {
            return new Violation("argument_count", path);
        }
        if (items == null && pinned()) {
            return null;
        }
        for (JsonNode item : a) {
            Violation v = items != null ? items.check(item, context, depth + 1) : closedShape(item, path + ".items", depth + 1);
            if (v != null) {
                return v;
            }
        }
        return null;
    }

    /**
     * The value equals one the author wrote ({@code const} or {@code enum}, checked first): what it holds is then
     * already exact, and closing it by default would refuse the very value the contract names.
     */
    private boolean pinned() {
        return constValue != null || enumValues != null;
    }

    /** Outside {@code [min, max]}, either bound absent when negative. */
    private static boolean outside(int n, int min, int max) {
        return n < min || (max >= 0 && n > max);
    }

    /** The empty schema (an array without {@code items}): anything, but every object in it empty. */
    private static Violation closedShape(JsonNode v, String at, int depth) {
        if (depth > MAX_VALUE_DEPTH) {
            return new Violation("argument_type", at);
        }
        if (v.isObject() && !v.isEmpty()) {
            return new Violation("argument_not_allowed", at);
        }
        if (v.isArray()) {
            for (JsonNode item : v) {
                Violation inner = closedShape(item, at, depth + 1);
                if (inner != null) {
                    return inner;
                }
            }
        }
        return null;
    }

    private static Type typeOf(JsonNode v) {
        return switch (v.getNodeType()) {
            case STRING -> Type.STRING;
            case NUMBER -> isIntegral(v) ? Type.INTEGER : Type.NUMBER;
            case BOOLEAN -> Type.BOOLEAN;
            case OBJECT -> Type.OBJECT;
            case ARRAY -> Type.ARRAY;
            case NULL -> Type.NULL;
            // binary, POJO or missing nodes never come out of a JSON parser: no type a contract can allow
            default -> null;
        };
    }

    private static boolean isIntegral(JsonNode n) {
        if (n.isIntegralNumber()) {
            return true;
        }
        if (n.isDouble() || n.isFloat()) {
            double d = n.doubleValue();
            return !Double.isInfinite(d) && d == Math.rint(d);
        }
        BigDecimal d = n.decimalValue();
        return d.signum() == 0 || d.stripTrailingZeros().scale() <= 0;
    }
}
