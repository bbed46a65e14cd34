import { createBus, type EventBus } from "@quarry/bus";
import { stopOnSignals } from "@quarry/grpc";
import { createLogger, type Logger } from "@quarry/logger";

/** The env every service entry reads besides its own settings (see each service's env.ts). */
export interface ProcessEnv {
  LOG_LEVEL: string;
  /** NATS JetStream; unset = in-process bus. */
  NATS_URL?: string;
}

/**
 * A service's process entry (its `src/main.ts`, distributed mode): env → logger → bus → `start`
 * → stop on SIGINT/SIGTERM (the service, then the bus). A `start` that throws closes the bus and
 * rethrows (the process exits with the error).
 */
export async function runServiceProcess<E extends ProcessEnv>(
  name: string,
  loadEnv: () => E,
  start: (p: { env: E; log: Logger; bus: EventBus }) => Promise<{ stop(): Promise<void> }>,
): Promise<void> {
  const env = loadEnv();
  const log = createLogger(name, env.LOG_LEVEL);
  const bus = await createBus({ natsUrl: env.NATS_URL, name, log });
  let service: { stop(): Promise<void> };
  try {
    service = await start({ env, log, bus });
  } catch (err) {
    await bus.close().catch(() => {});
    throw err;
  }
  stopOnSignals(
    log,
    () => service.stop(),
    () => bus.close(),
  );
}
