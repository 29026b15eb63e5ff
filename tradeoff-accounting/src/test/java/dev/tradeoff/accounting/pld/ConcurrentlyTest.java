package dev.tradeoff.accounting.pld;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class ConcurrentlyTest {

  @Test
  void bothValuesComeBackInOrder() {
    Concurrently.Both<String> both = Concurrently.both(() -> "upper", () -> "lower");
    assertThat(both.first()).isEqualTo("upper");
    assertThat(both.second()).isEqualTo("lower");
  }

  @Test
  void aFailureOfTheFirstIsRethrownUnwrapped() {
    assertThatThrownBy(() -> Concurrently.both(
            () -> {
              throw new IllegalStateException("first failed");
            },
            () -> "lower"))
        .isExactlyInstanceOf(IllegalStateException.class)
        .hasMessage("first failed");
  }

  @Test
  void aFailureOfTheSecondWaitsForTheFirstAndKeepsItsFailure() {
    AtomicBoolean firstFinished = new AtomicBoolean();
    assertThatThrownBy(() -> Concurrently.both(
            () -> {
              try {
                Thread.sleep(50);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              firstFinished.set(true);
              throw new ArithmeticException("first failed too");
            },
            () -> {
              throw new IllegalArgumentException("second failed");
            }))
        .isExactlyInstanceOf(IllegalArgumentException.class)
        .hasMessage("second failed")
        .satisfies(e -> assertThat(e.getSuppressed())
            .singleElement()
            .isInstanceOf(ArithmeticException.class));
    assertThat(firstFinished).isTrue();
  }
}
