import type { TranscriptRow } from "../transcript/transcript_row.ts";
import { rowToolCalls } from "../transcript/tool_calls.ts";
import { resultText, toolResults } from "./_results.ts";
import { safeText } from "../redact/quote_line.ts";

/**
 * Where a task comes from: the task tools (`TaskCreate`/`TaskUpdate`, Claude Code 2.1.x), `TodoWrite`,
 * or a step of the Codex CLI's `update_plan`.
 */
export type SessionTaskSource = "task" | "todo" | "plan";

/** A task's state. `deleted` tasks are dropped. */
export type SessionTaskStatus = "pending" | "in_progress" | "completed";

/** One task, as the session left it. Text is redacted and capped. */
export interface SessionTask {
  source: SessionTaskSource;
  /** The task tools' id (`"3"`); absent for `TodoWrite` items and tasks whose creation result was not read. */
  id?: string;
  /** `subject` (task tools) or `content` (`TodoWrite`); `""` when its creation lies beyond what was read. */
  subject: string;
  /** What needs to be done (task tools only). */
  description?: string;
  /** The spinner text shown while it is in progress. */
  active_form?: string;
  status: SessionTaskStatus;
  /** Ids of tasks that block it. */
  blocked_by?: string[];
  /** True when the subject or description was cut. */
  truncated?: boolean;
  /** When it was last created or changed: the row's timestamp, or the client's task file's time. */
  updated_at?: string;
}

/** The task list of a session. */
export interface SessionTaskList {
  /** Which tool kept it: the newer of the two when a session used both; null when neither was used. */
  source: SessionTaskSource | null;
  /** Open tasks first when the list had to be cut, then in creation order (task ids ascending). */
  tasks: SessionTask[];
  /** Tasks left out by `maxTasks`. */
  omitted: number;
}

/** Options of {@linkcode taskTracker} and {@linkcode sessionTasks}. */
export interface SessionTasksOptions {
  /** Most tasks returned; open ones are kept first. Default {@linkcode MAX_SESSION_TASKS} (50). */
  maxTasks?: number;
  /** Longest subject, in UTF-16 units. Default 300. */
  maxSubjectChars?: number;
  /** Longest description. Default 2,000. */
  maxDescriptionChars?: number;
}

/** Reads the rows of a transcript newest first and gives the task list they leave. */
export interface TaskTracker {
  /** Feeds the next row (each older than the one before). */
  add(row: TranscriptRow): void;
  /**
   * Feeds, as older than every row fed, the task list a snapshot kept of the rows before them
   * (the snapshot of the previous compaction): its tasks count as a task listing would, so newer
   * rows keep the last word, and its `TodoWrite` list as that tool's call would.
   */
  older(list: SessionTaskList): void;
  /** The task list from the rows fed so far. */
  result(): SessionTaskList;
}

/** Default cap of {@linkcode SessionTaskList.tasks}. */
export const MAX_SESSION_TASKS = 50;
/** Tasks tracked while reading; a session never has this many, a hostile transcript might. */
const MAX_TRACKED = 1000;
/** Failed calls, and results waiting for their (older) call, remembered while reading. */
const MAX_FAILED = 10_000;
const MAX_BLOCKERS = 20;
const MAX_ACTIVE_FORM = 200;
const STATUSES: ReadonlySet<string> = new Set(["pending", "in_progress", "completed", "deleted"]);
const TASK_TOOLS: ReadonlySet<string> = new Set(["TaskCreate", "TaskUpdate", "TaskList", "TaskGet", "TodoWrite"]);
const CREATED = /^Task #([\w-]{1,64}) created successfully/;

interface Entry {
  id?: string;
  subject?: string;
  description?: string;
  activeForm?: string;
  status?: string;
  blockedBy: string[];
  /** Its `TaskCreate` was read: nothing older concerns it. */
  created: boolean;
  /** Rows read before it was first met: larger is older. */
  seq: number;
  /** The timestamp of the newest row that created or changed it. */
  updatedAt?: string;
}

/** What a call's result said, recorded until the (older) call is read. */
interface Outcome {
  createdId?: string;
  tasks?: unknown[];
  task?: Record<string, unknown>;
}

