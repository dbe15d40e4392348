// The validator as it was before the schema walk was rewritten for cold-process speed (commit
// ab65490), kept verbatim as the oracle of tests/unit/schema/validate_schema_oracle.test.ts: the new walk
// must report the same issues, in the same order, with the same messages. Test-only code.
import type { JsonSchema, SchemaIssue, ValidateSchemaOptions } from "../../lib/schema/validate_schema.ts";

/** validateSchema() as it was: the oracle. */
export function oldValidateSchema(
  schema: JsonSchema,
  value: unknown,
  options: ValidateSchemaOptions = {},
): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  checkNode({ root: schema, issues, max: options.maxIssues ?? 100, depth: 0 }, schema, value, "");
  return issues;
}

type SchemaObject = { readonly [keyword: string]: unknown };

/** State shared by one validation run. `issues: null` asks for a yes/no answer only. */
interface CheckContext {
  root: JsonSchema;
  issues: SchemaIssue[] | null;
  max: number;
  depth: number;
}

// Guards against `$ref` cycles (`{ $ref: "#" }`) and absurdly deep input.
const MAX_DEPTH = 256;

const DATE_TIME =
  /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])[Tt ](?:[01]\d|2[0-3]):[0-5]\d:(?:[0-5]\d|60)(?:\.\d+)?(?:[Zz]|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

// Patterns come from our own schemas, so a small unbounded cache stays small.
const patternCache = new Map<string, RegExp | null>();

/** Validates `value` against `schema` at instance location `path`; true when valid. */
function checkNode(ctx: CheckContext, schema: JsonSchema, value: unknown, path: string): boolean {
  if (schema === true) return true;
  if (schema === false) return fail(ctx, path, "false", "No value is allowed here") && false;
  if (typeof schema !== "object" || schema === null) return true;
  if (ctx.depth >= MAX_DEPTH) return fail(ctx, path, "$ref", "Schema or value nests too deeply") && false;
  ctx.depth++;
  try {
    return checkObject(ctx, schema, value, path);
  } finally {
    ctx.depth--;
  }
}

function checkObject(ctx: CheckContext, s: SchemaObject, value: unknown, path: string): boolean {
  let ok = true;

  if (s.$ref !== undefined) {
    const target = typeof s.$ref === "string" ? resolveRef(ctx.root, s.$ref) : undefined;
    if (target === undefined) {
      ok = false;
      if (fail(ctx, path, "$ref", `Cannot resolve reference ${String(s.$ref)}`)) return false;
    } else if (!checkNode(ctx, target, value, path)) {
      ok = false;
      if (stop(ctx)) return false;
    }
  }

  if (s.type !== undefined && !matchesType(s.type, value)) {
    const expected = Array.isArray(s.type) ? s.type.join(" or ") : String(s.type);
    // Keywords below depend on the type; one clear issue is better than several.
    return fail(ctx, path, "type", `Expected ${expected}, got ${typeName(value)}`) && false;
  }

  if (s.const !== undefined && !jsonEqual(s.const, value)) {
    ok = false;
    if (fail(ctx, path, "const", `Must be ${JSON.stringify(s.const)}`)) return false;
  }
  if (Array.isArray(s.enum) && !s.enum.some((v) => jsonEqual(v, value))) {
    ok = false;
    const list = s.enum.map((v) => JSON.stringify(v)).join(", ");
    if (fail(ctx, path, "enum", `Must be one of ${list}`)) return false;
  }

  if (typeof value === "number") {
    if (!checkNumber(ctx, s, value, path)) {
      ok = false;
      if (stop(ctx)) return false;
    }
  } else if (typeof value === "string") {
    if (!checkString(ctx, s, value, path)) {
      ok = false;
      if (stop(ctx)) return false;
    }
  } else if (Array.isArray(value)) {
    if (!checkArray(ctx, s, value, path)) {
      ok = false;
      if (stop(ctx)) return false;
    }
  } else if (value !== null && typeof value === "object") {
    if (!checkProperties(ctx, s, value as Record<string, unknown>, path)) {
      ok = false;
      if (stop(ctx)) return false;
    }
  }

  if (!checkCombinators(ctx, s, value, path)) ok = false;
  return ok;
}

function checkNumber(ctx: CheckContext, s: SchemaObject, n: number, path: string): boolean {
  let ok = true;
  if (typeof s.minimum === "number" && n < s.minimum) {
    ok = false;
    if (fail(ctx, path, "minimum", `Must be at least ${s.minimum}`)) return false;
  }
  if (typeof s.maximum === "number" && n > s.maximum) {
    ok = false;
    if (fail(ctx, path, "maximum", `Must be at most ${s.maximum}`)) return false;
  }
  if (typeof s.exclusiveMinimum === "number" && n <= s.exclusiveMinimum) {
    ok = false;
    if (fail(ctx, path, "exclusiveMinimum", `Must be greater than ${s.exclusiveMinimum}`)) return false;
  }
  if (typeof s.exclusiveMaximum === "number" && n >= s.exclusiveMaximum) {
    ok = false;
    if (fail(ctx, path, "exclusiveMaximum", `Must be less than ${s.exclusiveMaximum}`)) return false;
  }
  return ok;
}

function checkString(ctx: CheckContext, s: SchemaObject, str: string, path: string): boolean {
  let ok = true;
  if (typeof s.minLength === "number" || typeof s.maxLength === "number") {
    const length = codePointLength(str);
    if (typeof s.minLength === "number" && length < s.minLength) {
      ok = false;
      if (fail(ctx, path, "minLength", `Must have at least ${s.minLength} characters`)) return false;
    }
    if (typeof s.maxLength === "number" && length > s.maxLength) {
      ok = false;
      if (fail(ctx, path, "maxLength", `Must have at most ${s.maxLength} characters`)) return false;
    }
  }
  if (typeof s.pattern === "string") {
    const re = compilePattern(s.pattern);
    if (re === null) {
      ok = false;
      if (fail(ctx, path, "pattern", `Cannot compile pattern ${s.pattern}`)) return false;
    } else if (!re.test(str)) {
      ok = false;
      if (fail(ctx, path, "pattern", `Must match ${s.pattern}`)) return false;
    }
  }
  if (s.format === "date-time" && !DATE_TIME.test(str)) {
    ok = false;
    if (fail(ctx, path, "format", "Must be an RFC 3339 date-time with an offset")) return false;
  }
  return ok;
}

function checkArray(ctx: CheckContext, s: SchemaObject, arr: unknown[], path: string): boolean {
  let ok = true;
  if (typeof s.minItems === "number" && arr.length < s.minItems) {
    ok = false;
    if (fail(ctx, path, "minItems", `Must have at least ${s.minItems} items`)) return false;
  }
  if (typeof s.maxItems === "number" && arr.length > s.maxItems) {
    ok = false;
    if (fail(ctx, path, "maxItems", `Must have at most ${s.maxItems} items`)) return false;
  }
  let start = 0;
  if (Array.isArray(s.prefixItems)) {
    const prefix = s.prefixItems as JsonSchema[];
    start = Math.min(prefix.length, arr.length);
    for (let i = 0; i < start; i++) {
      if (!checkNode(ctx, prefix[i], arr[i], `${path}/${i}`)) {
        ok = false;
        if (stop(ctx)) return false;
      }
    }
  }
  if (s.items !== undefined) {
    const items = s.items as JsonSchema;
    for (let i = start; i < arr.length; i++) {
      if (!checkNode(ctx, items, arr[i], `${path}/${i}`)) {
        ok = false;
        if (stop(ctx)) return false;
      }
    }
  }
  if (s.uniqueItems === true) {
    outer: for (let i = 1; i < arr.length; i++) {
      for (let j = 0; j < i; j++) {
        if (jsonEqual(arr[i], arr[j])) {
          ok = false;
          if (fail(ctx, path, "uniqueItems", `Items ${j} and ${i} are equal`)) return false;
          break outer;
        }
      }
    }
  }
  return ok;
}

function checkProperties(ctx: CheckContext, s: SchemaObject, obj: Record<string, unknown>, path: string): boolean {
  let ok = true;
  if (Array.isArray(s.required)) {
    for (const name of s.required) {
      if (typeof name === "string" && !Object.hasOwn(obj, name)) {
        ok = false;
        if (fail(ctx, path, "required", `Missing required property ${name}`)) return false;
      }
    }
  }
  const keys = Object.keys(obj);
  if (typeof s.minProperties === "number" && keys.length < s.minProperties) {
    ok = false;
    if (fail(ctx, path, "minProperties", `Must have at least ${s.minProperties} properties`)) return false;
  }
  if (typeof s.maxProperties === "number" && keys.length > s.maxProperties) {
    ok = false;
    if (fail(ctx, path, "maxProperties", `Must have at most ${s.maxProperties} properties`)) return false;
  }
  const props = isSchemaMap(s.properties) ? s.properties : undefined;
  const patterns = isSchemaMap(s.patternProperties) ? s.patternProperties : undefined;
  const additional = s.additionalProperties as JsonSchema | undefined;
  if (props === undefined && patterns === undefined && additional === undefined) return ok;

  for (const key of keys) {
    const childPath = `${path}/${escapePointer(key)}`;
    let matched = false;
    if (props !== undefined && Object.hasOwn(props, key)) {
      matched = true;
      if (!checkNode(ctx, props[key] as JsonSchema, obj[key], childPath)) {
        ok = false;
        if (stop(ctx)) return false;
      }
    }
    if (patterns !== undefined) {
      for (const pattern in patterns) {
        const re = compilePattern(pattern);
        if (re === null || !re.test(key)) continue;
        matched = true;
        if (!checkNode(ctx, patterns[pattern] as JsonSchema, obj[key], childPath)) {
          ok = false;
          if (stop(ctx)) return false;
        }
      }
    }
    if (matched || additional === undefined || additional === true) continue;
    if (additional === false) {
      ok = false;
      if (fail(ctx, childPath, "additionalProperties", `Unknown property ${key}`)) return false;
    } else if (!checkNode(ctx, additional, obj[key], childPath)) {
      ok = false;
      if (stop(ctx)) return false;
    }
  }
  return ok;
}

function checkCombinators(ctx: CheckContext, s: SchemaObject, value: unknown, path: string): boolean {
  let ok = true;
  if (Array.isArray(s.allOf)) {
    for (const sub of s.allOf as JsonSchema[]) {
      if (!checkNode(ctx, sub, value, path)) {
        ok = false;
        if (stop(ctx)) return false;
      }
    }
  }
  if (Array.isArray(s.anyOf)) {
    const subs = s.anyOf as JsonSchema[];
    if (!subs.some((sub) => passes(ctx, sub, value, path))) {
      ok = false;
      if (fail(ctx, path, "anyOf", `Must match at least one of ${subs.length} alternatives`)) return false;
    }
  }
  if (Array.isArray(s.oneOf)) {
    const subs = s.oneOf as JsonSchema[];
    let count = 0;
    for (const sub of subs) {
      if (passes(ctx, sub, value, path) && ++count > 1) break;
    }
    if (count !== 1) {
      ok = false;
      const message = count === 0
        ? `Must match exactly one of ${subs.length} alternatives, matches none`
        : `Must match exactly one of ${subs.length} alternatives, matches several`;
      if (fail(ctx, path, "oneOf", message)) return false;
    }
  }
  if (s.not !== undefined && passes(ctx, s.not as JsonSchema, value, path)) {
    ok = false;
    if (fail(ctx, path, "not", "Must not match the excluded schema")) return false;
  }
  if (s.if !== undefined) {
    const branch = passes(ctx, s.if as JsonSchema, value, path) ? s.then : s.else;
    if (branch !== undefined && !checkNode(ctx, branch as JsonSchema, value, path)) {
      ok = false;
      if (stop(ctx)) return false;
    }
  }
  return ok;
}

// A yes/no check of a subschema whose own issues are not reported.
function passes(ctx: CheckContext, schema: JsonSchema, value: unknown, path: string): boolean {
  const sub: CheckContext = { root: ctx.root, issues: null, max: 1, depth: ctx.depth };
  return checkNode(sub, schema, value, path);
}

// Records an issue; returns true when the caller should stop walking.
function fail(ctx: CheckContext, path: string, keyword: string, message: string): boolean {
  if (ctx.issues === null) return true;
  ctx.issues.push({ path, keyword, message });
  return ctx.issues.length >= ctx.max;
}

function stop(ctx: CheckContext): boolean {
  return ctx.issues === null || ctx.issues.length >= ctx.max;
}

function matchesType(type: unknown, value: unknown): boolean {
  if (typeof type === "string") return isType(type, value);
  if (Array.isArray(type)) return type.some((t) => typeof t === "string" && isType(t, value));
  return true;
}

function isType(type: string, value: unknown): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "null":
      return value === null;
    case "array":
      return Array.isArray(value);
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
    default:
      return false;
  }
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function isSchemaMap(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ak = Object.keys(a);
  if (ak.length !== Object.keys(b).length) return false;
  for (const k of ak) {
    if (!Object.hasOwn(b, k)) return false;
    if (!jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

// JSON Schema counts characters as code points, not UTF-16 units.
function codePointLength(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

function compilePattern(source: string): RegExp | null {
  let re = patternCache.get(source);
  if (re === undefined) {
    try {
      re = new RegExp(source, "u");
    } catch {
      re = null;
    }
    patternCache.set(source, re);
  }
  return re;
}

function escapePointer(key: string): string {
  if (key.indexOf("~") === -1 && key.indexOf("/") === -1) return key;
  return key.replaceAll("~", "~0").replaceAll("/", "~1");
}

function resolveRef(root: JsonSchema, ref: string): JsonSchema | undefined {
  let pointer = ref;
  const hash = ref.indexOf("#");
  if (hash > 0) {
    // An absolute reference is accepted only when it names this document.
    const id = typeof root === "object" ? root.$id : undefined;
    if (ref.slice(0, hash) !== id) return undefined;
    pointer = ref.slice(hash);
  } else if (hash < 0) {
    return undefined;
  }
  let node: unknown = root;
  if (pointer === "#") return root;
  if (!pointer.startsWith("#/")) return undefined;
  for (const raw of pointer.slice(2).split("/")) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    } catch {
      return undefined;
    }
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, segment)) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  if (typeof node === "boolean" || (typeof node === "object" && node !== null && !Array.isArray(node))) {
    return node as JsonSchema;
  }
  return undefined;
}
