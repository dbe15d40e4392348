/**
 * Private helper of `lib/redact/redact.ts` and `lib/redact/redact_value.ts`: values next to a secret-looking key that
 * are obviously not a secret and are left alone, so the model still sees how a config is wired.
 *
 * - empty, or only mask characters: `***`, `xxxx`, `...`, `•••`, `-`, `|`, `>`
 * - references: `${VAR}`, `$VAR`, `$(cmd)`, `%VAR%`, `{{ var }}`, `<your-key>`
 * - text we already redacted (contains `[REDACTED:`)
 * - literals, type names and keywords that start an expression: `true`, `null`, `string`, `await`
 * - unquoted only: dotted identifier paths (`process.env.TOKEN`, `config.db.password`)
 */
const MASK = /^[*xX.•·…_#|>?~\-\s]*$/;
const REFERENCE = /^(?:\$\{[^}]*\}|\$[A-Za-z_]\w*|\$\([^)]*\)|%[A-Za-z_]\w*%|\{\{[^}]*\}\}|<[^<>]*>)$/;
const LITERAL =
  /^(?:true|false|null|nil|none|undefined|string|number|boolean|bool|str|int|integer|bytes|object|any|unknown|optional|required|await|new|yield|typeof|function|async|lambda|require|import)$/i;
const DOTTED_PATH = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/;

/** True when `value` (without its quotes) is a placeholder, reference or literal. */
export function isPlaceholderValue(value: string, quoted: boolean): boolean {
  return MASK.test(value) || REFERENCE.test(value) || value.includes("[REDACTED:") || LITERAL.test(value) ||
    (!quoted && DOTTED_PATH.test(value));
}
