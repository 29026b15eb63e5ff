package dev.tradeoff.cli;

import dev.tradeoff.accounting.guarantee.Neighbouring;

/** Small parsing helpers shared by the subcommands. */
final class Cli {

  private Cli() {}

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
