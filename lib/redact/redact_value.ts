import { isPlaceholderValue } from "./_is_placeholder_value.ts";
import { secretKeyKind } from "./secret_key_name.ts";
import { redact } from "./redact.ts";
import type { RedactionKind, RedactOptions } from "./redact.ts";

/**
 * Returns a redacted deep copy of a JSON-like value (a parsed hook payload, a state object).
 *
 * Every string, and every object key, goes through `redact`. In addition, a string stored under
 * a key that names a secret (`password`, `apiKey`, `client_secret`, `GITHUB_TOKEN`, … see
 * `redact`) is replaced whole with `[REDACTED:password]` or `[REDACTED:secret]`, unless a more
 * specific rule already matched or the value is an obvious placeholder (`""`, `***`,
 * `${VAR}`, `<your-key>`). Values of other types under such keys are kept, as are numbers,
 * booleans, `null`, `undefined` and `Date` objects. Other objects are copied as plain objects of
 * their own enumerable properties; a reference cycle is replaced with the string `"[Circular]"`.
 * The input is never modified.
 *
 * @example
 * ```ts
 * import { redactValue } from "./redact_value.ts";
 * redactValue({ user: "ann", db: { password: "hunter2", port: 5432 }, note: "key sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" });
 * // { user: "ann", db: { password: "[REDACTED:password]", port: 5432 }, note: "key [REDACTED:anthropic-key]" }
 * ```
 */
export function redactValue<T>(value: T, options?: RedactOptions): T {
  const onRedact = options?.onRedact ?? ignore;
  return walk(value, undefined, { onRedact }, new Set()) as T;
}

function ignore(_kind: RedactionKind): void {}

function walk(
  value: unknown,
  keyKind: "password" | "secret" | undefined,
  options: { onRedact: (kind: RedactionKind) => void },
  stack: Set<object>,
): unknown {
  if (typeof value === "string") {
    const out = redact(value, options);
    if (keyKind !== undefined && out === value && !isPlaceholderValue(value, true)) {
      options.onRedact(keyKind);
      return `[REDACTED:${keyKind}]`;
    }
    return out;
  }
  if (typeof value !== "object" || value === null || value instanceof Date) return value;
  if (stack.has(value)) return "[Circular]";
  stack.add(value);
  let result: unknown;
  if (Array.isArray(value)) {
    result = value.map((item) => walk(item, undefined, options, stack));
  } else {
    const out: Record<string, unknown> = {};
    const source = value as Record<string, unknown>;
    for (const key of Object.keys(source)) {
      const child = walk(source[key], secretKeyKind(key), options, stack);
      const newKey = redact(key, options);
      // Plain assignment to "__proto__" would set the prototype instead of a property.
      if (newKey === "__proto__") {
        Object.defineProperty(out, newKey, { value: child, enumerable: true, writable: true, configurable: true });
      } else out[newKey] = child;
    }
    result = out;
  }
  stack.delete(value);
  return result;
}
