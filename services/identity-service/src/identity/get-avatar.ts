import { isNotFound, notFound } from "@quarry/grpc";
import { ObjectNotFoundError } from "@quarry/object-store";
import type { Avatar } from "@quarry/proto/types/identity/v1/Avatar";
import type { GetAvatarRequest__Output } from "@quarry/proto/types/identity/v1/GetAvatarRequest";
import type { IdentityDeps } from "../deps.ts";
import { actorOf } from "./access.ts";
import { visibleGroup, visibleProject } from "./lookup.ts";

type AvatarRow = { avatar: string | null; avatarKey: string | null; avatarContentType: string | null };

/**
 * An avatar image, with GitLab's UploadsController rules: user avatars are readable by anyone,
 * a project's or group's only by whoever may read the project or group. Whatever the caller may
 * not see, or a file name other than the current avatar's, is the same 404.
 */
export const getAvatar =
  (deps: IdentityDeps) =>
  async (req: GetAvatarRequest__Output): Promise<Avatar> => {
    const actor = actorOf(req.actor);
    const id = Number(req.id);
    let row: AvatarRow | null = null;
    try {
      if (req.model === "user") row = await deps.prisma.user.findUnique({ where: { id } });
      else if (req.model === "project") row = (await visibleProject(deps.prisma, actor, String(id))).project;
      else if (req.model === "group") row = (await visibleGroup(deps.prisma, actor, String(id))).group;
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    if (!row?.avatarKey || row.avatar !== req.filename) throw notFound("Avatar");
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of await deps.avatars.get(row.avatarKey)) chunks.push(Buffer.from(chunk as Uint8Array));
    } catch (err) {
      if (err instanceof ObjectNotFoundError) throw notFound("Avatar");
      throw err;
    }
    return { filename: row.avatar, contentType: row.avatarContentType ?? "application/octet-stream", data: Buffer.concat(chunks) };
  };
