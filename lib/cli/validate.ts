import { basename, dirname, resolve } from "../node/path.ts";
import type { CliIo } from "./main.ts";
import { usageError } from "./_usage.ts";
import { type JsonSchema, validateSchema } from "../schema/validate_schema.ts";
import { checkManifestText } from "../projects/manifest_text.ts";
import { fieldName, issueSegments, type LocatedIssue, locateJson } from "../projects/locate.ts";
import { SCHEMAS as ALL } from "./_schemas.ts";
import { readPrivateFile } from "../state/read_private_file.ts";
import { readProjectFile } from "../state/read_project_file.ts";
import { upgradeLegacyState } from "../projects/legacy_state.ts";
import { containedPath, namedInside, outsideLine } from "./_contained.ts";
import { workflowFiles } from "./_doctor_files.ts";
import { detectWorkflows, projectConfig, resolveEnv } from "./_install_detect.ts";
import { projectRoot, rootLine } from "./_project_root.ts";
import { existsSync } from "../node/fs.ts";
import { locateConfigIssue, problemLine } from "./_problem_line.ts";
import { checkConfigText } from "../config/check_config_text.ts";
import { configFiles } from "../config/config_files.ts";
import { homeDir as defaultHome } from "../node/home_dir.ts";

/** The kinds of file `rehydrate validate` knows. */
export type ValidateKind =
  | "manifest"
  | "precompact_state"
  | "checkpoint"
  | "context_monitor_state"
  | "reread_marker"
  | "session_record"
  | "compaction_record"
  | "session_role"
  | "fill_warning_state"
  | "quiet_prompt_memo"
  | "restore_record"
  | "config";

const SCHEMAS: Record<Exclude<ValidateKind, "manifest">, JsonSchema> = {
  precompact_state: ALL.precompact_state,
  checkpoint: ALL.checkpoint,
  context_monitor_state: ALL.context_monitor_state,
  reread_marker: ALL.reread_marker,
  session_record: ALL.session_record,
  compaction_record: ALL.compaction_record,
  session_role: ALL.session_role,
  fill_warning_state: ALL.fill_warning_state,
  quiet_prompt_memo: ALL.quiet_prompt_memo,
  restore_record: ALL.restore_record,
  config: ALL.config,
};

const KINDS = ["manifest", ...Object.keys(SCHEMAS)] as ValidateKind[];
const MAX_BYTES = 4 * 1024 * 1024;
const JSON_POSITION = /line (\d+)|position (\d+)/;
const BACKSLASH = /\\/g;
const DRIVE = /^[A-Za-z]:\//;

const HELP = `Usage: rehydrate validate [--kind KIND] [--quiet] [FILE...]

Checks manifests, state files and configs against rehydrate's schemas and
prints one line per problem:  FILE:LINE: FIELD: MESSAGE (rehydrate doctor says
the same problems in the same words)
Exit status: 0 when every file is valid, 1 when any is not, 2 on a usage error.

Without FILE: the project's own files, in the project found from the current
directory upward (its .claude/ folder or .git): .claude/rehydrate.json, your
~/.claude/rehydrate.json, and the manifests, state files and checkpoints of
the workflows it uses.

  .md files     a project manifest (resume-context.md, legacy _resume.md): the
                frontmatter must parse and match schemas/resume_context.v1.json,
                and no files_to_load entry may leave the project folder
  .json files   recognised by their content: precompact_state, checkpoint,
                context_monitor_state, reread_marker, session_record,
                compaction_record, session_role, fill_warning_state (fill/ in
                the state directory), quiet_prompt_memo (quiet/),
                restore_record (restores/), or config (.claude/rehydrate.json)

A file named inside the current directory is read only when it resolves
inside it: one that a symbolic link leads out of (a linked 02-projects or
project folder) is reported in one line, not read, and fails.

Legacy input is accepted and printed as "legacy" with what was read leniently:
a _resume.md with only files_to_load (and next_action), a hand-written
precompact_state.json without an offset on its timestamp. rehydrate migrate
upgrades both.

Options:
  --kind KIND   skip the detection; KIND is one of
                ${KINDS.join(", ")}
  --quiet       print nothing for valid files
  -h, --help    show this help

Examples:
  rehydrate validate
  rehydrate validate 02-projects/*/01-planning/resume-context.md
  rehydrate validate 00-system/.cache/precompact_state.json .claude/rehydrate.json
  rehydrate validate --kind checkpoint .jerry/checkpoints/cx-001-checkpoint.json
`;

