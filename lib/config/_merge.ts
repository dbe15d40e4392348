// Merging one parsed config file into the config being built, guided by the
// config schema: objects with `properties` merge key by key, everything else is
// a leaf that replaces the lower-priority value only when it is valid.
//
// Two annotations of schemas/config.v1.json say who may set what (issue #22, rule 1: a cloned
// repository's .claude/rehydrate.json is the attacker's): `"x-scope": "user"` marks a key only the
// user's own config may set (it chooses whose files are read, where state and logs go, or how the
// user's transcript and model are measured), so in a project's file it is skipped and reported as
// `user_only`; `"x-path": "project"` marks a path that must stay inside the project, in every file.
import { join } from "../node/path.ts";
import type { ConfigIssue } from "./load_config.ts";
import { type JsonSchema, validateSchema } from "../schema/validate_schema.ts";

type SchemaObject = { readonly [keyword: string]: unknown };
type Target = Record<string, unknown>;

/**
 * Merges `layer` (read from `file`) into `target` at config path `path`. `origins`, when given,
 * hears the file of every leaf taken (`"reread.enforce"` → the file), so that a verb can say where
 * a value came from.
 */
export function mergeLayer(
  target: Target,
  layer: unknown,
  schema: SchemaObject,
  at: { file: string; path: string; issues: ConfigIssue[]; project?: boolean; origins?: Record<string, string> },
): void {
  if (typeof layer !== "object" || layer === null || Array.isArray(layer)) {
    const got = layer === null ? "null" : Array.isArray(layer) ? "array" : typeof layer;
    at.issues.push({
      code: "invalid_value",
      file: at.file,
      path: at.path,
      keyword: "type",
      message: `Expected object, got ${got}`,
    });
    return;
  }
  const props = schema.properties as Record<string, SchemaObject>;
  for (const key of Object.keys(layer)) {
    const path = `${at.path}/${escapePointer(key)}`;
    if (!Object.hasOwn(props, key)) {
      at.issues.push({
        code: "unknown_key",
        file: at.file,
        path,
        keyword: "additionalProperties",
        message: `Unknown key ${key}`,
      });
      continue;
    }
    const sub = props[key];
    const value = (layer as Record<string, unknown>)[key];
    if (at.project === true && sub["x-scope"] === "user") {
      at.issues.push({
        code: "user_only",
        file: at.file,
        path,
        keyword: "x-scope",
        message: `${
          path.slice(1).replaceAll("/", ".")
        } is only read from the user's ~/.claude/rehydrate.json; a project's config cannot set it`,
      });
      continue;
    }
    if (sub.properties !== undefined) {
      mergeLayer(target[key] as Target, value, sub, { ...at, path });
      continue;
    }
    const found = surelyValid(sub, value) ? [] : validateSchema(sub as JsonSchema, value, { maxIssues: 5 });
    if (found.length === 0 && sub["x-path"] === "project") {
      const bad = outsidePathAt(value);
      if (bad !== null) {
        found.push({
          path: bad,
          keyword: "x-path",
          message: "Must be a relative path inside the project (no .., no absolute path, no ~)",
        });
      }
    }
    if (found.length === 0) {
      target[key] = value;
      if (at.origins) at.origins[path.slice(1).replaceAll("/", ".")] = at.file;
      continue;
    }
    for (const issue of itemsTogether(found, value, sub)) {
      at.issues.push({
        code: "invalid_value",
        file: at.file,
        path: path + issue.path,
        keyword: issue.keyword,
        message: issue.message,
      });
    }
  }
}

/**
 * The issues of one leaf, with those that say the same of several items of an array said once, on
 * the array, naming the items: `"fillWarnings": [55, 65, 75]` got "Must be at most 1" three times.
 * Numbers above an item maximum of 1 that would be right as fractions say so.
 */
function itemsTogether(
  found: readonly { path: string; keyword: string; message: string }[],
  value: unknown,
  schema: SchemaObject,
): { path: string; keyword: string; message: string }[] {
  const out: { path: string; keyword: string; message: string }[] = [];
  const groups = new Map<string, number[]>();
  for (const issue of found) {
    const item = /^\/(\d+)$/.exec(issue.path);
    if (item === null) {
      out.push(issue);
      continue;
    }
    const key = `${issue.keyword}\n${issue.message}`;
    groups.set(key, [...(groups.get(key) ?? []), Number(item[1])]);
  }
  const items = (schema.items ?? {}) as SchemaObject;
  for (const [key, indexes] of groups) {
    const [keyword, message] = key.split("\n");
    const values = indexes.map((i) => (value as unknown[])[i]);
    const percents = keyword === "maximum" && items.maximum === 1 &&
      values.every((v) => typeof v === "number" && v > 1 && v <= 100);
    const hint = percents ? `: write fractions, ${(values[0] as number) / 100} for ${values[0]} %` : "";
    out.push(
      indexes.length === 1
        ? { path: `/${indexes[0]}`, keyword, message: message + hint }
        : { path: "", keyword, message: `${message} (items ${listOf(indexes)})${hint}` },
    );
  }
  return out;
}

