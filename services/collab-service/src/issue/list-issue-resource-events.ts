import { pagination } from "@quarry/database";
import { status } from "@grpc/grpc-js";
import { isPositiveInt32, RECORD_NOT_FOUND_MESSAGE } from "@quarry/gitlab";
import { paramError, ServiceError } from "@quarry/grpc";
import type { IssueResourceEvent } from "@quarry/proto/types/collab/v1/IssueResourceEvent";
import type { ListIssueResourceEventsRequest__Output } from "@quarry/proto/types/collab/v1/ListIssueResourceEventsRequest";
import type { ListIssueResourceEventsResponse } from "@quarry/proto/types/collab/v1/ListIssueResourceEventsResponse";
import type { CollabDeps } from "../deps.ts";
import { toMilestoneMessages } from "../milestone/entity.ts";
import { findReadableMergeRequest } from "../note/noteable.ts";
import { findVisibleIssue } from "./access.ts";
import { plainLabel } from "./entity.ts";

/** `find(params[:event_id])` failing: ActiveRecord's RecordNotFound, GitLab's `404 Not found`. */
const recordNotFound = () => new ServiceError(status.NOT_FOUND, { message: RECORD_NOT_FOUND_MESSAGE });

/**
 * GET …/issues/:issue_iid/resource_{label,state,milestone}_events[/:id] and the same below
 * merge_requests/:merge_request_iid: an issue's or merge request's events, oldest first; a single
 * event that is not the eventable's answers `404 Not found` as GitLab's find does.
 */
export const listIssueResourceEvents =
  (deps: CollabDeps) =>
  async (req: ListIssueResourceEventsRequest__Output): Promise<ListIssueResourceEventsResponse> => {
    // The eventable: an issue (findVisibleIssue's 404s) or a merge request (NotesFinder's `404 Not found`).
    const eventable =
      req.eventableType === "MergeRequest"
        ? await findReadableMergeRequest(deps, req.actor, req.project, Number(req.issueIid)).then(({ scope, mr }) => ({
            parent: scope.parent,
            key: { mergeRequestId: mr.id },
          }))
        : await findVisibleIssue(deps, req.actor, req.project, Number(req.issueIid)).then(({ parent, issue }) => ({ parent, key: { issueId: issue.id } }));
    const { parent } = eventable;
    const eventId = Number(req.eventId);
    if (eventId !== 0 && !isPositiveInt32(eventId)) throw recordNotFound();
    const where = { ...eventable.key, ...(eventId ? { id: eventId } : {}) };
    const { offset, limit } = pagination(req.page?.page ?? 0, req.page?.perPage ?? 0);
    const page = { skip: eventId ? 0 : offset, take: eventId ? 1 : limit, orderBy: { id: "asc" as const } };
    let total: number;
    let events: IssueResourceEvent[];
    const base = (e: { id: number; userId: number; createdAt: Date; issueId: number | null; mergeRequestId: number | null }) => ({
      id: e.id,
      userId: e.userId,
      createdAt: e.createdAt.toISOString(),
      issueId: e.issueId ?? 0,
      mergeRequestId: e.mergeRequestId ?? 0,
    });
    if (req.kind === "label") {
      const [n, rows] = await Promise.all([deps.prisma.resourceLabelEvent.count({ where }), deps.prisma.resourceLabelEvent.findMany({ where, ...page })]);
      const labels = await deps.prisma.label.findMany({ where: { id: { in: rows.map((r) => r.labelId).filter((id): id is number => id !== null) } } });
      total = n;
      events = rows.map((r) => {
        const label = labels.find((l) => l.id === r.labelId);
        return { ...base(r), action: r.action, state: "", label: label ? plainLabel(label) : undefined };
      });
    } else if (req.kind === "state") {
      const [n, rows] = await Promise.all([deps.prisma.resourceStateEvent.count({ where }), deps.prisma.resourceStateEvent.findMany({ where, ...page })]);
      total = n;
      events = rows.map((r) => ({ ...base(r), action: "", state: r.state }));
    } else if (req.kind === "milestone") {
      const [n, rows] = await Promise.all([
        deps.prisma.resourceMilestoneEvent.count({ where }),
        deps.prisma.resourceMilestoneEvent.findMany({ where, ...page }),
      ]);
      const ids = rows.map((r) => r.milestoneId).filter((id): id is number => id !== null);
      const milestones = await toMilestoneMessages(deps, parent, await deps.prisma.milestone.findMany({ where: { id: { in: ids } } }));
      total = n;
      events = rows.map((r) => ({ ...base(r), action: r.action, state: r.state, milestone: milestones.find((m) => Number(m.id) === r.milestoneId) }));
    } else {
      throw paramError("kind does not have a valid value");
    }
    if (eventId && !events.length) throw recordNotFound();
    return { events, pageInfo: { total, page: offset / limit + 1, perPage: limit } };
  };
