package dev.tradeoff.learning.teachers;

import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.learning.data.Dataset;
import dev.tradeoff.learning.logistic.LogisticModel;
import java.util.Optional;

/** One trained teacher: its model, the size of its shard and, if private, its guarantee. */
public final class Teacher {

  private final LogisticModel model;
  private final int shardSize;
  private final TeacherPrivacy privacy;

  /** A private teacher. */
  public static Teacher privateTeacher(LogisticModel model, int shardSize, TeacherPrivacy privacy) {
    return new Teacher(model, shardSize, Require.nonNull("privacy", privacy));
  }

  /** A non-private teacher (no guarantee). */
  public static Teacher nonPrivate(LogisticModel model, int shardSize) {
    return new Teacher(model, shardSize, null);
  }

  private Teacher(LogisticModel model, int shardSize, TeacherPrivacy privacy) {
    this.model = Require.nonNull("model", model);
    this.shardSize = Require.positive("shardSize", shardSize);
    this.privacy = privacy;
  }

  public LogisticModel model() {
    return model;
  }

  public int shardSize() {
    return shardSize;
  }

  /** The guarantee of a private teacher; empty for a non-private one. */
  public Optional<TeacherPrivacy> privacy() {
    return Optional.ofNullable(privacy);
  }

  /** The teacher's 0/1 vote on row i of the queries. */
  public int vote(Dataset queries, int i) {
    return model.predict(queries, i);
  }
}
