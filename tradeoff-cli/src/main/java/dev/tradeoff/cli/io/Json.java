package dev.tradeoff.cli.io;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Map;

/**
 * The command line's one JSON writer. Every {@code --json} output is one compact line (easy to
 * pipe, {@code jq} pretty-prints it) whose first key is {@code "schemaVersion"} ({@value
 * #SCHEMA_VERSION}); the schema of each command is documented in {@code docs/cli-json.md}. A
 * document holding NaN or an infinity is refused (JSON has no such numbers, and the command line
 * never releases one).
 */
public final class Json {

  /** Version of the documented output schemas; raised when a key changes meaning or goes away. */
  public static final int SCHEMA_VERSION = 1;

  /** Shared, thread-safe once configured; also builds trees ({@code MAPPER.createObjectNode()}). */
  public static final ObjectMapper MAPPER = new ObjectMapper();

  private Json() {}

  /** One line of JSON, {@code "schemaVersion"} first when {@code value} is an object. */
  public static String write(Object value) {
    JsonNode tree = MAPPER.valueToTree(value);
    if (tree.isObject()) {
      ObjectNode versioned = MAPPER.createObjectNode();
      versioned.put("schemaVersion", SCHEMA_VERSION);
      for (Iterator<Map.Entry<String, JsonNode>> it = tree.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        if (!e.getKey().equals("schemaVersion")) {
          versioned.set(e.getKey(), e.getValue());
        }
      }
      tree = versioned;
    }
    requireFinite(tree, "");
    try {
      return MAPPER.writeValueAsString(tree);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialise " + value.getClass().getSimpleName(), e);
    }
  }

  /** The JSON text another module wrote, as a tree to print with {@link #write}. */
  public static JsonNode parse(String text) {
    try {
      return MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("not JSON: " + text, e);
    }
  }

  private static void requireFinite(JsonNode node, String path) {
    if (node.isNumber() && (node.isDouble() || node.isFloat())) {
      Inputs.released(path.isEmpty() ? "a number" : path, node.doubleValue());
    } else if (node.isObject()) {
      node.fields().forEachRemaining(e -> requireFinite(e.getValue(),
          path.isEmpty() ? e.getKey() : path + "." + e.getKey()));
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        requireFinite(node.get(i), path + "[" + i + "]");
      }
    }
  }
}
