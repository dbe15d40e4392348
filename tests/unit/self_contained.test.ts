// The repository stands on its own: no source in tests/, bench/, lib/, hooks/, examples/, scripts/
// or the top-level .ts files builds a path that leaves the repository root (CI and users have no
// sibling folder; the fixtures the tests need are copied into tests/fixtures/ with their licences).
//
// Three checks, all computed from the source text in a virtual tree rooted at /repo:
// - path calls: every join()/resolve()/dirname()/normalize() (bare, or on path/posix/win32) whose
//   first argument starts from the file's own folder (import.meta.dirname, __dirname,
//   import.meta.filename, or a constant built from them, also one imported from another file) is
//   evaluated as far as its arguments are known; it fails when the result leaves the root;
// - relative string literals ("./x", "../../x", new URL("../x", import.meta.url), module imports)
//   are resolved from the file's own folder and fail when they leave the root;
// - any mention of the old sibling folder of fixtures (dot-dot-slash shared, shared slash fixtures,
//   or those two words as adjacent string arguments) fails, comments included.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";

const ROOT = join(import.meta.dirname!, "..", "..");
/** The virtual root every path is computed under, so the check is the same on every platform. */
const V = "/repo";
const DIRS = ["tests", "bench", "lib", "hooks", "examples", "scripts"];
/** Data, build output and recorded results: not source. */
const SKIP_DIRS = new Set(["node_modules", "dist", ".cache", "tests/fixtures", "bench/results"]);
const CODE = /\.(?:ts|tsx|mts|cts|js|mjs|cjs)$/;
const OTHER = /\.(?:sh|py)$/;

/**
 * Relative literals that are hostile test input handed to the code under test (resolved against a
 * temporary project or world, never against the file's folder). Every entry must still occur.
 */
const HOSTILE_INPUT: Record<string, string[]> = {
  "tests/unit/events/quiet_prompt.test.ts": ["../../../etc/passwd"],
  "tests/bin/security.test.ts": ["../../../../outside/secret.md"],
};

/** This file: it quotes the hostile-input literals above. */
const SELF = "tests/unit/self_contained.test.ts";

/** One offending place. */
interface Finding {
  file: string;
  line: number;
  message: string;
}

interface Tok {
  k: "id" | "str" | "tpl" | "p" | "num" | "re";
  v: string;
  line: number;
  /** Template literals only: it has `${...}` substitutions. */
  subst?: boolean;
}

const REGEX_AFTER_WORD = /^(?:return|typeof|case|do|else|in|of|new|delete|void|throw|instanceof|yield|await)$/;

