import type { NotificationEvents } from "@quarry/proto/types/identity/v1/NotificationEvents";
import { Router, type Request, type Response } from "express";
import type { GatewayDeps } from "../../deps.ts";
import {
  globalNotificationSettingEntity,
  NOTIFICATION_EVENTS,
  notificationSettingEntity,
  type NotificationEventName,
} from "../../entities/notification-setting.ts";
import { requireUser, scope } from "../../http/auth.ts";
import { p, params, type z } from "../../http/params.ts";
import { ctx } from "./context.ts";

const LEVELS = ["disabled", "participating", "watch", "global", "mention", "custom"] as const;

/** level plus one optional boolean per email event, as GitLab's PUT params. */
const updateShape = {
  level: p.enum(LEVELS).optional(),
  ...(Object.fromEntries(Object.keys(NOTIFICATION_EVENTS).map((e) => [e, p.bool().optional()])) as Record<
    NotificationEventName,
    z.ZodOptional<ReturnType<typeof p.bool>>
  >),
};

function eventsOf(q: Partial<Record<NotificationEventName, boolean | undefined>>): NotificationEvents {
  const events: NotificationEvents = {};
  for (const [name, field] of Object.entries(NOTIFICATION_EVENTS)) {
    const v = q[name as NotificationEventName];
    if (v !== undefined) events[field] = v;
  }
  return events;
}

/**
 * Notification settings (GitLab's lib/api/notification_settings.rb): the caller's global setting
 * and one per group and project. Every endpoint needs a signed-in caller.
 */
export function notificationSettingsRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { identity } = deps;

  r.get("/notification_settings", scope("read"), async (req, res) => {
    requireUser(req);
    const c = ctx(deps, req, res);
    const setting = await identity.GetNotificationSetting({ actor: c.actor, source: { type: "global", idOrPath: "" } }, c.call);
    res.json(globalNotificationSettingEntity(setting));
  });

  r.put("/notification_settings", scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, { ...updateShape, notification_email: p.string().optional() });
    const c = ctx(deps, req, res);
    const setting = await identity.UpdateNotificationSetting(
      { actor: c.actor, source: { type: "global", idOrPath: "" }, level: q.level, notificationEmail: q.notification_email, events: eventsOf(q) },
      c.call,
    );
    res.json(globalNotificationSettingEntity(setting));
  });

  for (const type of ["group", "project"] as const) {
    const path = `/${type}s/:id/notification_settings`;
    r.get(path, scope("read"), async (req: Request, res: Response) => {
      requireUser(req);
      const q = params(req, { id: p.string() });
      const c = ctx(deps, req, res);
      res.json(notificationSettingEntity(await identity.GetNotificationSetting({ actor: c.actor, source: { type, idOrPath: q.id } }, c.call)));
    });
    r.put(path, scope("write"), async (req: Request, res: Response) => {
      requireUser(req);
      const q = params(req, { ...updateShape, id: p.string() });
      const c = ctx(deps, req, res);
      const setting = await identity.UpdateNotificationSetting(
        { actor: c.actor, source: { type, idOrPath: q.id }, level: q.level, events: eventsOf(q) },
        c.call,
      );
      res.json(notificationSettingEntity(setting));
    });
  }

  return r;
}
