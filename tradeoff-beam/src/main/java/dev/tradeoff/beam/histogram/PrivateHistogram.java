package dev.tradeoff.beam.histogram;

import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.beam.budget.PrivateTransform;
import dev.tradeoff.beam.random.ElementRandomness;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.beam.sdk.coders.DoubleCoder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.Distinct;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.Filter;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.Sum;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;

/**
 * A differentially private histogram over a public key domain, for data given as (privacy unit,
 * key) pairs (for instance (user id, visited page)).
 *
 * <p>Contribution bounding, then noise:
 *
 * <ol>
 *   <li>pairs whose key is not in the public domain are dropped (the released keys must not depend
 *       on the data, or their presence alone would leak);
 *   <li>each (unit, key) pair counts once (L∞ = 1);
 *   <li>each unit keeps at most {@code l0} of its distinct keys, chosen uniformly at random (the
 *       unit's keys are sorted first, so the choice does not depend on the order a runner delivers
 *       them);
 *   <li>every key of the domain gets its count (0 if absent) plus independent noise from
 *       {@link HistogramNoise}.
 * </ol>
 *
 * <p>After bounding, adding or removing one unit changes at most l0 counts by 1, which is the
 * sensitivity {@link HistogramNoise} is calibrated for; the whole histogram is one release whose
 * event is {@link #event()}. Noisy counts are doubles (exact integers for the discrete kinds).
 */
public final class PrivateHistogram
    extends PrivateTransform<PCollection<KV<String, String>>, PCollection<KV<String, Double>>> {

  private static final long serialVersionUID = 1L;

  private final List<String> domain;
  private final HistogramNoise noise;
  private final ElementRandomness randomness;

  private PrivateHistogram(List<String> domain, HistogramNoise noise,
      ElementRandomness randomness) {
    this.domain = domain;
    this.noise = noise;
    this.randomness = randomness;
  }

  /**
   * A histogram over the given public keys.
   *
   * @param domain the public keys, non-empty and distinct
   * @param noise the noise and the contribution bound l0
   * @param randomness secure, or seeded when asked for
   */
  public static PrivateHistogram over(List<String> domain, HistogramNoise noise,
      ElementRandomness randomness) {
    Require.nonNull("domain", domain);
    Require.positive("domain size", domain.size());
    Set<String> distinct = new TreeSet<>(domain);
    Require.that(distinct.size() == domain.size(), "domain", "must not repeat a key",
        domain.size() - distinct.size() + " repeated key(s)");
    Require.nonNull("noise", noise);
    Require.nonNull("randomness", randomness);
    return new PrivateHistogram(List.copyOf(distinct), noise, randomness);
  }

  @Override
  public DpEvent event() {
    return noise.event();
  }

  @Override
  public PCollection<KV<String, Double>> expand(PCollection<KV<String, String>> pairs) {
    Set<String> keys = new TreeSet<>(domain);
    KvCoder<String, Long> countCoder = KvCoder.of(StringUtf8Coder.of(), VarLongCoder.of());
    PCollection<KV<String, Long>> bounded = pairs
        .apply("InDomain", Filter.by(kv -> keys.contains(kv.getValue())))
        .apply("OncePerUnitAndKey", Distinct.create())
        .apply("ByUnit", GroupByKey.create())
        .apply("BoundKeysPerUnit", ParDo.of(new BoundContributions(noise.l0(), randomness)))
        .setCoder(countCoder);
    List<KV<String, Long>> zeros = new ArrayList<>();
    for (String key : domain) {
      zeros.add(KV.of(key, 0L));
    }
    PCollection<KV<String, Long>> everyKey = pairs.getPipeline()
        .apply("Domain", Create.of(zeros).withCoder(countCoder));
    return PCollectionList.of(bounded).and(everyKey)
        .apply("Union", Flatten.pCollections())
        .apply("Count", Sum.longsPerKey())
        .apply("Noise", ParDo.of(new AddNoise(noise, randomness)))
        .setCoder(KvCoder.of(StringUtf8Coder.of(), DoubleCoder.of()));
  }

  /** Keeps at most l0 distinct keys per unit, emitting (key, 1) for each kept key. */
  private static final class BoundContributions
      extends DoFn<KV<String, Iterable<String>>, KV<String, Long>> {
    private static final long serialVersionUID = 1L;
    private final int l0;
    private final ElementRandomness randomness;

    BoundContributions(int l0, ElementRandomness randomness) {
      this.l0 = l0;
      this.randomness = randomness;
    }

    @ProcessElement
    public void process(@Element KV<String, Iterable<String>> unit,
        OutputReceiver<KV<String, Long>> out) {
      List<String> keys = new ArrayList<>();
      unit.getValue().forEach(keys::add);
      Collections.sort(keys);
      if (keys.size() > l0) {
        var random = randomness.forElement("histogram-bound", unit.getKey());
        // Partial Fisher-Yates: the first l0 positions become a uniform l0-subset.
        for (int i = 0; i < l0; i++) {
          int j = i + random.nextInt(keys.size() - i);
          Collections.swap(keys, i, j);
        }
        keys = keys.subList(0, l0);
      }
      for (String key : keys) {
        out.output(KV.of(key, 1L));
      }
    }
  }

  /** Adds the calibrated noise to every count. */
  private static final class AddNoise extends DoFn<KV<String, Long>, KV<String, Double>> {
    private static final long serialVersionUID = 1L;
    private final HistogramNoise noise;
    private final ElementRandomness randomness;
    private transient HistogramNoise.Noiser noiser;

    AddNoise(HistogramNoise noise, ElementRandomness randomness) {
      this.noise = noise;
      this.randomness = randomness;
    }

    @Setup
    public void setup() {
      noiser = noise.noiser();
    }

    @ProcessElement
    public void process(@Element KV<String, Long> count, OutputReceiver<KV<String, Double>> out) {
      var random = randomness.forElement("histogram-noise", count.getKey());
      out.output(KV.of(count.getKey(), noiser.noisy(count.getValue(), random)));
    }
  }
}
