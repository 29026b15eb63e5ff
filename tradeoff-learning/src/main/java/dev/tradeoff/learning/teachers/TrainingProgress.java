package dev.tradeoff.learning.teachers;

/**
 * Progress of training an ensemble, for a progress bar: called on the training thread after each
 * step of a teacher and after each teacher.
 */
public interface TrainingProgress {

  /** Teacher {@code finished} of {@code teachers} is trained (1-based). */
  void teacherFinished(int finished, int teachers);

  /** Step {@code step} of {@code steps} of teacher {@code teacher} (1-based) is done. */
  default void stepDone(int teacher, int teachers, int step, int steps) {}

  /** Reports nothing. */
  static TrainingProgress none() {
    return (finished, teachers) -> {};
  }
}
