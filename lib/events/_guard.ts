// Private helper of the hook compositions in lib/events/: runs one workflow's part of a hook so
// that its failure is logged and skipped instead of silencing the other workflows.

/** Runs `part`; on an exception logs `<what> failed open: <stack>` and returns null. */
export function guard<T>(ctx: { log(message: string): void }, what: string, part: () => T): T | null {
  try {
    return part();
  } catch (err) {
    ctx.log(`${what} failed open: ${(err as Error)?.stack ?? String(err)}`);
    return null;
  }
}

/** Joins the non-empty parts with a blank line, keeping the total within `maxChars`. */
export function joinWithin(parts: readonly (string | null | undefined)[], maxChars: number): string {
  let out = "";
  for (const part of parts) {
    if (!part) continue;
    const next = out ? `${out}\n\n${part}` : part;
    if (next.length > maxChars) continue;
    out = next;
  }
  return out;
}
