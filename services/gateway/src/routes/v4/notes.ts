import type { Note__Output as Note } from "@quarry/proto/types/collab/v1/Note";
import type { Request } from "express";
import { Router } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { noteEntity } from "../../entities/note.ts";
import { requireUser, scope } from "../../http/auth.ts";
import { ApiError } from "../../http/errors.ts";
import { pageRequest } from "../../http/pagination.ts";
import { assertNotBlank, p, pageShape, params, requestParams } from "../../http/params.ts";
import { usersById } from "./ci-context.ts";
import { ctx } from "./context.ts";

/**
 * Notes (comments) of GitLab's lib/api/notes.rb + helpers/notes_helpers.rb, stored in
 * collab-service. One entry per noteable family: `issues/:issue_iid`, `snippets/:snippet_id` and
 * `merge_requests/:merge_request_iid`.
 * Every endpoint needs a signed-in caller (`before { authenticate! }`, 401 first).
 */
const FAMILIES: readonly NoteFamily[] = [
  { path: "issues", type: "Issue", what: "Issue", internalNotes: true, bodyRequiredOnUpdate: false },
  // Document 2: project snippets' notes take no internal/confidential, and PUT requires the body.
  { path: "snippets", type: "Snippet", what: "Snippet", internalNotes: false, bodyRequiredOnUpdate: true },
  // An impossible merge request iid is `404 Not found`, as NotesFinder's find_by! answers.
  { path: "merge_requests", type: "MergeRequest", what: undefined, internalNotes: true, bodyRequiredOnUpdate: false },
];

interface NoteFamily {
  /** The path segment after /projects/:id/. */
  path: string;
  /** collab-service's noteable type. */
  type: "Issue" | "Snippet" | "MergeRequest";
  /** The 404 wording of the noteable (`404 <what> Not Found`); none: GitLab's bare `404 Not found`. */
  what: string | undefined;
  /** Whether notes may be internal (issues: `internal` and the deprecated `confidential`). */
  internalNotes: boolean;
  /** Whether PUT requires `body`. */
  bodyRequiredOnUpdate: boolean;
}

/** Grape's `type: Integer` on a path id: a non-numeric one is `<name> is invalid` (400). */
function integerPathParams(req: Request, names: readonly string[]): void {
  const bad = names.filter((n) => req.params[n] !== undefined && !/^-?\d+$/.test(String(req.params[n])));
  if (bad.length) throw new ApiError(400, { error: bad.map((n) => `${n} is invalid`).join(", ") });
}

export function notesRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { collab } = deps;

  /** The notes' authors in one GetUsers call, then GitLab's Entities::Note. */
  const present = async (req: Request, notes: Note[], urls: Parameters<typeof noteEntity>[2]) => {
    const users = await usersById(
      deps,
      req,
      notes.map((n) => Number(n.authorId)),
    );
    return notes.map((n) => noteEntity(n, users, urls));
  };

  for (const family of FAMILIES) {
    const base = `/projects/:id/${family.path}/:noteable_id/notes`;
    const noteable = (req: Request, id: number) => ({ type: family.type, project: String(req.params.id), id });

    r.get(base, scope("read"), async (req, res) => {
      requireUser(req);
      integerPathParams(req, ["noteable_id", "note_id"]);
      const q = params(req, {
        noteable_id: p.id(family.what),
        order_by: p.enum(["created_at", "updated_at"]).default("created_at"),
        sort: p.enum(["asc", "desc"]).default("desc"),
        activity_filter: p.enum(["all_notes", "only_comments", "only_activity"]).default("all_notes"),
        ...pageShape,
      });
      const c = ctx(deps, req, res);
      const page = pageRequest(q);
      const list = await collab.ListNotes(
        { actor: c.actor, noteable: noteable(req, q.noteable_id), sort: q.sort, orderBy: q.order_by, activityFilter: q.activity_filter, page },
        c.call,
      );
      c.paginate(list.pageInfo ? { total: Number(list.pageInfo.total), ...page } : null);
      res.json(await present(req, list.notes, c.urls));
    });

    r.get(`${base}/:note_id`, scope("read"), async (req, res) => {
      requireUser(req);
      integerPathParams(req, ["noteable_id", "note_id"]);
      const q = params(req, { noteable_id: p.id(family.what), note_id: p.id("Note") });
      const c = ctx(deps, req, res);
      const note = await collab.GetNote({ actor: c.actor, noteable: noteable(req, q.noteable_id), noteId: q.note_id }, c.call);
      res.json((await present(req, [note], c.urls))[0]);
    });

    r.post(base, scope("write"), async (req, res) => {
      requireUser(req);
      integerPathParams(req, ["noteable_id", "note_id"]);
      const q = params(req, {
        noteable_id: p.id(family.what),
        body: p.string(),
        confidential: p.bool().optional(),
        internal: p.bool().optional(),
        created_at: p.string().optional(),
        merge_request_diff_head_sha: p.string().optional(),
      });
      const c = ctx(deps, req, res);
      const note = await collab.CreateNote(
        {
          actor: c.actor,
          noteable: noteable(req, q.noteable_id),
          body: q.body,
          // `params[:internal] || params[:confidential]`: the deprecated name counts when internal is false.
          internal: family.internalNotes && Boolean(q.internal || q.confidential),
          createdAt: q.created_at ?? "",
        },
        c.call,
      );
      res.status(201).json((await present(req, [note], c.urls))[0]);
    });

    r.put(`${base}/:note_id`, scope("write"), async (req, res) => {
      requireUser(req);
      integerPathParams(req, ["noteable_id", "note_id"]);
      const q = params(req, {
        noteable_id: p.id(family.what),
        note_id: p.id("Note"),
        body: family.bodyRequiredOnUpdate ? p.string() : p.string().optional(),
        confidential: p.bool().optional(),
      });
      assertNotBlank(requestParams(req), ["body"]);
      const c = ctx(deps, req, res);
      const note = await collab.UpdateNote(
        {
          actor: c.actor,
          noteable: noteable(req, q.noteable_id),
          noteId: q.note_id,
          body: q.body,
          confidential: family.internalNotes ? q.confidential : undefined,
        },
        c.call,
      );
      res.json((await present(req, [note], c.urls))[0]);
    });

    r.delete(`${base}/:note_id`, scope("write"), async (req, res) => {
      requireUser(req);
      integerPathParams(req, ["noteable_id", "note_id"]);
      const q = params(req, { noteable_id: p.id(family.what), note_id: p.id("Note") });
      const c = ctx(deps, req, res);
      await collab.DeleteNote({ actor: c.actor, noteable: noteable(req, q.noteable_id), noteId: q.note_id }, c.call);
      res.status(204).end();
    });
  }

  return r;
}
