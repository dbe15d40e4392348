// The walk behind validateSchema. Kept apart so the public file stays a thin,
// documented entry and this one can be read as one recursive function.
//
// Written for a cold process, where this code runs in the interpreter once or twice: every
// schema object is read once into a Plan (all Plans share one shape, so the walk's property
// reads hit the interpreter's inline caches, where the schemas' own varied shapes miss them on
// every keyword), and a value's JSON pointer is built only when an issue needs it or the walk
// descends into the value's children.
import type { JsonSchema, SchemaIssue } from "./validate_schema.ts";

type SchemaObject = { readonly [keyword: string]: unknown };

/** State shared by one validation run. `issues: null` asks for a yes/no answer only. */
export interface CheckContext {
  root: JsonSchema;
  issues: SchemaIssue[] | null;
  max: number;
  depth: number;
  /** The yes/no context for subschemas whose own issues are not reported, made on first use. */
  quiet: CheckContext | null;
}

// Guards against `$ref` cycles (`{ $ref: "#" }`) and absurdly deep input.
const MAX_DEPTH = 256;

const DATE_TIME =
  /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])[Tt ](?:[01]\d|2[0-3]):[0-5]\d:(?:[0-5]\d|60)(?:\.\d+)?(?:[Zz]|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

// Patterns come from our own schemas, so a small unbounded cache stays small.
const patternCache = new Map<string, RegExp | null>();

/**
 * The light `date-time` check: RFC 3339 shape with an offset, months 01-12,
 * days 01-31. It does not know how many days each month has.
 */
export function isDateTime(value: string): boolean {
  return DATE_TIME.test(value);
}

// One bit per JSON type; a value has one bit, an integer two (number and integer).
const T_STRING = 1;
const T_NUMBER = 2;
const T_INTEGER = 4;
const T_BOOLEAN = 8;
const T_NULL = 16;
const T_ARRAY = 32;
const T_OBJECT = 64;

/**
 * The keywords of one schema object that can fail, read once. Absent keywords are null; the
 * keywords for one type of value sit in their own small object, made only when one is present.
 */
interface Plan {
  /** `$ref` as written, or undefined when absent. */
  ref: unknown;
  /** The root `refTarget` was resolved against (another root means resolve again). */
  refRoot: unknown;
  refTarget: JsonSchema | undefined;
  /** `type` as written, for the message; null when absent or neither a string nor an array (it never fails then). */
  type: unknown;
  typeMask: number;
  hasConst: boolean;
  constValue: unknown;
  enumList: unknown[] | null;
  num: NumberRules | null;
  str: StringRules | null;
  arr: ArrayRules | null;
  obj: ObjectRules | null;
  combinators: Combinators | null;
}

interface NumberRules {
  minimum: number | null;
  maximum: number | null;
  exclusiveMinimum: number | null;
  exclusiveMaximum: number | null;
}

interface StringRules {
  minLength: number | null;
  maxLength: number | null;
  pattern: string | null;
  dateTime: boolean;
}

interface ArrayRules {
  minItems: number | null;
  maxItems: number | null;
  prefixItems: JsonSchema[] | null;
  /** `items` as written, or undefined when absent. */
  items: unknown;
  uniqueItems: boolean;
}

interface ObjectRules {
  required: unknown[] | null;
  minProperties: number | null;
  maxProperties: number | null;
  properties: Record<string, unknown> | null;
  patternProperties: Record<string, unknown> | null;
  /** `additionalProperties` as written, or undefined when absent. */
  additionalProperties: unknown;
}

/** `not`, `if`, `then` and `else` as written, or undefined when absent. */
interface Combinators {
  allOf: JsonSchema[] | null;
  anyOf: JsonSchema[] | null;
  oneOf: JsonSchema[] | null;
  not: unknown;
  if: unknown;
  then: unknown;
  else: unknown;
}

// Plans of the schema objects seen so far. A schema is read once: changing a schema object after
// validating with it is not supported (our schemas are constants).
const plans = new WeakMap<object, Plan>();
// A root no call can have: the `$ref` of a new Plan is not resolved yet.
const NO_ROOT = {};

/** Validates `value` against `schema` at instance location `path` + `/key` (`key` undefined: `path` itself); true when valid. */
export function checkNode(
  ctx: CheckContext,
  schema: JsonSchema,
  value: unknown,
  path: string,
  key: string | number | undefined,
): boolean {
  if (typeof schema !== "object" || schema === null) {
    return schema !== false || (fail(ctx, path, key, "false", "No value is allowed here") && false);
  }
  if (ctx.depth >= MAX_DEPTH) return fail(ctx, path, key, "$ref", "Schema or value nests too deeply") && false;
  let p = plans.get(schema);
  if (p === undefined) {
    p = compile(schema);
    plans.set(schema, p);
  }
  ctx.depth++;
  try {
    let ok = true;

    if (p.ref !== undefined) {
      if (p.refRoot !== ctx.root) {
        p.refTarget = typeof p.ref === "string" ? resolveRef(ctx.root, p.ref) : undefined;
        p.refRoot = ctx.root;
      }
      const target = p.refTarget;
      if (target === undefined) {
        ok = false;
        if (fail(ctx, path, key, "$ref", `Cannot resolve reference ${String(p.ref)}`)) return false;
      } else if (!checkNode(ctx, target, value, path, key)) {
        ok = false;
        if (stop(ctx)) return false;
      }
    }

    const t = typeof value;
    if (p.type !== null) {
      const bits = t === "string"
        ? T_STRING
        : t === "object"
        ? (value === null ? T_NULL : Array.isArray(value) ? T_ARRAY : T_OBJECT)
        : typeBits(value);
      if ((p.typeMask & bits) === 0) {
        if (ctx.issues === null) return false;
        const expected = Array.isArray(p.type) ? p.type.join(" or ") : String(p.type);
        // Keywords below depend on the type; one clear issue is better than several.
        return fail(ctx, path, key, "type", `Expected ${expected}, got ${typeName(value)}`) && false;
      }
    }

    if (p.hasConst && !jsonEqual(p.constValue, value)) {
      ok = false;
      if (fail(ctx, path, key, "const", `Must be ${JSON.stringify(p.constValue)}`)) return false;
    }
    if (p.enumList !== null && !inEnum(p.enumList, value)) {
      ok = false;
      const list = p.enumList.map((v) => JSON.stringify(v)).join(", ");
      if (fail(ctx, path, key, "enum", `Must be one of ${list}`)) return false;
    }

    if (t === "string") {
      if (p.str !== null && !checkString(ctx, p.str, value as string, path, key)) {
        ok = false;
        if (stop(ctx)) return false;
      }
    } else if (t === "object") {
      if (value === null) {
        // Nothing below applies to null.
      } else if (Array.isArray(value)) {
        if (p.arr !== null && !checkArray(ctx, p.arr, value, path, key)) {
          ok = false;
          if (stop(ctx)) return false;
        }
      } else if (p.obj !== null && !checkProperties(ctx, p.obj, value as Record<string, unknown>, path, key)) {
        ok = false;
        if (stop(ctx)) return false;
      }
    } else if (t === "number") {
      if (p.num !== null && !checkNumber(ctx, p.num, value as number, path, key)) {
        ok = false;
        if (stop(ctx)) return false;
      }
    }

    if (p.combinators !== null && !checkCombinators(ctx, p.combinators, value, path, key)) ok = false;
    return ok;
  } finally {
    ctx.depth--;
  }
}

// Reads each keyword the way the walk used to on every visit (`s.type !== undefined`,
// `Array.isArray(s.enum)`, `typeof s.minimum === "number"`, …), once. It enumerates the schema's
// keys, so a keyword hidden as a non-enumerable property would be missed: JSON has none.
function compile(s: SchemaObject): Plan {
  const p: Plan = {
    ref: undefined,
    refRoot: NO_ROOT,
    refTarget: undefined,
    type: null,
    typeMask: 0,
    hasConst: false,
    constValue: undefined,
    enumList: null,
    num: null,
    str: null,
    arr: null,
    obj: null,
    combinators: null,
  };
  // One pass over the keys the schema has, rather than a read of every keyword it might have.
  for (const k in s) {
    const v = s[k];
    switch (k) {
      case "$ref":
        p.ref = v;
        break;
      case "type":
        if (typeof v === "string") {
          p.type = v;
          p.typeMask = typeBit(v);
        } else if (Array.isArray(v)) {
          p.type = v;
          let mask = 0;
          for (let i = 0; i < v.length; i++) if (typeof v[i] === "string") mask |= typeBit(v[i]);
          p.typeMask = mask;
        }
        break;
      case "const":
        p.hasConst = v !== undefined;
        p.constValue = v;
        break;
      case "enum":
        if (Array.isArray(v)) p.enumList = v;
        break;
      case "minimum":
        if (typeof v === "number") numberRules(p).minimum = v;
        break;
      case "maximum":
        if (typeof v === "number") numberRules(p).maximum = v;
        break;
      case "exclusiveMinimum":
        if (typeof v === "number") numberRules(p).exclusiveMinimum = v;
        break;
      case "exclusiveMaximum":
        if (typeof v === "number") numberRules(p).exclusiveMaximum = v;
        break;
      case "minLength":
        if (typeof v === "number") stringRules(p).minLength = v;
        break;
      case "maxLength":
        if (typeof v === "number") stringRules(p).maxLength = v;
        break;
      case "pattern":
        if (typeof v === "string") stringRules(p).pattern = v;
        break;
      case "format":
        if (v === "date-time") stringRules(p).dateTime = true;
        break;
      case "minItems":
        if (typeof v === "number") arrayRules(p).minItems = v;
        break;
      case "maxItems":
        if (typeof v === "number") arrayRules(p).maxItems = v;
        break;
      case "prefixItems":
        if (Array.isArray(v)) arrayRules(p).prefixItems = v;
        break;
      case "items":
        if (v !== undefined) arrayRules(p).items = v;
        break;
      case "uniqueItems":
        if (v === true) arrayRules(p).uniqueItems = true;
        break;
      case "required":
        if (Array.isArray(v)) objectRules(p).required = v;
        break;
      case "minProperties":
        if (typeof v === "number") objectRules(p).minProperties = v;
        break;
      case "maxProperties":
        if (typeof v === "number") objectRules(p).maxProperties = v;
        break;
      case "properties":
        if (isSchemaMap(v)) objectRules(p).properties = v;
        break;
      case "patternProperties":
        if (isSchemaMap(v)) objectRules(p).patternProperties = v;
        break;
      case "additionalProperties":
        if (v !== undefined) objectRules(p).additionalProperties = v;
        break;
      case "allOf":
        if (Array.isArray(v)) combinators(p).allOf = v;
        break;
      case "anyOf":
        if (Array.isArray(v)) combinators(p).anyOf = v;
        break;
      case "oneOf":
        if (Array.isArray(v)) combinators(p).oneOf = v;
        break;
      case "not":
        if (v !== undefined) combinators(p).not = v;
        break;
      case "if":
        if (v !== undefined) combinators(p).if = v;
        break;
      case "then":
        if (v !== undefined) combinators(p).then = v;
        break;
      case "else":
        if (v !== undefined) combinators(p).else = v;
        break;
    }
  }
  return p;
}

function numberRules(p: Plan): NumberRules {
  return p.num ??= { minimum: null, maximum: null, exclusiveMinimum: null, exclusiveMaximum: null };
}

function stringRules(p: Plan): StringRules {
  return p.str ??= { minLength: null, maxLength: null, pattern: null, dateTime: false };
}

function arrayRules(p: Plan): ArrayRules {
  return p.arr ??= { minItems: null, maxItems: null, prefixItems: null, items: undefined, uniqueItems: false };
}

function objectRules(p: Plan): ObjectRules {
  return p.obj ??= {
    required: null,
    minProperties: null,
    maxProperties: null,
    properties: null,
    patternProperties: null,
    additionalProperties: undefined,
  };
}

function combinators(p: Plan): Combinators {
  return p.combinators ??= {
    allOf: null,
    anyOf: null,
    oneOf: null,
    not: undefined,
    if: undefined,
    then: undefined,
    else: undefined,
  };
}

function typeBit(type: string): number {
  switch (type) {
    case "string":
      return T_STRING;
    case "number":
      return T_NUMBER;
    case "integer":
      return T_INTEGER;
    case "boolean":
      return T_BOOLEAN;
    case "null":
      return T_NULL;
    case "array":
      return T_ARRAY;
    case "object":
      return T_OBJECT;
    default:
      return 0;
  }
}

function typeBits(value: unknown): number {
  switch (typeof value) {
    case "string":
      return T_STRING;
    case "number":
      if (!Number.isFinite(value)) return 0;
      return Number.isInteger(value) ? T_NUMBER | T_INTEGER : T_NUMBER;
    case "boolean":
      return T_BOOLEAN;
    case "object":
      return value === null ? T_NULL : Array.isArray(value) ? T_ARRAY : T_OBJECT;
    default:
      return 0;
  }
}

// Same verdict as `list.some((v) => jsonEqual(v, value))`: a value that is not an object is only
// ever equal to itself.
function inEnum(list: unknown[], value: unknown): boolean {
  if (typeof value !== "object" || value === null) return list.indexOf(value) !== -1;
  for (let i = 0; i < list.length; i++) if (i in list && jsonEqual(list[i], value)) return true;
  return false;
}

function checkNumber(
  ctx: CheckContext,
  p: NumberRules,
  n: number,
  path: string,
  key: string | number | undefined,
): boolean {
  let ok = true;
  if (p.minimum !== null && n < p.minimum) {
    ok = false;
    if (fail(ctx, path, key, "minimum", `Must be at least ${p.minimum}`)) return false;
  }
  if (p.maximum !== null && n > p.maximum) {
    ok = false;
    if (fail(ctx, path, key, "maximum", `Must be at most ${p.maximum}`)) return false;
  }
  if (p.exclusiveMinimum !== null && n <= p.exclusiveMinimum) {
    ok = false;
    if (fail(ctx, path, key, "exclusiveMinimum", `Must be greater than ${p.exclusiveMinimum}`)) return false;
  }
  if (p.exclusiveMaximum !== null && n >= p.exclusiveMaximum) {
    ok = false;
    if (fail(ctx, path, key, "exclusiveMaximum", `Must be less than ${p.exclusiveMaximum}`)) return false;
  }
  return ok;
}

function checkString(
  ctx: CheckContext,
  p: StringRules,
  str: string,
  path: string,
  key: string | number | undefined,
): boolean {
  let ok = true;
  // A string has between length / 2 and length code points: count them only when that range
  // straddles a bound.
  if (
    (p.minLength !== null && (str.length + 1) >> 1 < p.minLength) ||
    (p.maxLength !== null && str.length > p.maxLength)
  ) {
    const length = codePointLength(str);
    if (p.minLength !== null && length < p.minLength) {
      ok = false;
      if (fail(ctx, path, key, "minLength", `Must have at least ${p.minLength} characters`)) return false;
    }
    if (p.maxLength !== null && length > p.maxLength) {
      ok = false;
      if (fail(ctx, path, key, "maxLength", `Must have at most ${p.maxLength} characters`)) return false;
    }
  }
  if (p.pattern !== null) {
    const re = compilePattern(p.pattern);
    if (re === null) {
      ok = false;
      if (fail(ctx, path, key, "pattern", `Cannot compile pattern ${p.pattern}`)) return false;
    } else if (!re.test(str)) {
      ok = false;
      if (fail(ctx, path, key, "pattern", `Must match ${p.pattern}`)) return false;
    }
  }
  if (p.dateTime && !DATE_TIME.test(str)) {
    ok = false;
    if (fail(ctx, path, key, "format", "Must be an RFC 3339 date-time with an offset")) return false;
  }
  return ok;
}

function checkArray(
  ctx: CheckContext,
  p: ArrayRules,
  arr: unknown[],
  path: string,
  key: string | number | undefined,
): boolean {
  let ok = true;
  if (p.minItems !== null && arr.length < p.minItems) {
    ok = false;
    if (fail(ctx, path, key, "minItems", `Must have at least ${p.minItems} items`)) return false;
  }
  if (p.maxItems !== null && arr.length > p.maxItems) {
    ok = false;
    if (fail(ctx, path, key, "maxItems", `Must have at most ${p.maxItems} items`)) return false;
  }
  // The array's own pointer, built once for all its items (and not at all in a yes/no check).
  const here = ctx.issues === null ? "" : pointer(path, key);
  let start = 0;
  if (p.prefixItems !== null) {
    const prefix = p.prefixItems;
    start = Math.min(prefix.length, arr.length);
    for (let i = 0; i < start; i++) {
      if (!checkNode(ctx, prefix[i], arr[i], here, i)) {
        ok = false;
        if (stop(ctx)) return false;
      }
    }
  }
  if (p.items !== undefined) {
    const items = p.items as JsonSchema;
    for (let i = start; i < arr.length; i++) {
      if (!checkNode(ctx, items, arr[i], here, i)) {
        ok = false;
        if (stop(ctx)) return false;
      }
    }
  }
  if (p.uniqueItems) {
    outer: for (let i = 1; i < arr.length; i++) {
      for (let j = 0; j < i; j++) {
        if (jsonEqual(arr[i], arr[j])) {
          ok = false;
          if (fail(ctx, path, key, "uniqueItems", `Items ${j} and ${i} are equal`)) return false;
          break outer;
        }
      }
    }
  }
  return ok;
}

function checkProperties(
  ctx: CheckContext,
  p: ObjectRules,
  obj: Record<string, unknown>,
  path: string,
  key: string | number | undefined,
): boolean {
  let ok = true;
  if (p.required !== null) {
    const required = p.required;
    for (let i = 0; i < required.length; i++) {
      const name = required[i];
      if (typeof name === "string" && !Object.hasOwn(obj, name)) {
        ok = false;
        if (fail(ctx, path, key, "required", `Missing required property ${name}`)) return false;
      }
    }
  }
  const keys = Object.keys(obj);
  if (p.minProperties !== null && keys.length < p.minProperties) {
    ok = false;
    if (fail(ctx, path, key, "minProperties", `Must have at least ${p.minProperties} properties`)) return false;
  }
  if (p.maxProperties !== null && keys.length > p.maxProperties) {
    ok = false;
    if (fail(ctx, path, key, "maxProperties", `Must have at most ${p.maxProperties} properties`)) return false;
  }
  const props = p.properties;
  const patterns = p.patternProperties;
  const additional = p.additionalProperties as JsonSchema | undefined;
  if (props === null && patterns === null && additional === undefined) return ok;

  const here = ctx.issues === null ? "" : pointer(path, key);
  for (let i = 0; i < keys.length; i++) {
    const name = keys[i];
    let matched = false;
    if (props !== null && Object.hasOwn(props, name)) {
      matched = true;
      if (!checkNode(ctx, props[name] as JsonSchema, obj[name], here, name)) {
        ok = false;
        if (stop(ctx)) return false;
      }
    }
    if (patterns !== null) {
      for (const pattern in patterns) {
        const re = compilePattern(pattern);
        if (re === null || !re.test(name)) continue;
        matched = true;
        if (!checkNode(ctx, patterns[pattern] as JsonSchema, obj[name], here, name)) {
          ok = false;
          if (stop(ctx)) return false;
        }
      }
    }
    if (matched || additional === undefined || additional === true) continue;
    if (additional === false) {
      ok = false;
      if (fail(ctx, here, name, "additionalProperties", `Unknown property ${name}`)) return false;
    } else if (!checkNode(ctx, additional, obj[name], here, name)) {
      ok = false;
      if (stop(ctx)) return false;
    }
  }
  return ok;
}

function checkCombinators(
  ctx: CheckContext,
  p: Combinators,
  value: unknown,
  path: string,
  key: string | number | undefined,
): boolean {
  let ok = true;
  if (p.allOf !== null) {
    const subs = p.allOf;
    for (let i = 0; i < subs.length; i++) {
      if (!checkNode(ctx, subs[i], value, path, key)) {
        ok = false;
        if (stop(ctx)) return false;
      }
    }
  }
  if (p.anyOf !== null) {
    const subs = p.anyOf;
    let any = false;
    for (let i = 0; i < subs.length && !any; i++) any = i in subs && passes(ctx, subs[i], value);
    if (!any) {
      ok = false;
      if (fail(ctx, path, key, "anyOf", `Must match at least one of ${subs.length} alternatives`)) return false;
    }
  }
  if (p.oneOf !== null) {
    const subs = p.oneOf;
    let count = 0;
    for (let i = 0; i < subs.length; i++) {
      if (passes(ctx, subs[i], value) && ++count > 1) break;
    }
    if (count !== 1) {
      ok = false;
      const message = count === 0
        ? `Must match exactly one of ${subs.length} alternatives, matches none`
        : `Must match exactly one of ${subs.length} alternatives, matches several`;
      if (fail(ctx, path, key, "oneOf", message)) return false;
    }
  }
  if (p.not !== undefined && passes(ctx, p.not as JsonSchema, value)) {
    ok = false;
    if (fail(ctx, path, key, "not", "Must not match the excluded schema")) return false;
  }
  if (p.if !== undefined) {
    const branch = passes(ctx, p.if as JsonSchema, value) ? p.then : p.else;
    if (branch !== undefined && !checkNode(ctx, branch as JsonSchema, value, path, key)) {
      ok = false;
      if (stop(ctx)) return false;
    }
  }
  return ok;
}

// A yes/no check of a subschema whose own issues are not reported (so it needs no path).
function passes(ctx: CheckContext, schema: JsonSchema, value: unknown): boolean {
  let quiet = ctx.quiet;
  if (quiet === null) {
    quiet = ctx.issues === null ? ctx : { root: ctx.root, issues: null, max: 1, depth: 0, quiet: null };
    ctx.quiet = quiet;
  }
  const depth = quiet.depth;
  quiet.depth = ctx.depth;
  const ok = checkNode(quiet, schema, value, "", undefined);
  quiet.depth = depth;
  return ok;
}

// Records an issue; returns true when the caller should stop walking.
function fail(
  ctx: CheckContext,
  path: string,
  key: string | number | undefined,
  keyword: string,
  message: string,
): boolean {
  if (ctx.issues === null) return true;
  ctx.issues.push({ path: pointer(path, key), keyword, message });
  return ctx.issues.length >= ctx.max;
}

function stop(ctx: CheckContext): boolean {
  return ctx.issues === null || ctx.issues.length >= ctx.max;
}

// The JSON pointer of `key` below `path`, or `path` itself when there is no key.
function pointer(path: string, key: string | number | undefined): string {
  if (key === undefined) return path;
  if (typeof key === "number") return `${path}/${key}`;
  return `${path}/${escapePointer(key)}`;
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
