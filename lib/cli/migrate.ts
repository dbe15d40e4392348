import {
  closeSync,
  existsSync,
  fsyncSync,
  linkSync,
  openSync,
  readdirSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from "../node/fs.ts";
import { basename, dirname, join, relative, resolve } from "../node/path.ts";
import type { CliIo } from "./main.ts";
import { failure, usageError } from "./_usage.ts";
import { loadConfig } from "../config/load_config.ts";
import { parseFrontmatter } from "../yaml/parse_frontmatter.ts";
import { checkManifestText, type LegacyFill } from "../projects/manifest_text.ts";
import { readSteps } from "../projects/read_steps.ts";
import { migrateLegacyState } from "./_migrate_state.ts";
import { toSlash } from "../projects/read_file.ts";
import { realPathInside } from "../detect/project_boundary.ts";
import { readPrivateBytes } from "../state/read_private_file.ts";

const HELP = `Usage: rehydrate migrate [--project DIR] [--apply]

Converts legacy project manifests (01-planning/_resume.md) to
01-planning/resume-context.md: the key resume_version becomes
resume_schema_version, and the fields a minimal hand-written manifest lacks
(project_id and project_name from the folder, current_phase from the steps
file, next_action execute-project, last_updated) are added at the end of the
frontmatter; every other byte (comments, order, body) is kept. A hand-written
state file (projects.stateFile) whose timestamp has no UTC offset is rewritten
in the strict form, the old one kept as .bak.

Without --apply it prints the plan and writes nothing. With --apply it writes
resume-context.md (never over an existing one) and keeps the old file as
_resume.md.bak, so running it again finds nothing left to do. A manifest that
would not be valid after the rename is reported and left alone.
Exit status: 0 when everything found was or can be converted, 1 when some
manifest cannot be converted, 2 on a usage error.

Options:
  --project DIR  the workspace (holding 02-projects/, or projects.root from
                 .claude/rehydrate.json) or a single project folder;
                 default: the current directory
  --apply        write the changes
  -h, --help     show this help

Examples:
  rehydrate migrate                      # show what would change
  rehydrate migrate --apply              # convert every project
  rehydrate migrate --project 02-projects/03-notes --apply
`;

const LEGACY = "_resume.md";
const TARGET = "resume-context.md";
const LEGACY_KEY = /^(["']?)resume_version\1(?=[ \t]*:)/;
const MAX_PROJECTS = 1000;
const MAX_BYTES = 256 * 1024;

/**
 * `rehydrate migrate [--project DIR] [--apply]`: finds `_resume.md` manifests in the project
 * folders under the projects root and converts each to `resume-context.md` beside it, renaming
 * the key `resume_version` to `resume_schema_version` in place and keeping every other byte.
 * Dry run by default (prints the plan as a line diff); `--apply` writes the new file exclusively
 * (an existing `resume-context.md` is never overwritten) and renames the old one to
 * `_resume.md.bak`. Idempotent. Reports every manifest it cannot convert (no or broken
 * frontmatter, both keys present, invalid after the rename, a backup already there) and then
 * returns 1; otherwise 0; 2 on a usage error.
 *
 * @example
 * ```ts
 * const code = cliMigrate(["--project", "/w"], {
 *   out: (t) => process.stdout.write(t),
 *   err: (t) => process.stderr.write(t),
 * });
 * ```
 */
export function cliMigrate(args: string[], io: CliIo): number {
  let project: string | null = null;
  let apply = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "-h" || a === "--help") {
      io.out(HELP);
      return 0;
    } else if (a === "--apply") apply = true;
    else if (a === "--project" || a.startsWith("--project=")) {
      const v = a === "--project" ? args[++i] : a.slice(10);
      if (!v) {
        return usageError(io, "migrate", "--project needs a directory");
      }
      project = v;
    } else {
      return usageError(
        io,
        "migrate",
        a.startsWith("-") ? `unknown option ${a}` : `unexpected argument ${JSON.stringify(a)}`,
      );
    }
  }
  const dir = resolve(project ?? process.cwd());
  if (!isDir(dir)) {
    return failure(io, "migrate", `no directory ${dir}`);
  }

  const legacyFiles = findLegacy(dir);
  const show = (p: string) => toSlash(relative(dir, p)) || ".";
  let planned = 0;
  let done = 0;
  let already = 0;
  let failed = 0;
  for (const legacy of legacyFiles) {
    const target = join(dirname(legacy), TARGET);
    const backup = `${legacy}.bak`;
    // Rule 2 of SECURITY.md: a linked projects root, project folder, planning folder or manifest
    // that leads out of DIR is neither read nor written through.
    if (realPathInside(dir, legacy) === null || realPathInside(dir, dirname(legacy)) === null) {
      failed++;
      io.out(`cannot convert ${show(legacy)}: it resolves outside ${dir} (a symbolic link); nothing written\n`);
      continue;
    }
    if (existsSync(target)) {
      io.out(`skip ${show(legacy)}: ${show(target)} exists already (nothing overwritten)\n`);
      already++;
      continue;
    }
    const converted = convert(legacy);
    if (typeof converted === "string" || Array.isArray(converted)) {
      failed++;
      if (typeof converted === "string") io.out(`cannot convert ${show(legacy)}: ${converted}\n`);
      else {
        io.out(`cannot convert ${show(legacy)}: the result would not be a valid manifest\n`);
        for (const line of converted) io.out(`  ${show(legacy)}:${line}\n`);
      }
      continue;
    }
    if (existsSync(backup)) {
      failed++;
      io.out(`cannot convert ${show(legacy)}: ${show(backup)} exists; move it away first\n`);
      continue;
    }
    io.out(`${apply ? "migrate" : "would migrate"} ${show(legacy)} -> ${show(target)}\n`);
    if (converted.line > 0) {
      io.out(`  line ${converted.line}: - ${converted.before}\n  line ${converted.line}: + ${converted.after}\n`);
    }
    converted.added.forEach((l, i) => io.out(`  line ${converted.addedAt + i}: + ${l}\n`));
    if (converted.line === 0 && converted.added.length === 0) {
      io.out("  content unchanged (already uses resume_schema_version)\n");
    }
    io.out(`  backup: ${show(legacy)} -> ${show(backup)}\n`);
    planned++;
    if (!apply) continue;
    try {
      writeNew(target, converted.text, statSync(legacy).mode & 0o777);
      renameSync(legacy, backup);
      done++;
    } catch (err) {
      failed++;
      io.out(`cannot convert ${show(legacy)}: ${(err as Error).message}\n`);
    }
  }
  if (legacyFiles.length === 0) io.out(`No ${LEGACY} manifests under ${dir}\n`);
  // The workspace's flat state file, when it is the design's hand-written form.
  const stateFile = loadConfig(dir).config.projects.stateFile;
  const st = migrateLegacyState(dir, stateFile, apply);
  if (st.kind === "failed") {
    failed++;
    io.out(`cannot upgrade ${show(resolve(dir, stateFile))}: ${st.reason}\n`);
  } else if (st.kind === "planned" || st.kind === "migrated") {
    io.out(
      `${apply ? "upgrade" : "would upgrade"} the legacy state ${show(resolve(dir, stateFile))}: ${
        st.notes.join("; ")
      }\n`,
    );
    io.out(`  backup: ${show(st.backup)}\n`);
    if (st.kind === "planned") planned++;
    else done++;
  }
  const summary = apply
    ? `${done} migrated, ${already} already migrated, ${failed} cannot be converted`
    : `${planned} to migrate, ${already} already migrated, ${failed} cannot be converted; dry run: nothing written, run with --apply to migrate`;
  io.out(`${summary}\n`);
  return failed > 0 ? 1 : 0;
}

/** The legacy manifests: in `dir` itself when it is a project folder, else in each project folder of the root. */
function findLegacy(dir: string): string[] {
  const { config } = loadConfig(dir);
  const names = config.projects.manifestNames.filter((n) => basename(n) === LEGACY);
  if (names.length === 0) names.push(`01-planning/${LEGACY}`);
  const inFolder = (folder: string) => names.map((n) => join(folder, n)).filter((p) => isFile(p));
  const own = inFolder(dir);
  if (own.length > 0) return own;
  const root = resolve(dir, config.projects.root);
  let entries: string[];
  try {
    entries = readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort().slice(
      0,
      MAX_PROJECTS,
    );
  } catch {
    return [];
  }
  return entries.flatMap((e) => inFolder(join(root, e)));
}

/** The converted text and the changed line, or why it cannot be converted (a reason, or issue lines). */
/** A manifest as `rehydrate migrate` would write it. */
interface Converted {
  text: string;
  /** 1-based line of the renamed key, 0 when none was renamed. */
  line: number;
  before: string;
  after: string;
  /** Lines added to complete a minimal legacy manifest, inserted at line `addedAt`. */
  added: string[];
  addedAt: number;
}

function convert(file: string): Converted | string | string[] {
  // Bounded and non-blocking: a FIFO or a link to a device in a manifest's place is refused, never read.
  const read = readPrivateBytes(file, { maxBytes: MAX_BYTES, requireOwner: false, followLinks: true });
  if (!read.ok) {
    if (read.reason === "too_large") return `larger than ${MAX_BYTES} bytes`;
    if (read.reason === "not_regular") return "not a regular file";
    return `cannot read it (${read.reason === "missing" ? "ENOENT" : read.message})`;
  }
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(read.bytes);
  const fm = parseFrontmatter(text);
  if (fm.errors.length > 0 || fm.value === null) {
    return fm.errors.map((e) => `${e.line}: frontmatter: ${e.message}`);
  }
  const data = fm.value.data;
  if (data === null) return "it has no frontmatter";
  const hasOld = Object.hasOwn(data, "resume_version");
  const hasNew = Object.hasOwn(data, "resume_schema_version");
  if (hasOld && hasNew) return "it has both resume_version and resume_schema_version; remove one by hand";
  let out = text;
  let changed = 0;
  let before = "";
  let after = "";
  if (hasOld) {
    // Frontmatter lines are 2 .. bodyLine - 2 (1-based); the key must be at the start of one.
    const lines = text.split("\n");
    for (let i = 1; i < fm.value.bodyLine - 2; i++) {
      if (!LEGACY_KEY.test(lines[i])) continue;
      before = lines[i].replace(/\r$/, "");
      lines[i] = lines[i].replace(LEGACY_KEY, (_m, q: string) => `${q}resume_schema_version${q}`);
      after = lines[i].replace(/\r$/, "");
      changed = i + 1;
      break;
    }
    if (changed === 0) return "resume_version is not a top-level key on a line of its own";
    out = lines.join("\n");
  }
  let check = checkManifestText(out);
  let added: string[] = [];
  if (!check.ok) {
    // The design's minimal hand-written _resume.md (only files_to_load, say): the fields it lacks
    // are added at the end of the frontmatter, as SessionStart reads them (docs/projects.md).
    const folder = projectFolderOf(file);
    const lenient = checkManifestText(out, { legacyFolder: basename(folder) });
    if (!lenient.ok) return check.issues.map((i) => `${i.line}: ${i.field}: ${i.message}`);
    const eol = text.includes("\r\n") ? "\r\n" : "\n";
    added = legacyLines(lenient.legacy, folder, file);
    const lines = out.split("\n");
    // The closing fence is line bodyLine - 1 (1-based): the new keys go right before it.
    lines.splice(fm.value.bodyLine - 2, 0, ...added.map((l) => l + (eol === "\r\n" ? "\r" : "")));
    out = lines.join("\n");
    check = checkManifestText(out);
    if (!check.ok) return check.issues.map((i) => `${i.line}: ${i.field}: ${i.message}`);
  }
  return { text: out, line: changed, before, after, added, addedAt: fm.value.bodyLine - 1 };
}

/** The frontmatter lines that complete a legacy manifest, with a comment saying where they came from. */
function legacyLines(fills: LegacyFill[], folder: string, file: string): string[] {
  const out = ["# added by rehydrate migrate from a legacy _resume.md"];
  const ordered = [...fills].sort((a, b) =>
    Number(b.field === "resume_schema_version") - Number(a.field === "resume_schema_version")
  );
  for (const f of ordered) {
    if (f.field === "resume_schema_version") out.push('resume_schema_version: "1.0"');
    else if (f.field === "last_updated") {
      let at = new Date();
      try {
        at = statSync(file).mtime;
      } catch { /* now */ }
      out.push(`last_updated: ${JSON.stringify(at.toISOString())}`);
    } else if (f.field === "current_phase") {
      out.push(`current_phase: ${readSteps(folder)?.phase ?? f.value}`);
    } else out.push(`${f.field}: ${JSON.stringify(f.value)}`);
  }
  return out;
}

/** The project folder of a manifest: the parent of its `01-planning/` folder, else its own folder. */
function projectFolderOf(file: string): string {
  const dir = dirname(file);
  return basename(dir) === "01-planning" ? dirname(dir) : dir;
}

/** Writes `path` only if it does not exist: a fresh temporary file hard-linked into place. */
function writeNew(path: string, text: string, mode: number): void {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now().toString(36)}.tmp`);
  const fd = openSync(tmp, "wx", mode);
  try {
    const bytes = new TextEncoder().encode(text);
    let at = 0;
    while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(tmp, path); // fails with EEXIST instead of replacing
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === "EEXIST") throw new Error(`${basename(path)} appeared meanwhile; nothing overwritten`);
    // No hard links on this file system: exclusive create instead.
    const fd2 = openSync(path, "wx", mode);
    try {
      writeSync(fd2, text);
      fsyncSync(fd2);
    } finally {
      closeSync(fd2);
    }
  } finally {
    try {
      unlinkSync(tmp);
    } catch { /* already gone */ }
  }
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}
