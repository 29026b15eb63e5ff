package dev.tradeoff.cli.account;

import dev.tradeoff.accounting.guarantee.Neighbouring;

/**
 * The {@code --neighbouring} flag of {@code account compose} and {@code account calibrate}:
 * add-remove or replace.
 */
final class NeighbouringFlag {

  private NeighbouringFlag() {}

  static Neighbouring neighbouring(String text) {
    switch (text) {
      case "add-remove":
        return Neighbouring.ADD_OR_REMOVE_ONE;
      case "replace":
        return Neighbouring.REPLACE_ONE;
      default:
        throw new IllegalArgumentException(
            "--neighbouring must be add-remove or replace, but was '" + text + "'");
    }
  }

  static String name(Neighbouring relation) {
    return relation == Neighbouring.ADD_OR_REMOVE_ONE ? "add-remove" : "replace";
  }
}
