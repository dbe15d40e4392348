// Small text helpers shared by the orchestration modules.

const SPACES = /\s+/g;

/** Collapses runs of whitespace (line breaks of block scalars included) into single spaces. */
export function oneLine(text: string): string {
  return text.replace(SPACES, " ").trim();
}

/** Cuts `text` to at most `max` characters, ending with "…" when cut (never inside a surrogate pair). */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 1) return max === 1 ? "…" : "";
  let end = max - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return text.slice(0, end).trimEnd() + "…";
}

/** A fill fraction as a percentage with one decimal: 0.886 → "88.6". */
export function percent(fraction: number): string {
  return (Math.round(fraction * 1000) / 10).toFixed(1);
}

/**
 * A gate score as the compaction alert shows it (docs/orchestration.md): 0.96 → "0.960"; other
 * values as they are.
 */
export function formatScore(score: number): string {
  const thousandths = score * 1000;
  return Math.abs(thousandths - Math.round(thousandths)) < 1e-6 ? score.toFixed(3) : String(score);
}

/** A path relative to `base` with forward slashes; the path itself when it is not under `base`. */
export function relativePath(base: string, path: string): string {
  const b = base.replace(/\\/g, "/").replace(/\/+$/, "");
  const p = path.replace(/\\/g, "/");
  return p.startsWith(b + "/") ? p.slice(b.length + 1) : p;
}
