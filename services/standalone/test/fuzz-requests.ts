// Hostile HTTP requests for the fuzz suite (fuzz.test.ts): the gateway's routes as its own router
// lists them, and fast-check arbitraries that fill their paths, query strings and bodies with
// values clients should not send.
import http from "node:http";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import fc from "fast-check";

/** One route as the router holds it: its method and its path template (a string or a RegExp). */
export interface RouteTemplate {
  method: string;
  path: string | RegExp;
}

interface RouterLayer {
  route?: { path: string | RegExp | (string | RegExp)[]; methods: Record<string, boolean> };
  handle?: { stack?: RouterLayer[] };
  rawPath?: string | RegExp;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Every route of an express 5 app, from its router stack: routes, and the routers mounted
 * (with or without a path) inside it, recursively. New routes are found without being listed.
 */
export function routesOf(app: unknown): RouteTemplate[] {
  const routes: RouteTemplate[] = [];
  const walk = (stack: RouterLayer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        // express takes a string, a RegExp or an array of them (one route serving several paths).
        const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
        for (const path of paths) {
          const full = typeof path === "string" ? prefix + path : new RegExp(`^${escapeRegExp(prefix)}${path.source.replace(/^\^/, "")}`, path.flags);
          for (const method of Object.keys(layer.route.methods)) routes.push({ method: method === "_all" ? "GET" : method.toUpperCase(), path: full });
        }
        continue;
      }
      const nested = layer.handle?.stack;
      if (nested) walk(nested, prefix + (typeof layer.rawPath === "string" && layer.rawPath !== "/" ? layer.rawPath : ""));
    }
  };
  walk((app as unknown as { router: { stack: RouterLayer[] } }).router.stack, "");
  return routes;
}

export const routeName = (r: RouteTemplate) => `${r.method} ${String(r.path)}`;

/** The records the fuzzed requests can reach: a user's project and group, and who may call. */
export interface Fixtures {
  projectId: number;
  projectPath: string;
  groupId: number;
  groupPath: string;
  userId: number;
  tokens: { user: string; admin: string };
}

export type Auth = "anonymous" | "user" | "admin" | "bad token" | "bad job token" | "bad basic";

export interface HostileRequest {
  auth: Auth;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** What the body is, for the failure report (bodies can be megabytes). */
  bodyLabel: string;
}

// ---- values ---------------------------------------------------------------------------------

const big = (n: number, c = "a") => c.repeat(n);

/** Numbers a 32- or 64-bit integer column cannot take, and other non-ids. No small positive ids: real records must not be hit by chance. */
const hostileNumbers = [
  "2147483648",
  "2147483647",
  "4294967296",
  "9223372036854775807",
  "9223372036854775808",
  "99999999999999999999",
  "-1",
  "-2147483649",
  "0",
  "1e3",
  "0x10",
  "1.5",
  "NaN",
  "Infinity",
  "00000000000000000000",
];

/** Strings clients should not send: NUL, control characters, traversal, unicode, git ref syntax, sizes around every limit. */
const hostileTexts = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\n",
  "\r\nX-Injected: 1",
  "..",
  "../../etc/passwd",
  "/absolute",
  "a/../b",
  "-rf",
  "--upload-pack=touch /tmp/x",
  "HEAD",
  "@{0}",
  "main~1^2",
  "refs/heads/main",
  "a..b",
  "*",
  "ä",
  "😀",
  "\ud800",
  "\u202e",
  "<script>",
  "'; DROP TABLE projects; --",
  "%00",
  "%",
  big(255),
  big(256),
  big(1025),
  big(4097),
  big(100_000),
  big(50_000, "ä"),
];