/** A small JavaScript/TypeScript lexer: identifiers, strings, templates and punctuation; comments dropped. */
function lex(src: string): Tok[] {
  const toks: Tok[] = [];
  const stack: ("brace" | "tpl")[] = [];
  let i = 0;
  let line = 1;
  const n = src.length;
  const readTemplate = (): boolean => {
    // i is just after a backtick or after the `}` closing a substitution; true when the template ends.
    while (i < n) {
      const c = src[i];
      if (c === "\\") {
        if (src[i + 1] === "\n") line++;
        i += 2;
      } else if (c === "`") {
        i++;
        return true;
      } else if (c === "$" && src[i + 1] === "{") {
        i += 2;
        stack.push("tpl");
        return false;
      } else {
        if (c === "\n") line++;
        i++;
      }
    }
    return true;
  };
  while (i < n) {
    const c = src[i];
    if (c === "\n") {
      line++;
      i++;
    } else if (c === " " || c === "\t" || c === "\r" || c === "\uFEFF") {
      i++;
    } else if (c === "/" && src[i + 1] === "/") {
      while (i < n && src[i] !== "\n") i++;
    } else if (c === "/" && src[i + 1] === "*") {
      const end = src.indexOf("*/", i + 2);
      const stop = end === -1 ? n : end + 2;
      for (let j = i; j < stop; j++) if (src[j] === "\n") line++;
      i = stop;
    } else if (c === '"' || c === "'") {
      const start = line;
      let v = "";
      i++;
      while (i < n && src[i] !== c && src[i] !== "\n") {
        if (src[i] === "\\" && i + 1 < n) {
          v += src[i + 1];
          i += 2;
        } else v += src[i++];
      }
      i++;
      toks.push({ k: "str", v, line: start });
    } else if (c === "`") {
      const start = line;
      const from = i + 1;
      i++;
      const ended = readTemplate();
      toks.push({ k: "tpl", v: src.slice(from, ended ? i - 1 : i - 2), line: start, subst: !ended });
    } else if (c === "{") {
      stack.push("brace");
      toks.push({ k: "p", v: c, line });
      i++;
    } else if (c === "}") {
      const top = stack.pop();
      i++;
      if (top === "tpl") readTemplate();
      else toks.push({ k: "p", v: c, line });
    } else if (/[A-Za-z_$]/.test(c)) {
      const m = /^[A-Za-z_$][\w$]*/.exec(src.slice(i, i + 200))!;
      toks.push({ k: "id", v: m[0], line });
      i += m[0].length;
    } else if (/[0-9]/.test(c)) {
      const m = /^[0-9][\w.]*/.exec(src.slice(i, i + 100))!;
      toks.push({ k: "num", v: m[0], line });
      i += m[0].length;
    } else if (c === "/") {
      const prev = toks.at(-1);
      const regex = !prev || (prev.k === "p" && !/^[)\]}]$/.test(prev.v)) ||
        (prev.k === "id" && REGEX_AFTER_WORD.test(prev.v));
      if (!regex) {
        toks.push({ k: "p", v: c, line });
        i++;
        continue;
      }
      let inClass = false;
      i++;
      while (i < n && src[i] !== "\n") {
        if (src[i] === "\\") i += 2;
        else if (src[i] === "[") inClass = true, i++;
        else if (src[i] === "]") inClass = false, i++;
        else if (src[i] === "/" && !inClass) break;
        else i++;
      }
      i++;
      while (i < n && /[a-z]/.test(src[i])) i++;
      toks.push({ k: "re", v: "", line });
    } else if (c === "?" && (src[i + 1] === "?" || src[i + 1] === ".") && !/[0-9]/.test(src[i + 2] ?? "")) {
      toks.push({ k: "p", v: src.slice(i, i + 2), line });
      i += 2;
    } else if (c === "=" && src[i + 1] === ">") {
      toks.push({ k: "p", v: "=>", line });
      i += 2;
    } else {
      toks.push({ k: "p", v: c, line });
      i++;
    }
  }
  return toks;
}

/** A path known to start from a file's folder (`anchored`), or a plain string literal. */
type Value = { kind: "path"; path: string } | { kind: "lit"; text: string } | null;

const PATH_FNS = new Set(["join", "resolve", "dirname", "normalize"]);
const PATH_NS = new Set(["path", "posix", "win32", "nodePath", "pathPosix"]);
const OPEN = new Set(["(", "[", "{"]);
const CLOSE = new Set([")", "]", "}"]);

function isTok(t: Tok | undefined, v: string): boolean {
  return t !== undefined && (t.k === "p" || t.k === "id") && t.v === v;
}

/** Index of the bracket closing the one at `open`, or -1. */
function closing(toks: Tok[], open: number): number {
  let depth = 0;
  for (let j = open; j < toks.length; j++) {
    const t = toks[j];
    if (t.k !== "p") continue;
    if (OPEN.has(t.v)) depth++;
    else if (CLOSE.has(t.v) && --depth === 0) return j;
  }
  return -1;
}

