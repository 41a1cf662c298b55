// Moves in the project's notation, SOURCE-TARGET ("P-C2", "H7-C1", "S3-C2", "HK-S1"), and
// the moves grouped by source.

/** Split a move into its source and target: "H7-C1" -> {source: "H7", target: "C1"}. */
export function splitMove(move) {
  const [source, target] = move.toUpperCase().split("-");
  return { source, target };
}

/** The source of a hand card in a move: "7H" -> "H7". */
export function handSource(card) {
  return "H" + card[0].toUpperCase();
}

/** Legal moves grouped by source: Map("H7" -> ["C1", "S1", ...]). */
export function movesBySource(legalMoves) {
  const map = new Map();
  for (const move of legalMoves ?? []) {
    const { source, target } = splitMove(move);
    if (!map.has(source)) map.set(source, []);
    map.get(source).push(target);
  }
  return map;
}
