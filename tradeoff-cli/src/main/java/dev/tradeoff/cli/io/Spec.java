package dev.tradeoff.cli.io;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * A parsed command-line spec of the form {@code NAME:KEY=VALUE[,KEY=VALUE...]}, e.g.
 * {@code gaussian:sigma=1.0} or {@code subsampled-gaussian:sigma=1.0,q=0.01}. Lookups report
 * malformed, missing and unknown keys with the spec in the message.
 */
public final class Spec {

  private final String option;
  private final String text;
  private final String name;
  private final Map<String, String> values;

  private Spec(String option, String text, String name, Map<String, String> values) {
    this.option = option;
    this.text = text;
    this.name = name;
    this.values = values;
  }

  /** Parses {@code NAME[:KEY=VALUE[,KEY=VALUE...]]}. */
  public static Spec parse(String option, String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException(option + " must look like NAME:KEY=VALUE[,KEY=VALUE], but was empty");
    }
    String trimmed = text.trim();
    int colon = trimmed.indexOf(':');
    String name = (colon < 0 ? trimmed : trimmed.substring(0, colon)).trim();
    if (name.isEmpty()) {
      throw malformed(option, text);
    }
    Map<String, String> values = new LinkedHashMap<>();
    if (colon >= 0) {
      String rest = trimmed.substring(colon + 1);
      if (rest.isBlank()) {
        throw malformed(option, text);
      }
      for (String pair : rest.split(",", -1)) {
        int eq = pair.indexOf('=');
        if (eq <= 0 || eq == pair.length() - 1) {
          throw malformed(option, text);
        }
        String key = pair.substring(0, eq).trim();
        if (values.put(key, pair.substring(eq + 1).trim()) != null) {
          throw new IllegalArgumentException(
              option + " must name each key once, but '" + key + "' repeats in '" + text + "'");
        }
      }
    }
    return new Spec(option, text, name, values);
  }

  /** The mechanism name before the colon. */
  public String name() {
    return name;
  }

  /**
   * How a refusal names one key, e.g. {@code "--mechanism gaussian:sigma"}, for {@link Inputs}:
   * {@code Inputs.noise(spec.flag("sigma"), spec.number("sigma"))}.
   */
  public String flag(String key) {
    return option + " " + name + ":" + key;
  }

  /** The spec as the user wrote it. */
  public String text() {
    return text;
  }

  /** Fails unless every key is one of {@code allowed}. */
  public Spec allowOnly(Set<String> allowed) {
    for (String key : values.keySet()) {
      if (!allowed.contains(key)) {
        throw new IllegalArgumentException(
            name + " spec accepts keys " + allowed + ", but got '" + key + "' in '" + text + "'");
      }
    }
    return this;
  }

  /** True if the key is present. */
  public boolean has(String key) {
    return values.containsKey(key);
  }

  /** A required numeric value. */
  public double number(String key) {
    String raw = values.get(key);
    if (raw == null) {
      throw new IllegalArgumentException(name + " spec needs " + key + "=VALUE, but '" + text + "' has none");
    }
    try {
      return Double.parseDouble(raw);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " must be a number, but was '" + raw + "' in '" + text + "'");
    }
  }

  /** An optional numeric value. */
  public double number(String key, double defaultValue) {
    return has(key) ? number(key) : defaultValue;
  }

  /** A required integer value. */
  public int integer(String key) {
    double v = number(key);
    if (v != Math.rint(v) || Math.abs(v) > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(key + " must be an integer, but was '" + values.get(key) + "' in '" + text + "'");
    }
    return (int) v;
  }

  /** An optional integer value. */
  public int integer(String key, int defaultValue) {
    return has(key) ? integer(key) : defaultValue;
  }

  private static IllegalArgumentException malformed(String option, String text) {
    return new IllegalArgumentException(
        option + " must look like NAME:KEY=VALUE[,KEY=VALUE], but was '" + text + "'");
  }
}