/** Splits `toks[from, to)` at top-level commas. */
function splitArgs(toks: Tok[], from: number, to: number): Tok[][] {
  const args: Tok[][] = [];
  let cur: Tok[] = [];
  let depth = 0;
  for (let j = from; j < to; j++) {
    const t = toks[j];
    if (t.k === "p" && OPEN.has(t.v)) depth++;
    if (t.k === "p" && CLOSE.has(t.v)) depth--;
    if (depth === 0 && isTok(t, ",")) {
      args.push(cur);
      cur = [];
    } else cur.push(t);
  }
  if (cur.length > 0) args.push(cur);
  return args;
}

/** True when `toks[j]` names a path function called here (not `lines.join(...)`, not a declaration). */
function isPathCall(toks: Tok[], j: number): boolean {
  const t = toks[j];
  if (t.k !== "id" || !PATH_FNS.has(t.v) || !isTok(toks[j + 1], "(")) return false;
  const prev = toks[j - 1];
  if (isTok(prev, "function")) return false;
  if (isTok(prev, ".") || isTok(prev, "?.")) return toks[j - 2]?.k === "id" && PATH_NS.has(toks[j - 2].v);
  return true;
}

interface Scope {
  dir: string;
  file: string;
  env: Map<string, Value>;
}

interface Evaluated {
  value: Value;
  /** The furthest known point of a call whose later arguments are unknown. */
  partial?: string;
}

function evalCall(name: string, args: Tok[][], s: Scope): Evaluated {
  const vals = args.map((a) => evalExpr(a, s).value);
  const first = vals[0];
  if (first?.kind !== "path") return { value: null };
  if (name === "dirname" || name === "normalize") {
    return {
      value: { kind: "path", path: name === "dirname" ? posix.dirname(first.path) : posix.normalize(first.path) },
    };
  }
  let acc = first.path;
  for (const v of vals.slice(1)) {
    if (v === null) return { value: null, partial: acc };
    const text = v.kind === "lit" ? v.text : v.path;
    if (name === "resolve" && text.startsWith("/")) {
      if (v.kind === "lit") return { value: null }; // an absolute literal: no longer anchored
      acc = text;
    } else acc = posix.join(acc, text);
  }
  return { value: { kind: "path", path: acc } };
}

/** Evaluates a simple expression: literals, the file's folder, known constants and nested path calls. */
function evalExpr(toks: Tok[], s: Scope): Evaluated {
  let t = toks;
  while (t.length > 0 && isTok(t.at(-1), "!")) t = t.slice(0, -1);
  // `x ?? "."` and `x!`: the left side decides.
  const nullish = t.findIndex((x) => isTok(x, "??"));
  if (nullish > 0) t = t.slice(0, nullish);
  while (t.length > 0 && isTok(t.at(-1), "!")) t = t.slice(0, -1);
  if (t.length === 0) return { value: null };
  if (t.length === 1) {
    const [a] = t;
    if (a.k === "str" || (a.k === "tpl" && !a.subst)) return { value: { kind: "lit", text: a.v } };
    if (a.k === "id" && a.v === "__dirname") return { value: { kind: "path", path: s.dir } };
    if (a.k === "id") return { value: s.env.get(a.v) ?? null };
    return { value: null };
  }
  const words = t.map((x) => x.v).join(" ");
  if (words === "import . meta . dirname") return { value: { kind: "path", path: s.dir } };
  if (words === "import . meta . filename") return { value: { kind: "path", path: s.file } };
  const urlAt = t.findIndex((x, j) => isTok(x, "new") && isTok(t[j + 1], "URL"));
  if (
    urlAt >= 0 && t[urlAt + 3]?.k === "str" &&
    t.slice(urlAt + 4, urlAt + 11).map((x) => x.v).join(" ") === ", import . meta . url )"
  ) {
    return { value: { kind: "path", path: posix.join(s.dir, t[urlAt + 3].v) } };
  }
  let j = 0;
  if (t[0].k === "id" && PATH_NS.has(t[0].v) && isTok(t[1], ".")) j = 2;
  if (isPathCall(t, j) && closing(t, j + 1) === t.length - 1) {
    return evalCall(t[j].v, splitArgs(t, j + 2, t.length - 1), s);
  }
  return { value: null };
}

