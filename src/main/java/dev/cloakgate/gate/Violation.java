package dev.cloakgate.gate;

/**
 * Why a tool call is refused at the action boundary: a stable snake_case {@code reason} and, where a contract rule
 * refused it, {@code gatePath}, the location of that rule in the contract ({@code spec.tools.crm__patch.arguments.
 * patch.properties.stage}). The path is built from the contract's own names only, never from the call: an argument
 * value (or an unknown argument's name, which an agent chooses) never reaches a refusal, a log or the ledger.
 */
public record Violation(String reason, String gatePath) {
}
