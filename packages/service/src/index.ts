export { createPrisma, type PrismaClientClass, type PrismaLike, type TransactionClient } from "./prisma.ts";
export { startService, type AnyPrismaClientClass, type RunningService, type ServiceContext, type ServiceDefinition, type Stoppable } from "./start.ts";
export { runServiceProcess, type ProcessEnv } from "./main.ts";
