#!/usr/bin/env node
/**
 * Prints the CHANGELOG.md section of one version: the release notes of its GitHub release.
 *
 *   node scripts/release-notes.ts 0.2.0            (or v0.2.0; Node 22.18+, Bun or Deno)
 *   node scripts/release-notes.ts 0.2.0 --changelog path/to/CHANGELOG.md
 *
 * A section starts at a `## ` heading naming the version (`## 0.2.0`, `## [0.2.0] - 2026-12-01`,
 * `## v0.2.0`) and ends at the next `## ` heading. Exits 1 with a one-line error when the version
 * has no section or an empty one: a release without notes is refused, not published.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The body of `version`'s section in a Keep-a-Changelog style text, trimmed. Headings inside
 * fenced code blocks do not count. Throws when the section is missing or empty.
 *
 * @example
 * ```ts
 * releaseNotes("# Changelog\n\n## Unreleased\n\n## 0.2.0\n- Fixed it\n", "0.2.0"); // "- Fixed it"
 * ```
 */
export function releaseNotes(changelog: string, version: string): string {
  const want = version.replace(/^v/, "");
  const lines = changelog.replace(/^\uFEFF/, "").split(/\r?\n/);
  let fence = false;
  let start = -1;
  let end = lines.length;
  for (let i = 0; i < lines.length; i++) {
    if (/^\s*(```|~~~)/.test(lines[i])) fence = !fence;
    if (fence || !lines[i].startsWith("## ")) continue;
    if (start >= 0) {
      end = i;
      break;
    }
    const heading = lines[i].slice(3).trim().match(/^\[?v?([^\]\s]+)\]?(?:\s|$)/);
    if (heading && heading[1] === want) start = i + 1;
  }
  if (start < 0) {
    throw new Error(`CHANGELOG.md has no "## ${want}" section; rename "## Unreleased" to it before tagging`);
  }
  const body = lines.slice(start, end).join("\n").trim();
  if (body === "") throw new Error(`CHANGELOG.md's "## ${want}" section is empty`);
  return body;
}

function main(argv: string[]): number {
  const args = [...argv];
  let changelog = join(import.meta.dirname ?? ".", "..", "CHANGELOG.md");
  const at = args.indexOf("--changelog");
  if (at >= 0) {
    if (!args[at + 1]) return fail("--changelog needs a path");
    changelog = args[at + 1];
    args.splice(at, 2);
  }
  if (args.length !== 1 || args[0].startsWith("-")) return fail("usage: release-notes.ts VERSION [--changelog PATH]");
  try {
    process.stdout.write(releaseNotes(readFileSync(changelog, "utf8"), args[0]) + "\n");
    return 0;
  } catch (err) {
    return fail((err as Error).message);
  }
}

function fail(message: string): number {
  process.stderr.write(`release-notes: ${message}\n`);
  return 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
