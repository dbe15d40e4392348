import { realpathSync } from "../node/fs.ts";
import { checkManifestText } from "./manifest_text.ts";
import { checkInside, type ProjectFileProblem, readInside, resolveInside } from "./read_file.ts";
import type { LocatedIssue } from "./locate.ts";

export type { LocatedIssue } from "./locate.ts";
export type { ProjectFileProblem } from "./read_file.ts";

/** The frontmatter of a valid `resume-context.md` (see `schemas/resume_context.v1.json`). */
export interface ResumeContext {
  resume_schema_version?: string | number;
  /** Legacy name of `resume_schema_version` (`_resume.md`). */
  resume_version?: string | number;
  project_id: string;
  project_name: string;
  current_phase: "research" | "planning" | "execution" | "ready-for-implementation" | "testing" | "review";
  next_action: string;
  files_to_load: string[];
  current_section?: number;
  current_task?: number;
  progress?: string;
  /** Required by the schema; absent only in a legacy `_resume.md` read leniently. */
  last_updated?: string;
  [key: string]: unknown;
}

/** One `files_to_load` entry after resolution. */
export interface ManifestFile {
  /** The entry as written in the manifest. */
  entry: string;
  /** Relative to the project folder with `/` separators; `null` when the entry leaves it. */
  rel: string | null;
  /** Absolute path; `null` when the entry leaves the project folder. */
  abs: string | null;
  /** `ok`, or why the file will not be read. */
  status: "ok" | ProjectFileProblem;
}

/** Why no manifest could be used. A closed set. */
export type ManifestProblem =
  /** None of the manifest names exists in the project folder. */
  | "missing"
  /** The manifest exists but is a link out of the project, a FIFO, too large or unreadable. */
  | "unreadable"
  /** The frontmatter does not parse, or there is none. */
  | "invalid_frontmatter"
  /** The frontmatter parses but fails `schemas/resume_context.v1.json`. */
  | "invalid_manifest";

/** Result of {@linkcode readManifest}. */
export type ReadManifestResult =
  | {
    ok: true;
    /** The manifest used, relative to the project folder. */
    file: string;
    /** True for a legacy `_resume.md` (or any name but the first), or a `resume_version` key. */
    legacy: boolean;
    data: ResumeContext;
    /** `files_to_load`, resolved, in manifest order. */
    files: ManifestFile[];
    /** Problems that do not stop a resume (a `project_id` that is not the folder's name). */
    warnings: LocatedIssue[];
    /** The text after the frontmatter: the design's validation gate. */
    body: string;
  }
  | {
    ok: false;
    problem: ManifestProblem;
    /** The manifest tried, relative to the project folder, or `null` when none exists. */
    file: string | null;
    /** Positions of the problems, for `rehydrate validate` and the debug log. */
    issues: LocatedIssue[];
  };

/** Options for {@linkcode readManifest}. */
export interface ReadManifestOptions {
  /** Manifest names relative to the project folder, tried in order. Default `["01-planning/resume-context.md", "01-planning/_resume.md"]`. */
  manifestNames?: readonly string[];
  /** Larger manifests are refused. Default 256 KiB. */
  maxBytes?: number;
  /** Larger listed files are reported `too_large`. Default 8 MiB. */
  maxFileBytes?: number;
  /**
   * `realpath` of `projectPath`, already checked to lie inside the project directory
   * (`realPathInside` of lib/detect/project_boundary.ts). Default: computed here.
   */
  realRoot?: string;
}

const DEFAULT_NAMES = ["01-planning/resume-context.md", "01-planning/_resume.md"];

/**
 * Finds, parses and validates a project's loading manifest, then resolves its `files_to_load`
 * relative to the project folder. An entry is refused (`outside`) when it leaves the folder
 * (`..`, an absolute path elsewhere, a symbolic link whose target is outside), and reported
 * `missing`, `not_regular` (FIFO, device, directory), `too_large` or `unreadable` otherwise; no
 * listed file is opened here. The manifest itself is read non-blocking with a size cap and must
 * also stay inside the folder. Never throws.
 *
 * @example
 * ```ts
 * import { readManifest } from "./read_manifest.ts";
 * const m = readManifest("/w/02-projects/01-site");
 * if (m.ok) for (const f of m.files) console.log(f.entry, f.status);
 * else console.log(m.problem, m.issues);
 * ```
 */
export function readManifest(projectPath: string, options: ReadManifestOptions = {}): ReadManifestResult {
  const names = options.manifestNames ?? DEFAULT_NAMES;
  let realRoot: string;
  try {
    realRoot = options.realRoot ?? realpathSync(projectPath);
  } catch {
    return { ok: false, problem: "missing", file: null, issues: [] };
  }
  for (let n = 0; n < names.length; n++) {
    const at = resolveInside(projectPath, names[n]);
    if (at === "outside") continue;
    const r = readInside(projectPath, at.abs, { maxBytes: options.maxBytes ?? 256 * 1024, realRoot });
    if (!r.ok) {
      if (r.problem === "missing") continue;
      return {
        ok: false,
        problem: "unreadable",
        file: at.rel,
        issues: [{ line: 0, field: "", code: r.problem, message: `Cannot read the manifest: ${r.problem}` }],
      };
    }
    const folder = lastSegment(projectPath);
    // A legacy manifest (any name but the first) may be the design's minimal hand-written form.
    const parsed = checkManifestText(r.text, n > 0 ? { legacyFolder: folder } : {});
    if (!parsed.ok) return { ok: false, problem: parsed.problem, file: at.rel, issues: parsed.issues };
    const data = parsed.data;
    const warnings: LocatedIssue[] = [];
    if (data.project_id !== folder) {
      warnings.push({
        line: parsed.lineOf(["project_id"]),
        field: "project_id",
        code: "project_id_mismatch",
        message: `Names project ${data.project_id} but sits in folder ${folder}`,
      });
    }
    const files: ManifestFile[] = [];
    for (const entry of data.files_to_load) {
      const res = resolveInside(projectPath, entry);
      if (res === "outside") {
        files.push({ entry, rel: null, abs: null, status: "outside" });
        continue;
      }
      const problem = checkInside(projectPath, res.abs, {
        realRoot,
        maxBytes: options.maxFileBytes ?? 8 * 1024 * 1024,
      });
      files.push({ entry, rel: res.rel, abs: res.abs, status: problem ?? "ok" });
    }
    const legacy = n > 0 || data.resume_schema_version === undefined;
    return { ok: true, file: at.rel, legacy, data, files, warnings, body: parsed.body };
  }
  return { ok: false, problem: "missing", file: null, issues: [] };
}

const SEPARATORS = /[\\/]+/;

function lastSegment(p: string): string {
  const parts = p.split(SEPARATORS).filter((s) => s !== "");
  return parts.length > 0 ? parts[parts.length - 1] : p;
}