function listOf(n: readonly number[]): string {
  return n.length === 1 ? String(n[0]) : `${n.slice(0, -1).join(", ")} and ${n[n.length - 1]}`;
}

/**
 * A quick check of a leaf: true only when `value` certainly satisfies `schema`.
 * Anything it is unsure of (an unknown keyword, a failure) goes to
 * validateSchema, which gives the verdict and the issues. Most config values
 * are valid, and a hook calls loadConfig once per process, so skipping the
 * general validator's first-call cost is most of loadConfig's cold time.
 */
function surelyValid(schema: SchemaObject, value: unknown): boolean {
  for (const keyword in schema) {
    const arg = schema[keyword];
    switch (keyword) {
      case "description":
      case "default":
      case "x-scope":
      case "x-path":
        break;
      case "type":
        if (!(Array.isArray(arg) ? arg.some((t) => isType(t, value)) : isType(arg, value))) return false;
        break;
      case "enum":
        // includes() compares primitives exactly; an object member just takes the slow path.
        if (!(arg as unknown[]).includes(value)) return false;
        break;
      case "minimum":
        if (typeof value === "number" && !(value >= (arg as number))) return false;
        break;
      case "maximum":
        if (typeof value === "number" && !(value <= (arg as number))) return false;
        break;
      case "minLength":
        // A code point is one or two UTF-16 units: twice the length is always enough.
        if (typeof value === "string" && value.length < 2 * (arg as number)) return false;
        break;
      case "maxLength":
        if (typeof value === "string" && value.length > (arg as number)) return false;
        break;
      case "minItems":
        if (Array.isArray(value) && value.length < (arg as number)) return false;
        break;
      case "maxItems":
        if (Array.isArray(value) && value.length > (arg as number)) return false;
        break;
      case "items":
        if (Array.isArray(value) && !value.every((v) => surelyValid(arg as SchemaObject, v))) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

function isType(type: unknown, value: unknown): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "boolean":
      return typeof value === "boolean";
    case "integer":
      return Number.isInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "null":
      return value === null;
    case "array":
      return Array.isArray(value);
    default:
      return false;
  }
}

/**
 * Where `value` (a path or an array of paths) names something outside the project: `""` for the
 * value itself, `/N` for the N-th item, null when every path is relative and stays inside. A
 * leading `/`, `\`, `~` or drive letter, a `..` segment or a NUL is outside; so is an empty path.
 */
export function outsidePathAt(value: unknown): string | null {
  if (typeof value === "string") return isProjectRelative(value) ? null : "";
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      if (typeof value[i] !== "string" || !isProjectRelative(value[i])) return `/${i}`;
    }
  }
  return null;
}

function isProjectRelative(path: string): boolean {
  if (path === "" || path.includes("\0") || /^([/\\~]|[A-Za-z]:)/.test(path)) return false;
  return !path.split(/[/\\]/).includes("..");
}

/** Expands a leading `~` or `~/` at each key path in `keys`. */
export function expandHomeKeys(config: Target, keys: readonly (readonly string[])[], home: string): void {
  for (const keyPath of keys) {
    let node: Target = config;
    for (let i = 0; i < keyPath.length - 1; i++) node = node[keyPath[i]] as Target;
    const last = keyPath[keyPath.length - 1];
    const value = node[last];
    if (typeof value === "string") node[last] = expandHome(value, home);
  }
}

/** `~` and `~/x` become paths in `home`; anything else is returned unchanged. */
export function expandHome(path: string, home: string): string {
  if (path === "~") return home;
  if (path.startsWith("~/")) return join(home, path.slice(2));
  return path;
}

function escapePointer(key: string): string {
  if (key.indexOf("~") === -1 && key.indexOf("/") === -1) return key;
  return key.replaceAll("~", "~0").replaceAll("/", "~1");
}
