package dev.tradeoff.accounting.event;

import dev.tradeoff.accounting.internal.Require;

/**
 * The inner event run on a uniformly random subset of fixed size m drawn without replacement from
 * the n records. Amplification is analysed under replace-one neighbouring.
 *
 * @param datasetSize n ≥ 1
 * @param sampleSize m in [1, n]
 * @param event the event run on the subsample
 */
public record SampledWithoutReplacementEvent(int datasetSize, int sampleSize, DpEvent event)
    implements DpEvent {
  public SampledWithoutReplacementEvent {
    Require.positive("datasetSize", datasetSize);
    Require.inClosedRange("sampleSize", sampleSize, 1, datasetSize);
    Require.nonNull("event", event);
  }

  @Override
  public <R> R accept(DpEventVisitor<R> visitor) {
    return visitor.sampledWithoutReplacement(this);
  }
}
