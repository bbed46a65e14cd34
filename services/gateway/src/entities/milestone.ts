import type { Milestone__Output as Milestone } from "@quarry/proto/types/collab/v1/Milestone";
import type { Urls } from "./urls.ts";

/**
 * GitLab's Entities::Milestone: project_id or group_id (whichever the milestone has); `expired` is
 * Milestoneish#expired, `expired? || false`: whether a due date is set and before today.
 */
export function milestoneEntity(m: Milestone, urls: Urls, now: Date = new Date()) {
  const today = now.toISOString().slice(0, 10);
  return {
    id: Number(m.id),
    iid: Number(m.iid),
    ...(Number(m.projectId) > 0 ? { project_id: Number(m.projectId) } : {}),
    ...(Number(m.groupId) > 0 ? { group_id: Number(m.groupId) } : {}),
    title: m.title,
    description: m.description ?? null,
    state: m.state,
    created_at: m.createdAt,
    updated_at: m.updatedAt,
    due_date: m.dueDate ?? null,
    start_date: m.startDate ?? null,
    expired: m.dueDate ? m.dueDate < today : false,
    web_url: `${urls.base}${m.webPath}`,
  };
}
