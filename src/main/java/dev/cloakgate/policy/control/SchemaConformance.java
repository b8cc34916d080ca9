package dev.cloakgate.policy.control;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.path.NodePath;

import dev.cloakgate.policy.Action;
import dev.cloakgate.policy.Control;
import dev.cloakgate.policy.FindingDetail;
import dev.cloakgate.policy.Findings;
import dev.cloakgate.policy.Stage;
import dev.cloakgate.policy.Subject;

/**
 * Arguments are checked against the inputSchema the server itself published (JSON Schema 2020-12, MCP's
 * default, or the draft named by {@code $schema}, e.g. draft-07), with networknt's validator; remote
 * {@code $ref}s are never fetched (a schema must not make the gateway call out). Beyond the schema, an argument
 * the schema never declared is refused unless the schema says additional properties are allowed: the model
 * inventing a parameter is how argument injection looks from here. A tool whose declaration is unknown is
 * refused: there is nothing to check against.
 */
public final class SchemaConformance implements Control {
    private static final int CACHE = 1024;
    private final SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
            b -> b.schemaLoader(l -> l.fetchRemoteResources(false)));
    /** Compiled schemas by their JSON text; bounded, least recently used out. */
    private final Map<String, Schema> compiled = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Schema> e) {
            return size() > CACHE;
        }
    };

    @Override
    public String name() {
        return "schema_conformance";
    }

    @Override
    public boolean appliesTo(Stage stage) {
        return stage == Stage.REQUEST;
    }

    @Override
    public void inspect(Subject s, Findings out) {
        if (s.declaration() == null || !s.declaration().path("inputSchema").isObject()) {
            out.add(Action.BLOCK, "schema_unknown", "the tool's declaration or inputSchema is unknown");
            return;
        }
        JsonNode schemaNode = s.declaration().get("inputSchema");
        JsonNode args = s.payload() == null || s.payload().isNull() ? com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode() : s.payload();
        if (!args.isObject()) {
            out.add(Action.BLOCK, "schema_violation", "arguments must be an object");
            return;
        }
        Schema schema;
        try {
            schema = compile(schemaNode.toString());
        } catch (RuntimeException e) {
            out.add(Action.BLOCK, "schema_invalid", "the published inputSchema cannot be compiled ("
                    + e.getClass().getSimpleName() + ")");
            return;
        }
        List<Error> errors;
        try {
            errors = schema.validate(args.toString(), InputFormat.JSON);
        } catch (RuntimeException e) {
            out.add(Action.BLOCK, "schema_invalid", "the inputSchema cannot be evaluated (" + e.getClass().getSimpleName() + ")");
            return;
        }
        for (Error e : errors) {
            // location and keyword only: a validator message can quote the value; the location is made of the
            // caller's keys, so it is written the way every pointer in a finding is
            out.add(Action.BLOCK, "schema_violation", location(args, e.getInstanceLocation()) + " fails \""
                    + e.getKeyword() + "\"");
        }
        undeclared(schemaNode, args, out);
    }

    private static String location(JsonNode args, NodePath path) {
        List<Object> steps = new ArrayList<>(path.getNameCount());
        for (int i = 0; i < path.getNameCount(); i++) {
            steps.add(path.getElement(i));
        }
        String p = FindingDetail.pointer(args, steps);
        return p.isEmpty() ? "the arguments" : p;
    }

    private static void undeclared(JsonNode schema, JsonNode args, Findings out) {
        if (schema.has("additionalProperties") || schema.has("patternProperties") || schema.has("unevaluatedProperties")
                || schema.has("$ref") || schema.has("allOf") || schema.has("anyOf") || schema.has("oneOf")) {
            return; // the schema decides about extra properties itself
        }
        JsonNode props = schema.path("properties");
        Iterator<String> names = args.fieldNames();
        while (names.hasNext()) {
            String n = names.next();
            if (!props.has(n)) {
                out.add(Action.BLOCK, "schema_violation", "an argument the inputSchema never declared");
            }
        }
    }

    private Schema compile(String json) {
        synchronized (compiled) {
            Schema s = compiled.get(json);
            if (s == null) {
                s = registry.getSchema(json, InputFormat.JSON);
                compiled.put(json, s);
            }
            return s;
        }
    }
}
