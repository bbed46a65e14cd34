export { createPrisma, type PrismaClientClass, type PrismaLike, type TransactionClient } from "./prisma.ts";
export { startService, type AnyPrismaClientClass, type RunningService, type ServiceContext, type ServiceDefinition, type Stoppable } from "./start.ts";
export { runServiceProcess, startProcessMetrics, type ProcessEnv } from "./main.ts";
export { serveMetrics, type MetricsListener } from "./metrics-server.ts";
export { loadMetricsEnv, metricsEnvShape } from "./env.ts";
