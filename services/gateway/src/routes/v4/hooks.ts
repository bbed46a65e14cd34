import type { HookInput } from "@quarry/proto/types/hook/v1/HookInput";
import type { HookOwner } from "@quarry/proto/types/hook/v1/HookOwner";
import { Router, type Request } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { ApiError } from "../../http/errors.ts";
import { actor, requireUser, scope } from "../../http/auth.ts";
import { pageRequest } from "../../http/pagination.ts";
import { p, pageShape, params, z } from "../../http/params.ts";
import { hookEntity } from "../../entities/hook.ts";
import { hookEventEntity } from "../../entities/hook-event.ts";
import { ctx } from "./context.ts";
import { authorizeProject } from "./project-access.ts";

/** Event switches of every hook, and those only group hooks have. */
const PROJECT_SWITCHES = [
  "push_events",
  "tag_push_events",
  "merge_requests_events",
  "repository_update_events",
  "issues_events",
  "confidential_issues_events",
  "note_events",
  "confidential_note_events",
  "pipeline_events",
  "wiki_page_events",
  "job_events",
  "deployment_events",
  "feature_flag_events",
  "releases_events",
  "milestone_events",
  "resource_access_token_events",
  // Project hooks too (GitLab 16.x's Entities::ProjectHook).
  "emoji_events",
] as const;
const GROUP_SWITCHES = ["subgroup_events", "member_events", "project_events"] as const;

/** GitLab's ProjectHook.triggers values accepted by the test endpoint. */
const TEST_TRIGGERS = [
  "confidential_issues_events",
  "confidential_note_events",
  "deployment_events",
  "feature_flag_events",
  "issues_events",
  "job_events",
  "merge_requests_events",
  "note_events",
  "pipeline_events",
  "push_events",
  "releases_events",
  "emoji_events",
  "resource_access_token_events",
  "tag_push_events",
  "wiki_page_events",
] as const;

const keyValues = p.array(z.object({ key: z.string(), value: z.string() }).passthrough()).optional();

function hookShape(kind: "project" | "group", urlRequired: boolean) {
  const switches = kind === "group" ? [...PROJECT_SWITCHES, ...GROUP_SWITCHES] : PROJECT_SWITCHES;
  return {
    url: urlRequired ? p.string() : p.string().optional(),
    name: p.string().optional(),
    description: p.string().optional(),
    token: p.string().optional(),
    enable_ssl_verification: p.bool().optional(),
    push_events_branch_filter: p.string().optional(),
    branch_filter_strategy: p.enum(["wildcard", "regex", "all_branches"]).optional(),
    custom_webhook_template: p.string().optional(),
    custom_headers: keyValues,
    url_variables: keyValues,
    ...Object.fromEntries(switches.map((s) => [s, p.bool().optional()])),
  } as Record<string, z.ZodTypeAny>;
}

const camel = (s: string) => s.replace(/_(\w)/g, (_m, c: string) => c.toUpperCase());

/** The HookInput of a create or update request: only what the client sent is set. */
function hookInput(q: Record<string, unknown>): HookInput {
  const input: Record<string, unknown> = {
    setCustomHeaders: q.custom_headers !== undefined,
    customHeaders: ((q.custom_headers as { key: string; value: string }[] | undefined) ?? []).map((h) => ({ key: h.key, value: h.value })),
    setUrlVariables: q.url_variables !== undefined,
    urlVariables: ((q.url_variables as { key: string; value: string }[] | undefined) ?? []).map((v) => ({ key: v.key, value: v.value })),
  };
  for (const [k, v] of Object.entries(q)) {
    if (v === undefined || k === "custom_headers" || k === "url_variables" || k === "id" || k === "hook_id") continue;
    input[camel(k)] = v;
  }
  return input as HookInput;
}

const hookIdShape = { hook_id: p.id("Hook") };
const eventsShape = {
  ...pageShape,
  ...hookIdShape,
  status: z
    .union([z.string(), z.number(), z.array(z.union([z.string(), z.number()]))])
    .transform((v) => (Array.isArray(v) ? v.map(String) : [String(v)]))
    .pipe(z.array(z.union([z.enum(["successful", "client_failure", "server_failure"]), z.string().regex(/^[1-5]\d\d$/)])))
    .optional(),
};