/** Scalar and structured JSON values for any field. */
const hostileJsonValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...hostileTexts) },
  { weight: 2, arbitrary: fc.constantFrom(...hostileNumbers.map(Number).filter((n) => !Number.isNaN(n)), 1e308, -0, 9007199254740992, 0.5) },
  { weight: 1, arbitrary: fc.constantFrom(true, false, null, [], {}, [null], { a: { b: "c" } }, ["\u0000"], [big(100_000)]) },
  { weight: 2, arbitrary: fc.string({ maxLength: 30 }).filter((s) => !s.includes("://")) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }).filter((s) => !s.includes("://")) },
  { weight: 1, arbitrary: fc.array(fc.constantFrom(...hostileTexts.slice(0, 20)), { maxLength: 4 }) },
);

/** Field names the routes read (and some they do not). */
const FIELDS = [
  "name",
  "path",
  "description",
  "branch",
  "ref",
  "tag_name",
  "message",
  "commit_message",
  "content",
  "encoding",
  "file_path",
  "previous_path",
  "actions",
  "start_branch",
  "start_sha",
  "author_email",
  "author_name",
  "id",
  "user_id",
  "username",
  "email",
  "password",
  "access_level",
  "expires_at",
  "visibility",
  "namespace_id",
  "parent_id",
  "default_branch",
  "topics",
  "search",
  "token",
  "enabled",
  "scopes",
  "target_project_id",
  "target_group_id",
  "runner_type",
  "project_id",
  "group_id",
  "tag_list",
  "variables",
  "state",
  "job_variables_attributes",
  "push_access_level",
  "allowed_to_push",
  "custom_headers",
  "url_variables",
  "page",
  "per_page",
  "only_protected_branches",
  "mirror_branch_regex",
  "auth_method",
  "sha",
  "dry_run",
  "force",
  "execute_filemode",
  "last_commit_id",
  "range",
  "system_id",
  "info",
  "from",
  "to",
  "refs",
  "commit_sha",
  "submodule",
  "trigger",
  "exit_code",
  "failure_reason",
  "admin",
  "archived",
  "ci_config_path",
  "url",
  "avatar",
] as const;

/**
 * Well-formed values for the fields, so that a request with a hostile value or two gets past the
 * others into the handler (routes ignore fields they do not take). Left out: fields that exclude
 * others (start_sha, mirror_branch_regex) and `path`, which would move the fixtures.
 */
function plausible(f: Fixtures): Partial<Record<(typeof FIELDS)[number], unknown>> {
  return {
    name: "fz",
    description: "d",
    branch: "fz-branch",
    ref: "main",
    tag_name: "fz-tag",
    message: "m",
    commit_message: "m",
    content: "c",
    encoding: "text",
    file_path: "fz/a.txt",
    previous_path: "README.md",
    actions: [{ action: "create", file_path: "fz/b.txt", content: "c" }],
    start_branch: "main",
    author_email: "a@example.com",
    author_name: "A",
    id: f.projectId,
    user_id: f.userId,
    username: "fzuser",
    email: "fz@example.com",
    password: "secret-password-1",
    access_level: 30,
    expires_at: "2099-01-01",
    visibility: "private",
    namespace_id: f.groupId,
    parent_id: f.groupId,
    default_branch: "main",
    topics: ["t"],
    search: "a",
    token: "not-a-token",
    enabled: true,
    scopes: ["api"],
    target_project_id: f.projectId,
    target_group_id: f.groupId,
    runner_type: "project_type",
    project_id: f.projectId,
    group_id: f.groupId,
    tag_list: ["t"],
    variables: [{ key: "K", value: "V" }],
    state: "success",
    job_variables_attributes: [{ key: "K", value: "V" }],
    push_access_level: 40,
    allowed_to_push: [{ access_level: 40 }],
    custom_headers: [{ key: "X-A", value: "b" }],
    url_variables: [{ key: "a", value: "b" }],
    page: 1,
    per_page: 2,
    only_protected_branches: false,
    auth_method: "password",
    sha: "main",
    dry_run: true,
    force: false,
    execute_filemode: false,
    last_commit_id: "main",
    range: { start: 1, end: 1 },
    system_id: "s_fz",
    info: { name: "fz" },
    from: "main",
    to: "main",
    refs: ["main", "main"],
    commit_sha: "0000000000000000000000000000000000000000",
    submodule: "sub",
    trigger: "push_events",
    exit_code: 0,
    failure_reason: "script_failure",
    admin: false,
    archived: false,
    ci_config_path: ".gitlab-ci.yml",
    url: "http://127.0.0.1:1/hook",
  };
}

