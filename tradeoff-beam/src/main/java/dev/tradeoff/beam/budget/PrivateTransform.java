package dev.tradeoff.beam.budget;

import dev.tradeoff.accounting.event.DpEvent;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.values.PInput;
import org.apache.beam.sdk.values.POutput;

/**
 * A Beam transform that releases something differentially private and says, before anything runs,
 * what one application of it costs as an accounting event (all of its releases together, e.g. Q
 * self-composed queries). {@link PrivatePipeline#apply} records the event so that the run's
 * guarantee can be checked against the budget before the pipeline starts.
 */
public abstract class PrivateTransform<I extends PInput, O extends POutput> extends PTransform<I, O> {

  private static final long serialVersionUID = 1L;

  /** What one application of this transform releases, as an event for the accountants. */
  public abstract DpEvent event();
}
