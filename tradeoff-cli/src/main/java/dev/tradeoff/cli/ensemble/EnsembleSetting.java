package dev.tradeoff.cli.ensemble;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.cli.io.Inputs;
import dev.tradeoff.ensemble.privacy.DarrmSetting;
import picocli.CommandLine.Option;

/** The DaRRM setting options shared by the ensemble subcommands (a picocli mixin). */
final class EnsembleSetting {

  @Option(names = "--teachers", required = true, description = "K, the number of teachers (odd).")
  int teachers;

  @Option(names = "--m", required = true, description = "Privacy allowance m in [1, K].")
  double allowance;

  @Option(names = "--epsilon", required = true, description = "Per-teacher epsilon > 0.")
  double epsilon;

  @Option(names = "--teacher-delta", defaultValue = "0",
      description = "Per-teacher Delta in [0, 1) (default 0).")
  double teacherDelta;

  @Option(names = "--delta", description = "Target delta >= Delta (default 1 - (1 - Delta)^m).")
  Double delta;

  /** Largest m·ε: e^(m·ε) is computed. */
  static final double MAX_EXPONENT = 700;

  DarrmSetting setting() {
    return build(teachers, allowance, epsilon, teacherDelta, delta);
  }

  static DarrmSetting build(int teachers, double allowance, double epsilon, double teacherDelta,
      Double delta) {
    Inputs.count("--teachers", teachers, 1, Inputs.MAX_TEACHERS);
    Require.that(teachers % 2 == 1, "--teachers", "must be odd", teachers);
    Inputs.epsilon("--epsilon", epsilon);
    Inputs.deltaOrZero("--teacher-delta", teacherDelta);
    Inputs.range("--m", allowance, 1, teachers, "the privacy allowance, between 1 and --teachers");
    if (!(allowance * epsilon <= MAX_EXPONENT)) {
      throw new IllegalArgumentException("--m × --epsilon must be <= " + MAX_EXPONENT
          + " (e^(m·epsilon) must stay finite), but was " + allowance * epsilon);
    }
    if (delta != null) {
      Inputs.delta("--delta", delta);
    }
    if (delta == null) {
      return DarrmSetting.withDefaultDelta(teachers, epsilon, teacherDelta, allowance);
    }
    return new DarrmSetting(teachers, new ApproxDp(epsilon, teacherDelta), allowance, delta);
  }
}
