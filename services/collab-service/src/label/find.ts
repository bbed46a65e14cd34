import { isPositiveInt32 } from "@quarry/gitlab";
import { notFound } from "@quarry/grpc";
import type { PrismaClient, Tx } from "../deps.ts";
import type { Label } from "../generated/prisma/client.ts";
import { availableLabelsWhere, type ResolvedParent } from "./parent.ts";

/**
 * GitLab's find_label: among the parent's available labels, by id first, then by title;
 * NOT_FOUND "404 Label Not Found" otherwise.
 */
export async function findLabel(db: PrismaClient | Tx, parent: ResolvedParent, idOrTitle: string, includeAncestorGroups: boolean): Promise<Label> {
  const where = availableLabelsWhere(parent, includeAncestorGroups);
  const asId = /^\d+$/.test(idOrTitle) ? Number(idOrTitle) : 0;
  const label =
    (isPositiveInt32(asId) ? await db.label.findFirst({ where: { AND: [where, { id: asId }] } }) : null) ??
    (await db.label.findFirst({ where: { AND: [where, { title: idOrTitle }] }, orderBy: { id: "asc" } }));
  if (!label) throw notFound("Label");
  return label;
}
