package dev.tradeoff.cli.ensemble;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tradeoff.ensemble.privacy.DarrmSetting;
import picocli.CommandLine.Option;

/**
 * The DaRRM setting of a γ file (a picocli mixin of {@code ensemble verify} and {@code ensemble
 * aggregate}): K is the file's length minus one, and m, ε, Δ and δ come from the file's
 * {@code "setting"} object (as {@code ensemble optimize} and {@code baseline} write it) unless a
 * flag overrides them. A bare γ array needs {@code --m} and {@code --epsilon}.
 */
final class GammaSetting {

  @Option(names = "--teachers", description = "K (default: the gamma file's length - 1; checked).")
  Integer teachers;

  @Option(names = "--m", description = "Privacy allowance (default: from the gamma file).")
  Double allowance;

  @Option(names = "--epsilon", description = "Per-teacher epsilon (default: from the gamma file).")
  Double epsilon;

  @Option(names = "--teacher-delta", description = "Per-teacher Delta (default: gamma file, else 0).")
  Double teacherDelta;

  @Option(names = "--delta", description = "Target delta (default: gamma file, else 1 - (1 - Delta)^m).")
  Double delta;

  /** The setting for a γ of {@code k + 1} values whose file holds {@code stored} (or null). */
  DarrmSetting resolve(int k, JsonNode stored) {
    if (teachers != null && teachers != k) {
      throw new IllegalArgumentException("--teachers is " + teachers + ", but the gamma file has "
          + (k + 1) + " values (K + 1 = " + (k + 1) + " means K = " + k + ")");
    }
    Double m = allowance != null ? allowance : number(stored, "m");
    Double eps = epsilon != null ? epsilon : number(stored, "epsilon");
    Double td = teacherDelta != null ? teacherDelta : number(stored, "teacherDelta");
    // A file written by optimize or baseline holds the δ asked for and the (larger) δ proven.
    Double requested = number(stored, "requestedDelta");
    Double d = delta != null ? delta : requested != null ? requested : number(stored, "delta");
    if (m == null || eps == null) {
      throw new IllegalArgumentException("the gamma file has no privacy setting; pass --m and "
          + "--epsilon (and --teacher-delta, --delta) so gamma can be verified");
    }
    return EnsembleSetting.build(k, m, eps, td == null ? 0 : td, d);
  }

  private static Double number(JsonNode node, String field) {
    if (node == null || node.get(field) == null || !node.get(field).isNumber()) {
      return null;
    }
    return node.get(field).asDouble();
  }
}
