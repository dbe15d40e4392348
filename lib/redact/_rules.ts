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
import { redactPuttyKeys } from "./_putty_keys.ts";
import { type VendorTokenKind, vendorTokens } from "./_vendor_tokens.ts";
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
  | "gitlab-token"
  | "huggingface-token"
  | "digitalocean-token"
  | "sendgrid-key"
  | "google-oauth-token"
  | "azure-storage-key"
  | "aws-access-key-id"
  | "aws-secret-key"
  | "jwt"
  | "url-password"
  | "bearer-token"
  | "basic-auth"
  | "password"
  | "secret"
  | "azure-sas"
  | VendorTokenKind;

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

/** The text of the line `offset` is on, up to `offset`, within {@linkcode LINE_WINDOW} characters. */
function lineBefore(text: string, offset: number): string {
  // Cut first: a search back to the line's start from every match made a long line of matches
  // (` -p x -p x …`, `curl -u a:b …`) quadratic. A command names its program within 1,024 characters.
  const window = text.slice(Math.max(0, offset - LINE_WINDOW), offset);
  return window.slice(window.lastIndexOf("\n") + 1);
}

/** The text of the line `offset` is on, from `offset` on, within {@linkcode LINE_WINDOW} characters. */
function lineAfter(text: string, offset: number): string {
  const window = text.slice(offset, offset + LINE_WINDOW);
  const end = window.indexOf("\n");
  return end < 0 ? window : window.slice(0, end);
}

/** How far {@linkcode lineBefore} and {@linkcode lineAfter} look. */
const LINE_WINDOW = 1024;

/**
 * Whether a value after a secret-named command-line flag looks like a secret rather than a word of
 * prose ("the --token flag") or a name standing in for it (`YOUR_API_KEY`): six characters or more
 * with a digit, a symbol or mixed case.
 */
function looksSecret(value: string): boolean {
  if (/^[A-Z_]+$/.test(value)) return false;
  return value.length >= 6 &&
    (/[0-9]/.test(value) || /[^A-Za-z0-9]/.test(value) || (/[a-z]/.test(value) && /[A-Z]/.test(value)));
}
const matches = (re: RegExp) => (text: string) => re.test(text);

