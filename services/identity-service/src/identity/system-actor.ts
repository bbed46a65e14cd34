// Services call identity-service on their own behalf as a system actor (Actor.system names the
// service): answered as an instance administrator (access.ts actorOf), and logged here, each call,
// since it reads what no user could.
import type { CallContext } from "@quarry/grpc";

type Handler = (request: unknown, ctx: CallContext) => Promise<unknown>;

/** The system actor's name of a request, or undefined for a user's (or anonymous) call. */
export function systemActorOf(request: unknown): string | undefined {
  const actor = (request as { actor?: { system?: string } | null } | null)?.actor;
  return actor?.system || undefined;
}

/** `handlers` that log every call made by a system actor (with the RPC and request id) before running. */
export function logSystemActors<H extends object>(handlers: H): H {
  const wrapped: Record<string, unknown> = {};
  for (const [name, handler] of Object.entries(handlers)) {
    wrapped[name] =
      typeof handler === "function"
        ? (request: unknown, ctx: CallContext) => {
            const system = systemActorOf(request);
            if (system) ctx.log.info({ system }, "call by a system actor");
            return (handler as Handler)(request, ctx);
          }
        : handler;
  }
  return wrapped as H;
}
