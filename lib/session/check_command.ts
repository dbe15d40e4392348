/**
 * Programs and wrappers that run the next word as the command: `npx vitest`, `timeout 60 go test`,
 * `uv run pytest`, `env CI=1 make`. Their own options are skipped with them.
 */
const WRAPPERS: ReadonlySet<string> = new Set([
  "timeout",
  "time",
  "env",
  "nice",
  "npx",
  "bunx",
  "pnpx",
  "sudo",
  "command",
  "exec",
  "xvfb-run",
  "dotenv",
  "uv",
  "uvx",
  "poetry",
  "pipenv",
  "bundle",
  "hatch",
  "pdm",
  "rye",
  "run",
]);
/** Programs that only check, build or test, whatever their arguments. */
const CHECKERS: ReadonlySet<string> = new Set([
  "pytest",
  "py.test",
  "jest",
  "vitest",
  "mocha",
  "ava",
  "tap",
  "playwright",
  "cypress",
  "tsc",
  "vue-tsc",
  "eslint",
  "oxlint",
  "biome",
  "prettier",
  "ruff",
  "mypy",
  "pyright",
  "flake8",
  "pylint",
  "black",
  "isort",
  "golangci-lint",
  "staticcheck",
  "gofmt",
  "gotestsum",
  "rubocop",
  "rspec",
  "phpunit",
  "phpstan",
  "ctest",
  "tox",
  "nox",
  "shellcheck",
  "hadolint",
  "stylelint",
  "swiftlint",
  "ktlint",
  "detekt",
  "clang-tidy",
  "cppcheck",
]);
/** Subcommands of a language's own tool that check, build or test. */
const SUBCOMMANDS: Readonly<Record<string, ReadonlySet<string>>> = {
  go: new Set(["test", "build", "vet", "fmt", "generate"]),
  cargo: new Set(["test", "build", "check", "clippy", "fmt", "nextest", "bench"]),
  dotnet: new Set(["test", "build", "format"]),
  swift: new Set(["test", "build"]),
  deno: new Set(["test", "check", "lint", "fmt", "bench"]),
  bun: new Set(["test"]),
  mvn: new Set(["test", "verify", "package", "install", "compile"]),
  "./mvnw": new Set(["test", "verify", "package", "install", "compile"]),
  zig: new Set(["build", "test"]),
  mix: new Set(["test", "compile", "format", "credo"]),
  flutter: new Set(["test", "analyze", "build"]),
  dart: new Set(["test", "analyze", "format"]),
};
/** Task runners and package managers: a check when the script or target is named like one. */
const RUNNERS: ReadonlySet<string> = new Set([
  "npm",
  "pnpm",
  "yarn",
  "bun",
  "make",
  "just",
  "task",
  "mise",
  "gradle",
  "./gradlew",
  "gradlew",
  "bazel",
  "bazelisk",
  "nx",
  "turbo",
  "rake",
  "composer",
  "hatch",
  "invoke",
  "xcodebuild",
]);
/** A script or target name that checks, builds or tests. */
const CHECK_NAME = /test|spec|build|lint|check|type|tsc|fmt|format|vet|verify|compile|clippy|e2e|ci\b|\bci/i;
/** Words after a runner that are not the script's name (`npm run`, `mise run`, `yarn workspace x`). */
const RUNNER_VERBS: ReadonlySet<string> = new Set(["run", "run-script", "exec", "-C", "--filter", "-w", "workspace"]);

/**
 * True when `command` (a Bash tool call's command line) runs a build, a test suite, a type check, a
 * linter or a formatter: the commands an agent runs again and again to see where the work stands.
 * Each simple command of the line (split on `&&`, `||`, `;`, `|` and newlines) is looked at after
 * its variable assignments and wrappers (`timeout 60`, `npx`, `uv run`, `env`): a checker by name
 * (`pytest`, `tsc`, `eslint`, …), a language tool's checking subcommand (`go test`, `cargo
 * clippy`), `python -m pytest`, `node --test`, or a task runner or package manager whose script or target is
 * named like a check (`npm test`, `npm run typecheck`, `mise run lint`, `make` alone or `make
 * test`). Whatever else (`git commit -m "add tests"`, `cat test.log`) is not.
 *
 * @example
 * ```ts
 * import { isCheckCommand } from "./check_command.ts";
 * isCheckCommand("cd app && npm run test:unit 2>&1 | tail -30"); // true
 * isCheckCommand("go build ./... && go vet ./..."); // true
 * isCheckCommand('git commit -m "fix the flaky test"'); // false
 * ```
 */
