package dev.tradeoff.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.ensemble.noise.NoiseFunction;
import dev.tradeoff.ensemble.privacy.CornerCount;
import dev.tradeoff.ensemble.privacy.DarrmSetting;
import dev.tradeoff.ensemble.privacy.PrivacyCertificate;
import java.io.IOException;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** JSON and file input/output of the ensemble subcommands. */
final class EnsembleJson {

  static final ObjectMapper MAPPER =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

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

  /**
   * A privacy parameter for text output, rounded up to {@code digits} significant digits, so that
   * no printed guarantee is below what is proven. The double is first read to 15 significant
   * digits, which drops binary artefacts such as 6 × 0.1 = 0.6000000000000001 (a change of
   * at most 5e-16 relative, far below the verifier's tolerance) so that they are not rounded up.
   */
  static String up(double x, int digits) {
    BigDecimal b = new BigDecimal(x).round(new MathContext(15, RoundingMode.HALF_EVEN))
        .round(new MathContext(digits, RoundingMode.CEILING)).stripTrailingZeros();
    return b.abs().compareTo(BigDecimal.ONE) >= 0 ? b.toPlainString() : b.toString();
  }

  /** "(ε, δ)-DP" with both rounded up ({@link #up}). */
  static String guarantee(ApproxDp g) {
    return "(" + up(g.epsilon(), 6) + ", " + up(g.delta(), 4) + ")-DP";
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
    try {
      out.println(MAPPER.writeValueAsString(value));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    out.flush();
  }

  /** A γ file: a JSON array of K + 1 numbers, or an object with a "gamma" array. */
  static GammaFile readGamma(Path path) {
    JsonNode root = readTree(path, "gamma file");
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

  static JsonNode readTree(Path path, String what) {
    if (!Files.isRegularFile(path)) {
      throw new IllegalArgumentException(what + " " + path + " does not exist");
    }
    try {
      return MAPPER.readTree(path.toFile());
    } catch (IOException e) {
      throw new IllegalArgumentException(what + " " + path + " is not valid JSON");
    }
  }
}
