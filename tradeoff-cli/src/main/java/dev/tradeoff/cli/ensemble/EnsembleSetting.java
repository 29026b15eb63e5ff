package dev.tradeoff.cli.ensemble;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.cli.io.Inputs;
import dev.tradeoff.cli.options.PrivacyParameters;
import dev.tradeoff.ensemble.privacy.DarrmSetting;
import picocli.CommandLine.Option;

/**
 * The DaRRM setting options shared by the ensemble subcommands (a picocli mixin). ε, Δ and δ are
 * checked by their converters when the arguments are parsed; {@link #build} checks what depends
 * on more than one value (K odd, m in [1, K], m·ε).
 */
final class EnsembleSetting {

  @Option(names = "--teachers", required = true, description = "K, the number of teachers (odd).")
  int teachers;

  @Option(names = "--m", required = true, description = "Privacy allowance m in [1, K].")
  double allowance;

  @Option(names = "--epsilon", required = true, converter = PrivacyParameters.Epsilon.class,
      description = "Per-teacher epsilon > 0.")
  double epsilon;

  @Option(names = "--teacher-delta", defaultValue = "0",
      converter = PrivacyParameters.DeltaOrZero.class,
      description = "Per-teacher Delta in [0, 1) (default 0).")
  double teacherDelta;

  @Option(names = "--delta", converter = PrivacyParameters.Delta.class,
      description = "Target delta >= Delta (default 1 - (1 - Delta)^m).")
  Double delta;

  /** Largest m·ε: e^(m·ε) is computed. */
  static final double MAX_EXPONENT = 700;

  /** What a refusal calls K, m and ε: the flags, or the fields of a γ file they came from. */
  record Names(String teachers, String allowance, String epsilon) {
    static final Names FLAGS = new Names("--teachers", "--m", "--epsilon");
  }

  DarrmSetting setting() {
    return build(Names.FLAGS, teachers, allowance, epsilon, teacherDelta, delta);
  }

  /**
   * The setting, whose ε, Δ and δ were checked where they were read (a converter, or {@link
   * GammaSetting} for a γ file's values); here only the rules that join values.
   */
  static DarrmSetting build(Names names, int teachers, double allowance, double epsilon,
      double teacherDelta, Double delta) {
    Inputs.count(names.teachers(), teachers, 1, Inputs.MAX_TEACHERS);
    Require.that(teachers % 2 == 1, names.teachers(), "must be odd", teachers);
    Inputs.range(names.allowance(), allowance, 1, teachers,
        "the privacy allowance, between 1 and K = " + teachers);
    if (!(allowance * epsilon <= MAX_EXPONENT)) {
      throw new IllegalArgumentException(names.allowance() + " × " + names.epsilon()
          + " must be <= " + MAX_EXPONENT + " (e^(m·epsilon) must stay finite), but was "
          + allowance * epsilon);
    }
    if (delta == null) {
      return DarrmSetting.withDefaultDelta(teachers, epsilon, teacherDelta, allowance);
    }
    return new DarrmSetting(teachers, new ApproxDp(epsilon, teacherDelta), allowance, delta);
  }
}
