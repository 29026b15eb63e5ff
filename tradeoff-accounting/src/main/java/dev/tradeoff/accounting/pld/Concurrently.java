package dev.tradeoff.accounting.pld;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ForkJoinPool;
import java.util.function.Supplier;

/**
 * Runs the upper- and the lower-bound computations of a PLD side by side: they are independent and
 * of the same size, so on two cores they take the time of one. The first runs on the common
 * fork-join pool (even where its parallelism is 1, rather than on a new thread per call), the
 * second on the calling thread; the call returns only when both are done, so no work outlives it,
 * and a failure is rethrown unwrapped (the other's failure, if any, is added as suppressed).
 */
final class Concurrently {

  private Concurrently() {}

  /** Both values, in order: {@code first} computed on the common pool, {@code second} here. */
  static <T> Both<T> both(Supplier<T> first, Supplier<T> second) {
    CompletableFuture<T> pending = CompletableFuture.supplyAsync(first, ForkJoinPool.commonPool());
    T secondValue;
    try {
      secondValue = second.get();
    } catch (RuntimeException | Error e) {
      Throwable other = pending.handle((value, failure) -> failure).join();
      if (other != null) {
        e.addSuppressed(other instanceof CompletionException && other.getCause() != null
            ? other.getCause() : other);
      }
      throw e;
    }
    try {
      return new Both<>(pending.join(), secondValue);
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException cause) {
        throw cause;
      }
      if (e.getCause() instanceof Error cause) {
        throw cause;
      }
      throw e;
    }
  }

  /** Two results of the same type. */
  record Both<T>(T first, T second) {}
}
