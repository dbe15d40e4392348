import { closeSync, constants, fstatSync, openSync, readdirSync, readSync } from "../node/fs.ts";
import { join } from "../node/path.ts";
import { safeText } from "../redact/quote_line.ts";
import type { SessionTask, SessionTaskList } from "./tasks.ts";

/** Task files read at most. */
const MAX_FILES = 200;
/** Largest task file read. */
const MAX_FILE_BYTES = 64 * 1024;
/** A list id that names one folder under `tasks/`, never a path. */
const LIST_ID = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;
const FILE = /^([A-Za-z0-9_-]{1,64})\.json$/;
const STATUSES: ReadonlySet<string> = new Set(["pending", "in_progress", "completed"]);
// A FIFO in place of a file must not block the open; fstat then refuses it.
const O_NONBLOCK = (constants as Record<string, number>).O_NONBLOCK ?? 0;
const O_NOFOLLOW = (constants as Record<string, number>).O_NOFOLLOW ?? 0;

/**
 * The task list Claude Code keeps on disk when its task tools are on (2.1.3xx:
 * `<config>/tasks/<list id>/<task id>.json`, the list id being `CLAUDE_CODE_TASK_LIST_ID`, else the
 * session's id): the client's own word on each task, subagents' updates and the client's own
 * status changes included, which the transcript does not always show. Each file's `id`, `subject`,
 * `description`, `activeForm`, `status` and `blockedBy` are read (regular files only, no link, at
 * most 64 KiB each and 200 in all), redacted and capped like the transcript's; `updated_at` is the
 * file's modification time. Null when there is no such folder or it holds no valid task; tasks in
 * id order, at most `maxTasks` (open ones kept first). Never throws.
 *
 * @example
 * ```ts
 * import { clientTaskList } from "./task_files.ts";
 * const list = clientTaskList("/home/me/.claude", "7da37d46-8061-4f75-801e-26383afad198");
 * list?.tasks.filter((t) => t.status !== "completed"); // [{ source: "task", id: "2", status: "in_progress", … }]
 * ```
 */
export function clientTaskList(
  configDir: string,
  listId: string,
  options: { maxTasks?: number } = {},
): SessionTaskList | null {
  if (!LIST_ID.test(listId)) return null;
  const dir = join(configDir, "tasks", listId);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return null;
  }
  const found: SessionTask[] = [];
  for (const name of names.filter((n) => FILE.test(n)).slice(0, MAX_FILES)) {
    const task = readTask(join(dir, name));
    if (task !== null) found.push(task);
  }
  if (found.length === 0) return null;
  found.sort((a, b) => {
    const [x, y] = [Number(a.id), Number(b.id)];
    return Number.isFinite(x) && Number.isFinite(y) && x !== y ? x - y : (a.id ?? "") < (b.id ?? "") ? -1 : 1;
  });
  const max = options.maxTasks ?? 50;
  const keep = new Set<SessionTask>();
  for (const t of found) if (keep.size < max && t.status !== "completed") keep.add(t);
  for (let i = found.length - 1; i >= 0 && keep.size < max; i--) keep.add(found[i]);
  const tasks = found.filter((t) => keep.has(t));
  return { source: "task", tasks, omitted: found.length - tasks.length };
}

function readTask(path: string): SessionTask | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | O_NONBLOCK | O_NOFOLLOW);
  } catch {
    return null;
  }
  let raw: Record<string, unknown>;
  let mtime: Date;
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > MAX_FILE_BYTES) return null;
    mtime = st.mtime;
    const buf = new Uint8Array(st.size);
    const n = readSync(fd, buf, 0, st.size, 0);
    const value = JSON.parse(new TextDecoder().decode(buf.subarray(0, n)));
    if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
    raw = value as Record<string, unknown>;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
  const id = typeof raw.id === "number" ? String(raw.id) : raw.id;
  if (typeof id !== "string" || !/^[\w-]{1,64}$/.test(id)) return null;
  if (typeof raw.status !== "string" || !STATUSES.has(raw.status)) return null;
  const subject = safeText(typeof raw.subject === "string" ? raw.subject : "", 300);
  const task: SessionTask = {
    source: "task",
    id,
    status: raw.status as SessionTask["status"],
    subject: subject.text,
  };
  let truncated = subject.truncated;
  if (typeof raw.description === "string" && raw.description !== "") {
    const d = safeText(raw.description, 2000);
    task.description = d.text;
    truncated ||= d.truncated;
  }
  if (typeof raw.activeForm === "string" && raw.activeForm !== "") {
    task.active_form = safeText(raw.activeForm, 200).text;
  }
  if (Array.isArray(raw.blockedBy)) {
    const ids = raw.blockedBy.map((b) => typeof b === "number" ? String(b) : b)
      .filter((b): b is string => typeof b === "string" && /^[\w-]{1,64}$/.test(b)).slice(0, 20);
    if (ids.length > 0 && task.status !== "completed") task.blocked_by = ids;
  }
  if (truncated) task.truncated = true;
  task.updated_at = mtime.toISOString();
  return task;
}
