import { z } from "zod";
import type { Shape } from "../http/params.ts";
import type { RouteDescription } from "./describe.ts";
import { openApiPaths } from "./paths.ts";

type Json = Record<string, unknown>;

/** What the document says about the API as a whole. */
export interface DocumentInfo {
  /** The GitLab API version the gateway presents (GET /version). */
  version: string;
  revision: string;
  /** The gateway's external base URL, without trailing slash. */
  externalUrl: string;
}

/** The success status GitLab answers each method with (a few routes differ; see GitLab's docs). */
const SUCCESS: Record<string, { status: string; description: string }> = {
  get: { status: "200", description: "OK" },
  head: { status: "200", description: "OK" },
  post: { status: "201", description: "Created" },
  put: { status: "200", description: "OK" },
  patch: { status: "200", description: "OK" },
  delete: { status: "204", description: "No Content" },
};

/** Methods whose parameters travel in the body (GitLab also reads them from the query string). */
const BODY_METHODS = new Set(["post", "put", "patch"]);

/** Owners whose `:id` path parameter may also be a URL-encoded full path. */
const OWNER_IDS: Record<string, string> = {
  projects: "The ID or URL-encoded path of the project",
  groups: "The ID or URL-encoded path of the group",
  users: "The ID of the user",
};

/**
 * A parameter's JSON Schema (2020-12, OpenAPI 3.1's dialect) from zod 4's own conversion, as the
 * client sends it (io "input": `p.int()` takes a number or a digit string); what JSON Schema cannot
 * express (refinements, transforms) is left open rather than refused.
 */
function jsonSchema(schema: z.ZodType): Json {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any", target: "draft-2020-12" }) as Json;
  return rest;
}

/** Required exactly as parseParams decides it: absent is refused. */
const isRequired = (schema: z.ZodType): boolean => !schema.safeParse(undefined).success;

const isParam = (segment: string) => segment.startsWith("{");

/**
 * The tag of each router's routes: the resource of the router's common path (`/projects/{id}/repository`
 * → repository) or, for a router over several paths (`/projects/{id}/labels`, `/groups/{id}/labels`),
 * the resource most of its paths end in (ties: the first). Owners' `{id}`s do not count as resources.
 */
export function routerTags(routes: readonly { router: number; path: string }[]): Map<number, string> {
  const byRouter = new Map<number, string[][]>();
  for (const { router, path } of routes) {
    const segments = openApiPaths(path)[0]!.path.split("/").filter(Boolean);
    byRouter.set(router, [...(byRouter.get(router) ?? []), segments]);
  }
  const tags = new Map<number, string>();
  for (const [router, paths] of byRouter) {
    const common: string[] = [];
    for (let i = 0; paths.every((p) => p[i] !== undefined && p[i] === paths[0]![i]); i++) common.push(paths[0]![i]!);
    const fixed = common.filter((s) => !isParam(s));
    if (fixed.length > 1 || (fixed.length === 1 && !OWNER_IDS[fixed[0]!])) {
      tags.set(router, fixed.at(-1)!);
      continue;
    }
    const counts = new Map<string, number>();
    for (const p of paths) {
      const last = p.filter((s) => !isParam(s)).at(-1) ?? "root";
      counts.set(last, (counts.get(last) ?? 0) + 1);
    }
    tags.set(router, [...counts].reduce((best, c) => (c[1] > best[1] ? c : best))[0]);
  }
  return tags;
}

/** `get` `/projects/{id}/repository/tags` → `getProjectsIdRepositoryTags`. */
function operationIdOf(method: string, path: string): string {
  const words = path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return method + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join("");
}

const errorContent = (...refs: string[]) => ({
  "application/json": {
    schema: refs.length === 1 ? { $ref: `#/components/schemas/${refs[0]}` } : { oneOf: refs.map((r) => ({ $ref: `#/components/schemas/${r}` })) },
  },
});

const COMPONENTS = {
  securitySchemes: {
    PrivateToken: { type: "apiKey", in: "header", name: "PRIVATE-TOKEN", description: "A personal, project, group or impersonation access token." },
    Bearer: { type: "http", scheme: "bearer", description: "An access token (or OAuth token) in `Authorization: Bearer <token>`." },
    JobToken: { type: "apiKey", in: "header", name: "JOB-TOKEN", description: "A running CI job's CI_JOB_TOKEN, on the routes that take one." },
  },
  schemas: {
    Message: {
      type: "object",
      description: 'GitLab\'s error body: `{"message": "404 Project Not Found"}`, or validation errors by attribute.',
      properties: { message: { anyOf: [{ type: "string" }, { type: "object", additionalProperties: { type: "array", items: { type: "string" } } }] } },
      required: ["message"],
    },
    Error: {
      type: "object",
      description: 'GitLab\'s parameter error body: `{"error": "name is missing"}`.',
      properties: { error: { type: "string" } },
      required: ["error"],
    },
  },
  responses: {
    BadRequest: { description: "Missing or invalid parameters", content: errorContent("Error", "Message") },
    Unauthorized: { description: "No or invalid credentials", content: errorContent("Message") },
    Forbidden: { description: "Not allowed, or the token lacks the scope", content: errorContent("Message") },
    NotFound: { description: "No such resource, or not visible to the caller", content: errorContent("Message", "Error") },
  },
};