export function isCheckCommand(command: string): boolean {
  if (command.length > 20_000) return false;
  for (const part of skeleton(command).split(/&&|\|\||[;|\n]/)) {
    if (isCheckPart(wordsOf(part))) return true;
  }
  return false;
}

/**
 * The command line with what is only data taken out: quoted strings (a commit message that says
 * "staticcheck" or "tests") become `Q`, and here-documents lose their bodies.
 */
function skeleton(command: string): string {
  let out = "";
  let i = 0;
  let heredoc: string | undefined;
  while (i < command.length) {
    const c = command[i];
    if (heredoc !== undefined && c === "\n") {
      // Skip the body: lines up to the one that is the delimiter alone.
      const lines = command.slice(i + 1).split("\n");
      let skipped = i + 1;
      for (const line of lines) {
        skipped += line.length + 1;
        if (line.trim() === heredoc) break;
      }
      heredoc = undefined;
      out += "\n";
      i = skipped;
      continue;
    }
    if (c === "'" || c === '"') {
      const end = command.indexOf(c, i + 1);
      out += "Q";
      i = end === -1 ? command.length : end + 1;
      continue;
    }
    if (c === "<" && command[i + 1] === "<" && command[i + 2] !== "<") {
      const m = /^<<-?\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\1/.exec(command.slice(i, i + 100));
      if (m !== null) {
        heredoc = m[2];
        out += " ";
        i += m[0].length;
        continue;
      }
    }
    out += c;
    i++;
  }
  return out;
}

function wordsOf(part: string): string[] {
  const words = part.trim().split(/\s+/).filter((w) => w !== "");
  let i = 0;
  // Variable assignments (`CI=1 npm test`), a subshell's or group's opening, `cd dir` is its own part.
  while (i < words.length && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]) || words[i] === "(" || words[i] === "{")) i++;
  while (i < words.length && WRAPPERS.has(baseName(words[i]))) {
    const wrapper = baseName(words[i]);
    i++;
    if (wrapper === "timeout" && i < words.length && /^\d+(\.\d+)?[smhd]?$/.test(words[i])) i++;
    while (i < words.length && (words[i].startsWith("-") || /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]))) i++;
  }
  return words.slice(i).map((w) => w.replace(/^['"(]+|['");]+$/g, ""));
}

function isCheckPart(words: string[]): boolean {
  if (words.length === 0) return false;
  const program = baseName(words[0]);
  const args = words.slice(1);
  if (CHECKERS.has(program)) return true;
  if ((program === "python" || program === "python3") && args[0] === "-m") {
    return CHECKERS.has(args[1] ?? "") || args[1] === "unittest";
  }
  // Node's own test runner.
  if ((program === "node" || program === "nodejs") && args.includes("--test")) return true;
  const sub = SUBCOMMANDS[program] ?? SUBCOMMANDS[words[0]];
  if (sub !== undefined && args[0] !== undefined && sub.has(args[0])) return true;
  if (!RUNNERS.has(program) && !RUNNERS.has(words[0])) return false;
  // `make` alone builds the default target; `xcodebuild` always builds or tests.
  if ((program === "make" || program === "just") && args.every((a) => a.startsWith("-") || a.includes("="))) {
    return true;
  }
  if (program === "xcodebuild") return true;
  const named = args.filter((a) => !a.startsWith("-") && !RUNNER_VERBS.has(a)).slice(0, 2);
  if (program === "npm" && args[0] !== undefined && ["test", "t", "tst", "run", "run-script"].includes(args[0])) {
    return args[0] !== "run" && args[0] !== "run-script" ? true : CHECK_NAME.test(named[0] ?? "");
  }
  return named.some((n) => CHECK_NAME.test(n));
}

function baseName(word: string): string {
  const slash = word.lastIndexOf("/");
  return slash === -1 || word.startsWith("./") ? word : word.slice(slash + 1);
}
