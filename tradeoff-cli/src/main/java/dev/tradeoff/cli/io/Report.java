package dev.tradeoff.cli.io;

import java.io.PrintWriter;
import java.math.RoundingMode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One command's result: an ordered set of named values printed either as JSON (exact doubles) or
 * as a readable two-column table. In the table, numbers are shown to 6 significant digits, rounded
 * in the direction that is safe for that value (ε, δ and noise scales up; an admissible μ down), so
 * a number copied from the table never overstates privacy.
 */
public final class Report {

  private final Map<String, Object> values = new LinkedHashMap<>();
  private final Map<String, RoundingMode> rounding = new LinkedHashMap<>();

  /** A value whose safe rounding is upwards (ε, δ, σ, ...), or any non-numeric value. */
  public Report put(String key, Object value) {
    values.put(key, value);
    rounding.put(key, RoundingMode.UP);
    return this;
  }

  /** A value whose safe rounding is downwards (e.g. the largest admissible μ). */
  public Report putRoundedDown(String key, double value) {
    values.put(key, value);
    rounding.put(key, RoundingMode.DOWN);
    return this;
  }

  /**
   * A row shown in the text table only (JSON carries the two ends as their own keys): {@code
   * symbol ∈ [lower, upper]}, the lower end rounded down and the upper end rounded up.
   */
  public Report putBracket(String key, String symbol, double lower, double upper) {
    values.put(key, new Bracket(symbol, lower, upper));
    rounding.put(key, RoundingMode.UP);
    return this;
  }

  private record Bracket(String symbol, double lower, double upper) {
    @Override
    public String toString() {
      return symbol + " ∈ [" + format(lower, RoundingMode.DOWN) + ", "
          + format(upper, RoundingMode.UP) + "]";
    }
  }

  public Map<String, Object> values() {
    return values;
  }

  /**
   * Prints the result; refuses (nothing printed) if a number is not finite, so an input that
   * slipped past the boundary checks never yields a NaN or an infinite guarantee.
   */
  public void print(PrintWriter out, boolean json) {
    values.forEach((k, v) -> {
      if (v instanceof Double d) {
        Inputs.released(k, d);
      }
    });
    if (json) {
      Map<String, Object> data = new LinkedHashMap<>(values);
      data.values().removeIf(v -> v instanceof Bracket);
      out.println(Json.write(data));
    } else {
      int width = values.keySet().stream().mapToInt(String::length).max().orElse(0);
      for (Map.Entry<String, Object> e : values.entrySet()) {
        out.printf("%-" + width + "s  %s%n", e.getKey(), format(e.getValue(), rounding.get(e.getKey())));
      }
    }
    out.flush();
  }

  private static String format(Object value, RoundingMode mode) {
    if (value instanceof Double d) {
      return Numbers.format(d, mode == RoundingMode.UP ? RoundingMode.CEILING : RoundingMode.FLOOR);
    }
    if (value instanceof List<?> list) {
      StringBuilder s = new StringBuilder();
      for (Object item : list) {
        if (s.length() > 0) {
          s.append("; ");
        }
        s.append(
            item instanceof Map<?, ?> m
                ? String.join(" × ", m.values().stream().map(String::valueOf).toList())
                : String.valueOf(item));
      }
      return s.toString();
    }
    return String.valueOf(value);
  }
}
