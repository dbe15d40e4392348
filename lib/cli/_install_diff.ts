/**
 * Private helper of `rehydrate install --dry-run` / `uninstall --dry-run`: a unified diff of two
 * texts (line LCS, three lines of context). Settings files are small; past a size cap the diff
 * falls back to "every old line out, every new line in", which is still correct.
 *
 * @module
 */

const MAX_CELLS = 4_000_000;
const CONTEXT = 3;

/** A unified diff of `before` and `after` with `--- a/<name>` / `+++ b/<name>` headers; "" when equal. */
export function unifiedDiff(before: string, after: string, name: string): string {
  if (before === after) return "";
  const a = splitLines(before);
  const b = splitLines(after);
  const ops = diffLines(a, b);
  const out = [`--- a/${name}`, `+++ b/${name}`];
  let i = 0;
  while (i < ops.length) {
    if (ops[i].op === " ") {
      i++;
      continue;
    }
    let start = Math.max(0, i - CONTEXT);
    let end = i;
    // Extend the hunk while changes are closer than two contexts apart.
    for (;;) {
      while (end < ops.length && ops[end].op !== " ") end++;
      let next = end;
      while (next < ops.length && ops[next].op === " ") next++;
      if (next < ops.length && next - end <= 2 * CONTEXT) end = next;
      else break;
    }
    const stop = Math.min(ops.length, end + CONTEXT);
    const hunk = ops.slice(start, stop);
    const aStart = ops[start].a;
    const bStart = ops[start].b;
    const aLen = hunk.filter((o) => o.op !== "+").length;
    const bLen = hunk.filter((o) => o.op !== "-").length;
    out.push(`@@ -${aLen === 0 ? aStart : aStart + 1},${aLen} +${bLen === 0 ? bStart : bStart + 1},${bLen} @@`);
    for (const o of hunk) out.push(o.op + o.text);
    i = stop;
    start = stop;
  }
  return out.join("\n") + "\n";
}

interface Op {
  op: " " | "-" | "+";
  text: string;
  /** Lines of `a` / `b` before this one. */
  a: number;
  b: number;
}

function splitLines(text: string): string[] {
  const lines = text.split("\n");
  const noEol = lines[lines.length - 1] !== "";
  if (!noEol) lines.pop();
  const out = lines.map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
  if (noEol && text !== "") out[out.length - 1] += "\n\\ No newline at end of file";
  return out;
}

function diffLines(a: string[], b: string[]): Op[] {
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const ma = a.slice(pre, a.length - suf);
  const mb = b.slice(pre, b.length - suf);
  const ops: Op[] = [];
  for (let k = 0; k < pre; k++) ops.push({ op: " ", text: a[k], a: k, b: k });
  let ai = pre;
  let bi = pre;
  if ((ma.length + 1) * (mb.length + 1) > MAX_CELLS) {
    for (const t of ma) ops.push({ op: "-", text: t, a: ai++, b: bi });
    for (const t of mb) ops.push({ op: "+", text: t, a: ai, b: bi++ });
  } else {
    const w = mb.length + 1;
    const lcs = new Uint32Array((ma.length + 1) * w);
    for (let x = ma.length - 1; x >= 0; x--) {
      for (let y = mb.length - 1; y >= 0; y--) {
        lcs[x * w + y] = ma[x] === mb[y]
          ? lcs[(x + 1) * w + y + 1] + 1
          : Math.max(lcs[(x + 1) * w + y], lcs[x * w + y + 1]);
      }
    }
    let x = 0;
    let y = 0;
    while (x < ma.length || y < mb.length) {
      if (x < ma.length && y < mb.length && ma[x] === mb[y]) {
        ops.push({ op: " ", text: ma[x++], a: ai++, b: bi++ });
        y++;
      } else if (x < ma.length && (y === mb.length || lcs[(x + 1) * w + y] >= lcs[x * w + y + 1])) {
        ops.push({ op: "-", text: ma[x++], a: ai++, b: bi });
      } else {
        ops.push({ op: "+", text: mb[y++], a: ai, b: bi++ });
      }
    }
  }
  for (let k = a.length - suf; k < a.length; k++) ops.push({ op: " ", text: a[k], a: ai++, b: bi++ });
  return ops;
}
