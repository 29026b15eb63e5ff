package dev.tradeoff.selection.command;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.tradeoff.accounting.guarantee.RenyiDp;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A plan for tuning a user's training command ({@code tradeoff tune --plan plan.json}, {@link
 * CommandTuning}):
 *
 * <pre>
 * {
 *   "epsilonPrime": 0.01,              // ε′ of Algorithm 3 (required, &gt; 0)
 *   "alpha": 8,                        // optional: tune in Rényi DP at this order (Theorem 13)
 *   "timeoutSeconds": 600,             // optional, per candidate run
 *   "command": "python train.py --lr {lr} --epsilon {epsilon}",   // optional default template
 *   "candidates": [
 *     {"name": "lr=0.1", "epsilon": 0.5, "hyperparameters": {"lr": 0.1}},
 *     {"name": "big", "rdp": {"orders": [2, 8], "epsilons": [0.1, 0.4]}, "command": "..."}
 *   ]
 * }
 * </pre>
 *
 * Each candidate declares its privacy before it runs (Algorithm 3 drops candidate i with
 * probability 1 − e^{−ε_i k}, so ε_i must be known up front): {@code epsilon} (ε-DP) or {@code
 * rdp} (an RDP curve; requires {@code alpha}). Its command is its own or the plan's template with
 * {name} placeholders replaced by its hyperparameters and {epsilon} by its declared ε.
 */
public record TuningPlan(
    double epsilonPrime,
    Optional<Double> alpha,
    long timeoutSeconds,
    List<Entry> candidates) {

  /** One candidate: its name, shell command (substituted), and declared guarantee. */
  public record Entry(String name, String command, Optional<Double> epsilon, Optional<RenyiDp> rdp) {}

  static final ObjectMapper JSON =
      JsonMapper.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();

  /**
   * Reads and checks a plan; every message names the field ({@code candidates[2].epsilon}) and
   * what it must be.
   */
  public static TuningPlan read(Path file) {
    JsonNode root;
    try {
      root = JSON.readTree(Files.readString(file));
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read plan " + file + ": " + e.getMessage());
    }
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException("plan " + file + " must be a JSON object");
    }
    double epsilonPrime = number(root, "epsilonPrime", "plan");
    if (!(epsilonPrime > 0 && Double.isFinite(epsilonPrime))) {
      throw new IllegalArgumentException("epsilonPrime must be > 0 and finite, but was " + epsilonPrime);
    }
    Optional<Double> alpha = Optional.empty();
    if (root.has("alpha")) {
      double a = number(root, "alpha", "plan");
      if (!(a > 1 && Double.isFinite(a))) {
        throw new IllegalArgumentException("alpha must be > 1 and finite, but was " + a);
      }
      alpha = Optional.of(a);
    }
    long timeout = root.has("timeoutSeconds") ? (long) number(root, "timeoutSeconds", "plan") : 600;
    if (timeout <= 0) {
      throw new IllegalArgumentException("timeoutSeconds must be > 0, but was " + timeout);
    }
    String template = root.has("command") ? root.get("command").asText() : null;
    JsonNode list = root.get("candidates");
    if (list == null || !list.isArray() || list.isEmpty()) {
      throw new IllegalArgumentException("candidates must be a non-empty list, but was " + (list == null ? "missing" : list));
    }
    List<Entry> entries = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      entries.add(entry(list.get(i), i, template, alpha.isPresent()));
    }
    return new TuningPlan(epsilonPrime, alpha, timeout, List.copyOf(entries));
  }

  private static Entry entry(JsonNode c, int i, String template, boolean renyi) {
    String where = "candidates[" + i + "]";
    if (!c.isObject()) {
      throw new IllegalArgumentException(where + " must be a JSON object, but was " + c);
    }
    String name = c.has("name") ? c.get("name").asText() : "candidate " + i;
    Optional<Double> epsilon = Optional.empty();
    Optional<RenyiDp> rdp = Optional.empty();
    if (c.has("epsilon")) {
      double e = number(c, "epsilon", where);
      if (!(e > 0 && Double.isFinite(e))) {
        throw new IllegalArgumentException(where + ".epsilon must be > 0 and finite, but was " + e);
      }
      epsilon = Optional.of(e);
    }
    if (c.has("rdp")) {
      if (!renyi) {
        throw new IllegalArgumentException(where + ".rdp needs the plan's \"alpha\" (Renyi tuning)");
      }
      rdp = Optional.of(curve(c.get("rdp"), where + ".rdp"));
    }
    if (epsilon.isEmpty() && rdp.isEmpty()) {
      throw new IllegalArgumentException(where + " must declare \"epsilon\" or \"rdp\"");
    }
    String command = c.has("command") ? c.get("command").asText() : template;
    if (command == null || command.isBlank()) {
      throw new IllegalArgumentException(where + " has no command (and the plan no \"command\" template)");
    }
    Map<String, String> values = new LinkedHashMap<>();
    JsonNode h = c.get("hyperparameters");
    if (h != null) {
      Iterator<Map.Entry<String, JsonNode>> it = h.fields();
      while (it.hasNext()) {
        Map.Entry<String, JsonNode> f = it.next();
        values.put(f.getKey(), f.getValue().asText());
      }
    }
    epsilon.ifPresent(e -> values.putIfAbsent("epsilon", Double.toString(e)));
    for (Map.Entry<String, String> v : values.entrySet()) {
      command = command.replace("{" + v.getKey() + "}", v.getValue());
    }
    return new Entry(name, command, epsilon, rdp);
  }

  static RenyiDp curve(JsonNode node, String where) {
    if (node == null || !node.isObject() || !node.has("orders") || !node.has("epsilons")) {
      throw new IllegalArgumentException(where + " must be {\"orders\": [...], \"epsilons\": [...]}");
    }
    double[] orders = array(node.get("orders"), where + ".orders");
    double[] eps = array(node.get("epsilons"), where + ".epsilons");
    return RenyiDp.of(orders, eps);
  }

  private static double[] array(JsonNode node, String where) {
    if (!node.isArray() || node.isEmpty()) {
      throw new IllegalArgumentException(where + " must be a non-empty array of numbers");
    }
    double[] v = new double[node.size()];
    for (int i = 0; i < v.length; i++) {
      if (!node.get(i).isNumber()) {
        throw new IllegalArgumentException(where + "[" + i + "] must be a number, but was " + node.get(i));
      }
      v[i] = node.get(i).doubleValue();
    }
    return v;
  }

  static double number(JsonNode node, String field, String where) {
    JsonNode v = node.get(field);
    if (v == null || !v.isNumber()) {
      throw new IllegalArgumentException(
          where + "." + field + " must be a number, but was " + (v == null ? "missing" : v));
    }
    return v.doubleValue();
  }
}
