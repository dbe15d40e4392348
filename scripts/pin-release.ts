#!/usr/bin/env node
/**
 * Pins a release into the installer and the plugin launcher: writes the release's SHA-256 hashes,
 * its version and the GitHub repository (package.json's "repository", the one place it is set)
 * into the pinned block of `install.sh` and `plugin/rehydrate-launcher`, so that both check a
 * download against hashes that travel with them, never against a SHA256SUMS fetched from the same
 * place as the binary (SECURITY.md, "Supply chain").
 *
 *   node scripts/pin-release.ts                     dist/release/SHA256SUMS → dist/release/install.sh
 *                                                   and dist/release/rehydrate-launcher (release assets)
 *   node scripts/pin-release.ts --release-dir DIR   the same for another release directory
 *   node scripts/pin-release.ts --tree              also pin the tracked install.sh and
 *                                                   plugin/rehydrate-launcher (the plugin ships from git)
 *   node scripts/pin-release.ts --repository owner/name   instead of package.json's
 *
 * build.ts --release runs it on its output. Exits 1 with a one-line error when the repository is
 * missing or a placeholder, or when SHA256SUMS does not list exactly this version's binaries.
 */
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const ROOT = resolve(import.meta.dirname!, "..");

/** What a release pins: where it is published, its version, and one `<sha256>  <file>` line per binary. */
export interface Pins {
  repo: string;
  version: string;
  sums: string[];
}

const BLOCK_START = "# --- pinned by scripts/pin-release.ts";
const BLOCK_END = "# --- end of pinned values ---";
const SLUG = /^[A-Za-z0-9][A-Za-z0-9-]{0,38}\/[A-Za-z0-9._-]{1,100}$/;
const VERSION = /^[0-9]+\.[0-9]+\.[0-9]+(?:[-+][0-9A-Za-z.-]+)?$/;

/**
 * The GitHub `owner/name` of a package.json `repository` field (`"owner/name"`, `"github:owner/name"`,
 * or `{ "url": "git+https://github.com/owner/name.git" }`). Throws when it is missing, is not on
 * GitHub, or is the `OWNER/...` placeholder: no artifact may ship without a real download location.
 *
 * @example
 * ```ts
 * repositorySlug({ repository: { type: "git", url: "git+https://github.com/acme/rehydrate.git" } }); // "acme/rehydrate"
 * ```
 */
export function repositorySlug(pkg: { repository?: unknown }): string {
  const field = pkg.repository;
  const url = typeof field === "string"
    ? field
    : field && typeof field === "object" && typeof (field as { url?: unknown }).url === "string"
    ? (field as { url: string }).url
    : "";
  if (url === "") {
    throw new Error('package.json has no "repository": set it to the GitHub repository releases are published from');
  }
  const m = url.match(/^(?:github:)?([^/:\s]+\/[^/\s]+?)(?:\.git)?$/) ??
    url.match(/^(?:git\+)?(?:https|ssh|git):\/\/(?:git@)?github\.com\/([^/\s]+\/[^/\s]+?)(?:\.git)?\/?$/);
  const slug = m?.[1] ?? "";
  if (!SLUG.test(slug)) throw new Error(`package.json's "repository" (${url}) is not a GitHub repository`);
  if (/^owner\//i.test(slug)) throw new Error(`package.json's "repository" is the placeholder ${slug}`);
  return slug;
}

/**
 * The `<sha256>  <file>` lines of a SHA256SUMS text that name `version`'s binaries. Throws on a
 * malformed line or a file of another version, so a stale SHA256SUMS is never pinned.
 *
 * @example
 * ```ts
 * parseSums(`${"a".repeat(64)}  rehydrate-0.2.0-linux-x64\n`, "0.2.0"); // ["aaaa…  rehydrate-0.2.0-linux-x64"]
 * ```
 */
export function parseSums(text: string, version: string): string[] {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== "");
  if (lines.length === 0) throw new Error("SHA256SUMS lists no file");
  const prefix = `rehydrate-${version}-`;
  const pinned = lines.flatMap((line) => {
    const m = line.match(/^([0-9a-f]{64}) [ *]([A-Za-z0-9._-]+)$/);
    if (!m) {
      throw new Error(`SHA256SUMS has a line that is not "<sha256>  <file>": ${JSON.stringify(line.slice(0, 80))}`);
    }
    if (!m[2].startsWith("rehydrate-")) return []; // a per-hook binary of `build.ts --only`: not downloaded
    if (!m[2].startsWith(prefix)) throw new Error(`SHA256SUMS names ${m[2]}, which is not a ${version} binary`);
    return [`${m[1]}  ${m[2]}`];
  });
  if (pinned.length === 0) throw new Error("SHA256SUMS lists no rehydrate binary");
  return pinned;
}

