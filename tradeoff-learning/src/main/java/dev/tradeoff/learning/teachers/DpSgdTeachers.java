package dev.tradeoff.learning.teachers;

import dev.tradeoff.accounting.accountant.Accountant;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.learning.dpsgd.DpSgd;

/**
 * DP-SGD teacher trainers in the setting of [DaRRM24, Section 6.2], from the two ways the command
 * line states them: by the noise (σ, C, epochs), with (ε, Δ) then computed by the accountant, or
 * by the budget (ε, Δ), with σ then calibrated by the accountant. The sampling rate is
 * q = min(1, {@link #EXPECTED_LOT} / ⌊n/K⌋): a lot of 32 on the paper's 909-record shards gives
 * its ε = 0.0852 at σ = 12 (REPRODUCTION.md, "Learning").
 */
public final class DpSgdTeachers {

  /** Expected lot size qn per step. */
  public static final double EXPECTED_LOT = 32;

  /** Learning rate η, tuned on the shipped split at the paper's budget. */
  public static final double LEARNING_RATE = 0.2;

  /** The paper's noise multiplier σ. */
  public static final double PAPER_SIGMA = 12;

  /** The paper's clipping norm C. */
  public static final double PAPER_CLIP = 1;

  /** The paper's number of epochs. */
  public static final double PAPER_EPOCHS = 5;

  /** The paper's Δ. */
  public static final double PAPER_DELTA = 1e-4;

  private DpSgdTeachers() {}

  /** q = min(1, lot / ⌊n/K⌋) for n training records and K teachers. */
  public static double samplingRate(int records, int teachers) {
    int smallest = TeacherEnsemble.shardSizes(records, teachers)[teachers - 1];
    return Math.min(1, EXPECTED_LOT / smallest);
  }

  /** A trainer with the given noise; its (ε, Δ) is computed by the accountant. */
  public static TeacherTrainer.DpSgdTrainer withNoise(
      double sigma,
      double clip,
      double epochs,
      int records,
      int teachers,
      double delta,
      Accountant accountant) {
    DpSgd dpSgd =
        DpSgd.forEpochs(sigma, clip, samplingRate(records, teachers), epochs, LEARNING_RATE, 0);
    return TeacherTrainer.DpSgdTrainer.of(dpSgd, delta, accountant);
  }

  /** A trainer whose σ is the smallest meeting (ε, Δ) per the accountant. */
  public static TeacherTrainer.DpSgdTrainer forBudget(
      double epsilon,
      double delta,
      double clip,
      double epochs,
      int records,
      int teachers,
      Accountant accountant) {
    Require.positive("epsilon", epsilon);
    double q = samplingRate(records, teachers);
    int steps = DpSgd.stepsForEpochs(epochs, q);
    double sigma = DpSgd.calibrateNoiseMultiplier(q, steps, epsilon, delta, accountant);
    DpSgd dpSgd = new DpSgd(sigma, clip, q, steps, LEARNING_RATE, 0);
    return TeacherTrainer.DpSgdTrainer.of(dpSgd, delta, accountant);
  }
}
