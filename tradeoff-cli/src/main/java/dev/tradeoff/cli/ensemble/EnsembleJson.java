package dev.tradeoff.cli.ensemble;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.cli.io.Inputs;
import dev.tradeoff.cli.io.Json;
import dev.tradeoff.cli.io.Numbers;
import dev.tradeoff.ensemble.noise.NoiseFunction;
import dev.tradeoff.ensemble.privacy.CornerCount;
import dev.tradeoff.ensemble.privacy.DarrmSetting;
import dev.tradeoff.ensemble.privacy.PrivacyCertificate;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** JSON and file input/output of the ensemble subcommands. */
final class EnsembleJson {

  private static final ObjectMapper MAPPER = Json.MAPPER;

  private EnsembleJson() {}

  /**
   * The setting as the certificate covers it: {@code delta} is the δ the certificate proves
   * ({@link PrivacyCertificate#certifiedDelta}, never below the requested one), {@code
   * requestedDelta} the δ that was asked for, so (targetEpsilon, delta) is a proven guarantee.
   */
  static Map<String, Object> setting(DarrmSetting s, PrivacyCertificate c) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("teachers", s.teachers());
    m.put("m", s.allowance());
    m.put("epsilon", s.epsilon());
    m.put("teacherDelta", s.teacherDelta());
    m.put("requestedDelta", s.delta());
    m.put("delta", c.certifiedDelta());
    m.put("targetEpsilon", c.target().epsilon());
    return m;
  }

  /** "(ε, δ)-DP", both rounded up ({@link Numbers#up}). */
  static String guarantee(ApproxDp g) {
    return "(" + Numbers.up(g.epsilon()) + ", " + Numbers.up(g.delta()) + ")-DP";
  }

  static Map<String, Object> certificate(PrivacyCertificate c) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("maxPrivacyCost", c.maxPrivacyCost());
    m.put("bound", c.bound());
    m.put("slack", c.slack());
    m.put("tolerance", c.tolerance());
    m.put("certifiedDelta", c.certifiedDelta());
    m.put("worstCase", worstCase(c));
    return m;
  }

  static List<Map<String, Object>> worstCase(PrivacyCertificate c) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (CornerCount cc : c.worstCase()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("p", cc.corner().p());
      m.put("pPrime", cc.corner().pPrime());
      m.put("count", cc.count());
      out.add(m);
    }
    return out;
  }

  static void print(PrintWriter out, Object value) {
    out.println(Json.write(value));
    out.flush();
  }

  /** A γ file: a JSON array of K + 1 numbers, or an object with a "gamma" array. */
  static GammaFile readGamma(Path path) {
    JsonNode root = readTree(path, "--gamma-file");
    JsonNode array = root.isArray() ? root : root.get("gamma");
    if (array == null || !array.isArray()) {
      throw new IllegalArgumentException("gamma file " + path
          + " must hold a JSON array or an object with a \"gamma\" array");
    }
    double[] values = new double[array.size()];
    for (int i = 0; i < values.length; i++) {
      if (!array.get(i).isNumber()) {
        throw new IllegalArgumentException("gamma file " + path + ": entry " + i
            + " is not a number");
      }
      values[i] = array.get(i).asDouble();
    }
    JsonNode setting = root.isObject() ? root.get("setting") : null;
    return new GammaFile(new NoiseFunction(values), setting);
  }

  /** A parsed γ file and its optional "setting" object. */
  record GammaFile(NoiseFunction gamma, JsonNode setting) {}

  /** Largest JSON file read. */
  static final long MAX_FILE_BYTES = 64L << 20;

  /** The JSON in {@code path}, named {@code what} (its flag) in refusals. */
  static JsonNode readTree(Path path, String what) {
    Inputs.inputFile(what, path, MAX_FILE_BYTES);
    try {
      return MAPPER.readTree(path.toFile());
    } catch (IOException e) {
      throw new IllegalArgumentException(what + " " + path + " is not valid JSON");
    }
  }
}
