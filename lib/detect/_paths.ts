/**
 * Path helpers of the workspace detection (`lib/detect/active_project.ts`, `lib/detect/working_set.ts`):
 * one normal form for every path a transcript names, project ids inside paths, path tokens of
 * free text, and the exclusion rules. All regexes are compiled once, at module load.
 */

const DRIVE = /^[a-zA-Z]:\//;
const DRIVE_ROOT = /^[a-zA-Z]:$/;
/** Path-like runs of free text: optional root (`C:\`, `~/`, `./`, `/`), then name segments. */
const TEXT_PATH = /(?:[A-Za-z]:[\\/]|~\/|\.\.?\/|\/)?[\w.@+-]+(?:[\\/]+[\w.@+-]+)*[\\/]?/g;
/** The characters that kept tokens need: a separator or a dot. */
const SEPARATOR_OR_DOT = /[\\/.]/g;
/** A last segment that names a file: `name.ext` with a letter-led extension of 1-10 chars. */
const FILE_NAME = /^[^/]*[^/.]\.[A-Za-z][A-Za-z0-9]{0,9}$/;
/** A project folder name: `NN-kebab-name`. */
const PROJECT_ID = /^\d{2,}-[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** File names that are files without an extension. */
const EXTENSIONLESS: ReadonlySet<string> = new Set([
  "makefile",
  "dockerfile",
  "containerfile",
  "license",
  "licence",
  "readme",
  "changelog",
  "gemfile",
  "rakefile",
  "procfile",
  "justfile",
  "vagrantfile",
  "brewfile",
  "codeowners",
  "notice",
  "authors",
  ".gitignore",
  ".gitattributes",
  ".dockerignore",
  ".npmrc",
  ".env",
  ".editorconfig",
  ".prettierrc",
  ".eslintrc",
  ".babelrc",
  ".nvmrc",
  ".bashrc",
  ".zshrc",
  ".profile",
]);

/**
 * `\` becomes `/`, runs of `/` collapse, `.` and `..` segments resolve, a drive letter becomes
 * lower case and a trailing `/` goes. `C:\a\.\b\..\c` → `c:/a/c`.
 */
export function normalizePath(path: string): string {
  let p = path.includes("\\") ? path.replaceAll("\\", "/") : path;
  if (DRIVE.test(p) && p.charCodeAt(0) < 0x61) p = p[0].toLowerCase() + p.slice(1);
  if (!p.includes("//") && !p.includes("/.") && !p.startsWith(".") && !p.endsWith("/")) return p;
  const absolute = p.startsWith("/");
  const parts = p.split("/");
  const out: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const s = parts[i];
    if (s === "" || s === ".") continue;
    if (s === "..") {
      const last = out.length === 0 ? undefined : out[out.length - 1];
      if (last !== undefined && last !== ".." && !(out.length === 1 && DRIVE_ROOT.test(last))) out.pop();
      else if (!absolute && !(last !== undefined && DRIVE_ROOT.test(last))) out.push(s);
      continue;
    }
    out.push(s);
  }
  const joined = out.join("/");
  return absolute ? "/" + joined : joined;
}

/** True for `/…`, `c:/…` and `~/…` (after {@linkcode normalizePath}). */
export function isAbsolutePath(normalized: string): boolean {
  return normalized.startsWith("/") || normalized.startsWith("~/") || DRIVE.test(normalized);
}

/** `path` made absolute against `cwd` when it is relative, then normalised. */
export function resolvePath(path: string, cwd: string | undefined): string {
  const p = normalizePath(path);
  if (isAbsolutePath(p) || cwd === undefined || cwd === "") return p;
  return normalizePath(cwd + "/" + p);
}

/** The last segment of a normalised path. */
export function baseName(normalized: string): string {
  const i = normalized.lastIndexOf("/");
  return i === -1 ? normalized : normalized.slice(i + 1);
}

/** True when the last segment names a file: it has an extension or is a known extensionless name. */
export function looksLikeFile(normalized: string): boolean {
  if (normalized.endsWith("/")) return false;
  const base = baseName(normalized);
  return FILE_NAME.test(base) || EXTENSIONLESS.has(base.toLowerCase());
}

/**
 * Paths the agent never needs back: dependency and VCS internals, Claude Code's own files
 * (transcripts, todo stores, shell snapshots, background-task output under `/tmp/claude-*`),
 * device and process trees, and `transcript` itself. Plans under `~/.claude/plans/` are kept.
 */
export function isNoisePath(normalized: string, transcript?: string): boolean {
  if (transcript !== undefined && normalized === transcript) return true;
  if (normalized.includes("/node_modules/") || normalized.startsWith("node_modules/")) return true;
  if (normalized.includes("/.git/") || normalized.startsWith(".git/")) return true;
  if (
    normalized.includes("/.claude/projects/") || normalized.includes("/.claude/todos/") ||
    normalized.includes("/.claude/shell-snapshots/") || normalized.includes("/.claude/statsig/")
  ) return true;
  if (normalized.startsWith("/tmp/claude-") || normalized.startsWith("/private/tmp/claude-")) return true;
  return normalized.startsWith("/dev/") || normalized.startsWith("/proc/") || normalized.startsWith("/sys/");
}

/** Folders of installed dependencies and tool caches (matched as whole segments). */
const DEPENDENCY_SEGMENTS: ReadonlySet<string> = new Set([
  ".venv",
  "venv",
  "site-packages",
  "dist-packages",
  "__pycache__",
  ".tox",
  ".mypy_cache",
  ".pytest_cache",
  ".ruff_cache",
  "vendor",
  "bower_components",
  ".yarn",
  ".pnpm-store",
  ".cargo",
  ".rustup",
  ".m2",
  ".gradle",
  ".cache",
  ".npm",
  ".bundle",
  "Pods",
  ".terraform",
]);

