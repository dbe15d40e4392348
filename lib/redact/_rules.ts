/**
 * Private helper of `lib/redact/redact.ts`: the ordered list of redaction rules.
 *
 * Each rule has a cheap `hint` (a substring or tiny regex) so that text without any trace of a
 * secret costs a few `includes` scans and no heavy regex. Every regex is linear: each match
 * starts only where a lookbehind allows (the start of a token or word), every repeated part is a
 * single character class or is bounded, so there is no catastrophic backtracking.
 *
 * Format-specific rules run before the contextual ones (`Authorization:`, `Bearer`, `KEY=value`),
 * and the contextual ones leave values that already contain `[REDACTED:` alone, so a secret is
 * labelled by its most specific kind.
 */
import { isPlaceholderValue } from "./_is_placeholder_value.ts";
import { redactPrivateKeys } from "./_private_keys.ts";
import { secretKeyKind } from "./secret_key_name.ts";

/** What a redaction marker says was there: `[REDACTED:<kind>]`. */
export type RedactionKind =
  | "private-key"
  | "anthropic-key"
  | "openai-key"
  | "google-api-key"
  | "google-oauth-secret"
  | "github-token"
  | "slack-token"
  | "slack-webhook"
  | "stripe-key"
  | "npm-token"
  | "aws-access-key-id"
  | "aws-secret-key"
  | "jwt"
  | "url-password"
  | "bearer-token"
  | "basic-auth"
  | "password"
  | "secret";

export interface RedactRule {
  kind: RedactionKind;
  hint: (text: string) => boolean;
  apply: (text: string, onRedact: (kind: RedactionKind) => void) => string;
}

function marker(kind: RedactionKind): string {
  return `[REDACTED:${kind}]`;
}

const DIGIT = /\d/;
const LETTER = /[A-Za-z]/;
const ALNUM16 = /[A-Za-z0-9]{16}/;

/** A rule that replaces each whole match, optionally checked by `accept`. */
function tokenRule(
  kind: RedactionKind,
  hint: (text: string) => boolean,
  pattern: () => RegExp,
  accept?: (match: string) => boolean,
): RedactRule {
  const replacement = marker(kind);
  return {
    kind,
    hint,
    apply(text, onRedact) {
      return text.replace(pattern(), (match) => {
        if (accept && !accept(match)) return match;
        onRedact(kind);
        return replacement;
      });
    },
  };
}

// The patterns are built on first use: most texts match no hint, and building all of them costs a
// cold hook about half a millisecond at start-up.
function lazy(build: () => RegExp): () => RegExp {
  let re: RegExp | undefined;
  return () => (re ??= build());
}

const includes = (needle: string) => (text: string) => text.includes(needle);
const matches = (re: RegExp) => (text: string) => re.test(text);

/**
 * One cheap test that every rule's `hint` implies: a text it does not match can hold no secret any
 * rule would redact, so {@linkcode redact} returns it untouched after a single native regex scan
 * instead of eighteen hint checks. Case-insensitive, so it is a superset of the case-sensitive
 * hints; tests/unit/redact.test.ts checks the implication on the secret corpus and random text.
 */
export const ANY_HINT =
  /pass|pwd|secret|token|auth|credential|key|cookie|session|signature|dsn|bearer|:\/\/|sk-|[sr]k_(?:live|test)_|whsec_|npm_|aiza|gocspx-|gh[pousr]_|github_pat_|xox[abposre]-|xapp-|a(?:ki|si|bi|cc)a|eyj|hooks\.slack\.com/i;

let built: readonly RedactRule[] | undefined;

/**
 * The ordered redaction rules, built on the first call (the same array after that). Most texts
 * fail {@linkcode ANY_HINT} and never need them: building the rule objects and their pattern
 * closures at start-up cost every hook about 0.3 million instructions (issue 6).
 *
 * @example
 * ```ts
 * let out = text;
 * for (const rule of redactRules()) if (rule.hint(out)) out = rule.apply(out, () => {});
 * ```
 */
export function redactRules(): readonly RedactRule[] {
  return (built ??= buildRules());
}