/**
 * Reconstructs the task list from rows read newest first, as `scanTranscript` yields them, in one
 * pass with bounded memory. For the task tools the newest word on each field wins: a `TaskUpdate`
 * sets what no newer update set, a `TaskCreate` fills the rest (its id comes from its result, read
 * first), the newest `TaskList` or `TaskGet` result fills fields still unknown, and once a
 * `TaskList` result has been read, tasks missing from it are gone (deleted). Calls whose result is
 * an error change nothing; `status: "deleted"` removes a task. For `TodoWrite` the newest call is
 * the whole list. When a session used both, the tool used last wins.
 *
 * @example
 * ```ts
 * import { taskTracker } from "./tasks.ts";
 * import { scanTranscript } from "../transcript/scan_transcript.ts";
 *
 * const tracker = taskTracker();
 * for (const row of scanTranscript("/tmp/session.jsonl")) tracker.add(row);
 * for (const t of tracker.result().tasks) console.log(t.id, t.status, t.subject);
 * ```
 */
export function taskTracker(options: SessionTasksOptions = {}): TaskTracker {
  const entries = new Map<string, Entry>();
  const outcomes = new Map<string, Outcome>();
  const failed = new Set<string>();
  let closed = false;
  let seq = 0;
  let taskSeq = -1;
  let todos: Record<string, unknown>[] | undefined;
  let todoSeq = -1;
  let todoAt: string | undefined;
  let olderOmitted = 0;
  let olderSource: SessionTaskSource | null = null;

  const entry = (key: string, id: string | undefined): Entry | undefined => {
    let e = entries.get(key);
    if (e === undefined) {
      if (closed || entries.size >= MAX_TRACKED) return undefined;
      e = { blockedBy: [], created: false, seq };
      if (id !== undefined) e.id = id;
      entries.set(key, e);
    }
    return e;
  };
  const fill = (e: Entry, source: Record<string, unknown>, status: unknown) => {
    if (e.subject === undefined && typeof source.subject === "string") e.subject = source.subject;
    if (e.description === undefined && typeof source.description === "string") e.description = source.description;
    if (e.activeForm === undefined && typeof source.activeForm === "string") e.activeForm = source.activeForm;
    if (e.status === undefined && typeof status === "string" && STATUSES.has(status)) e.status = status;
  };
  const block = (e: Entry, ids: unknown) => {
    if (!Array.isArray(ids)) return;
    for (const raw of ids) {
      const id = taskId(raw);
      if (id !== undefined && e.blockedBy.length < MAX_BLOCKERS && !e.blockedBy.includes(id)) e.blockedBy.push(id);
    }
  };
  const known = (raw: Record<string, unknown>) => {
    const id = taskId(raw.id);
    if (id === undefined) return;
    const e = entry(id, id);
    if (e === undefined || e.created) return;
    fill(e, raw, raw.status);
    block(e, raw.blockedBy);
    if (e.updatedAt === undefined && typeof raw.updatedAt === "string") e.updatedAt = raw.updatedAt;
  };

  const addResults = (row: TranscriptRow) => {
    for (const r of toolResults(row)) {
      if (r.isError || r.detail?.success === false || typeof r.detail?.error === "string") {
        if (failed.size < MAX_FAILED) failed.add(r.id);
        continue;
      }
      const o: Outcome = {};
      const d = r.detail;
      if (d !== undefined) {
        if (Array.isArray(d.tasks)) o.tasks = d.tasks;
        if (typeof d.task === "object" && d.task !== null && !Array.isArray(d.task)) {
          o.task = d.task as Record<string, unknown>;
          o.createdId = taskId(o.task.id);
        }
      }
      if (o.createdId === undefined) {
        const m = CREATED.exec(resultText(r.content));
        if (m !== null) o.createdId = m[1];
      }
      const useful = o.createdId !== undefined || o.tasks !== undefined || o.task !== undefined;
      if (useful && outcomes.size < MAX_FAILED) outcomes.set(r.id, o);
    }
  };

  const addCalls = (row: TranscriptRow) => {
    const at = typeof row.timestamp === "string" && row.timestamp.length <= 64 ? row.timestamp : undefined;
    const touched = (e: Entry) => {
      if (e.updatedAt === undefined && at !== undefined) e.updatedAt = at;
    };
    for (const call of rowToolCalls(row, TASK_TOOLS)) {
      const outcome = outcomes.get(call.id);
      outcomes.delete(call.id);
      if (failed.delete(call.id)) continue;
      const input = call.input;
      if (call.name === "TodoWrite") {
        if (todos === undefined && Array.isArray(input.todos)) {
          todos = input.todos.filter((t): t is Record<string, unknown> =>
            typeof t === "object" && t !== null && !Array.isArray(t)
          );
          todoSeq = seq;
          todoAt = at;
        }
        continue;
      }
      if (taskSeq < 0) taskSeq = seq;
      if (call.name === "TaskUpdate") {
        const id = taskId(input.taskId);
        const e = id === undefined ? undefined : entry(id, id);
        if (e === undefined || e.created) continue;
        touched(e);
        fill(e, input, input.status);
        block(e, input.addBlockedBy);
      } else if (call.name === "TaskCreate") {
        const id = outcome?.createdId;
        const e = entry(id ?? "?" + call.id, id);
        if (e === undefined || e.created) continue;
        touched(e);
        fill(e, input, "pending");
        e.created = true;
      } else if (call.name === "TaskList" && outcome?.tasks !== undefined) {
        for (const t of outcome.tasks) {
          if (typeof t === "object" && t !== null && !Array.isArray(t)) known(t as Record<string, unknown>);
        }
        closed = true;
      } else if (call.name === "TaskGet" && outcome?.task !== undefined) {
        known(outcome.task);
      }
    }
  };

  return {
    add(row: TranscriptRow): void {
      seq++;
      if (row.type === "user") addResults(row);
      else if (row.type === "assistant") addCalls(row);
    },
    older(list: SessionTaskList): void {
      seq++;
      if (list.source === "todo") {
        if (todos !== undefined) return;
        todos = list.tasks.map((t) => ({
          content: t.subject,
          status: t.status,
          ...(t.active_form === undefined ? {} : { activeForm: t.active_form }),
        }));
        todoSeq = seq;
        todoAt = list.tasks.find((t) => t.updated_at !== undefined)?.updated_at;
        olderOmitted = list.omitted;
        olderSource = "todo";
      } else if (list.source === "task") {
        if (taskSeq < 0) taskSeq = seq;
        let n = 0;
        for (const t of list.tasks) {
          const fields = {
            subject: t.subject,
            description: t.description,
            activeForm: t.active_form,
            status: t.status,
            blockedBy: t.blocked_by,
            updatedAt: t.updated_at,
          };
          if (t.id !== undefined) known({ ...fields, id: t.id });
          else {
            // A task whose creation result the snapshot did not read: kept under a key of its own.
            const e = entry(`?older-${n++}`, undefined);
            if (e !== undefined) {
              fill(e, fields, t.status);
              if (t.updated_at !== undefined) e.updatedAt = t.updated_at;
            }
          }
        }
        olderOmitted = list.omitted;
        olderSource = "task";
      }
    },
    result(): SessionTaskList {
      const useTodos = todos !== undefined && (taskSeq < 0 || todoSeq < taskSeq);
      const list = useTodos
        ? bound("todo", todoTasks(todos!, todoAt), options)
        : taskSeq < 0
        ? { source: null, tasks: [], omitted: 0 }
        : bound("task", toolTasks(entries), options);
      // What the older snapshot had left out stays left out (counted, never invented).
      if (list.source !== null && list.source === olderSource) list.omitted += olderOmitted;
      return list;
    },
  };
}

