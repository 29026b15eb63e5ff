package dev.tradeoff.beam.shuffle;

import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.guarantee.GaussianDp;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.beam.budget.PrivateTransform;
import dev.tradeoff.beam.random.ElementRandomness;
import dev.tradeoff.shuffle.analysis.ShuffleReport;
import dev.tradeoff.shuffle.protocol.LocalRandomizer;
import dev.tradeoff.shuffle.protocol.ShuffleParameters;
import dev.tradeoff.shuffle.protocol.UnaryEncoder;
import org.apache.beam.sdk.coders.DoubleCoder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.transforms.Combine;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.SerializableBiFunction;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;

/**
 * The shuffle-model sum P^R_{n,λ,r} ([ShuffleGDP21, Algorithm 3]; Cheu et al. 2019) over a
 * collection of (user, value in [0, 1]) pairs: every user encodes its value in r bits
 * ({@link UnaryEncoder}) and randomizes each ({@link LocalRandomizer}) with its own coins; the
 * analyzer sees only how many of the n·r messages are 1 (a sum is invariant under the shuffler's
 * permutation, so no message order is ever materialised), and returns the debiased estimate
 * n/(r(n − λ)) · (Σ y − λ r/2) of Σ x_i.
 *
 * <p>The guarantee is μ-GDP with μ from the shuffle module's exact analysis
 * ({@link ShuffleReport#exact()}, never more than the exact trade-off curve allows); it holds for
 * exactly n distinct users, which the analyzer checks (n·r messages) before it releases the sum.
 */
public final class ShuffleSum extends PrivateTransform<PCollection<KV<String, Double>>,
    PCollection<Double>> {

  private static final long serialVersionUID = 1L;

  private final int users;
  private final double lambda;
  private final int bits;
  private final double mu;
  private final ElementRandomness randomness;

  private ShuffleSum(int users, double lambda, int bits, double mu, ElementRandomness randomness) {
    this.users = users;
    this.lambda = lambda;
    this.bits = bits;
    this.mu = mu;
    this.randomness = randomness;
  }

  /**
   * The protocol for {@code users} users with blanket parameter λ and r = {@code bits} bits per
   * user; its μ is computed here, before any pipeline runs.
   */
  public static ShuffleSum of(int users, double lambda, int bits, ElementRandomness randomness) {
    ShuffleParameters parameters = new ShuffleParameters(users, lambda);
    Require.positive("bits", bits);
    Require.nonNull("randomness", randomness);
    double mu = ShuffleReport.of(parameters, bits, 1e-6).exact().mu();
    return new ShuffleSum(users, lambda, bits, mu, randomness);
  }

  /** μ of the μ-GDP guarantee of one sum. */
  public double mu() {
    return mu;
  }

  @Override
  public DpEvent event() {
    return new GuaranteeEvent(new GaussianDp(mu));
  }

  @Override
  public PCollection<Double> expand(PCollection<KV<String, Double>> values) {
    SerializableBiFunction<KV<Long, Long>, KV<Long, Long>, KV<Long, Long>> add =
        (a, b) -> KV.of(a.getKey() + b.getKey(), a.getValue() + b.getValue());
    return values
        .apply("Randomize", ParDo.of(new Randomize(users, lambda, bits, randomness)))
        .setCoder(KvCoder.of(VarLongCoder.of(), VarLongCoder.of()))
        .apply("CountOnes", Combine.globally(add::apply).withoutDefaults())
        .setCoder(KvCoder.of(VarLongCoder.of(), VarLongCoder.of()))
        .apply("Analyze", ParDo.of(new Analyze(users, lambda, bits)))
        .setCoder(DoubleCoder.of());
  }

  /** One user's r messages, reduced to (ones, messages). */
  private static final class Randomize extends DoFn<KV<String, Double>, KV<Long, Long>> {
    private static final long serialVersionUID = 1L;
    private final int users;
    private final double lambda;
    private final int bits;
    private final ElementRandomness randomness;
    private transient UnaryEncoder encoder;
    private transient LocalRandomizer randomizer;

    Randomize(int users, double lambda, int bits, ElementRandomness randomness) {
      this.users = users;
      this.lambda = lambda;
      this.bits = bits;
      this.randomness = randomness;
    }

    @Setup
    public void setup() {
      encoder = new UnaryEncoder(bits);
      randomizer = new LocalRandomizer(new ShuffleParameters(users, lambda));
    }

    @ProcessElement
    public void process(@Element KV<String, Double> user, OutputReceiver<KV<Long, Long>> out) {
      double x = user.getValue();
      Require.that(x >= 0 && x <= 1, "value of user " + user.getKey(), "must be in [0, 1]", x);
      var random = randomness.forElement("shuffle-sum", user.getKey());
      long ones = 0;
      for (int b : encoder.encode(x, random)) {
        ones += randomizer.randomize(b, random);
      }
      out.output(KV.of(ones, (long) bits));
    }
  }

  /** The analyzer: checks n·r messages arrived, then debiases. */
  private static final class Analyze extends DoFn<KV<Long, Long>, Double> {
    private static final long serialVersionUID = 1L;
    private final int users;
    private final double lambda;
    private final int bits;

    Analyze(int users, double lambda, int bits) {
      this.users = users;
      this.lambda = lambda;
      this.bits = bits;
    }

    @ProcessElement
    public void process(@Element KV<Long, Long> total, OutputReceiver<Double> out) {
      long expected = (long) users * bits;
      if (total.getValue() != expected) {
        throw new IllegalArgumentException("messages must number users * bits = " + expected
            + " (the guarantee holds for exactly " + users + " users), but were "
            + total.getValue());
      }
      out.output(users / (bits * (users - lambda)) * (total.getKey() - lambda * bits / 2));
    }
  }
}
