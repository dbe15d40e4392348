/**
 * Private helper of the Codex verbs: the few edits rehydrate makes to the user's Codex
 * `config.toml`, as text, line by line, so that everything else in the file stays byte for byte
 * (comments, order, the client's own formatting). Only one shape is written and edited, the one
 * the client writes itself when the user trusts a hook in its review:
 *
 * ```toml
 * [hooks.state."/home/me/work/app/.codex/hooks.json:session_start:0:0"]
 * trusted_hash = "sha256:…"
 * ```
 *
 * A file that names a key in any other form (an inline table, dotted keys), or defines
 * `hooks.state` as a value, is refused rather than edited: a second definition would make the
 * whole file invalid TOML, and Codex would then not start.
 *
 * @module
 */

/** What an edit gives: the new text, or why the file was left alone. */
export type TomlEdit = { text: string } | { error: string };

/** A table header line: `[a.b."c"]` or `[[a]]`, with an optional comment. */
const HEADER = /^\s*\[\[?([^\]]*)\]\]?\s*(?:#.*)?$/;
const TRUSTED = /^(\s*trusted_hash\s*=\s*)("(?:[^"\\]|\\.)*"|'[^']*')(\s*(?:#.*)?)$/;

/** `[hooks.state."<key>"]` as the client writes it. */
function headerOf(key: string): string {
  return `[hooks.state.${JSON.stringify(key)}]`;
}

/** The key of a `[hooks.state."<key>"]` header line, or undefined. */
function stateKey(line: string): string | undefined {
  const m = HEADER.exec(line);
  if (m === null) return undefined;
  const inner = /^hooks\s*\.\s*state\s*\.\s*("(?:[^"\\]|\\.)*")$/.exec(m[1].trim());
  if (inner === null) return undefined;
  try {
    return JSON.parse(inner[1]);
  } catch {
    return undefined;
  }
}

/** Where each table starts: its header's line index, and one past its last line. */
function tables(lines: string[]): { name: string; start: number; end: number }[] {
  const out: { name: string; start: number; end: number }[] = [];
  lines.forEach((line, i) => {
    const m = HEADER.exec(line);
    if (m === null) return;
    if (out.length > 0) out[out.length - 1].end = i;
    out.push({ name: m[1].trim(), start: i, end: lines.length });
  });
  return out;
}

/**
 * Why the file cannot take `[hooks.state."<key>"]` tables: it defines `hooks` or `hooks.state`
 * as a value (`hooks = {…}`, `state = {…}` under `[hooks]`, dotted `hooks.state…` keys), or
 * names `key` outside such a table. Null when it can.
 */
function refusal(lines: string[], keys: readonly string[]): string | null {
  let table = "";
  for (const line of lines) {
    const m = HEADER.exec(line);
    if (m !== null) {
      table = m[1].replace(/\s+/g, "");
      continue;
    }
    const t = line.trim();
    if (t === "" || t.startsWith("#")) continue;
    if (table === "" && /^hooks\s*[.=]/.test(t)) return "it sets hooks as a value at its top level";
    if (table === "hooks" && /^state\s*[.=]/.test(t)) return "it sets hooks.state as a value";
  }
  for (const key of keys) {
    const quoted = JSON.stringify(key);
    for (const line of lines) {
      if (line.includes(quoted) && stateKey(line) !== key) return `it names ${quoted} outside a [hooks.state] table`;
    }
  }
  return null;
}

/**
 * `text` (null: no file) with `trusted_hash` set for each entry: the value replaced in the key's
 * table when there is one (its other lines kept), else a new table appended at the end, a blank
 * line before it. Refused as the module's note says.
 *
 * @example
 * ```ts
 * setTrustedHashes('model = "gpt-5.5"\n', [{ key: "/w/.codex/hooks.json:pre_compact:0:0", hash: "sha256:ab" }]);
 * // { text: 'model = "gpt-5.5"\n\n[hooks.state."/w/.codex/hooks.json:pre_compact:0:0"]\ntrusted_hash = "sha256:ab"\n' }
 * ```
 */