interface Parsed {
  toks: Tok[];
  /** Top-level `const`/`let` names bound to a known value. */
  env: Map<string, Value>;
}

/** Scans a set of files (paths relative to the root, `/`-separated) and returns every offending place. */
export function findEscapes(files: ReadonlyMap<string, string>): Finding[] {
  const findings: Finding[] = [];
  const parsed = new Map<string, Parsed>();
  const visiting = new Set<string>();

  const parse = (rel: string): Parsed | undefined => {
    const done = parsed.get(rel);
    if (done) return done;
    const text = files.get(rel);
    if (text === undefined || !CODE.test(rel) || visiting.has(rel)) return undefined;
    visiting.add(rel);
    const toks = lex(text);
    const file = posix.join(V, rel);
    const scope: Scope = { dir: posix.dirname(file), file, env: new Map() };
    for (let j = 0; j < toks.length; j++) {
      // import { A, B as C } from "./x.ts": constants of another scanned file.
      if (
        isTok(toks[j], "import") && (isTok(toks[j + 1], "{") || (isTok(toks[j + 1], "type") && isTok(toks[j + 2], "{")))
      ) {
        const open = isTok(toks[j + 1], "{") ? j + 1 : j + 2;
        const close = closing(toks, open);
        const spec = toks[close + 2];
        if (close < 0 || !isTok(toks[close + 1], "from") || spec?.k !== "str" || !spec.v.startsWith(".")) continue;
        const target = posix.relative(V, posix.join(scope.dir, spec.v));
        const other = parse(target);
        if (!other) continue;
        for (const part of splitArgs(toks, open + 1, close)) {
          const names = part.filter((x) => x.k === "id" && x.v !== "type" && x.v !== "as").map((x) => x.v);
          const value = names.length > 0 ? other.env.get(names[0]) : undefined;
          if (value) scope.env.set(names.at(-1)!, value);
        }
      }
      // const NAME = <expression>; a known value is never replaced (an inner scope's shadow is not the constant).
      if ((isTok(toks[j], "const") || isTok(toks[j], "let")) && toks[j + 1]?.k === "id" && isTok(toks[j + 2], "=")) {
        let depth = 0;
        let end = j + 3;
        for (; end < toks.length; end++) {
          const x = toks[end];
          if (x.k === "p" && OPEN.has(x.v)) depth++;
          if (x.k === "p" && CLOSE.has(x.v)) depth--;
          if (depth < 0 || (depth === 0 && (isTok(x, ";") || isTok(x, ",")))) break;
          if (depth === 0 && end > j + 3 && x.line > toks[end - 1].line && x.k === "id" && !isTok(toks[end - 1], "=")) {
            break;
          }
        }
        const { value } = evalExpr(toks.slice(j + 3, end), scope);
        if (value?.kind === "path" && !scope.env.has(toks[j + 1].v)) scope.env.set(toks[j + 1].v, value);
      }
    }
    visiting.delete(rel);
    const result = { toks, env: scope.env };
    parsed.set(rel, result);
    return result;
  };

  const outside = (p: string) => p !== V && !p.startsWith(V + "/");
  const SIBLING = new RegExp(
    String.raw`\.\.[\\/]+shared\b|\bshared[\\/]+fixtures\b|["'\x60]shared["'\x60]\s*,\s*["'\x60]fixtures["'\x60]`,
  );

  for (const [rel, text] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
    text.split("\n").forEach((l, k) => {
      if (SIBLING.test(l)) {
        findings.push({
          file: rel,
          line: k + 1,
          message: `names the sibling fixtures folder outside the repository: ${l.trim().slice(0, 160)}`,
        });
      }
    });
    const p = parse(rel);
    if (!p) continue;
    const file = posix.join(V, rel);
    const scope: Scope = { dir: posix.dirname(file), file, env: p.env };
    const lines = text.split("\n");
    const source = (line: number) => (lines[line - 1] ?? "").trim().slice(0, 160);
    const fromRoot = (p: string) => posix.relative(V, p);
    const allowed = new Set(rel === SELF ? Object.values(HOSTILE_INPUT).flat() : HOSTILE_INPUT[rel] ?? []);
    p.toks.forEach((t, j) => {
      if ((t.k === "str" || (t.k === "tpl" && !t.subst)) && /^\.\.?\//.test(t.v) && !/\s/.test(t.v)) {
        const to = posix.join(scope.dir, t.v);
        if (outside(to) && !allowed.has(t.v)) {
          findings.push({
            file: rel,
            line: t.line,
            message: `"${t.v}" resolves from ${fromRoot(scope.dir)}/ to ${fromRoot(to)}, outside the repository root: ${
              source(t.line)
            }`,
          });
        }
      }
      if (!isPathCall(p.toks, j)) return;
      const close = closing(p.toks, j + 1);
      if (close < 0) return;
      const { value, partial } = evalCall(t.v, splitArgs(p.toks, j + 2, close), scope);
      const reached = value?.kind === "path" ? value.path : partial;
      if (reached !== undefined && outside(reached)) {
        findings.push({
          file: rel,
          line: t.line,
          message: `${t.v}() reaches ${fromRoot(reached)}, outside the repository root: ${source(t.line)}`,
        });
      }
    });
  }
  return findings;
}

