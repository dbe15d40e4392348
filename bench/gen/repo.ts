/**
 * The benchmark's ordinary repository (issue 23): a plain git checkout with no workspace,
 * orchestration or dispatch layout, the kind of repository `examples/everyday` stands for, at the
 * size of a small service (8 modules of source and tests, docs, a README, a package.json and a
 * `.git/HEAD` on a feature branch). Only the everyday layer has anything to say here.
 * Deterministic: the same seed writes the same bytes.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createRandom } from "./random.ts";

/** The modules under `src/` and `test/`. */
export const REPO_MODULES: readonly string[] = ["billing", "invoices", "auth", "api", "db", "util", "ui", "reports"];
const NAMES = ["format", "parse", "index", "client", "schema", "cache", "errors", "types"];

/** Every source file, relative to the repository (`src/<module>/<name>.ts`). */
export const REPO_SOURCES: readonly string[] = REPO_MODULES.flatMap((m) => NAMES.map((n) => `src/${m}/${n}.ts`));
/** Every test file, relative to the repository. */
export const REPO_TESTS: readonly string[] = REPO_MODULES.flatMap((m) =>
  NAMES.slice(0, 4).map((n) => `test/${m}/${n}.test.ts`)
);
/** The file the generated sessions end up working on. */
export const REPO_ACTIVE_FILE = "src/billing/format.ts";
/** The branch in `.git/HEAD`. */
export const REPO_BRANCH = "fix/invoice-rounding";

/**
 * Writes the repository under `dir`; returns the number of files written.
 *
 * @example
 * ```ts
 * writeRepo("/tmp/repo"); // src/, test/, docs/, README.md, package.json, .git/HEAD
 * ```
 */
export function writeRepo(dir: string, seed = 7): number {
  const rnd = createRandom(seed);
  let n = 0;
  const put = (rel: string, text: string): void => {
    const p = join(dir, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, text);
    n++;
  };
  const code = (lines: number, module: string): string => {
    const out = [`// ${module}: generated for the benchmark`, `import { strict as assert } from "node:assert";`, ""];
    for (let i = 0; out.length < lines; i++) {
      out.push(`export function ${module}${i}(input: number[]): number {`);
      out.push(`  let total = 0;`);
      out.push(`  for (const value of input) total += Math.round(value * ${rnd.int(2, 1000)});`);
      out.push(`  assert.ok(Number.isFinite(total), "${rnd.hex(16)}");`);
      out.push(`  return total;`, `}`, ``);
    }
    return out.join("\n") + "\n";
  };
  for (const f of REPO_SOURCES) put(f, code(rnd.int(40, 400), f.split("/")[1]));
  for (const f of REPO_TESTS) {
    put(f, `import { test } from "node:test";\n${code(rnd.int(20, 120), f.split("/")[1])}`);
  }
  for (const d of ["architecture", "billing", "deploy", "api"]) {
    put(
      `docs/${d}.md`,
      `# ${d}\n\n${"The service rounds invoice totals in integer cents. ".repeat(rnd.int(10, 80))}\n`,
    );
  }
  put("README.md", "# invoice-service\n\nBills customers. `npm test` runs the tests.\n");
  put(
    "package.json",
    JSON.stringify({ name: "invoice-service", version: "1.4.0", type: "module", scripts: { test: "node --test" } }) +
      "\n",
  );
  put(".gitignore", "node_modules/\ncoverage/\n");
  put(".git/HEAD", `ref: refs/heads/${REPO_BRANCH}\n`);
  put(".git/config", '[core]\n\trepositoryformatversion = 0\n[remote "origin"]\n\turl = git@example.com:x/y.git\n');
  return n;
}
