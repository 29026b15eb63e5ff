package dev.tradeoff.beam.pate;

import dev.tradeoff.ensemble.pate.Answer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.util.VarInt;

/**
 * A deterministic coder for one query's {@link Answer}: a tag (0 labelled, 1 abstained, 2 the
 * student's class), then the class for a label, as variable-length integers.
 */
public final class AnswerCoder extends AtomicCoder<Answer> {

  private static final long serialVersionUID = 1L;
  private static final AnswerCoder INSTANCE = new AnswerCoder();

  private AnswerCoder() {}

  public static AnswerCoder of() {
    return INSTANCE;
  }

  @Override
  public void encode(Answer value, OutputStream out) throws IOException {
    if (value instanceof Answer.Labelled l) {
      VarInt.encode(0, out);
      VarInt.encode(l.label(), out);
    } else if (value instanceof Answer.Abstained) {
      VarInt.encode(1, out);
    } else if (value instanceof Answer.Reinforced r) {
      VarInt.encode(2, out);
      VarInt.encode(r.label(), out);
    } else {
      throw new CoderException("cannot encode the Answer " + value);
    }
  }

  @Override
  public Answer decode(InputStream in) throws IOException {
    int tag = VarInt.decodeInt(in);
    return switch (tag) {
      case 0 -> new Answer.Labelled(VarInt.decodeInt(in));
      case 1 -> new Answer.Abstained();
      case 2 -> new Answer.Reinforced(VarInt.decodeInt(in));
      default -> throw new CoderException("unknown Answer tag " + tag);
    };
  }

  @Override
  public void verifyDeterministic() {}
}