function buildRules(): readonly RedactRule[] {
  // Tokens are delimited by anything that cannot be part of a base64url token.
  const B = "(?<![A-Za-z0-9_-])";

  const ANTHROPIC = lazy(() =>
    new RegExp(`${B}sk-ant-[a-z]{2,10}\\d{2}-[A-Za-z0-9_-]{20,}`, "g"),
  );
  const OPENAI = lazy(() =>
    new RegExp(`${B}sk-(?:(?:proj|svcacct|admin|None)-)?[A-Za-z0-9_-]{20,}`, "g"),
  );
  const STRIPE = lazy(() =>
    new RegExp(`${B}(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|${B}whsec_[A-Za-z0-9+/=]{24,}`, "g"),
  );
  const NPM = lazy(() =>
    new RegExp(`${B}npm_[A-Za-z0-9]{36}(?![A-Za-z0-9_-])`, "g"),
  );
  const GOOGLE_API = lazy(() =>
    new RegExp(`${B}AIza[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])`, "g"),
  );
  const GOOGLE_OAUTH = lazy(() =>
    new RegExp(`${B}GOCSPX-[A-Za-z0-9_-]{20,}`, "g"),
  );
  const GITHUB = lazy(() =>
    /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})/g,
  );
  const SLACK_TOKEN = lazy(() =>
    new RegExp(`${B}(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,}`, "g"),
  );
  const SLACK_WEBHOOK = lazy(() =>
    /https?:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_\/-]+/g,
  );
  const AWS_KEY_ID = lazy(() =>
    /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])/g,
  );
  const AWS_SECRET = lazy(() =>
    /((?:aws_?)?secret_?access_?key|aws_?secret_?key)(["']?[ \t]*(?:=>|:=|[:=])[ \t]*["']?)([A-Za-z0-9\/+]{40})(?![A-Za-z0-9\/+=])/gi,
  );
  const JWT = lazy(() =>
    new RegExp(`${B}eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}`, "g"),
  );
  const URL_PASSWORD = lazy(() =>
    /(?<![A-Za-z0-9+.-])([A-Za-z][A-Za-z0-9+.-]{0,31}:\/\/[^\s:\/?#@"'<>]{0,256}:)([^\s\/?#"'<>]{1,512})(?=@)/g,
  );
  const AUTHORIZATION = lazy(() =>
    /(\b(?:proxy-)?authorization["']?[ \t]*[:=][ \t]*["']?)(?:(bearer|basic|token|bot|digest|negotiate)[ \t]+)?([A-Za-z0-9._~+\/=:-]{8,})/gi,
  );
  const BEARER = lazy(() =>
    /\b(bearer[ \t]+)([A-Za-z0-9._~+\/-]{16,}=*)/gi,
  );
  // `KEY=value`, `KEY: value`, `"key": "value"`, `key => 'value'`, `KEY := value`, `?token=value`.
  // The key is bounded and must contain a secret hint (checked in a bounded lookahead); the value
  // is a quoted string (bounded, one line) or an unquoted run that does not start with `=`.
  const KEY_VALUE = lazy(() =>
    new RegExp(
      "(?<![\\w.])(?=[\\w.-]{0,60}?(?:pass|pwd|secret|token|auth|credential|key|cookie|session|signature|dsn))" +
        "([A-Za-z_][\\w.-]{0,63})([\"']?[ \\t]*(?:=>|:=|[:=])[ \\t]*)" +
        "(?:\"((?:[^\"\\\\\\r\\n]|\\\\.){0,4096})\"|'((?:[^'\\\\\\r\\n]|\\\\.){0,4096})'|([^\\s\"'`,;(){}\\[\\]<>=][^\\s\"'`,;(){}\\[\\]<>]{0,4095}))",
      "gi",
    ),
  );

  return [
    {
      kind: "private-key",
      hint: includes("PRIVATE KEY"),
      apply: (text, onRedact) => redactPrivateKeys(text, marker("private-key"), () => onRedact("private-key")),
    },
    tokenRule("anthropic-key", includes("sk-ant-"), ANTHROPIC),
    tokenRule("slack-webhook", includes("hooks.slack.com"), SLACK_WEBHOOK),
    {
      kind: "url-password",
      hint: includes("://"),
      apply(text, onRedact) {
        return text.replace(URL_PASSWORD(), (match, prefix: string, password: string) => {
          if (isPlaceholderValue(password, true)) return match;
          onRedact("url-password");
          return prefix + marker("url-password");
        });
      },
    },
    tokenRule("stripe-key", matches(/[sr]k_(?:live|test)_|whsec_/), STRIPE),
    tokenRule("npm-token", includes("npm_"), NPM),
    tokenRule("openai-key", includes("sk-"), OPENAI, (m) => DIGIT.test(m) && ALNUM16.test(m)),
    tokenRule("google-api-key", includes("AIza"), GOOGLE_API),
    tokenRule("google-oauth-secret", includes("GOCSPX-"), GOOGLE_OAUTH),
    tokenRule("github-token", matches(/gh[pousr]_|github_pat_/), GITHUB),
    tokenRule("slack-token", matches(/xox[abposre]-|xapp-/), SLACK_TOKEN, (m) => DIGIT.test(m)),
    tokenRule("aws-access-key-id", matches(/A(?:KI|SI|BI|CC)A/), AWS_KEY_ID),
    {
      kind: "aws-secret-key",
      hint: matches(/secret_?access_?key|aws_?secret/i),
      apply(text, onRedact) {
        return text.replace(AWS_SECRET(), (_match, key: string, sep: string) => {
          onRedact("aws-secret-key");
          return key + sep + marker("aws-secret-key");
        });
      },
    },
    tokenRule("jwt", includes("eyJ"), JWT),
    {
      kind: "bearer-token",
      hint: matches(/authorization/i),
      apply(text, onRedact) {
        return text.replace(AUTHORIZATION(), (match, prefix: string, scheme: string | undefined, value: string) => {
          if (isPlaceholderValue(value, false)) return match;
          const lower = scheme?.toLowerCase();
          const kind: RedactionKind = lower === "bearer" ? "bearer-token" : lower === "basic" ? "basic-auth" : "secret";
          onRedact(kind);
          return prefix + (scheme ? scheme + " " : "") + marker(kind);
        });
      },
    },
    {
      kind: "bearer-token",
      hint: matches(/bearer/i),
      apply(text, onRedact) {
        return text.replace(BEARER(), (match, prefix: string, token: string) => {
          if (!DIGIT.test(token) || !LETTER.test(token)) return match;
          onRedact("bearer-token");
          return prefix + marker("bearer-token");
        });
      },
    },
    {
      kind: "secret",
      hint: matches(/pass|pwd|secret|token|auth|credential|key|cookie|session|signature|dsn/i),
      apply(text, onRedact) {
        return text.replace(KEY_VALUE(),
          (
            match: string,
            key: string,
            sep: string,
            dq: string | undefined,
            sq: string | undefined,
            bare: string | undefined,
            offset: number,
            whole: string,
          ) => {
            const kind = secretKeyKind(key);
            if (kind === undefined || /authorization$/i.test(key)) return match;
            const quoted = bare === undefined;
            let value = dq ?? sq ?? bare ?? "";
            let rest = "";
            if (!quoted) {
              // `token = getToken()`, `password: ${DB_PASSWORD}` and `$(gh auth token)` are code.
              const next = whole.charCodeAt(offset + match.length);
              if (next === 0x28 /* ( */ || next === 0x7b /* { */) return match;
              // In a query string (`?a=1&token=x&b=2`) the value ends at the next `&`.
              const before = whole.charCodeAt(offset - 1);
              const amp = value.indexOf("&");
              if ((before === 0x3f /* ? */ || before === 0x26 /* & */) && amp >= 0) {
                rest = value.slice(amp);
                value = value.slice(0, amp);
              }
            }
            if (value === "" || isPlaceholderValue(value, quoted)) return match;
            onRedact(kind);
            const q = dq !== undefined ? '"' : sq !== undefined ? "'" : "";
            return key + sep + q + marker(kind) + q + rest;
          },
        );
      },
    },
  ];
}