const ERROR_RESPONSES = {
  "400": { $ref: "#/components/responses/BadRequest" },
  "401": { $ref: "#/components/responses/Unauthorized" },
  "403": { $ref: "#/components/responses/Forbidden" },
  "404": { $ref: "#/components/responses/NotFound" },
};

/**
 * Whether describing a route found out its parameters: it handed params() a shape, or it got to
 * answering without calling params() (it takes none). A route that stopped at a service or at a
 * check of its own before params() is undocumented.
 */
export const documented = (route: RouteDescription): boolean =>
  route.shape !== undefined || route.stoppedBy === "returned" || (route.stoppedBy?.startsWith("res.") ?? false);

function operation(
  route: RouteDescription,
  path: ReturnType<typeof openApiPaths>[number],
  pathParamsAnywhere: Set<string>,
  operationId: string,
  tag: string,
): Json {
  const shape: Shape = route.shape ?? {};
  const parameters: Json[] = path.params.map(({ name, wildcard }) => {
    const owner = path.path.split("/")[1]!;
    const description =
      name === "id" && path.path.startsWith(`/${owner}/{id}`) && OWNER_IDS[owner]
        ? OWNER_IDS[owner]
        : wildcard
          ? "May contain slashes (sent as they are or as %2F)."
          : undefined;
    return { name, in: "path", required: true, schema: shape[name] ? jsonSchema(shape[name]) : { type: "string" }, ...(description ? { description } : {}) };
  });
  // Path parameters of any form of the express path are not query or body parameters.
  const inputs = Object.entries(shape).filter(([name]) => !pathParamsAnywhere.has(name));
  let requestBody: Json | undefined;
  if (BODY_METHODS.has(route.method)) {
    if (inputs.length) {
      const required = inputs.filter(([, s]) => isRequired(s)).map(([n]) => n);
      const schema = { type: "object", properties: Object.fromEntries(inputs.map(([n, s]) => [n, jsonSchema(s)])), ...(required.length ? { required } : {}) };
      requestBody = {
        required: required.length > 0,
        content: { "application/json": { schema }, "application/x-www-form-urlencoded": { schema }, "multipart/form-data": { schema } },
      };
    }
  } else {
    for (const [name, s] of inputs) parameters.push({ name, in: "query", required: isRequired(s), schema: jsonSchema(s) });
  }
  const success = SUCCESS[route.method] ?? { status: "200", description: "OK" };
  const op: Json = {
    operationId,
    tags: [tag],
    summary: `${route.method.toUpperCase()} ${path.path}`,
    ...(parameters.length ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: { [success.status]: { description: success.description }, ...ERROR_RESPONSES },
  };
  if (!documented(route)) op["x-quarry-parameters-documented"] = false;
  if (route.scopeNeed) op["x-quarry-token-scope"] = route.scopeNeed;
  // Without a user scope a route authenticates with a token of its own (the runner's in the body,
  // a job's JOB-TOKEN, a Sentry DSN key) or needs no credentials.
  if (!route.scopeNeed) op.security = route.acceptsJobToken || path.path.startsWith("/jobs/") ? [{ JobToken: [] }, {}] : [{}];
  else if (route.acceptsJobToken) op.security = [{ PrivateToken: [] }, { Bearer: [] }, { JobToken: [] }, {}];
  return op;
}

/** The OpenAPI 3.1 document of the routes described (built a few routes at a time, letting other requests through). */
export async function openApiDocument(routes: readonly RouteDescription[], info: DocumentInfo): Promise<Json> {
  const paths: Record<string, Record<string, Json>> = {};
  const operationIds = new Set<string>();
  const tagOf = routerTags(routes);
  // OpenAPI holds `/a/{x}` and `/a/{y}` for the same path; express answers with whichever route was registered first.
  const byTemplate = new Map<string, string>();
  for (const [i, route] of routes.entries()) {
    if (i % 25 === 24) await new Promise((resolve) => setImmediate(resolve));
    const forms = openApiPaths(route.path);
    const pathParamsAnywhere = new Set(forms.flatMap((f) => f.params.map((p) => p.name)));
    for (const form of forms) {
      const template = form.path.replace(/\{[^}]+\}/g, "{}");
      const key = byTemplate.get(template) ?? form.path;
      if (key !== form.path) continue;
      byTemplate.set(template, key);
      paths[key] ??= {};
      // A method and path registered twice: express answers with the first unless it passes the request on.
      if (paths[key][route.method]) continue;
      let operationId = operationIdOf(route.method, key);
      for (let n = 2; operationIds.has(operationId); n++) operationId = `${operationIdOf(route.method, key)}${n}`;
      operationIds.add(operationId);
      paths[key][route.method] = operation(route, form, pathParamsAnywhere, operationId, tagOf.get(route.router)!);
    }
  }
  const tags = [...new Set(Object.values(paths).flatMap((ops) => Object.values(ops).map((op) => (op.tags as string[])[0]!)))].sort();
  return {
    openapi: "3.1.0",
    info: {
      title: "Quarry REST API",
      version: info.version,
      description: `GitLab's REST API v4 as Quarry serves it (revision ${info.revision}). Generated from the routes and their parameter schemas; an operation marked \`x-quarry-parameters-documented: false\` may take parameters not listed.`,
    },
    servers: [{ url: `${info.externalUrl}/api/v4` }],
    security: [{ PrivateToken: [] }, { Bearer: [] }, {}],
    tags: tags.map((name) => ({ name })),
    paths,
    components: COMPONENTS,
  };
}