/** A JSON body of well-formed fields, with one to three hostile values among them when `hostile`. */
function plausibleJson(f: Fixtures, hostile: boolean): fc.Arbitrary<Body> {
  const values = plausible(f);
  const overrides = hostile
    ? fc.array(fc.tuple(fc.constantFrom(...FIELDS.filter((k) => k !== "url")), hostileJsonValue), { minLength: 1, maxLength: 3 })
    : fc.constant([]);
  return overrides.map((pairs) => {
    const o: Record<string, unknown> = { ...values, ...Object.fromEntries(pairs) };
    const shown = JSON.stringify(
      Object.fromEntries(pairs.map(([k, v]) => [k, typeof v === "string" && v.length > 100 ? `<${v.length} × ${JSON.stringify(v[0])}>` : v])),
    );
    return { headers: { "content-type": "application/json" }, body: json(o), label: `json: well-formed fields${pairs.length ? `, with ${shown}` : ""}` };
  });
}

/** URLs only ever point at this machine's closed port 1: hooks and mirrors must not reach out. */
const LOCAL_URLS = [
  "http://127.0.0.1:1/hook",
  "http://[::1]:1/x.git",
  "ssh://git@127.0.0.1:1/x.git",
  "javascript:alert(1)",
  "file:///etc/passwd",
  "http://user:pa ss@127.0.0.1:1/",
];

const jsonObject: fc.Arbitrary<Record<string, unknown>> = fc
  .array(fc.tuple(fc.constantFrom(...FIELDS), hostileJsonValue), { minLength: 1, maxLength: 6 })
  .chain((pairs) =>
    fc.constantFrom(...LOCAL_URLS).map((url) => {
      const o: Record<string, unknown> = {};
      for (const [k, v] of pairs) o[k] = k === "url" ? url : v;
      return o;
    }),
  );

/** Any bytes, %-encoded: NUL, invalid UTF-8 and overlong forms included. */
const percentBytes = fc
  .uint8Array({ minLength: 1, maxLength: 12 })
  .map((bytes) => [...bytes].map((b) => `%${b.toString(16).padStart(2, "0").toUpperCase()}`).join(""));

/** A URL-encoding that cannot throw (lone surrogates become U+FFFD). */
const encode = (s: string) => encodeURIComponent(s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd"));

/** Path segments: ids no record has, malformed escapes, traversal, unicode, sizes up to beyond the server's header limit. */
const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...hostileNumbers) },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      "%00",
      "a%00b",
      "%E0%A4%A",
      "%",
      "%zz",
      "%C0%AF",
      "%ED%A0%80",
      "%FF",
      "..",
      "%2e%2e",
      "..%2F..%2Fetc%2Fpasswd",
      "%2F",
      "%20",
      encode("ä"),
      encode("😀"),
      "all",
      "HEAD",
      "%40%7B0%7D",
      "refs%2Fheads%2Fmain",
      "a.git",
      "-",
      "~",
      "*",
      big(2000),
      big(12_000),
      big(100_000),
    ),
  },
  { weight: 2, arbitrary: percentBytes },
  { weight: 2, arbitrary: fc.string({ maxLength: 30 }).map(encode) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 12 }).map(encode) },
);

