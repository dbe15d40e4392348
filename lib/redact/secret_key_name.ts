/**
 * Private helper of `lib/redact/redact.ts` and `lib/redact/redact_value.ts`: decides whether a key name (an env var, a
 * JSON or YAML key, a query parameter) labels a secret.
 */

// Whole words (after splitting on `_ - .` and camelCase) that mark a secret value.
const PASSWORD_WORDS = new Set(["password", "passwd", "pass", "pwd", "passphrase", "passcode"]);
const SECRET_WORDS = new Set([
  "secret",
  "token",
  "apikey",
  "auth",
  "credential",
  "credentials",
  "cookie",
  "privatekey",
  "sessionid",
  "signature",
  "dsn",
  "accesstoken",
  "refreshtoken",
  "authtoken",
  "secretkey",
  "accesskey",
  "clientsecret",
]);
// Word pairs that mark a secret (`api_key`, `accessKey`, `private-key`, ...).
const KEY_QUALIFIERS = new Set([
  "api",
  "access",
  "private",
  "secret",
  "signing",
  "encryption",
  "master",
  "license",
  "ssh",
  "session",
]);
// A last word that describes the secret instead of holding it: `password_reset_url`,
// `token_budget`, `auth_method`, `secret_name`, `api_key_id`.
const DESCRIPTORS = new Set([
  "url",
  "uri",
  "endpoint",
  "path",
  "file",
  "dir",
  "name",
  "type",
  "method",
  "mode",
  "count",
  "budget",
  "limit",
  "length",
  "len",
  "max",
  "min",
  "size",
  "id",
  "ids",
  "enabled",
  "required",
  "policy",
  "provider",
  "header",
  "field",
  "env",
  "var",
  "hint",
  "prompt",
  "label",
  "expires",
  "expiry",
  "ttl",
  "at",
  "usage",
  "used",
  "format",
  "version",
  "source",
  "kind",
  "prefix",
  "scope",
  "scopes",
  "rotation",
  "reset",
  "manager",
  "store",
  "ref",
  "command",
  "cmd",
  "help",
  "description",
  "placeholder",
  "pattern",
  "regex",
  "index",
  "status",
]);
// Words ending in a secret word: `dbpassword`, `xsrftoken`, `appsecret`.
const SECRET_SUFFIX = /(?:password|passwd|passphrase|secret|token)$/;
const SPLIT = /[_\-.]+|(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/;
// Cheap precheck before splitting; every secret word contains one of these.
const HINT = /pass|pwd|secret|token|auth|credential|key|cookie|session|signature|dsn/i;

/** The redaction kind for a secret-looking key name, or `undefined` for an ordinary key. */
export function secretKeyKind(name: string): "password" | "secret" | undefined {
  if (!HINT.test(name)) return undefined;
  const words = name.split(SPLIT);
  const last = words[words.length - 1].toLowerCase();
  if (DESCRIPTORS.has(last) || words.length === 0) return undefined;
  let kind: "password" | "secret" | undefined;
  for (let i = 0; i < words.length; i++) {
    const word = words[i].toLowerCase();
    if (PASSWORD_WORDS.has(word) || word.endsWith("password") || word.endsWith("passwd")) return "password";
    if (
      SECRET_WORDS.has(word) || SECRET_SUFFIX.test(word) ||
      (word === "key" && i > 0 && KEY_QUALIFIERS.has(words[i - 1].toLowerCase()))
    ) kind = "secret";
  }
  return kind;
}