/**
 * `rehydrate validate FILE...`: validates manifests (`.md`: frontmatter against
 * `schemas/resume_context.v1.json`, plus the project-folder rule for `files_to_load`) and state
 * files (`.json`, kind told by content or `--kind`) and prints `file:line: field: message` per
 * problem (the line of the field in the source; parser errors carry their own). A file named
 * inside `options.cwd` (default: the current directory) that resolves outside it is named in one
 * line and not read (rule 2 of SECURITY.md). Returns 1 when any file fails or is refused, 0 when
 * all pass, 2 on a usage error.
 *
 * @example
 * ```ts
 * const code = cliValidate(["02-projects/01-site/01-planning/resume-context.md"], {
 *   out: (t) => process.stdout.write(t),
 *   err: (t) => process.stderr.write(t),
 * });
 * ```
 */
export function cliValidate(
  args: string[],
  io: CliIo,
  options: { cwd?: string; homeDir?: string; env?: Record<string, string | undefined> } = {},
): number {
  const files: string[] = [];
  let kind: ValidateKind | null = null;
  let quiet = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "-h" || a === "--help") {
      io.out(HELP);
      return 0;
    } else if (a === "--quiet" || a === "-q") quiet = true;
    else if (a === "--kind" || a.startsWith("--kind=")) {
      const v = a === "--kind" ? args[++i] : a.slice(7);
      if (!KINDS.includes(v as ValidateKind)) {
        return usageError(io, "validate", `unknown kind ${JSON.stringify(v ?? "")}; one of ${KINDS.join(", ")}`);
      }
      kind = v as ValidateKind;
    } else if (a === "--") {
      files.push(...args.slice(i + 1));
      break;
    } else if (a.startsWith("-") && a !== "-") {
      return usageError(io, "validate", `unknown option ${a}`);
    } else files.push(a);
  }
  let cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  if (files.length === 0) {
    // No file named: the project's own, as rehydrate doctor checks them (issue #37).
    const found = projectFiles({ cwd, homeDir: options.homeDir ?? defaultHome(env), env });
    if (found.line) io.out(`${found.line}\n`);
    if (found.refused.length > 0) io.out(`${outsideLine(found.refused)}; not read\n`);
    if (found.files.length === 0) {
      io.out(`Nothing to check in ${found.dir}: no rehydrate.json, manifest, state file or checkpoint\n`);
      return found.refused.length > 0 ? 1 : 0;
    }
    cwd = found.dir;
    files.push(...found.files);
  }
  // A config file is checked as the hooks read it: the user's own (and the one REHYDRATE_CONFIG
  // names) may set every key, any other is a project's.
  const user = configFiles(cwd, options.homeDir ?? defaultHome(env), env);
  const userConfigs = new Set([user.home, ...(user.explicit === null ? [] : [user.explicit])]);
  let failed = 0;
  for (const file of files) {
    // Rule 2 of SECURITY.md: a file named inside the directory (a repository's glob, say) is read
    // through its checked real path only; one a link leads out of is named, never read.
    const at = namedInside(cwd, file) ? containedPath(cwd, file) : null;
    if (at?.kind === "outside") {
      failed++;
      io.out(`${file}: not read: it resolves outside ${cwd} (a symbolic link)\n`);
      continue;
    }
    const inside = at?.kind === "inside" ? at.real : null;
    // Inside the directory, the one read primitive of project paths: one link only (issue #36).
    const read = inside !== null ? projectText(cwd, inside) : readPrivateFile(resolve(cwd, file), {
      maxBytes: MAX_BYTES,
      requireOwner: false,
      followLinks: true,
    });
    if (!read.ok && read.reason === "hard_link") {
      failed++;
      io.out(`${file}: not read: it has a second hard link (it could be any file of the user's)\n`);
      continue;
    }
    const { kind: found, issues, legacy } = validateFile(file, kind, read, {
      project: !userConfigs.has(resolve(cwd, file)),
    });
    if (issues.length === 0) {
      // Legacy input is accepted (SessionStart reads it too); `rehydrate migrate` upgrades it.
      if (quiet) continue;
      if (legacy !== undefined && legacy.length > 0) {
        io.out(`${file}: legacy (${found}): ${legacy.join("; ")}; rehydrate migrate upgrades it\n`);
      } else io.out(`${file}: ok (${found})\n`);
      continue;
    }
    failed++;
    for (const i of issues) io.out(`${problemLine(file, i)}\n`);
  }
  if (files.length > 1 && !quiet) io.out(`${files.length - failed} of ${files.length} files valid\n`);
  return failed > 0 ? 1 : 0;
}

