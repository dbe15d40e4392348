// hooks/ and lib/ must run unmodified on Bun and Deno and carry no runtime dependency:
// only node: built-ins and relative .ts files may be imported, and no Bun.* or Deno.* API used.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dirname!, "..", "..");
const IMPORT = /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)|^\s*import\s*["']([^"']+)["']/gm;

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).filter((f) => f.endsWith(".ts")).map((f) => join(dir, f));
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
        (/^lib[\\/](?:schemas|_[a-z_]+_schema)\.ts$/.test(file) && /^\.\.\/schemas\/[a-z_]+\.v1\.json$/.test(spec));
      assert.ok(ok, `${file} imports "${spec}"`);
    }
  });
  test(`${file} uses no Bun.* or Deno.* API`, () => {
    const code = text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
    assert.doesNotMatch(code, /\b(?:Bun|Deno)\s*\.\s*[A-Za-z_]/);
    assert.doesNotMatch(code, /\bfrom\s+["'](?:bun|bun:[a-z]+)["']/);
  });
  // Output goes through lib/write_fd.ts: the first use of process.stdout or process.stderr builds
  // Bun's stream objects, about 6 million instructions (3 ms), more than a stop hook's own work.
  // One `import()` anywhere in a build makes the bundler wrap every module it reaches, and the
  // modules those share with the rest, in lazy initialisers, and in the multicall binary that
  // reaches every bundle it embeds (`rehydrate stop` 0.3-0.4 million instructions more, the usual
  // prompt 0.5 million). Only the entries that load an embedded bundle by a computed name import at
  // run time, and only under Deno (the binaries require() it): the multicall's dispatcher and the
  // usual prompt's entry, which loads the full hook (with and without its import(): 8.83 million
  // instructions on the usual prompt, `rehydrate stop` 7.72 million, either way).
  const loaders = [join("hooks", "rehydrate.ts"), join("hooks", "user-prompt-submit.ts")];
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
// only command-line verbs may import them. Hooks use globalThis.crypto and lib/home_dir.ts.
const HEAVY = /^node:(?:crypto|os|util|child_process|stream|zlib|readline|events|url)$/;
const HEAVY_OK = /^lib[\\/](?:cli_|_doctor_)/;

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

// node:fs and node:path come through lib/_node_fs.ts and lib/_node_path.ts, so a bundled hook
// calls Bun's require() once per built-in instead of once per module (about fifty calls made the
// JIT compile require on every prompt; bench/README.md). lib/_install_command.ts needs
// path.win32 and path.posix (a command-line verb, not a hook).
const VIA_HUB = /^node:(?:fs|path)$/;
const HUB_OK = /^lib[\\/](?:_node_fs|_node_path|_install_command)\.ts$/;

test("hooks and lib import node:fs and node:path only through lib/_node_fs.ts and lib/_node_path.ts", () => {
  assert.deepEqual(importsOutside(VIA_HUB, HUB_OK), []);
  assert.ok(VIA_HUB.test("node:fs") && VIA_HUB.test("node:path") && !VIA_HUB.test("node:fs/promises"), "the rule can fail");
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