/**
 * Paths the agent seldom comes back to unless it opened them with a file tool: installed
 * dependencies and caches (`.venv/`, `site-packages/`, `vendor/`, `~/go/pkg/mod/`, …), secrets
 * files (`.env`, `.env.local`) and Claude Code's own folder (`~/.claude/`, a project's
 * `.claude/`), except plans (`.claude/plans/`). A search over them lists many.
 */
export function isLowValuePath(normalized: string): boolean {
  const base = baseName(normalized);
  if (base === ".env" || base.startsWith(".env.")) return true;
  const claude = normalized.startsWith(".claude/") || normalized.startsWith("~/.claude/")
    ? 0
    : normalized.indexOf("/.claude/");
  if (claude !== -1 && !normalized.includes(".claude/plans/")) return true;
  if (normalized.includes("/go/pkg/mod/")) return true;
  let start = normalized.startsWith("/") ? 1 : 0;
  for (;;) {
    const slash = normalized.indexOf("/", start);
    if (slash === -1) return false;
    if (DEPENDENCY_SEGMENTS.has(normalized.slice(start, slash))) return true;
    start = slash + 1;
  }
}

/**
 * Calls `found(id)` for every project id that follows `<root>/` (either separator) in `text`:
 * `…/02-projects/05-site-redesign/…` gives `05-site-redesign`. `root` is a folder name such as
 * `02-projects`. No regex: `indexOf` over the raw text, so Windows text needs no copy.
 */
export function forEachProjectIdInText(text: string, root: string, found: (id: string) => void): void {
  let from = 0;
  for (;;) {
    const at = text.indexOf(root, from);
    if (at === -1) return;
    from = at + root.length;
    const before = at === 0 ? "/" : text[at - 1];
    if (
      !(before === "/" || before === "\\" || before === " " || before === '"' || before === "'" || before === "`" ||
        before === "(" || before === "\n" || before === "\t" || before === "=" || before === ":")
    ) continue;
    let i = from;
    if (text[i] !== "/" && text[i] !== "\\") continue;
    while (text[i] === "/" || text[i] === "\\") i++;
    let end = i;
    while (end < text.length && isIdChar(text.charCodeAt(end))) end++;
    while (end > i && text[end - 1] === "-") end--;
    const id = text.slice(i, end);
    if (PROJECT_ID.test(id)) found(id);
  }
}

/** True for an `NN-kebab-name` project folder name. */
export function isProjectId(text: string): boolean {
  return PROJECT_ID.test(text);
}

/**
 * Path-like tokens of free text (prompts, assistant text, todo items, plans), as written:
 * anything with a separator (`src/a.ts`, `C:\x\y.md`, `/etc/hosts`) and bare file names with an
 * extension (`app.js`). URLs, trailing punctuation and `:line` suffixes are left out. The scan
 * stops when `found` returns false (a caller that has enough).
 */
export function textPathTokens(text: string, found: (token: string) => boolean | void): void {
  // TEXT_PATH matches every word, and a token without a separator or a dot is never kept, so the
  // scan jumps to the run of path characters around the next separator or dot and lets the regex
  // start there: the words in between (most of any prose) never come back to this loop, which is
  // most of the working set's cold cost (docs/detection.md). Linear: each jump walks left only over
  // characters the regex has not passed yet. (A lookahead in the regex did the same in one pass,
  // but retried it at every position of a long run without a separator: quadratic.)
  let pos = 0;
  let sep = -1;
  for (;;) {
    if (sep < pos) {
      SEPARATOR_OR_DOT.lastIndex = pos;
      const s = SEPARATOR_OR_DOT.exec(text);
      if (s === null) return;
      sep = s.index;
      let start = sep;
      while (start > pos && RUN_CHARS[text.charCodeAt(start - 1)] === 1) start--;
      pos = start;
    }
    TEXT_PATH.lastIndex = pos;
    const m = TEXT_PATH.exec(text);
    if (m === null) return;
    pos = TEXT_PATH.lastIndex;
    let token = m[0];
    const start = m.index;
    const end = start + token.length;
    if (text.startsWith("://", end) || (start > 0 && text[start - 1] === ":" && token.startsWith("/"))) continue;
    if (start > 0 && (text[start - 1] === "@" || text[start - 1] === "/")) continue;
    while (
      token.length > 0 && (token.endsWith(".") || token.endsWith("/") || token.endsWith("\\") || token.endsWith("-"))
    ) {
      token = token.slice(0, -1);
    }
    if (token.length < 3) continue;
    const hasSeparator = token.includes("/") || token.includes("\\");
    if (!hasSeparator && !FILE_NAME.test(token)) continue;
    if (found(token) === false) return;
  }
}

/**
 * The characters of a run TEXT_PATH can match in (`[\w.@+~:\\/-]`), by code: no token crosses
 * any other. A table, not a function: the walk runs once per character, mostly in the interpreter
 * (a hook's code rarely gets compiled), where a call costs more than the test.
 */
const RUN_CHARS = (() => {
  const t = new Uint8Array(128);
  for (let c = 0; c < 128; c++) {
    t[c] = (c >= 48 && c <= 58) || (c >= 97 && c <= 122) || (c >= 64 && c <= 90) || c === 95 || c === 45 ||
        c === 46 || c === 47 || c === 92 || c === 43 || c === 126
      ? 1
      : 0;
  }
  return t;
})();

function isIdChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 45 || c === 95;
}
