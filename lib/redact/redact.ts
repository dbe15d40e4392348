import { ANY_HINT, redactRules } from "./_rules.ts";
import type { RedactionKind } from "./_rules.ts";

export type { RedactionKind } from "./_rules.ts";

/** Options for {@linkcode redact}. */
export interface RedactOptions {
  /**
   * Called once per redacted secret with its kind (never with the secret), e.g. to count
   * redactions for the debug log. Default: none.
   */
  onRedact?: (kind: RedactionKind) => void;
}

function ignore(_kind: RedactionKind): void {}

/**
 * Replaces secrets in text with `[REDACTED:<kind>]`. Nothing of the secret is kept: the kind
 * says enough to act on, and any prefix would only help to guess the rest.
 *
 * Recognised by format, anywhere: Anthropic keys (`sk-ant-api03-`, `sk-ant-admin01-`,
 * `sk-ant-oat01-`), OpenAI keys (`sk-`, `sk-proj-`, `sk-svcacct-`, `sk-admin-`), Google API keys
 * (`AIza…`) and OAuth client secrets (`GOCSPX-`), GitHub tokens (`ghp_`, `gho_`, `ghu_`, `ghs_`,
 * `ghr_`, `github_pat_`), Slack tokens (`xoxb-`, `xoxp-`, `xoxa-`, `xoxr-`, `xoxs-`, `xapp-`) and
 * webhook URLs, Stripe secret and restricted keys and webhook secrets, npm tokens, AWS access key
 * ids (`AKIA`/`ASIA` + 16), JWTs (three base64url segments starting `eyJ`, or an unsigned one's
 * two and a final dot), PEM private key blocks of every flavour (RSA, EC, OPENSSH, ENCRYPTED, …;
 * the whole block is replaced) and PuTTY key files, and every format of the maintained vendor list
 * (`lib/redact/_vendor_tokens.ts`: PyPI, Docker, Shopify, Vault, age, Telegram, Discord,
 * Atlassian, Linear, Notion, Sentry, Grafana, Databricks, New Relic, Postman, Terraform Cloud,
 * Doppler, Supabase, Figma, Entra ID secrets, Google refresh tokens, Mailgun, Bitbucket, Netlify,
 * Fly.io, Pulumi, Mapbox, Groq, Replicate, Perplexity, xAI, Zapier hook URLs).
 *
 * Recognised by context: the password in `scheme://user:password@host` (the rest of the URL is
 * kept), an Azure SAS's `sig=`, `docker login -p X` and `sshpass -p X`, what is echoed into
 * `--password-stdin`, a generated-looking value after any other `-p` or after `token`,
 * `Authorization: Bearer|Basic|Token …` and `Bearer <token>`, labelled AWS secret keys
 * (`aws_secret_access_key = …`, `"SecretAccessKey": "…"`), and the value in `KEY=value`,
 * `KEY: value`, `"key": "value"`, `key => 'value'` and `?token=value` when the key names a secret
 * (password, passwd, pwd, secret, token, api_key, access_key, private_key, client_secret, auth,
 * credentials, cookie, … with any prefix: `DB_PASSWORD`, `GITHUB_TOKEN`, `apiKey`). Keys whose
 * last word describes the secret rather than holding it (`password_reset_url`, `token_budget`,
 * `max_tokens`, `auth_method`, `api_key_id`) are not secrets.
 *
 * Left alone because they are obviously not secrets: empty values, masks (`***`, `xxxx`),
 * references (`${VAR}`, `$VAR`, `%VAR%`, `{{ var }}`, `<your-key>`), literals and type names
 * (`true`, `null`, `string`), unquoted dotted paths (`process.env.TOKEN`) and calls
 * (`token = getToken()`). Public keys, certificates, git SHAs and UUIDs are never touched.
 *
 * Every rule is guarded by a substring check and uses linear-time regexes, so text without a
 * hint of a secret costs a few scans and the input string is returned as is.
 *
 * @example
 * ```ts
 * import { redact } from "./redact.ts";
 * redact("export GITHUB_TOKEN=ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789");
 * // "export GITHUB_TOKEN=[REDACTED:github-token]"
 * redact("DB_PASSWORD=hunter2 and postgres://app:s3cret@db:5432/app");
 * // "DB_PASSWORD=[REDACTED:password] and postgres://app:[REDACTED:url-password]@db:5432/app"
 * ```
 */
export function redact(text: string, options?: RedactOptions): string {
  const onRedact = options?.onRedact ?? ignore;
  if (!ANY_HINT.test(text)) return text;
  let out = text;
  for (const rule of redactRules()) {
    if (rule.hint(out)) out = rule.apply(out, onRedact);
  }
  return out;
}
