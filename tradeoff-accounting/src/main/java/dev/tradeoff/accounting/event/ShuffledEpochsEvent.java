package dev.tradeoff.accounting.event;

import dev.tradeoff.accounting.internal.Require;

/**
 * Training by shuffled epochs: each epoch draws a uniformly random permutation of the dataset
 * (independent of the data), cuts it into {@code stepsPerEpoch} disjoint batches and runs {@code
 * step} on each, so every record is used exactly once per epoch.
 *
 * <p>Accountants charge it, under replace-one neighbouring only, as {@code epochs} adaptive runs
 * of one unsampled step — no amplification is claimed. For a fixed permutation the differing
 * record is in one batch, so an epoch is an adaptive composition in which one step sees different
 * data (the others are post-processing), and a mixture over permutations with the same weights on
 * both datasets keeps every hockey-stick and Rényi divergence at or below that step's (joint
 * convexity). Known lower bounds (Chua, Ghazi, Kamath, Kumar, Manurangsi, Sinha and Zhang, "How
 * Private are DP-SGD Implementations?", ICML 2024; "Scalable DP-SGD: Shuffling vs. Poisson
 * Subsampling", NeurIPS 2024) put the truth well above Poisson subsampling's ε at the same batch
 * size, so the Poisson analysis is not a valid stand-in. Under add/remove-one the batches of
 * datasets of different sizes are not matched one to one, and accountants refuse the event.
 *
 * @param step the mechanism run on each batch (e.g. one DP-SGD step, a Gaussian)
 * @param epochs the number of epochs ≥ 1
 * @param stepsPerEpoch the number of batches per epoch ≥ 1 (does not change the bound)
 */
public record ShuffledEpochsEvent(DpEvent step, int epochs, int stepsPerEpoch)
    implements DpEvent {
  public ShuffledEpochsEvent {
    Require.nonNull("step", step);
    Require.positive("epochs", epochs);
    Require.positive("stepsPerEpoch", stepsPerEpoch);
  }

  @Override
  public <R> R accept(DpEventVisitor<R> visitor) {
    return visitor.shuffledEpochs(this);
  }
}