/**
 * The task list left by `rows` (newest first): {@linkcode taskTracker} over all of them.
 *
 * @example
 * ```ts
 * import { sessionTasks } from "./tasks.ts";
 * import { scanTranscript } from "../transcript/scan_transcript.ts";
 *
 * const { tasks } = sessionTasks(scanTranscript("/tmp/session.jsonl"));
 * const open = tasks.filter((t) => t.status !== "completed");
 * ```
 */
export function sessionTasks(rows: Iterable<TranscriptRow>, options: SessionTasksOptions = {}): SessionTaskList {
  const tracker = taskTracker(options);
  for (const row of rows) tracker.add(row);
  return tracker.result();
}

/**
 * True for a task that still has work in it (pending or in progress).
 *
 * @example
 * ```ts
 * import { isOpenTask } from "./tasks.ts";
 * isOpenTask({ source: "task", id: "4", status: "in_progress", subject: "Update the callers" }); // true
 * isOpenTask({ source: "todo", status: "completed", subject: "Run tests" }); // false
 * ```
 */
export function isOpenTask(task: SessionTask): boolean {
  return task.status !== "completed";
}

function taskId(raw: unknown): string | undefined {
  const id = typeof raw === "number" && Number.isInteger(raw) && raw >= 0 ? String(raw) : raw;
  return typeof id === "string" && /^[\w-]{1,64}$/.test(id) ? id : undefined;
}

