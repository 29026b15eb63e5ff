package dev.tradeoff.accounting.pld;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LazilyTest {

  @Test
  void computesOnFirstUseOnlyAndOnceWhenTwoThreadsAsk() {
    AtomicInteger calls = new AtomicInteger();
    Lazily<Integer> lazily = Lazily.of(() -> {
      calls.incrementAndGet();
      return 42;
    });
    assertThat(lazily.computed()).isFalse();
    assertThat(calls).hasValue(0);
    Concurrently.Both<Integer> both = Concurrently.both(lazily, lazily);
    assertThat(both.first()).isEqualTo(42);
    assertThat(both.second()).isEqualTo(42);
    assertThat(lazily.get()).isEqualTo(42);
    assertThat(calls).hasValue(1);
    assertThat(lazily.computed()).isTrue();
  }

  @Test
  void aValueAlreadyComputedIsReturnedAsIs() {
    Lazily<String> done = Lazily.done("composed");
    assertThat(done.computed()).isTrue();
    assertThat(done.get()).isEqualTo("composed");
  }
}