interface FileResult {
  kind: string;
  issues: LocatedIssue[];
  /** For a valid legacy file: what was read leniently. */
  legacy?: string[];
}

/** A file inside `cwd` read by `readProjectFile`, in `readPrivateFile`'s terms. */
function projectText(
  cwd: string,
  real: string,
): { ok: true; text: string } | { ok: false; reason: string; message: string } {
  const r = readProjectFile(cwd, real, { maxBytes: MAX_BYTES });
  if (r.ok) return r;
  if (r.problem === "outside") return { ok: false, reason: "hard_link", message: "" };
  return { ok: false, reason: r.problem, message: r.problem.replace("_", " ") };
}

/**
 * Checks what was read of `file`. Bounded and non-blocking: a FIFO, a device or a huge file named
 * here was refused, never read.
 */
function validateFile(
  file: string,
  forced: ValidateKind | null,
  read: { ok: true; text: string } | { ok: false; reason: string; message: string },
  options: { project: boolean },
): FileResult {
  if (!read.ok) {
    if (read.reason === "too_large") {
      return {
        kind: "unknown",
        issues: [{
          line: 0,
          field: "",
          code: "too_large",
          message: `Cannot check a file larger than ${MAX_BYTES} bytes`,
        }],
      };
    }
    const why = read.reason === "missing"
      ? "ENOENT"
      : read.reason === "not_regular"
      ? "not a regular file"
      : read.message;
    return {
      kind: "unknown",
      issues: [{ line: 0, field: "", code: "unreadable", message: `Cannot read the file: ${why}` }],
    };
  }
  let text = read.text;
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const kind = forced ?? (file.toLowerCase().endsWith(".md") ? "manifest" : null);
  if (kind === "manifest") return { kind, ...manifestIssues(text, file) };
  if (kind === "config" || (kind === null && basename(file) === "rehydrate.json")) return configResult(text, options);

  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const msg = (err as Error).message;
    const m = JSON_POSITION.exec(msg);
    const line = m === null ? 1 : m[1] !== undefined ? Number(m[1]) : lineAt(text, Number(m[2]));
    return {
      kind: kind ?? "json",
      issues: [{ line, field: "", code: "invalid_json", message: `Cannot parse JSON: ${msg}` }],
    };
  }
  const k = kind ?? detectKind(file, value);
  if (k === "config") return configResult(text, options);
  if (k === null) {
    return {
      kind: "unknown",
      issues: [{
        line: 1,
        field: "",
        code: "unknown_kind",
        message: "Cannot tell which kind of file this is; pass --kind",
      }],
    };
  }
  const schemaIssues = validateSchema(SCHEMAS[k as Exclude<ValidateKind, "manifest">], value);
  if (k === "precompact_state" && schemaIssues.length > 0) {
    const legacy = upgradeLegacyState(value);
    if (legacy !== null) return { kind: k, issues: [], legacy: legacy.notes };
  }
  const issues = schemaIssues.map((issue) => {
    const segs = issueSegments(issue);
    return {
      line: locateJson(text, issue.keyword === "required" ? segs.slice(0, -1) : segs),
      field: fieldName(segs),
      code: issue.keyword,
      message: issue.message,
    };
  });
  return { kind: k, issues };
}

