import type { BusMessage } from "@quarry/bus";
import type { ActivityDeps } from "../deps.ts";
import { Prisma } from "../generated/prisma/client.ts";
import { type EventDraft, eventDraftOf } from "./draft.ts";

/** The page's WikiPage::Meta id (one per project and slug), its title kept current. */
async function wikiMetaId(deps: Pick<ActivityDeps, "prisma">, projectId: number, wiki: { slug: string; title: string }): Promise<number> {
  const meta = await deps.prisma.wikiPageMeta.upsert({
    where: { projectId_slug: { projectId, slug: wiki.slug } },
    create: { projectId, slug: wiki.slug, title: wiki.title },
    update: { title: wiki.title },
    select: { id: true },
  });
  return meta.id;
}

/** Inserts one drafted event with its push payload (nothing when its source event is recorded already). */
export async function insertEvent(deps: Pick<ActivityDeps, "prisma">, draft: EventDraft, createdAt?: Date): Promise<boolean> {
  if (await deps.prisma.event.findUnique({ where: { sourceEventId: draft.sourceEventId }, select: { id: true } })) return false;
  if (draft.wiki) {
    draft.targetId = await wikiMetaId(deps, draft.projectId, draft.wiki);
    draft.targetIid = draft.targetId;
  }
  try {
    await deps.prisma.event.create({
      data: {
        sourceEventId: draft.sourceEventId,
        projectId: draft.projectId,
        authorId: draft.authorId,
        action: draft.action,
        targetId: draft.targetId,
        targetIid: draft.targetIid,
        targetType: draft.targetType,
        targetTitle: draft.targetTitle,
        confidential: draft.confidential,
        confidentialReaderIds: draft.confidentialReaderIds,
        data: draft.data ? (draft.data as Prisma.InputJsonObject) : Prisma.DbNull,
        ...(createdAt ? { createdAt } : {}),
        ...(draft.push ? { pushPayload: { create: draft.push } } : {}),
      },
    });
    return true;
  } catch (err) {
    // A concurrent delivery of the same event won the unique source_event_id.
    if ((err as { code?: string }).code === "P2002") return false;
    throw err;
  }
}

/**
 * Records the contribution event of a consumed message once (idempotent on the domain event's
 * event_id), dated when the event was published. Returns whether a row was inserted.
 */
export const recordContributionEvent =
  (deps: Pick<ActivityDeps, "prisma">) =>
  async (msg: BusMessage<unknown>): Promise<boolean> => {
    const draft = eventDraftOf(msg);
    if (!draft) return false;
    const at = msg.publishedAt instanceof Date && !Number.isNaN(msg.publishedAt.getTime()) ? msg.publishedAt : undefined;
    return insertEvent(deps, draft, at);
  };