function walk(rel: string, out: Map<string, string>): void {
  for (const e of readdirSync(join(ROOT, rel), { withFileTypes: true })) {
    const child = `${rel}/${e.name}`;
    if (e.isDirectory()) {
      if (!SKIP_DIRS.has(e.name) && !SKIP_DIRS.has(child)) walk(child, out);
    } else if (CODE.test(e.name) || OTHER.test(e.name)) out.set(child, readFileSync(join(ROOT, child), "utf8"));
  }
}

function repositorySources(): Map<string, string> {
  const out = new Map<string, string>();
  for (const d of DIRS) walk(d, out);
  for (const e of readdirSync(ROOT, { withFileTypes: true })) {
    if (e.isFile() && e.name.endsWith(".ts")) out.set(e.name, readFileSync(join(ROOT, e.name), "utf8"));
  }
  return out;
}

const format = (f: readonly Finding[]) => f.map((x) => `${x.file}:${x.line}: ${x.message}`).join("\n");

describe("the repository is self-contained", () => {
  const sources = repositorySources();

  test("the scan covers the sources of tests/, bench/, lib/, hooks/, examples/, scripts/ and the top-level .ts files", () => {
    for (const d of DIRS) assert.ok([...sources.keys()].some((f) => f.startsWith(d + "/")), `no source found in ${d}/`);
    assert.ok(sources.has("build.ts"));
    assert.ok(sources.has(SELF));
    assert.ok(sources.size >= 200, `only ${sources.size} sources`);
  });

  test("no source builds a path that leaves the repository root", () => {
    const findings = findEscapes(sources);
    assert.equal(
      findings.length,
      0,
      `paths outside the repository (copy what is needed into tests/fixtures/):\n${format(findings)}`,
    );
  });

  test("every hostile-input exception still occurs where it is listed", () => {
    for (const [file, literals] of Object.entries(HOSTILE_INPUT)) {
      const text = sources.get(file);
      assert.ok(text !== undefined, `${file} is gone: drop it from HOSTILE_INPUT`);
      for (const l of literals) {
        assert.ok(
          text.includes(JSON.stringify(l)),
          `${file} no longer has ${JSON.stringify(l)}: drop it from HOSTILE_INPUT`,
        );
      }
    }
  });

  test("the fixtures the tests read are in the repository", () => {
    for (const p of ["claude-code-2.1.197/hook-inputs", "claude-code-2.1.197/transcripts", "public", "detection-dev"]) {
      assert.ok(readdirSync(join(ROOT, "tests", "fixtures", p)).length > 0, `tests/fixtures/${p} is empty`);
    }
  });
});

