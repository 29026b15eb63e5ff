package dev.tradeoff.learning.teachers;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.learning.data.Dataset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * K teachers trained on K disjoint shards of the training data (PATE, Papernot et al. 2017; the
 * [DaRRM24, Section 6.2]). The records are shuffled with an explicit, public seed (the order
 * does not depend on the records' values), then cut into K contiguous shards whose sizes differ by
 * at most one. Teachers are trained one after another with the one supplied generator, so a seeded
 * generator reproduces the ensemble exactly.
 *
 * <p>Privacy: the shards are disjoint and the partition is a function of record positions and the
 * seed alone, so for neighbouring datasets that keep the other records' positions, one record
 * reaches exactly one teacher and the vote vector inherits the per-teacher guarantee (parallel
 * composition). {@link #perTeacherPrivacy()} is the largest guarantee of any teacher.
 */
public final class TeacherEnsemble {

  private final List<Teacher> teachers;

  private TeacherEnsemble(List<Teacher> teachers) {
    this.teachers = List.copyOf(teachers);
  }

  /** An ensemble of already trained teachers. */
  public static TeacherEnsemble of(List<Teacher> teachers) {
    Require.nonNull("teachers", teachers);
    Require.positive("teachers.size", teachers.size());
    int d = teachers.get(0).model().dimension();
    for (Teacher t : teachers) {
      Require.that(t.model().dimension() == d, "teacher dimension", "must all equal " + d,
          t.model().dimension());
    }
    return new TeacherEnsemble(teachers);
  }

  /**
   * Shard sizes for n records and K teachers: the first n mod K shards get one record more.
   *
   * @throws IllegalArgumentException if K &gt; n
   */
  public static int[] shardSizes(int records, int teachers) {
    Require.positive("records", records);
    Require.positive("teachers", teachers);
    Require.that(
        teachers <= records,
        "teachers",
        "must be <= the number of training records " + records,
        teachers);
    int[] sizes = new int[teachers];
    for (int t = 0; t < teachers; t++) {
      sizes[t] = records / teachers + (t < records % teachers ? 1 : 0);
    }
    return sizes;
  }

  /**
   * The K disjoint shards: the data shuffled by a {@link SplittableRandom} seeded with
   * {@code shuffleSeed}, cut by {@link #shardSizes}.
   */
  public static List<Dataset> shards(Dataset data, int teachers, long shuffleSeed) {
    Require.nonNull("data", data);
    int[] sizes = shardSizes(data.size(), teachers);
    Dataset shuffled = data.shuffled(new SplittableRandom(shuffleSeed));
    List<Dataset> shards = new ArrayList<>(teachers);
    int from = 0;
    for (int size : sizes) {
      shards.add(shuffled.slice(from, from + size));
      from += size;
    }
    return shards;
  }

  /**
   * Trains K teachers on K disjoint shards.
   *
   * @param data the sensitive training data
   * @param teachers K, 1 ≤ K ≤ n
   * @param shuffleSeed the public seed of the shard assignment
   * @param trainer how each teacher is trained
   * @param random the training randomness: {@code Randomness.secure()} in production
   * @param progress receives per-step and per-teacher progress
   */
  public static TeacherEnsemble train(
      Dataset data,
      int teachers,
      long shuffleSeed,
      TeacherTrainer trainer,
      RandomGenerator random,
      TrainingProgress progress) {
    Require.nonNull("trainer", trainer);
    Require.nonNull("random", random);
    Require.nonNull("progress", progress);
    List<Dataset> shards = shards(data, teachers, shuffleSeed);
    List<Teacher> trained = new ArrayList<>(teachers);
    for (int t = 0; t < teachers; t++) {
      int teacher = t + 1;
      trained.add(
          trainer.train(
              shards.get(t),
              random,
              (step, steps) -> progress.stepDone(teacher, teachers, step, steps)));
      progress.teacherFinished(teacher, teachers);
    }
    return new TeacherEnsemble(trained);
  }

  public List<Teacher> teachers() {
    return teachers;
  }

  /** K. */
  public int size() {
    return teachers.size();
  }

  /**
   * The guarantee that holds for every teacher: the one with the largest ε (then Δ); empty if any
   * teacher is non-private.
   */
  public Optional<TeacherPrivacy> perTeacherPrivacy() {
    List<TeacherPrivacy> all = new ArrayList<>();
    for (Teacher t : teachers) {
      if (t.privacy().isEmpty()) {
        return Optional.empty();
      }
      all.add(t.privacy().get());
    }
    Comparator<TeacherPrivacy> order =
        Comparator.comparingDouble((TeacherPrivacy p) -> p.guarantee().epsilon())
            .thenComparingDouble(p -> p.guarantee().delta());
    TeacherPrivacy worst = all.stream().max(order).orElseThrow();
    for (TeacherPrivacy p : all) {
      ApproxDp g = p.guarantee();
      Require.that(
          g.epsilon() <= worst.guarantee().epsilon() && g.delta() <= worst.guarantee().delta(),
          "teacher guarantees",
          "must be ordered in both epsilon and delta",
          g);
    }
    return Optional.of(worst);
  }

  /** Each teacher's 0/1 vote on each query row. */
  public VoteMatrix votes(Dataset queries) {
    Require.nonNull("queries", queries);
    int k = teachers.size();
    byte[] votes = new byte[queries.size() * k];
    for (int t = 0; t < k; t++) {
      int[] predictions = teachers.get(t).model().predict(queries);
      for (int q = 0; q < predictions.length; q++) {
        votes[q * k + t] = (byte) predictions[q];
      }
    }
    return new VoteMatrix(queries.size(), k, votes);
  }

  /** Accuracy of each teacher on the labelled data. */
  public double[] accuracies(Dataset labelled) {
    double[] out = new double[teachers.size()];
    for (int t = 0; t < out.length; t++) {
      out[t] = teachers.get(t).model().accuracy(labelled);
    }
    return out;
  }
}