/** Real values per path parameter, so that requests get past the lookups into the handlers. */
function realSegment(name: string, before: string, f: Fixtures): fc.Arbitrary<string> {
  switch (name) {
    case "id":
      if (before.endsWith("/groups/")) return fc.constantFrom(String(f.groupId), encode(f.groupPath));
      if (before.endsWith("/users/")) return fc.constant(String(f.userId));
      if (before.endsWith("/jobs/")) return fc.constant("1");
      // Token ids are small integers: a real one would revoke the fixtures' tokens.
      if (before.endsWith("/personal_access_tokens/")) return fc.constant("999999");
      return fc.constantFrom(String(f.projectId), encode(f.projectPath));
    case "user_id":
      return fc.constant(String(f.userId));
    case "branch":
    case "ref_name":
    case "name":
      return fc.constantFrom("main", "feature%2Fx", "main/x");
    case "tag_name":
      return fc.constantFrom("v1", "v1/signature");
    case "sha":
      return fc.constantFrom("main", "HEAD", "0000000000000000000000000000000000000000", "main..main");
    case "file_path":
    case "artifact_path":
    case "submodule":
      return fc.constantFrom("README.md", "dir%2Ffile.txt", "a/b/c.txt");
    case "format":
      return fc.constantFrom("zip", "tar.gz", "exe");
    case "target_project_id":
      return fc.constant(String(f.projectId));
    case "target_group_id":
      return fc.constant(String(f.groupId));
    case "trigger":
      return fc.constantFrom("push_events", "tag_push_events", "nope");
    default:
      return fc.constant("1");
  }
}

/** Fills a path template (`:name`, `*name`, `{optional}`): real values, and hostile ones often when `hostile`. */
function filledPath(template: string, f: Fixtures, hostile: boolean): fc.Arbitrary<string> {
  const withOptionals = fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }).map((keep) => {
    let i = 0;
    return template.replace(/\{([^{}]*)\}/g, (_m, inner: string) => (keep[i++ % keep.length] ? inner : ""));
  });
  return withOptionals.chain((t) => {
    const parts: fc.Arbitrary<string>[] = [];
    let last = 0;
    for (const m of t.matchAll(/([:*])([A-Za-z_$][\w$]*)/g)) {
      const before = t.slice(0, m.index);
      parts.push(fc.constant(t.slice(last, m.index)));
      parts.push(
        hostile ? fc.oneof({ weight: 1, arbitrary: realSegment(m[2]!, before, f) }, { weight: 2, arbitrary: hostileSegment }) : realSegment(m[2]!, before, f),
      );
      last = m.index! + m[0].length;
    }
    parts.push(fc.constant(t.slice(last)));
    return fc.tuple(...parts).map((p) => p.join(""));
  });
}

/** Paths for a RegExp route (git smart HTTP): generated to match it, or the real project's. */
function regexpPath(re: RegExp, f: Fixtures): fc.Arbitrary<string> {
  const real = ["info/refs", "git-upload-pack", "git-receive-pack"].map((s) => `/${f.projectPath}.git/${s}`).filter((p) => re.test(p));
  const generated = fc
    .stringMatching(re)
    .filter((p) => p.length < 2000)
    .map((p) =>
      p
        .split("/")
        .map((s) => encode(s))
        .join("/"),
    );
  return real.length ? fc.oneof(fc.constantFrom(...real), generated) : generated;
}

const QUERY_KEYS = [
  "search",
  "ref",
  "ref_name",
  "sha",
  "path",
  "page",
  "per_page",
  "order_by",
  "sort",
  "scope",
  "scope[]",
  "status",
  "username",
  "id_after",
  "id_before",
  "cursor",
  "pagination",
  "from",
  "to",
  "refs[]",
  "recursive",
  "with_stats",
  "since",
  "until",
  "range[start]",
  "range[end]",
  "job",
  "user_ids[]",
  "skip_groups[]",
  "visibility",
  "statistics",
  "private_token",
  "job_token",
] as const;

const queryValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...hostileTexts.filter((t) => t.length < 5000)).map(encode),
  fc.constantFrom(...hostileNumbers),
  percentBytes,
  fc.string({ maxLength: 20 }).map(encode),
);

