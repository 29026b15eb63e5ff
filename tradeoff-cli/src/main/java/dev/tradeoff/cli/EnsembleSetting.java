package dev.tradeoff.cli;

import dev.tradeoff.accounting.Require;
import dev.tradeoff.accounting.guarantee.ApproxDp;
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

  DarrmSetting setting() {
    return build(teachers, allowance, epsilon, teacherDelta, delta);
  }

  static DarrmSetting build(int teachers, double allowance, double epsilon, double teacherDelta,
      Double delta) {
    Require.positive("K (teachers)", teachers);
    Require.that(teachers % 2 == 1, "K (teachers)", "must be odd", teachers);
    Require.positive("epsilon", epsilon);
    Require.delta("teacher delta", teacherDelta);
    Require.inClosedRange("m", allowance, 1, teachers);
    if (delta == null) {
      return DarrmSetting.withDefaultDelta(teachers, epsilon, teacherDelta, allowance);
    }
    return new DarrmSetting(teachers, new ApproxDp(epsilon, teacherDelta), allowance, delta);
  }
}