/**
 * The files `rehydrate validate` checks when none is named: the config files that exist (the
 * project's, the user's, the one `REHYDRATE_CONFIG` names) and the files of the workflows the
 * project uses, in the project found from the working directory upward.
 */
function projectFiles(
  at: { cwd: string; homeDir: string; env: Record<string, string | undefined> },
): { dir: string; line: string | null; files: string[]; refused: string[] } {
  const env = resolveEnv(at);
  const root = projectRoot(env, undefined);
  const loaded = projectConfig(root.dir, env);
  const configs = configFiles(root.dir, env.homeDir, env.env);
  const workflows = detectWorkflows(root.dir, loaded).filter((f) => f.used).map((f) => f.workflow);
  const { files, refused } = workflowFiles(root.dir, loaded.config, workflows);
  const present = [configs.project, configs.home, ...(configs.explicit === null ? [] : [configs.explicit])]
    .filter((f, i, all) => all.indexOf(f) === i && existsSync(f));
  return { dir: root.dir, line: rootLine(root, at.cwd), files: [...present, ...files], refused };
}

/**
 * A config file as the hooks read it, in the words rehydrate doctor uses: a project's file may not
 * set the user-only keys, and an array's bad items are said once.
 */
function configResult(text: string, options: { project: boolean }): FileResult {
  const checked = checkConfigText(text, { file: "", project: options.project });
  return { kind: "config", issues: checked.issues.map((i) => locateConfigIssue(i, text)) };
}

function manifestIssues(text: string, file: string): { issues: LocatedIssue[]; legacy?: string[] } {
  // A `_resume.md` is legacy input: the design's minimal hand-written form is accepted.
  const isLegacyName = basename(file) === "_resume.md";
  const checked = checkManifestText(text, isLegacyName ? { legacyFolder: projectFolderOf(file) } : {});
  if (!checked.ok) return { issues: checked.issues };
  const issues: LocatedIssue[] = [];
  checked.data.files_to_load.forEach((entry, i) => {
    const e = entry.replace(BACKSLASH, "/");
    if (e.startsWith("/") || DRIVE.test(e) || e.split("/").includes("..")) {
      issues.push({
        line: checked.lineOf(["files_to_load", String(i)]),
        field: `files_to_load[${i}]`,
        code: "outside",
        message: "Path leaves the project folder; it will not be loaded",
      });
    }
  });
  const legacy = checked.legacy.map((f) => f.note);
  if (isLegacyName) legacy.unshift("the legacy name _resume.md");
  if (checked.data.resume_version !== undefined) legacy.push("the legacy key resume_version");
  return { issues, legacy };
}

/** The project folder of a manifest: the parent of its `01-planning/` folder, else its own folder. */
function projectFolderOf(file: string): string {
  const dir = dirname(resolve(file));
  return basename(basename(dir) === "01-planning" ? dirname(dir) : dir);
}

function detectKind(file: string, value: unknown): ValidateKind | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const o = value as Record<string, unknown>;
  if ("active_project_id" in o || "detection_method" in o) return "precompact_state";
  if ("checkpoint_id" in o) return "checkpoint";
  if ("session_type" in o) return "reread_marker";
  if ("deps" in o && "monitor" in o) return "quiet_prompt_memo";
  if ("delivered" in o && "follow_up" in o) return "restore_record";
  if ("crossed" in o && "percent" in o) return "fill_warning_state";
  if ("role" in o && "registered_at" in o) return "session_role";
  if ("compaction_id" in o && "workflow" in o) return "compaction_record";
  if ("fill_fraction" in o || "resumption_status" in o) return "context_monitor_state";
  if ("deliveries" in o || "started_at" in o) return "session_record";
  if (basename(file) === "rehydrate.json" || (typeof o.$schema === "string" && o.$schema.includes("config.v1"))) {
    return "config";
  }
  return null;
}

function lineAt(text: string, pos: number): number {
  let line = 1;
  for (let i = 0; i < pos && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