interface RawTask {
  source: SessionTaskSource;
  id?: string;
  subject: string;
  description?: string;
  activeForm?: string;
  status: SessionTaskStatus;
  blockedBy: string[];
  updatedAt?: string;
}

function toolTasks(entries: Map<string, Entry>): RawTask[] {
  const list: Entry[] = [];
  for (const e of entries.values()) if (e.status !== "deleted") list.push(e);
  list.sort((a, b) => {
    if (a.id !== undefined && b.id !== undefined) {
      const [x, y] = [Number(a.id), Number(b.id)];
      if (Number.isFinite(x) && Number.isFinite(y) && x !== y) return x - y;
      return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
    }
    if (a.id !== undefined) return -1;
    if (b.id !== undefined) return 1;
    return b.seq - a.seq;
  });
  return list.map((e) => {
    const t: RawTask = {
      source: "task",
      subject: e.subject ?? "",
      status: (e.status ?? "pending") as SessionTaskStatus,
      blockedBy: e.blockedBy,
    };
    if (e.id !== undefined) t.id = e.id;
    if (e.description !== undefined) t.description = e.description;
    if (e.activeForm !== undefined) t.activeForm = e.activeForm;
    if (e.updatedAt !== undefined) t.updatedAt = e.updatedAt;
    return t;
  });
}

function todoTasks(items: Record<string, unknown>[], updatedAt: string | undefined): RawTask[] {
  const out: RawTask[] = [];
  for (const item of items.slice(0, MAX_TRACKED)) {
    const status = item.status === "in_progress" || item.status === "completed" ? item.status : "pending";
    const t: RawTask = {
      source: "todo",
      subject: typeof item.content === "string" ? item.content : "",
      status,
      blockedBy: [],
    };
    if (typeof item.activeForm === "string") t.activeForm = item.activeForm;
    if (updatedAt !== undefined) t.updatedAt = updatedAt;
    out.push(t);
  }
  return out;
}

/** Keeps at most `maxTasks`, open ones first, then the newest completed; redacts and caps the text. */
function bound(source: SessionTaskSource, raw: RawTask[], options: SessionTasksOptions): SessionTaskList {
  const max = options.maxTasks !== undefined && options.maxTasks >= 0
    ? Math.floor(options.maxTasks)
    : MAX_SESSION_TASKS;
  const keep = new Set<number>();
  for (let i = 0; i < raw.length && keep.size < max; i++) if (raw[i].status !== "completed") keep.add(i);
  for (let i = raw.length - 1; i >= 0 && keep.size < max; i--) keep.add(i);
  const subjectMax = options.maxSubjectChars ?? 300;
  const descriptionMax = options.maxDescriptionChars ?? 2000;
  const tasks: SessionTask[] = [];
  for (let i = 0; i < raw.length; i++) {
    if (!keep.has(i)) continue;
    const r = raw[i];
    const subject = safeText(r.subject, subjectMax);
    const t: SessionTask = {
      source: r.source,
      ...(r.id === undefined ? {} : { id: r.id }),
      status: r.status,
      subject: subject.text,
    };
    let truncated = subject.truncated;
    if (r.description !== undefined && r.description !== "") {
      const d = safeText(r.description, descriptionMax);
      t.description = d.text;
      truncated ||= d.truncated;
    }
    if (r.activeForm !== undefined && r.activeForm !== "") t.active_form = safeText(r.activeForm, MAX_ACTIVE_FORM).text;
    if (r.blockedBy.length > 0) t.blocked_by = [...r.blockedBy];
    if (truncated) t.truncated = true;
    if (r.updatedAt !== undefined) t.updated_at = r.updatedAt;
    tasks.push(t);
  }
  return { source, tasks, omitted: raw.length - tasks.length };
}
