// Parses "1.10, 2.20" into [1.1, 2.2].
export function parsePrices(text) {
  return text.split(",").map((s) => Number(s.trim())).filter((n) => Number.isFinite(n));
}