/** Query strings: hostile pages, deep nesting, many parameters, long search terms, malformed escapes. */
const hostileQuery: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.constant("") },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "page=2147483648",
      "per_page=2147483648",
      "page=-1",
      "page=0",
      "page=99999999999999999999",
      "page=abc",
      "per_page=0",
      "page=1e3&per_page=1e3",
      "pagination=keyset&cursor=" + encode(Buffer.from('{"id":"99999999999"}').toString("base64url")),
    ),
  },
  { weight: 1, arbitrary: fc.integer({ min: 5, max: 60 }).map((d) => `a${"[b]".repeat(d)}=1`) },
  { weight: 1, arbitrary: fc.integer({ min: 1001, max: 1500 }).map((n) => Array.from({ length: n }, (_, i) => `k${i}=v`).join("&")) },
  { weight: 1, arbitrary: fc.constantFrom(4097, 8000, 15_000, 50_000).map((n) => `search=${big(n)}`) },
  {
    weight: 4,
    arbitrary: fc
      .array(fc.tuple(fc.constantFrom(...QUERY_KEYS), queryValue), { minLength: 1, maxLength: 5 })
      .map((kv) => kv.map(([k, v]) => `${k}=${v}`).join("&")),
  },
  { weight: 1, arbitrary: percentBytes.map((b) => `${b}=${b}`) },
);

interface Body {
  headers: Record<string, string>;
  body?: Buffer;
  label: string;
}

const json = (v: unknown): Buffer => Buffer.from(JSON.stringify(v));
const form = (pairs: [string, string][]) => Buffer.from(pairs.map(([k, v]) => `${k}=${v}`).join("&"));

