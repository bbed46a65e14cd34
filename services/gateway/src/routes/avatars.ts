import type { AvatarUpload } from "@quarry/proto/types/identity/v1/AvatarUpload";
import { isNotFound } from "@quarry/grpc";
import { isPositiveInt32 } from "@quarry/gitlab";
import { Router, type Request } from "express";
import type { GatewayDeps } from "../deps.ts";
import { contentDisposition } from "../entities/file.ts";
import { authenticate, scope } from "../http/auth.ts";
import { ApiError } from "../http/errors.ts";
import { acceptFiles, uploadedFile } from "../http/uploads.ts";
import { ctx } from "./v4/context.ts";

/**
 * identity-service refuses avatars over 200 KiB (GitLab's Avatarable::MAXIMUM_FILE_SIZE); one
 * byte more than that is all it needs to see to say so, so no more is read into memory.
 */
const AVATAR_BYTES_KEPT = 200 * 1024 + 1;

/** The `avatar` file part of GitLab's users, projects and groups create and update routes. */
export const acceptAvatar = () => acceptFiles([{ name: "avatar", maxBytes: AVATAR_BYTES_KEPT }]);

/**
 * The `avatar` parameter: a file part (its first bytes; identity-service checks them), an empty
 * value to remove the avatar (GitLab's `avatar=""`), or absent. Any other value is not a file:
 * Grape's `avatar is invalid`.
 */
export function avatarParam(req: Request): AvatarUpload | undefined {
  const file = uploadedFile(req, "avatar");
  if (file) return { filename: file.filename, data: file.data };
  const body = (req.body ?? {}) as Record<string, unknown>;
  if (!("avatar" in body)) return undefined;
  const value = body.avatar;
  if (value === "" || value === null) return { remove: true };
  throw new ApiError(400, { error: "avatar is invalid" });
}

const MODELS = new Set(["user", "project", "group"]);

/** GitLab's not-found page for /uploads paths, reduced to its status and words. */
const notFoundPage = (res: import("express").Response) => res.status(404).type("text/plain").send("Not Found");

/**
 * `GET /uploads/-/system/<model>/avatar/<id>/<filename>`: the image with its media type, with
 * GitLab's UploadsController visibility (user avatars public, a project's or group's only for
 * those who may read it). Credentials as for the API (PRIVATE-TOKEN, Bearer); anything the
 * caller may not see is a 404 (GitLab sends anonymous browsers to its sign-in page instead).
 */
export function avatarsRouter(deps: GatewayDeps): Router {
  const r = Router();
  r.get("/uploads/-/system/:model/avatar/:id/:filename", authenticate(deps, r), scope("read"), async (req, res) => {
    const { model, id, filename } = req.params as Record<string, string>;
    if (!MODELS.has(model!) || !/^\d{1,10}$/.test(id!) || !isPositiveInt32(Number(id))) return void notFoundPage(res);
    const c = ctx(deps, req, res);
    let avatar: Awaited<ReturnType<GatewayDeps["identity"]["GetAvatar"]>>;
    try {
      avatar = await deps.identity.GetAvatar({ actor: c.actor, model, id: Number(id), filename }, c.call);
    } catch (err) {
      if (isNotFound(err)) return void notFoundPage(res);
      throw err;
    }
    const data = Buffer.from(avatar.data);
    res.setHeader("Content-Type", avatar.contentType);
    res.setHeader("Content-Length", String(data.length));
    res.setHeader("Content-Disposition", contentDisposition("inline", avatar.filename));
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.end(req.method === "HEAD" ? undefined : data);
  });
  return r;
}