export function setTrustedHashes(text: string | null, entries: readonly { key: string; hash: string }[]): TomlEdit {
  const eol = text !== null && text.includes("\r\n") ? "\r\n" : "\n";
  let lines = (text ?? "").split(/\r?\n/);
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  const problem = refusal(lines, entries.map((e) => e.key));
  if (problem !== null) return { error: problem };
  for (const { key, hash } of entries) {
    const found = tables(lines).find((t) => stateKey(lines[t.start]) === key);
    const value = JSON.stringify(hash);
    if (found === undefined) {
      if (lines.length > 0 && lines[lines.length - 1].trim() !== "") lines.push("");
      lines.push(headerOf(key), `trusted_hash = ${value}`);
      continue;
    }
    let set = false;
    for (let i = found.start + 1; i < found.end && !set; i++) {
      const m = TRUSTED.exec(lines[i]);
      if (m !== null) {
        lines[i] = m[1] + value + m[3];
        set = true;
      }
    }
    if (!set) lines = [...lines.slice(0, found.start + 1), `trusted_hash = ${value}`, ...lines.slice(found.start + 1)];
  }
  return { text: lines.length === 0 ? "" : lines.join(eol) + eol };
}

/**
 * `text` without the `[hooks.state."<key>"]` tables of `keys` (each with the blank line before it),
 * and the `trusted_hash` of each `moves` entry carried from its old key's table to a new one (when
 * the hooks after ours moved up a place). Tables that are not there are skipped.
 *
 * @example
 * ```ts
 * removeTrustedHashes('a = 1\n\n[hooks.state."k"]\ntrusted_hash = "sha256:ab"\n', ["k"]); // { text: "a = 1\n" }
 * ```
 */
export function removeTrustedHashes(
  text: string,
  keys: readonly string[],
  moves: readonly { from: string; to: string; hash: string }[] = [],
): TomlEdit {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  let lines = text.split(/\r?\n/);
  const trailing = lines.length > 0 && lines[lines.length - 1] === "";
  if (trailing) lines.pop();
  const gone = new Set([...keys, ...moves.map((m) => m.from)]);
  for (;;) {
    const t = tables(lines).find((x) => {
      const k = stateKey(lines[x.start]);
      return k !== undefined && gone.has(k);
    });
    if (t === undefined) break;
    // The header and the table's lines up to its trailing blank lines, which part it from the next.
    let end = t.end;
    while (end > t.start + 1 && lines[end - 1].trim() === "") end--;
    let start = t.start;
    if (start > 0 && lines[start - 1].trim() === "") start--;
    lines = [...lines.slice(0, start), ...lines.slice(end)];
  }
  let out = lines.length === 0 ? "" : lines.join(eol) + (trailing ? eol : "");
  if (moves.length > 0) {
    const set = setTrustedHashes(out, moves.map((m) => ({ key: m.to, hash: m.hash })));
    if ("error" in set) return set;
    out = set.text;
  }
  return { text: out };
}

/**
 * The `trusted_hash` of every `[hooks.state."<key>"]` table of `text`, by key.
 *
 * @example
 * ```ts
 * trustedHashes('[hooks.state."k"]\ntrusted_hash = "sha256:ab"\n').get("k"); // "sha256:ab"
 * ```
 */
export function trustedHashes(text: string | null): Map<string, string> {
  const out = new Map<string, string>();
  if (text === null) return out;
  const lines = text.split(/\r?\n/);
  for (const t of tables(lines)) {
    const key = stateKey(lines[t.start]);
    if (key === undefined) continue;
    for (let i = t.start + 1; i < t.end; i++) {
      const m = TRUSTED.exec(lines[i]);
      if (m === null) continue;
      const raw = m[2];
      try {
        out.set(key, raw.startsWith("'") ? raw.slice(1, -1) : JSON.parse(raw));
      } catch { /* not a value we read */ }
      break;
    }
  }
  return out;
}

/**
 * True when `text` trusts the project `dir`: `[projects."<dir>"]` with `trust_level = "trusted"`,
 * as `codex exec --trust` or the interactive client's question writes it. Codex loads a
 * project's `.codex/` folder, and the hooks in it, only then.
 *
 * @example
 * ```ts
 * projectTrusted('[projects."/w"]\ntrust_level = "trusted"\n', "/w"); // true
 * ```
 */
export function projectTrusted(text: string | null, dir: string): boolean {
  if (text === null) return false;
  const lines = text.split(/\r?\n/);
  for (const t of tables(lines)) {
    const m = /^projects\s*\.\s*("(?:[^"\\]|\\.)*"|'[^']*')$/.exec(t.name);
    if (m === null) continue;
    let name: string;
    try {
      name = m[1].startsWith("'") ? m[1].slice(1, -1) : JSON.parse(m[1]);
    } catch {
      continue;
    }
    if (name !== dir) continue;
    for (let i = t.start + 1; i < t.end; i++) {
      if (/^\s*trust_level\s*=\s*["']trusted["']\s*(?:#.*)?$/.test(lines[i])) return true;
    }
  }
  return false;
}
