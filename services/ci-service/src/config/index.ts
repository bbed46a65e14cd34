export { compilePipeline } from "./compile.ts";
export { compileConfig, DEFAULT_STAGES, type ConfigResult, type PipelineConfig } from "./config.ts";
export { seedPipeline, expandVariables, NO_JOBS, WORKFLOW_FILTERED } from "./seed.ts";
export { parseDuration } from "./duration.ts";
export { evaluateExpression, parseExpression, ExpressionSyntaxError } from "./expression.ts";
export { predefinedVariables, refSlug } from "./predefined.ts";
export type * from "./types.ts";
