// hooks/ and lib/ must run unmodified on Bun and Deno and carry no runtime dependency:
// only node: built-ins and relative .ts files may be imported, and no Bun.* or Deno.* API used.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize } from "node:path";

const ROOT = join(import.meta.dirname!, "..", "..");
const IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)|^\s*import\s*["']([^"']+)["']/gm;

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const f of readdirSync(join(ROOT, dir)).sort()) {
    const rel = join(dir, f);
    if (statSync(join(ROOT, rel)).isDirectory()) out.push(...sources(rel));
    else if (f.endsWith(".ts")) out.push(rel);
  }
  return out;
}

const FILES = [...sources("hooks"), ...sources("lib")];
const STD_STREAM = /\bprocess\s*\.\s*std(?:out|err)\b/;

test("hooks/ and lib/ have sources to check", () => {
  assert.ok(FILES.length >= 10);
});

for (const file of FILES) {
  const text = readFileSync(join(ROOT, file), "utf8");
  test(`${file} imports only node: built-ins and relative .ts files`, () => {
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2] ?? m[3];
      const ok = spec.startsWith("node:") || (/^\.\.?\//.test(spec) && spec.endsWith(".ts")) ||
        (/^lib[\\/][a-z]+[\\/](?:_schemas|[a-z_]+_schema)\.ts$/.test(file) &&
          /^\.\.\/\.\.\/schemas\/[a-z_]+\.v1\.json$/.test(spec));
      assert.ok(ok, `${file} imports "${spec}"`);
    }
  });
  test(`${file} uses no Bun.* or Deno.* API`, () => {
    const code = text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
    assert.doesNotMatch(code, /\b(?:Bun|Deno)\s*\.\s*[A-Za-z_]/);
    assert.doesNotMatch(code, /\bfrom\s+["'](?:bun|bun:[a-z]+)["']/);
  });
  // Output goes through lib/node/write_fd.ts: the first use of process.stdout or process.stderr builds
  // Bun's stream objects, about 6 million instructions (3 ms), more than a stop hook's own work.
  // One `import()` anywhere in a build makes the bundler wrap every module it reaches, and the
  // modules those share with the rest, in lazy initialisers, and in the multicall binary that
  // reaches every bundle it embeds (`rehydrate stop` 0.3-0.4 million instructions more, the usual
  // prompt 0.5 million). Only the entries that load an embedded bundle by a computed name import at
  // run time, and only under Deno (the binaries require() it): the multicall's dispatcher, the
  // usual prompt's entry, which loads the full hook (with and without its import(): 8.83 million
  // instructions on the usual prompt, `rehydrate stop` 7.72 million, either way), and PreCompact's,
  // which loads the workflows' parts.
  const loaders = [
    join("hooks", "rehydrate.ts"),
    join("hooks", "user-prompt-submit.ts"),
    join("hooks", "pre-compact.ts"),
  ];
  test(`${file} has no dynamic import()`, { skip: loaders.includes(file) }, () => {
    const code = text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
    assert.doesNotMatch(code, /\bimport\s*\(/);
  });
  test(`${file} does not touch process.stdout or process.stderr`, () => {
    const code = text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
    assert.doesNotMatch(code, STD_STREAM);
  });
}

// Built-ins that cost a compiled hook milliseconds to load (node:crypto pulls in the streams stack,
// about 4 ms; node:os, node:util and node:child_process about 1 ms each, measured for issue 6):
// only command-line verbs may import them. Hooks use globalThis.crypto and lib/node/home_dir.ts.
const HEAVY = /^node:(?:crypto|os|util|child_process|stream|zlib|readline|events|url)$/;
const HEAVY_OK = /^lib[\\/]cli[\\/]/;

/** `file: spec` for every import matching `forbidden` in a source file `allowed` does not match. */
function importsOutside(forbidden: RegExp, allowed: RegExp): string[] {
  const offenders: string[] = [];
  for (const file of FILES) {
    if (allowed.test(file)) continue;
    for (const m of readFileSync(join(ROOT, file), "utf8").matchAll(IMPORT)) {
      const spec = m[1] ?? m[2] ?? m[3];
      if (forbidden.test(spec)) offenders.push(`${file}: ${spec}`);
    }
  }
  return offenders;
}

test("only command-line verbs import heavy built-ins (node:crypto, node:os, ...)", () => {
  assert.deepEqual(importsOutside(HEAVY, HEAVY_OK), []);
  assert.ok(HEAVY.test("node:crypto") && !HEAVY.test("node:fs"), "the rule can fail");
});

// node:fs and node:path come through lib/node/fs.ts and lib/node/path.ts, so a bundled hook
// calls Bun's require() once per built-in instead of once per module (about fifty calls made the
// JIT compile require on every prompt; bench/README.md). lib/cli/_install_command.ts needs
// path.win32 and path.posix (a command-line verb, not a hook).
const VIA_HUB = /^node:(?:fs|path)$/;
const HUB_OK = /^lib[\\/](?:node[\\/]fs|node[\\/]path|cli[\\/]_install_command)\.ts$/;

test("hooks and lib import node:fs and node:path only through lib/node/fs.ts and lib/node/path.ts", () => {
  assert.deepEqual(importsOutside(VIA_HUB, HUB_OK), []);
  assert.ok(
    VIA_HUB.test("node:fs") && VIA_HUB.test("node:path") && !VIA_HUB.test("node:fs/promises"),
    "the rule can fail",
  );
});

test("the stream check catches process.stdout.write (the rule can fail)", () => {
  assert.match("io.out = (t) => process.stdout.write(t);", STD_STREAM);
  assert.match("process.stderr .write(x)", STD_STREAM);
  assert.doesNotMatch("writeFd(1, text)", STD_STREAM);
});

test("the import check catches a package import (the rule can fail)", () => {
  const bad = 'import { parse } from "yaml";\nimport x from "./a.js";';
  const specs = [...bad.matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? m[3]);
  assert.deepEqual(specs, ["yaml", "./a.js"]);
});

// The layers of lib/ (docs/architecture.md): a folder may import its own files and those of the
// folders below it, never a folder at its own level or above, so no import cycle crosses a folder.
// A file whose name starts with `_` is kept by its folder: only files of the same folder import it.
const LAYERS: readonly (readonly string[])[] = [
  ["node"],
  ["yaml", "xml", "redact", "schema"],
  ["transcript", "state"],
  ["config", "codex"],
  ["hook"],
  ["delivery", "reread", "detect"],
  ["session"],
  ["projects", "orchestration", "dispatch"],
  ["events"],
  ["cli"],
];

/** One import of one lib/ file: both paths relative to lib/, with `/` separators. */
interface Edge {
  from: string;
  to: string;
}

/** Every import of a lib/ file from a lib/ file, from the real import statements (not JSDoc). */
function libEdges(): Edge[] {
  const edges: Edge[] = [];
  for (const file of FILES.filter((f) => /^lib[\\/]/.test(f))) {
    const code = readFileSync(join(ROOT, file), "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
    for (const m of code.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2] ?? m[3];
      if (!/^\.\.?\//.test(spec) || !spec.endsWith(".ts")) continue;
      const target = normalize(join(dirname(file), spec)).split("\\").join("/");
      if (!target.startsWith("lib/")) continue;
      edges.push({ from: file.split("\\").join("/").slice(4), to: target.slice(4) });
    }
  }
  return edges;
}

/** What is wrong with these imports under {@linkcode LAYERS}, one line each. */
function layerViolations(edges: readonly Edge[], files: readonly string[]): string[] {
  const level = new Map<string, number>();
  LAYERS.forEach((folders, i) => folders.forEach((f) => level.set(f, i)));
  const out: string[] = [];
  for (const f of files) {
    const parts = f.split("/");
    if (parts.length !== 2 || !level.has(parts[0])) out.push(`lib/${f} is not in a known folder of lib/`);
  }
  for (const { from, to } of edges) {
    const [a, b] = [from.split("/")[0], to.split("/")[0]];
    if (a === b) continue;
    const [la, lb] = [level.get(a), level.get(b)];
    if (la === undefined || lb === undefined || lb >= la) {
      out.push(`lib/${from} imports lib/${to}: ${b}/ is not below ${a}/`);
    }
    if (to.split("/").pop()!.startsWith("_")) out.push(`lib/${from} imports lib/${to}, which ${b}/ keeps to itself`);
  }
  return out;
}

test("lib/ is in layers: every import goes to the same folder or one below, and `_` files stay in their folder", () => {
  const libFiles = FILES.filter((f) => /^lib[\\/]/.test(f)).map((f) => f.split("\\").join("/").slice(4));
  const edges = libEdges();
  assert.ok(edges.length > 300, `only ${edges.length} imports found`);
  assert.deepEqual(layerViolations(edges, libFiles), []);
});

test("the layering rule fails on a reversed import, a sibling import, a private import and a loose file", () => {
  const files = ["hook/run_hook.ts", "cli/main.ts", "projects/_list.ts", "loose.ts"];
  assert.deepEqual(
    layerViolations([
      { from: "hook/run_hook.ts", to: "cli/main.ts" },
      { from: "dispatch/pre_compact.ts", to: "projects/read_file.ts" },
      { from: "events/session_start.ts", to: "projects/_list.ts" },
      { from: "cli/main.ts", to: "hook/run_hook.ts" },
    ], files),
    [
      "lib/loose.ts is not in a known folder of lib/",
      "lib/hook/run_hook.ts imports lib/cli/main.ts: cli/ is not below hook/",
      "lib/dispatch/pre_compact.ts imports lib/projects/read_file.ts: projects/ is not below dispatch/",
      "lib/events/session_start.ts imports lib/projects/_list.ts, which projects/ keeps to itself",
    ],
  );
});
