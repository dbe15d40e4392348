// Random JSON Schemas and values for the differential tests of validateSchema
// (tests/unit/schema/validate_schema.test.ts against ajv, tests/unit/schema/validate_schema_oracle.test.ts against
// the previous walk). Seeded through the caller's generator, so a failure reproduces.
import type { JsonSchema } from "../../lib/schema/validate_schema.ts";

type Obj = Record<string, unknown>;

/** Values of every JSON type, with strings our schemas care about. */
export const POOL: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1,
  1.5,
  1e9,
  "",
  "x",
  "auto",
  "high",
  "execution",
  "WARNING",
  "handler",
  "2026-01-03T14:00:00Z",
  "2026-13-03T14:00:00Z",
  "24-abc",
  "cx-001",
  [],
  ["a"],
  [1, 1],
  {},
  { a: 1 },
];

/** One element of `list`, chosen by `r`. */
export function pick<T>(r: () => number, list: readonly T[]): T {
  return list[Math.floor(r() * list.length)];
}

const TYPES = ["string", "number", "integer", "boolean", "null", "array", "object"];
const KEYS = ["a", "b", "ab", "é"];
const PATTERNS = ["^a", "b$", "^\\d+$", "é", "^.{2}$", "^[a-z]*$"];

/** A random schema using every keyword validateSchema implements, `depth` levels deep. */
export function randomSchema(r: () => number, depth: number, refs: boolean): JsonSchema {
  if (r() < 0.08) return r() < 0.7;
  const s: Obj = {};
  const sub = () => randomSchema(r, depth - 1, refs);
  const chance = (p: number) => r() < p;
  if (chance(0.4)) s.type = chance(0.3) ? [pick(r, TYPES), pick(r, TYPES)] : pick(r, TYPES);
  if (chance(0.1)) s.enum = [randomValue(r, 1), randomValue(r, 1), pick(r, POOL)];
  if (chance(0.05)) s.const = randomValue(r, 1);
  if (chance(0.15)) s.minimum = Math.floor(r() * 5) - 2;
  if (chance(0.15)) s.maximum = Math.floor(r() * 5) - 2;
  if (chance(0.1)) s.exclusiveMinimum = Math.floor(r() * 5) - 2;
  if (chance(0.1)) s.exclusiveMaximum = Math.floor(r() * 5) - 2;
  if (chance(0.15)) s.minLength = Math.floor(r() * 3);
  if (chance(0.15)) s.maxLength = Math.floor(r() * 3);
  if (chance(0.15)) s.pattern = pick(r, PATTERNS);
  if (chance(0.1)) s.format = "date-time";
  if (chance(0.1)) s.minItems = Math.floor(r() * 3);
  if (chance(0.1)) s.maxItems = Math.floor(r() * 3);
  if (chance(0.1)) s.uniqueItems = chance(0.8);
  if (chance(0.1)) s.minProperties = Math.floor(r() * 3);
  if (chance(0.1)) s.maxProperties = Math.floor(r() * 3);
  if (chance(0.2)) s.required = KEYS.filter(() => chance(0.3));
  if (depth > 0) {
    if (chance(0.3)) s.properties = Object.fromEntries(KEYS.filter(() => chance(0.5)).map((k) => [k, sub()]));
    if (chance(0.1)) s.patternProperties = { [pick(r, PATTERNS)]: sub() };
    if (chance(0.2)) s.additionalProperties = chance(0.5) ? chance(0.5) : sub();
    if (chance(0.2)) s.items = sub();
    if (chance(0.1)) s.prefixItems = [sub(), sub()];
    if (chance(0.1)) s.allOf = [sub(), sub()];
    if (chance(0.1)) s.anyOf = [sub(), sub(), sub()];
    if (chance(0.1)) s.oneOf = [sub(), sub()];
    if (chance(0.08)) s.not = sub();
    if (chance(0.08)) {
      s.if = sub();
      if (chance(0.8)) s.then = sub();
      if (chance(0.8)) s.else = sub();
    }
  }
  if (refs && chance(0.1)) s.$ref = pick(r, ["#/$defs/d0", "#/$defs/d1"]);
  return s;
}

/** A random JSON value, `depth` levels deep. */
export function randomValue(r: () => number, depth: number): unknown {
  const k = Math.floor(r() * (depth > 0 ? 10 : 7));
  switch (k) {
    case 0:
      return null;
    case 1:
      return r() < 0.5;
    case 2:
      return Math.floor(r() * 7) - 3;
    case 3:
      return Math.floor(r() * 40) / 8 - 2;
    case 4:
      return pick(r, ["", "a", "ab", "ba", "12", "é", "😀", "abc", "2026-01-03T14:00:00Z", "2026-01-03"]);
    case 5:
      return pick(r, POOL);
    case 6:
      return pick(r, [[], {}, [1, 1], { a: 1 }]);
    case 7:
    case 8: {
      const o: Obj = {};
      for (const key of KEYS) if (r() < 0.4) o[key] = randomValue(r, depth - 1);
      return o;
    }
    default: {
      const n = Math.floor(r() * 4);
      return Array.from({ length: n }, () => randomValue(r, depth - 1));
    }
  }
}