function deepJson(depth: number, kind: "array" | "object"): Buffer {
  return Buffer.from(kind === "array" ? `${"[".repeat(depth)}${"]".repeat(depth)}` : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`);
}

const jsonBody = (o: Record<string, unknown>): Body => ({
  headers: { "content-type": "application/json" },
  body: json(o),
  label: `json ${JSON.stringify(o).slice(0, 300)}`,
});

/** Bodies a client could well send: none, or well-formed fields. */
const benignBody = (f: Fixtures): fc.Arbitrary<Body> => fc.oneof(fc.constant<Body>({ headers: {}, label: "none" }), plausibleJson(f, false));

/** Bodies: hostile JSON, malformed and deeply nested JSON, forms, corrupt compression, broken multipart, wrong types. */
const hostileBody = (f: Fixtures): fc.Arbitrary<Body> =>
  fc.oneof(
    { weight: 6, arbitrary: plausibleJson(f, true) },
    { weight: 4, arbitrary: jsonObject.map(jsonBody) },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom(
          "{",
          "[",
          '{"a":',
          "null",
          "1",
          '"x"',
          "[]",
          '{"a":"\\ud800"}',
          '{"a":"\\u0000"}',
          "\u0000",
          '{"__proto__":{"admin":true}}',
          '{"constructor":{"prototype":{"x":1}}}',
        )
        .map((b) => ({
          headers: { "content-type": "application/json" },
          body: Buffer.from(b),
          label: `raw json ${b}`,
        })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(101, 5000, 100_000), fc.constantFrom<"array" | "object">("array", "object"))
        .map(([d, k]) => ({ headers: { "content-type": "application/json" }, body: deepJson(d, k), label: `json nested ${d} deep (${k})` })),
    },
    {
      weight: 3,
      arbitrary: fc.array(fc.tuple(fc.constantFrom(...FIELDS), queryValue), { minLength: 1, maxLength: 6 }).map((pairs) => ({
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: form(pairs.map(([k, v]) => [k, k === "url" ? encode(LOCAL_URLS[0]!) : v])),
        label: `form ${pairs.map(([k, v]) => `${k}=${v.slice(0, 40)}`).join("&")}`,
      })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(10_001, 20_000).map((n) => ({
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: form(Array.from({ length: n }, (_, i) => [`a${i}`, "1"])),
        label: `form with ${n} parameters`,
      })),
    },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 33, max: 200 }).map((d) => ({
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: Buffer.from(`a${"[b]".repeat(d)}=1`),
        label: `form nested ${d} deep`,
      })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom("gzip", "deflate", "br", "compress", "identity, gzip", "x-unknown"), fc.uint8Array({ maxLength: 64 }), fc.boolean())
        .map(([encoding, bytes, truncatedReal]) => {
          const real = ({ gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync } as Record<string, ((b: Buffer) => Buffer) | undefined>)[encoding];
          const body = truncatedReal && real ? real(json({ name: "x" })).subarray(0, 8) : Buffer.from(bytes);
          return {
            headers: { "content-type": "application/json", "content-encoding": encoding },
            body,
            label: `${encoding} body, ${truncatedReal && real ? "truncated" : "random bytes"}`,
          };
        }),
    },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom(
          { type: "multipart/form-data", body: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n', label: "multipart without boundary" },
          { type: "multipart/form-data; boundary=x", body: '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nabc', label: "multipart truncated" },
          { type: "multipart/form-data; boundary=x", body: "garbage", label: "multipart garbage" },
          { type: `multipart/form-data; boundary=${big(200, "b")}`, body: "--b\r\n", label: "multipart long boundary" },
          {
            type: "multipart/form-data; boundary=x",
            body: '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\na\u0000b\r\n--x--\r\n',
            label: "multipart NUL field",
          },
          {
            type: "multipart/form-data; boundary=x",
            body: `--x\r\nContent-Disposition: form-data; name="${"a[b]".repeat(50)}"\r\n\r\n1\r\n--x--\r\n`,
            label: "multipart deep field",
          },
          {
            type: "multipart/form-data; boundary=x",
            body: '--x\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\u0089PNG\r\n\u001a\nnot really\r\n--x--\r\n',
            label: "multipart avatar, not an image",
          },
          {
            type: "multipart/form-data; boundary=x",
            body: '--x\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\n\r\n1\r\n--x\r\nContent-Disposition: form-data; name="avatar"; filename="b.png"\r\n\r\n2\r\n--x--\r\n',
            label: "multipart two avatars",
          },
          {
            type: "multipart/form-data; boundary=x",
            body: '--x\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\n\r\nabc',
            label: "multipart avatar truncated",
          },
        )
        .map((m) => ({ headers: { "content-type": m.type }, body: Buffer.from(m.body), label: m.label })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom(
            "text/plain",
            "application/xml",
            "application/octet-stream",
            "application/json; charset=utf-16",
            "application/json; charset=klingon",
            "application/x-www-form-urlencoded; charset=latin1",
            "*/*",
            "application/merge-patch+json",
          ),
          fc.uint8Array({ maxLength: 200 }),
        )
        .map(([type, bytes]) => ({
          headers: { "content-type": type },
          body: Buffer.from(bytes),
          label: `${type} random bytes`,
        })),
    },
  );

/**
 * A whole hostile request for one route. Mostly one part of it is hostile (path, query string
 * or body) and the rest well-formed, so that requests get as far into the handlers as they can.
 */
export function hostileRequest(route: RouteTemplate, f: Fixtures): fc.Arbitrary<HostileRequest> {
  const path = (hostile: boolean) => (typeof route.path === "string" ? filledPath(route.path, f, hostile) : regexpPath(route.path, f));
  const benignQuery = fc.constantFrom("", "", "page=1&per_page=2", "ref=main", "ref=main&search=a");
  return fc
    .constantFrom("path", "path", "query", "query", "body", "body", "body", "all")
    .chain((focus) =>
      fc.record({
        auth: fc.constantFrom<Auth>("anonymous", "user", "user", "admin", "admin", "bad token", "bad job token", "bad basic"),
        path: path(focus === "path" || focus === "all"),
        query: focus === "query" || focus === "all" ? hostileQuery : benignQuery,
        body: focus === "body" || focus === "all" ? hostileBody(f) : benignBody(f),
        method: route.method === "GET" ? fc.constantFrom("GET", "GET", "GET", "HEAD") : fc.constant(route.method),
      }),
    )
    .map(({ auth, path: p, query, body, method }) => {
      const headers: Record<string, string> = { ...body.headers };
      if (auth === "user") headers["private-token"] = f.tokens.user;
      if (auth === "admin") headers["private-token"] = f.tokens.admin;
      if (auth === "bad token") headers["private-token"] = "glpat-not-a-real-token-000000000";
      if (auth === "bad job token") headers["job-token"] = "glcbt-not-a-real-job-token-0000";
      // A user name with a NUL and a password that is not UTF-8.
      if (auth === "bad basic")
        headers.authorization = `Basic ${Buffer.concat([Buffer.from("root\u0000:"), Buffer.from([0xc0, 0xaf, 0xff])]).toString("base64")}`;
      return { auth, method, path: query ? `${p}?${query}` : p, headers, body: body.body, bodyLabel: body.label };
    });
}

/**
 * Requests that would destroy the fixtures every later request relies on (the project, group,
 * user and tokens): left out, so that the rest keeps reaching real handlers.
 */
export function destroysFixtures(req: HostileRequest, f: Fixtures): boolean {
  // Compared as the services read them: escapes decoded, numbers without leading zeros, paths in any case.
  const segment = (raw: string) => {
    let s = raw;
    try {
      s = decodeURIComponent(raw);
    } catch {
      // Left as sent: the gateway refuses it anyway.
    }
    return /^\d+$/.test(s) ? String(Number(s)) : s.toLowerCase();
  };
  const path = req.path.split("?")[0]!.split("/").map(segment).join("/");
  // Revoking `self` or a token by a small id could revoke the callers' own tokens.
  if (/^\/api\/v4\/personal_access_tokens\/(self|\d{1,5})$/.test(path)) return req.method === "DELETE";
  const projects = [`/api/v4/projects/${f.projectId}`, `/api/v4/projects/${f.projectPath.toLowerCase()}`];
  const groups = [`/api/v4/groups/${f.groupId}`, `/api/v4/groups/${f.groupPath.toLowerCase()}`];
  // A transfer (PUT for projects, POST for groups) would move the records under the other routes.
  if ([...projects, ...groups].some((base) => path === `${base}/transfer`)) return true;
  if (req.method !== "DELETE" && req.method !== "PUT") return false;
  // The records themselves, the user (PUT could rename them, which moves their project), and
  // the user's own membership (removing or demoting it would lock them out of the rest).
  const fixtures = [
    ...(req.method === "DELETE" ? [...projects, ...groups] : []),
    `/api/v4/users/${f.userId}`,
    ...[...projects, ...groups].flatMap((base) => [`${base}/members/${f.userId}`, `${base}/members/all/${f.userId}`]),
  ];
  return fixtures.includes(path);
}

export interface Outcome {
  status: number;
  body: string;
  ms: number;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

/** Sends a request exactly as given (no URL normalisation, any bytes), within `timeoutMs`. */
export function send(base: string, req: HostileRequest, timeoutMs: number): Promise<Outcome> {
  const url = new URL(base);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const headers = { ...req.headers, ...(req.body ? { "content-length": String(req.body.length) } : {}) };
    const r = http.request({ host: url.hostname, port: url.port, method: req.method, path: req.path, headers, agent, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (c: Buffer) => {
        // Enough of a body to inspect; archives and artifacts may be large.
        if (size < 64 * 1024) chunks.push(c);
        size += c.length;
      });
      res.on("end", () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString("utf8"), ms: performance.now() - started }));
      res.on("error", reject);
    });
    r.on("timeout", () => r.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    r.on("error", reject);
    r.end(req.body);
  });
}

/** What an answer must never show a client: stack frames, module paths, library and database internals. */
export const INTERNAL_DETAIL =
  /node_modules|\n\s+at [\w.<>]+ \(|\bat (?:async )?\/[\w/.-]+:\d+|Prisma|prisma\.|@grpc|grpc-js|ECONN(?:REFUSED|RESET)|EPIPE|violates [\w ]+ constraint|syntax error at or near|invalid input syntax for|TypeError|ReferenceError|Cannot read propert|Maximum call stack/;