/**
 * Project hooks (GitLab's lib/api/project_hooks.rb, Maintainer or admin) and group hooks
 * (lib/api/group_hooks.rb, Owner or admin). Hooks, deliveries and their records live in hook-service.
 */
export function hooksRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { hook, identity } = deps;

  /** Resolves the owner and checks the caller may administer its hooks (404 to outsiders). */
  const owners = {
    project: async (req: Request): Promise<HookOwner> => {
      const { project } = await authorizeProject(deps, req, "admin_project");
      return { projectId: project.id };
    },
    group: async (req: Request): Promise<HookOwner> => {
      requireUser(req);
      const res = await identity.Authorize({ actor: actor(req), action: "admin_group", group: String(req.params.id) }, { requestId: req.requestId });
      return { groupId: res.group!.id };
    },
  };

  for (const kind of ["project", "group"] as const) {
    const base = kind === "project" ? "/projects/:id/hooks" : "/groups/:id/hooks";
    const owner = owners[kind];

    r.get(base, scope("read"), async (req, res) => {
      const q = params(req, pageShape);
      const c = ctx(deps, req, res);
      const o = await owner(req);
      const page = pageRequest(q);
      const result = await hook.ListHooks({ owner: o, page: page.page, perPage: page.perPage }, c.call);
      c.paginate({ total: Number(result.total), ...page });
      res.json(result.hooks.map(hookEntity));
    });

    r.get(`${base}/:hook_id`, scope("read"), async (req, res) => {
      const q = params(req, hookIdShape);
      const c = ctx(deps, req, res);
      res.json(hookEntity(await hook.GetHook({ owner: await owner(req), hookId: q.hook_id }, c.call)));
    });

    r.post(base, scope("write"), async (req, res) => {
      const q = params(req, hookShape(kind, true));
      const c = ctx(deps, req, res);
      const created = await hook.CreateHook({ owner: await owner(req), input: hookInput(q), actor: c.actor }, c.call);
      res.status(201).json(hookEntity(created));
    });

    r.put(`${base}/:hook_id`, scope("write"), async (req, res) => {
      const q = params(req, { ...hookShape(kind, false), ...hookIdShape });
      if (!Object.entries(q).some(([k, v]) => v !== undefined && k !== "hook_id")) throw new ApiError(400, { error: "No parameters provided" });
      const c = ctx(deps, req, res);
      const updated = await hook.UpdateHook({ owner: await owner(req), hookId: q.hook_id as number, input: hookInput(q), actor: c.actor }, c.call);
      res.json(hookEntity(updated));
    });

    r.delete(`${base}/:hook_id`, scope("write"), async (req, res) => {
      const q = params(req, hookIdShape);
      const c = ctx(deps, req, res);
      await hook.DeleteHook({ owner: await owner(req), hookId: q.hook_id, actor: c.actor }, c.call);
      res.status(204).end();
    });

    r.get(`${base}/:hook_id/events`, scope("read"), async (req, res) => {
      const q = params(req, eventsShape);
      const c = ctx(deps, req, res);
      const o = await owner(req);
      const page = pageRequest(q);
      const result = await hook.ListHookEvents(
        { owner: o, hookId: q.hook_id, status: (q.status ?? []).join(","), page: page.page, perPage: page.perPage },
        c.call,
      );
      c.paginate({ total: Number(result.total), ...page });
      res.json(result.events.map(hookEventEntity));
    });

    r.post(`${base}/:hook_id/events/:hook_event_id/resend`, scope("write"), async (req, res) => {
      const q = params(req, { ...hookIdShape, hook_event_id: p.id() });
      const c = ctx(deps, req, res);
      const o = await owner(req);
      const result = await hook.ResendHookEvent({ owner: o, hookId: q.hook_id, hookEventId: q.hook_event_id, userId: c.actor.userId }, c.call);
      res.status(200).json({ response_status: result.responseStatus });
    });

    r.post(`${base}/:hook_id/test/:trigger`, scope("write"), async (req, res) => {
      const q = params(req, { ...hookIdShape, trigger: p.enum(TEST_TRIGGERS) });
      const c = ctx(deps, req, res);
      // hook-service builds the sample payload (a group hook's from the first project of the group).
      await hook.TestHook({ owner: await owner(req), hookId: q.hook_id, trigger: q.trigger, userId: c.actor.userId, userIsAdmin: c.actor.isAdmin }, c.call);
      res.status(201).json({ message: "201 Created" });
    });
  }

  return r;
}
