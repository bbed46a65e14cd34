import { Router } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { scope } from "../../http/auth.ts";
import { pageRequest } from "../../http/pagination.ts";
import { p, pageShape, params, refParam } from "../../http/params.ts";
import { tagEntity, tagSignatureEntity } from "../../entities/tag.ts";
import { webUrl } from "../../entities/urls.ts";
import { ctx } from "./context.ts";
import { authorizeProject, pushContext } from "./project-access.ts";

/** Repository tags: list, read, signature, create, delete. */
export function tagsRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { repo } = deps;
  const base = "/projects/:id/repository/tags";

  r.get(base, scope("read_repository"), async (req, res) => {
    const q = params(req, {
      ...pageShape,
      order_by: p.enum(["name", "updated", "version"]).optional(),
      sort: p.enum(["asc", "desc"]).optional(),
      search: p.searchTerm("search").optional(),
    });
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "read_repository");
    const page = pageRequest(q);
    const result = await repo.ListTags(
      { diskPath: project.diskPath, search: q.search ?? "", orderBy: q.order_by ?? "updated", sort: q.sort ?? "desc", page: page.page, perPage: page.perPage },
      c.call,
    );
    c.paginate({ total: Number(result.total), ...page });
    const web = webUrl(c.urls, project.pathWithNamespace);
    res.json(result.tags.map((t) => tagEntity(t, web)));
  });

  // Before `/*tag_name`, which would take "v1/signature" for a tag name.
  r.get(`${base}/*tag_name/signature`, scope("read_repository"), async (req, res) => {
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "read_repository");
    const signature = await repo.GetTagSignature({ diskPath: project.diskPath, name: refParam(req, "tag_name", "Tag") }, c.call);
    // PGP and SSH signatures are verified by identity-service (it owns the keys), with the tagger's e-mail.
    const verification =
      signature.signatureType === "PGP" || signature.signatureType === "SSH"
        ? await deps.identity.VerifySignature(
            { signatureType: signature.signatureType, signature: signature.signature, signedData: signature.signedData, committerEmail: signature.taggerEmail },
            c.call,
          )
        : null;
    res.json(tagSignatureEntity(verification ? { ...signature, verificationStatus: verification.verificationStatus } : signature));
  });

  r.get(`${base}/*tag_name`, scope("read_repository"), async (req, res) => {
    const c = ctx(deps, req, res);
    const { project } = await authorizeProject(deps, req, "read_repository");
    const tag = await repo.FindTag({ diskPath: project.diskPath, name: refParam(req, "tag_name", "Tag") }, c.call);
    res.json(tagEntity(tag, webUrl(c.urls, project.pathWithNamespace)));
  });

  r.post(base, scope("write"), async (req, res) => {
    const q = params(req, { tag_name: p.ref("tag_name"), ref: p.ref("ref"), message: p.string().optional() });
    const c = ctx(deps, req, res);
    const auth = await authorizeProject(deps, req, "push_code");
    const { project } = auth;
    const tag = await repo.CreateTag(
      { diskPath: project.diskPath, name: q.tag_name, ref: q.ref, message: q.message ?? "", context: pushContext(auth, req, c.urls) },
      c.call,
    );
    res.status(201).json(tagEntity(tag, webUrl(c.urls, project.pathWithNamespace)));
  });

  r.delete(`${base}/*tag_name`, scope("write"), async (req, res) => {
    const c = ctx(deps, req, res);
    const auth = await authorizeProject(deps, req, "push_code");
    await repo.DeleteTag({ diskPath: auth.project.diskPath, name: refParam(req, "tag_name", "Tag"), context: pushContext(auth, req, c.urls) }, c.call);
    res.status(204).end();
  });

  return r;
}
