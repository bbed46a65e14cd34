import { Router } from "express";
import type { Request } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { awardEmojiEntity } from "../../entities/award-emoji.ts";
import { requireUser, scope } from "../../http/auth.ts";
import { pageRequest } from "../../http/pagination.ts";
import { p, pageShape, params } from "../../http/params.ts";
import { usersById } from "./ci-context.ts";
import { ctx } from "./context.ts";

/**
 * The awardables of GitLab's lib/api/award_emoji.rb (API::Helpers::AwardEmoji.awardables): the
 * path segment, its id parameter, collab-service's awardable type and the 404 wording of an id
 * that cannot exist. Snippets (`snippets`, `snippet_id`, "Snippet") and merge requests
 * (`merge_requests`, `merge_request_iid`, "MergeRequest") are one entry each once collab-service
 * resolves them.
 */
const AWARDABLES = [
  { path: "issues", param: "issue_iid", type: "Issue", what: "Issue" },
  { path: "snippets", param: "snippet_id", type: "Snippet", what: "Snippet" },
  // find_by!(iid:): an impossible iid is GitLab's bare `404 Not found`.
  { path: "merge_requests", param: "merge_request_iid", type: "MergeRequest", what: undefined },
] as const;

/**
 * Emoji reactions (GitLab's lib/api/award_emoji.rb) on an awardable and on its notes, stored in
 * collab-service: reading follows the awardable's visibility (anonymous on public projects too),
 * awarding and removing need a signed-in user.
 */
export function awardEmojiRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { collab } = deps;

  for (const a of AWARDABLES) {
    for (const onNote of [false, true]) {
      const base = `/projects/:id/${a.path}/:${a.param}${onNote ? "/notes/:note_id" : ""}/award_emoji`;
      const awardable = (req: Request) => {
        const q = params(req, { [a.param]: p.id(a.what), ...(onNote ? { note_id: p.id("Note") } : {}) });
        return { type: a.type, project: String(req.params.id), id: Number((q as Record<string, unknown>)[a.param]), noteId: onNote ? Number(q.note_id) : 0 };
      };

      r.get(base, scope("read"), async (req, res) => {
        const ref = awardable(req);
        const q = params(req, pageShape);
        const c = ctx(deps, req, res);
        const page = pageRequest(q);
        const list = await collab.ListAwardEmoji({ actor: c.actor, awardable: ref, page }, c.call);
        const users = await usersById(
          deps,
          req,
          list.awardEmoji.map((e) => Number(e.userId)),
        );
        c.paginate(list.pageInfo ? { total: Number(list.pageInfo.total), ...page } : null);
        res.json(list.awardEmoji.map((e) => awardEmojiEntity(e, users, c.urls)));
      });

      r.get(`${base}/:award_id`, scope("read"), async (req, res) => {
        const ref = awardable(req);
        const q = params(req, { award_id: p.id() });
        const c = ctx(deps, req, res);
        const award = await collab.GetAwardEmoji({ actor: c.actor, awardable: ref, awardId: q.award_id }, c.call);
        res.json(awardEmojiEntity(award, await usersById(deps, req, [Number(award.userId)]), c.urls));
      });

      r.post(base, scope("write"), async (req, res) => {
        requireUser(req);
        const ref = awardable(req);
        const q = params(req, { name: p.string() });
        const c = ctx(deps, req, res);
        const award = await collab.CreateAwardEmoji({ actor: c.actor, awardable: ref, name: q.name }, c.call);
        res.status(201).json(awardEmojiEntity(award, await usersById(deps, req, [Number(award.userId)]), c.urls));
      });

      r.delete(`${base}/:award_id`, scope("write"), async (req, res) => {
        requireUser(req);
        const ref = awardable(req);
        const q = params(req, { award_id: p.id() });
        const c = ctx(deps, req, res);
        await collab.DeleteAwardEmoji({ actor: c.actor, awardable: ref, awardId: q.award_id }, c.call);
        res.status(204).end();
      });
    }
  }
  return r;
}
