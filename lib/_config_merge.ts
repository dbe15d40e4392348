// Merging one parsed config file into the config being built, guided by the
// config schema: objects with `properties` merge key by key, everything else is
// a leaf that replaces the lower-priority value only when it is valid.
import { join } from "node:path";
import type { ConfigIssue } from "./load_config.ts";
import { type JsonSchema, validateSchema } from "./validate_schema.ts";

type SchemaObject = { readonly [keyword: string]: unknown };
type Target = Record<string, unknown>;

/** Merges `layer` (read from `file`) into `target` at config path `path`. */
export function mergeLayer(
  target: Target,
  layer: unknown,
  schema: SchemaObject,
  at: { file: string; path: string; issues: ConfigIssue[] },
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
    if (sub.properties !== undefined) {
      mergeLayer(target[key] as Target, value, sub, { file: at.file, path, issues: at.issues });
      continue;
    }
    const found = validateSchema(sub as JsonSchema, value, { maxIssues: 5 });
    if (found.length === 0) {
      target[key] = value;
      continue;
    }
    for (const issue of found) {
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