/** A line that logs in to a registry or runs ssh with a password: `-p` gives the password there. */
const LOGIN_LINE = /\b(?:(?:docker|podman|nerdctl|buildah|skopeo|helm|oras)\b[^\n]*\blogin|sshpass)\b/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether a value with no telling key or prefix around it (after `token`, or a `-p` that is not a
 * login's) looks like a generated secret: twelve characters or more with letters and digits, three
 * kinds of characters (lower, upper, digit, symbol) or twenty characters, and at least three bits
 * of entropy per character. A UUID, a word with a number (`build2024`) or a version is not one.
 */
function highEntropy(value: string): boolean {
  if (value.length < 12 || UUID.test(value) || !DIGIT.test(value) || !LETTER.test(value)) return false;
  const kinds = Number(/[a-z]/.test(value)) + Number(/[A-Z]/.test(value)) + 1 + Number(/[^A-Za-z0-9]/.test(value));
  if (kinds < 3 && value.length < 20) return false;
  const counts = new Map<string, number>();
  for (const c of value) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= (n / value.length) * Math.log2(n / value.length);
  return bits >= 3;
}

/**
 * One cheap test that every rule's `hint` implies: a text it does not match can hold no secret any
 * rule would redact, so {@linkcode redact} returns it untouched after a single native regex scan
 * instead of eighteen hint checks. Case-insensitive, so it is a superset of the case-sensitive
 * hints; tests/unit/redact/redact.test.ts checks the implication on the secret corpus and random text.
 */
export const ANY_HINT =
  /pass|pwd|secret|token|auth|credential|key|cookie|session|signature|dsn|bearer|:\/\/|sk-|[sr]k_(?:live|test)_|whsec_|npm_|aiza|gocspx-|gh[pousr]_|github_pat_|xox[abposre]-|xapp-|a(?:ki|si|bi|cc)a|eyj|hooks\.slack\.com|gl(?:pat|dt|rt|ptt|ft|soat|cbt)-|hf_|do[por]_v1_|sg\.|ya29\.|curl|mysql|mariadb|pypi-|dckr_|shp(?:at|ca|pa|ss)_|hv[sbr]\.|:aa|\.[\w-]{6}\.[\w-]{27}|atatt3|lin_api_|ntn_|sntry|glsa_|glc_|dapi|nr(?:ak|ii)-|pmak-|atlasv1|dp\.|sbp_|\dq~|sig=|1\/\/0|atbb|nfp_|fo1_|fm[12][ar]?_|pul-|gsk_|r8_|pplx-|xai-|figd_|-p[ \t]/i;

let built: readonly RedactRule[] | undefined;

/**
 * The ordered redaction rules, built on the first call (the same array after that). Most texts
 * fail {@linkcode ANY_HINT} and never need them: building the rule objects and their pattern
 * closures at start-up cost every hook (bench/README.md, "What start-up pays for").
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

  const ANTHROPIC = lazy(() => new RegExp(`${B}sk-ant-[a-z]{2,10}\\d{2}-[A-Za-z0-9_-]{20,}`, "g"));
  const OPENAI = lazy(() => new RegExp(`${B}sk-(?:(?:proj|svcacct|admin|None)-)?[A-Za-z0-9_-]{20,}`, "g"));
  const STRIPE = lazy(() =>
    new RegExp(`${B}(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|${B}whsec_[A-Za-z0-9+/=]{24,}`, "g")
  );
  const NPM = lazy(() => new RegExp(`${B}npm_[A-Za-z0-9]{36}(?![A-Za-z0-9_-])`, "g"));
  const GOOGLE_API = lazy(() => new RegExp(`${B}AIza[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])`, "g"));
  const GOOGLE_OAUTH = lazy(() => new RegExp(`${B}GOCSPX-[A-Za-z0-9_-]{20,}`, "g"));
  const GITHUB = lazy(() => /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})/g);
  const SLACK_TOKEN = lazy(() => new RegExp(`${B}(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,}`, "g"));
  const SLACK_WEBHOOK = lazy(() => /https?:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_\/-]+/g);
  const AWS_KEY_ID = lazy(() => /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])/g);
  const AWS_SECRET = lazy(() =>
    /((?:aws_?)?secret_?access_?key|aws_?secret_?key)(["']?[ \t]*(?:=>|:=|[:=])[ \t]*["']?)([A-Za-z0-9\/+]{40})(?![A-Za-z0-9\/+=])/gi
  );
  const GITLAB = lazy(() => new RegExp(`${B}gl(?:pat|dt|rt|ptt|ft|soat|cbt)-[A-Za-z0-9_-]{20,}`, "g"));
  const HUGGINGFACE = lazy(() => new RegExp(`${B}hf_[A-Za-z0-9]{30,}(?![A-Za-z0-9_-])`, "g"));
  const DIGITALOCEAN = lazy(() => new RegExp(`${B}do[por]_v1_[a-f0-9]{64}(?![A-Za-z0-9_-])`, "g"));
  const SENDGRID = lazy(() => new RegExp(`${B}SG\\.[A-Za-z0-9_-]{16,32}\\.[A-Za-z0-9_-]{16,64}(?![A-Za-z0-9_-])`, "g"));
  const GOOGLE_OAUTH_TOKEN = lazy(() => new RegExp(`${B}ya29\\.[A-Za-z0-9_-]{20,}`, "g"));
  // Azure storage and service bus connection strings: `AccountKey=<base64>;`.
  const AZURE_KEY = lazy(() => /(?<![A-Za-z0-9])((?:Account|SharedAccess)Key=)([A-Za-z0-9+\/]{20,}={0,2})/g);
  // `curl -u user:password` and `--user user:password` (also `--proxy-user`); only on a line that
  // runs curl, since `-u uid:gid` means something else to docker and others.
  const CURL_USER = lazy(() =>
    /(?<![\w-])(-u|--user|--proxy-user)([ \t]+|=)(["']?)([^\s:"'@]{1,256}):([^\s"']{1,512})\3/g
  );
  // `mysql -pPASSWORD` (no space: with one, mysql prompts); only on a line that runs mysql or mariadb.
  const MYSQL_P = lazy(() => /(?<=[ \t])-p(["']?)([^\s"'-][^\s"']{0,255})\1(?=\s|$)/g);
  // `--password X`, `--api-key X`, `-token X`: a flag that names a secret, a space, then its value.
  const FLAG_VALUE = lazy(() =>
    /(?<![\w-])(--?(?=[A-Za-z])[\w-]{0,40}?(?:pass|pwd|secret|token|auth|credential|key)[\w-]{0,20})([ \t]+)(["']?)([^\s"'-][^\s"']{0,511})\3/gi
  );
  // npm's `_authToken X`, `_auth X`, `_password X` (as `npm config set` takes them).
  const NPM_AUTH = lazy(() => /(?<![\w.])(_auth(?:Token)?|_password)([ \t]+)([^\s"'=][^\s"']{0,511})/g);
  // Signed (three segments), or unsigned (`alg: none`: a JSON payload, then an empty signature).
  const JWT = lazy(() =>
    new RegExp(
      `${B}eyJ[A-Za-z0-9_-]{8,}\\.(?:[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}|eyJ[A-Za-z0-9_-]{5,}\\.(?![A-Za-z0-9_-]))`,
      "g",
    )
  );
  // Azure shared access signatures: the `sig=` of a SAS URL or connection string.
  const AZURE_SAS = lazy(() => /(?<![A-Za-z0-9_])(sig=)([A-Za-z0-9%+\/]{20,}(?:%3[Dd]|=){0,3})/g);
  // `docker login -p X`, `sshpass -p X` and other `-p X`: the value after a space.
  const DASH_P = lazy(() => /(?<=[ \t])-p([ \t]+)(["']?)([^\s"'-][^\s"']{0,255})\2(?=\s|$)/g);
  // `echo X | docker login --password-stdin`: what is echoed into a login.
  const PASSWORD_STDIN = lazy(() =>
    /(?<![\w-])((?:echo|printf)(?:[ \t]+-[A-Za-z]{1,3}){0,3}[ \t]+)(["']?)([^\s"'|;&<>]{1,512})\2(?=[ \t]*\|)/g
  );
  // `token X`, `Token: X` said in prose or a config without a secret-named key around it.
  const TOKEN_WORD = lazy(() =>
    /(?<![\w-])(token[ \t]*:?[ \t]+)(["']?)([A-Za-z0-9_.~+\/=-]{12,512})\2(?![A-Za-z0-9_.~+\/=-])/gi
  );
  const URL_PASSWORD = lazy(() =>
    /(?<![A-Za-z0-9+.-])([A-Za-z][A-Za-z0-9+.-]{0,31}:\/\/[^\s:\/?#@"'<>]{0,256}:)([^\s\/?#"'<>]{1,512})(?=@)/g
  );
  const AUTHORIZATION = lazy(() =>
    /(\b(?:proxy-)?authorization["']?[ \t]*[:=][ \t]*["']?)(?:(bearer|basic|token|bot|digest|negotiate)[ \t]+)?([A-Za-z0-9._~+\/=:-]{8,})/gi
  );
  const BEARER = lazy(() => /\b(bearer[ \t]+)([A-Za-z0-9._~+\/-]{16,}=*)/gi);
  // `KEY=value`, `KEY: value`, `"key": "value"`, `key => 'value'`, `KEY := value`, `?token=value`.
  // The key is bounded and must contain a secret hint (checked in a bounded lookahead); the value
  // is a quoted string (bounded, one line) or an unquoted run that does not start with `=`.
  const KEY_VALUE = lazy(() =>
    new RegExp(
      "(?<![\\w.])(?=[\\w.-]{0,60}?(?:pass|pwd|secret|token|auth|credential|key|cookie|session|signature|dsn))" +
        "([A-Za-z_][\\w.-]{0,63})([\"']?[ \\t]*(?:=>|:=|[:=])[ \\t]*)" +
        "(?:\"((?:[^\"\\\\\\r\\n]|\\\\.){0,4096})\"|'((?:[^'\\\\\\r\\n]|\\\\.){0,4096})'|([^\\s\"'`,;(){}\\[\\]<>=][^\\s\"'`,;(){}\\[\\]<>]{0,4095}))",
      "gi",
    )
  );

  return [
    {
      kind: "private-key",
      hint: includes("PRIVATE KEY"),
      apply: (text, onRedact) => redactPrivateKeys(text, marker("private-key"), () => onRedact("private-key")),
    },
    {
      kind: "private-key",
      hint: includes("PuTTY-User-Key-File-"),
      apply: (text, onRedact) => redactPuttyKeys(text, marker("private-key"), () => onRedact("private-key")),
    },
    tokenRule("anthropic-key", includes("sk-ant-"), ANTHROPIC),
    tokenRule("slack-webhook", includes("hooks.slack.com"), SLACK_WEBHOOK),
    ...vendorTokens().map((t) =>
      tokenRule(
        t.kind as RedactionKind,
        typeof t.hint === "string" ? includes(t.hint) : matches(t.hint),
        lazy(() => new RegExp(t.bare ? t.pattern : B + t.pattern, "g")),
        t.digit ? (m) => DIGIT.test(m) : undefined,
      )
    ),
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
    tokenRule("gitlab-token", matches(/gl(?:pat|dt|rt|ptt|ft|soat|cbt)-/), GITLAB),
    tokenRule("huggingface-token", includes("hf_"), HUGGINGFACE, (m) => /[a-z]/.test(m.slice(3)) && /[A-Z]/.test(m)),
    tokenRule("digitalocean-token", matches(/do[por]_v1_/), DIGITALOCEAN),
    tokenRule("sendgrid-key", includes("SG."), SENDGRID),
    tokenRule("google-oauth-token", includes("ya29."), GOOGLE_OAUTH_TOKEN),
    {
      kind: "azure-storage-key",
      hint: matches(/(?:Account|SharedAccess)Key=/),
      apply(text, onRedact) {
        return text.replace(AZURE_KEY(), (_match, key: string) => {
          onRedact("azure-storage-key");
          return key + marker("azure-storage-key");
        });
      },
    },
    tokenRule("jwt", includes("eyJ"), JWT),
    {
      kind: "azure-sas",
      hint: includes("sig="),
      apply(text, onRedact) {
        return text.replace(AZURE_SAS(), (match, key: string, value: string) => {
          if (!DIGIT.test(value) || !LETTER.test(value)) return match;
          onRedact("azure-sas");
          return key + marker("azure-sas");
        });
      },
    },
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
      kind: "password",
      hint: includes("curl"),
      apply(text, onRedact) {
        return text.replace(
          CURL_USER(),
          (
            match,
            flag: string,
            sep: string,
            q: string,
            user: string,
            password: string,
            offset: number,
            whole: string,
          ) => {
            if (!/\bcurl\b/.test(lineBefore(whole, offset)) || isPlaceholderValue(password, q !== "")) return match;
            onRedact("password");
            return `${flag}${sep}${q}${user}:${marker("password")}${q}`;
          },
        );
      },
    },
    {
      kind: "password",
      hint: matches(/mysql|mariadb/i),
      apply(text, onRedact) {
        return text.replace(MYSQL_P(), (match, q: string, password: string, offset: number, whole: string) => {
          if (
            !/\b(?:mysql|mariadb)[\w-]*\b/i.test(lineBefore(whole, offset)) || isPlaceholderValue(password, q !== "")
          ) return match;
          onRedact("password");
          return `-p${q}${marker("password")}${q}`;
        });
      },
    },
    {
      kind: "password",
      hint: matches(/-p[ \t]/),
      apply(text, onRedact) {
        return text.replace(DASH_P(), (match, sep: string, q: string, value: string, offset: number, whole: string) => {
          // A login that takes its password after -p: what follows is one whatever it looks like;
          // anywhere else (`ssh -p 2222`, `docker run -p 8080:80`, `mkdir -p dir`) only a generated-looking value.
          const login = LOGIN_LINE.test(lineBefore(whole, offset));
          if (isPlaceholderValue(value, q !== "") || !(login ? looksSecret(value) : highEntropy(value))) return match;
          onRedact("password");
          return `-p${sep}${q}${marker("password")}${q}`;
        });
      },
    },
    {
      kind: "password",
      hint: includes("--password-stdin"),
      apply(text, onRedact) {
        return text.replace(
          PASSWORD_STDIN(),
          (match, echo: string, q: string, value: string, offset: number, whole: string) => {
            const rest = lineAfter(whole, offset + match.length);
            if (!rest.includes("--password-stdin") || isPlaceholderValue(value, q !== "")) return match;
            onRedact("password");
            return `${echo}${q}${marker("password")}${q}`;
          },
        );
      },
    },
    {
      kind: "secret",
      hint: matches(/token[ \t]*:?[ \t]/i),
      apply(text, onRedact) {
        return text.replace(TOKEN_WORD(), (match, prefix: string, q: string, value: string) => {
          if (isPlaceholderValue(value, q !== "") || !highEntropy(value)) return match;
          onRedact("secret");
          return `${prefix}${q}${marker("secret")}${q}`;
        });
      },
    },
    {
      kind: "secret",
      hint: matches(/-[\w-]{0,48}?(?:pass|pwd|secret|token|auth|credential|key)/i),
      apply(text, onRedact) {
        return text.replace(FLAG_VALUE(), (match, flag: string, sep: string, q: string, value: string) => {
          const kind = secretKeyKind(flag.replace(/^-+/, ""));
          if (kind === undefined || !looksSecret(value) || isPlaceholderValue(value, q !== "")) return match;
          onRedact(kind);
          return `${flag}${sep}${q}${marker(kind)}${q}`;
        });
      },
    },
    {
      kind: "secret",
      hint: matches(/_auth|_password/),
      apply(text, onRedact) {
        return text.replace(NPM_AUTH(), (match, key: string, sep: string, value: string) => {
          if (isPlaceholderValue(value, false)) return match;
          const kind = key === "_password" ? "password" : "secret";
          onRedact(kind);
          return key + sep + marker(kind);
        });
      },
    },
    {
      kind: "secret",
      hint: matches(/pass|pwd|secret|token|auth|credential|key|cookie|session|signature|dsn/i),
      apply(text, onRedact) {
        return text.replace(KEY_VALUE(), (
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
        });
      },
    },
  ];
}