describe("findEscapes() on sample sources", () => {
  // Built from pieces so that this file does not name the sibling folder itself.
  const UP = "..";
  const SIB = "sha" + "red";
  const scan = (files: Record<string, string>) => findEscapes(new Map(Object.entries(files)));
  const where = (f: readonly Finding[]) => [...new Set(f.map((x) => `${x.file}:${x.line}`))];

  test("findEscapes() flags a join() from import.meta.dirname that climbs above the root, with file and line", () => {
    const f = scan({
      "tests/unit/a.test.ts":
        `import { join } from "node:path";\nconst X = join(import.meta.dirname!, "..", "..", "..", "other", "data");\n`,
    });
    assert.deepEqual(where(f), ["tests/unit/a.test.ts:2"]);
    assert.match(f[0].message, /^join\(\) reaches \.\.\/other\/data, outside the repository root: const X = join\(/);
  });

  test("findEscapes() follows ROOT-like constants, also imported from another file", () => {
    const f = scan({
      "tests/bin/_h.ts":
        `export const ROOT = join(import.meta.dirname!, "..", "..");\nexport const OK = join(ROOT, "tests", "fixtures");\n`,
      "tests/bin/b.test.ts":
        `import { ROOT as R, OK } from "./_h.ts";\n\nconst A = join(R, "..", "data");\nconst B = resolve(OK, "../../..", "x");\nconst C = join(OK, "x");\n`,
      "bench/c.ts":
        `const HERE = import.meta.dirname ?? ".";\nconst D = join(dirname(HERE), "..");\nconst E = path.join(__dirname, "..", "..", name);\n`,
    });
    assert.deepEqual(where(f), ["bench/c.ts:2", "bench/c.ts:3", "tests/bin/b.test.ts:3", "tests/bin/b.test.ts:4"]);
  });

  test("findEscapes() flags relative literals and new URL() that leave the root, and passes module imports inside it", () => {
    const f = scan({
      "tests/unit/d.test.ts": [
        `import { x } from "../../lib/x.ts";`,
        `import type { Y } from "../../lib/deep/y.ts";`,
        `const ok = readFileSync("../fixtures/a.json");`,
        `const bad = "../../../elsewhere/a.json";`,
        `const url = new URL("../../../z", import.meta.url);`,
        "const tpl = `../../../t`;",
        "const dyn = `${UP}/../../..`;",
      ].join("\n"),
    });
    assert.deepEqual(where(f), ["tests/unit/d.test.ts:4", "tests/unit/d.test.ts:5", "tests/unit/d.test.ts:6"]);
  });

  test("findEscapes() flags any mention of the sibling fixtures folder, comments included", () => {
    const f = scan({
      "bench/e.ts":
        `// read from ${UP}/${SIB}/x\nconst a = join(someDir, "${SIB}", "fixtures");\nconst b = "${SIB}/fixtures/y";\n`,
      "scripts/f.sh": `cp ${UP}/${SIB}/z .\n`,
    });
    assert.deepEqual(where(f), ["bench/e.ts:1", "bench/e.ts:2", "bench/e.ts:3", "scripts/f.sh:1"]);
  });

  test("findEscapes() leaves Array.join, unknown bases, comments with quotes and regular expressions alone", () => {
    const f = scan({
      "tests/unit/g.test.ts": [
        `const s = lines.join("..");`,
        `const t = join(tmpDir, "..", "..", "..");`,
        `// it's "../../../not-code"`,
        `const re = /"..\\/..\\/..\\/"/;`,
        `function join(a: string, b: string) { return a + b; }`,
        `const u = join(import.meta.dirname!, "..", "..", "tests", "fixtures");`,
      ].join("\n"),
    });
    assert.deepEqual(where(f), []);
  });
});