/**
 * `script` (install.sh or the plugin launcher) with its pinned block filled in: `REPO=`,
 * `PINNED_VERSION=`, `VERSION=` and `PINNED_SUMS=` take the release's values; every other line
 * stays as it is. Throws when the script has no pinned block, or when a launcher's `VERSION=` is
 * not the release's (the plugin would then look for another binary than it pins).
 *
 * @example
 * ```ts
 * pinScript('# --- pinned by scripts/pin-release.ts\nREPO=""\n# --- end of pinned values ---\n', {
 *   repo: "acme/rehydrate", version: "0.2.0", sums: [],
 * }); // '...REPO="acme/rehydrate"...'
 * ```
 */
export function pinScript(script: string, pins: Pins): string {
  if (!SLUG.test(pins.repo)) throw new Error(`not a GitHub owner/name: ${pins.repo}`);
  if (!VERSION.test(pins.version)) throw new Error(`not a release version: ${pins.version}`);
  const start = script.indexOf(BLOCK_START);
  const end = script.indexOf(BLOCK_END, start);
  if (start < 0 || end < 0) throw new Error("the script has no pinned block");
  const version = script.slice(start, end).match(/^VERSION=(.*)$/m);
  if (version && version[1] !== pins.version) {
    throw new Error(`the launcher has VERSION=${version[1]}, not ${pins.version}; set it to package.json's version`);
  }
  // A PINNED_SUMS of an earlier pinning spans several lines, up to its closing quote.
  const block = script.slice(start, end)
    .replace(/^REPO="[^"]*"$/m, `REPO="${pins.repo}"`)
    .replace(/^PINNED_VERSION="[^"]*"$/m, `PINNED_VERSION="${pins.version}"`)
    .replace(/^PINNED_SUMS="[^"]*"$/m, `PINNED_SUMS="${pins.sums.join("\n")}"`);
  return script.slice(0, start) + block + script.slice(end);
}

function main(argv: string[]): number {
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        "release-dir": { type: "string", default: join(ROOT, "dist", "release") },
        tree: { type: "boolean", default: false },
        repository: { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
    });
    if (values.help) {
      console.log(
        readFileSync(fileURLToPath(import.meta.url), "utf8").split("\n").slice(2, 18).map((l) =>
          l.replace(/^ \* ?/, "")
        ).join("\n"),
      );
      return 0;
    }
    pinRelease(values["release-dir"]!, { tree: values.tree, repository: values.repository });
    return 0;
  } catch (err) {
    console.error(`pin-release: ${(err as Error).message}`);
    return 1;
  }
}

/**
 * Writes `dir/install.sh` and `dir/rehydrate-launcher` pinned to the release in `dir` (its
 * SHA256SUMS, package.json's version and repository), and with `tree` also the tracked
 * `install.sh` and `plugin/rehydrate-launcher`. Returns the pins.
 *
 * @example
 * ```ts
 * pinRelease("dist/release"); // writes dist/release/install.sh and dist/release/rehydrate-launcher
 * ```
 */
export function pinRelease(dir: string, options: { tree?: boolean; repository?: string; root?: string } = {}): Pins {
  const root = options.root ?? ROOT;
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const repo = options.repository ?? repositorySlug(pkg);
  const pins: Pins = {
    repo,
    version: pkg.version,
    sums: parseSums(readFileSync(join(dir, "SHA256SUMS"), "utf8"), pkg.version),
  };
  const scripts: [string, string][] = [["install.sh", "install.sh"], [
    join("plugin", "rehydrate-launcher"),
    "rehydrate-launcher",
  ]];
  for (const [tracked, asset] of scripts) {
    const pinned = pinScript(readFileSync(join(root, tracked), "utf8"), pins);
    if (/OWNER\//.test(pinned)) throw new Error(`${tracked} still names the OWNER/ placeholder`);
    for (const out of options.tree ? [join(dir, asset), join(root, tracked)] : [join(dir, asset)]) {
      writeFileSync(out, pinned);
      chmodSync(out, 0o755);
    }
  }
  return pins;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
