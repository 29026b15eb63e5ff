package dev.tradeoff.cli.ensemble;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tradeoff.cli.io.Inputs;
import dev.tradeoff.cli.options.PrivacyParameters;
import dev.tradeoff.ensemble.privacy.DarrmSetting;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The DaRRM setting of a γ file (a picocli mixin of {@code ensemble verify} and {@code ensemble
 * aggregate}): K is the file's length minus one, and m, ε, Δ and δ come from the file's
 * {@code "setting"} object (as {@code ensemble optimize} and {@code baseline} write it) unless a
 * flag overrides them. A bare γ array needs {@code --m} and {@code --epsilon}. A flag's value is
 * checked by its converter when parsed, a file's value here, by a refusal that names the file and
 * the field.
 */
final class GammaSetting {

  @Option(names = "--teachers", description = "K (default: the gamma file's length - 1; checked).")
  Integer teachers;

  @Option(names = "--m", description = "Privacy allowance (default: from the gamma file).")
  Double allowance;

  @Option(names = "--epsilon", converter = PrivacyParameters.Epsilon.class,
      description = "Per-teacher epsilon (default: from the gamma file).")
  Double epsilon;

  @Option(names = "--teacher-delta", converter = PrivacyParameters.DeltaOrZero.class,
      description = "Per-teacher Delta (default: gamma file, else 0).")
  Double teacherDelta;

  @Option(names = "--delta", converter = PrivacyParameters.Delta.class,
      description = "Target delta (default: gamma file, else 1 - (1 - Delta)^m).")
  Double delta;

  /** The setting for a γ of {@code k + 1} values read from {@code file}, whose setting is {@code stored} (or null). */
  DarrmSetting resolve(int k, JsonNode stored, Path file) {
    if (teachers != null && teachers != k) {
      throw new IllegalArgumentException("--teachers is " + teachers + ", but the gamma file has "
          + (k + 1) + " values (K + 1 = " + (k + 1) + " means K = " + k + ")");
    }
    Double m = allowance != null ? allowance : number(stored, "m");
    Double eps = epsilon;
    if (eps == null && number(stored, "epsilon") != null) {
      eps = Inputs.epsilon(field(file, "epsilon"), number(stored, "epsilon"));
    }
    double td = teacherDelta != null ? teacherDelta : 0;
    if (teacherDelta == null && number(stored, "teacherDelta") != null) {
      td = Inputs.deltaOrZero(field(file, "teacherDelta"), number(stored, "teacherDelta"));
    }
    // A file written by optimize or baseline holds the δ asked for and the (larger) δ proven.
    String deltaField = number(stored, "requestedDelta") != null ? "requestedDelta" : "delta";
    Double d = delta;
    if (d == null && number(stored, deltaField) != null) {
      d = Inputs.delta(field(file, deltaField), number(stored, deltaField));
    }
    if (m == null || eps == null) {
      throw new IllegalArgumentException("the gamma file has no privacy setting; pass --m and "
          + "--epsilon (and --teacher-delta, --delta) so gamma can be verified");
    }
    return EnsembleSetting.build(new EnsembleSetting.Names("--gamma-file " + file
        + " K (its length - 1)", allowance != null ? "--m" : field(file, "m"),
        epsilon != null ? "--epsilon" : field(file, "epsilon")), k, m, eps, td, d);
  }

  /** How a refusal names a field of the γ file's setting: {@code --gamma-file g.json setting.m}. */
  private static String field(Path file, String name) {
    return "--gamma-file " + file + " setting." + name;
  }

  private static Double number(JsonNode node, String field) {
    if (node == null || node.get(field) == null || !node.get(field).isNumber()) {
      return null;
    }
    return node.get(field).asDouble();
  }
}
